"""The Adventure Phase board's drawing of the map (static/js/boards/harakiri_adventure_map.json)
places every location, sea and clan territory of the game's map content inside the drawing, and
keeps places far enough apart to be told (and tapped) apart."""

import itertools
import json
import math
from pathlib import Path

from games.engines.harakiri.adventure.content import MAP

LAYOUT = json.loads((Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "boards"
                     / "harakiri_adventure_map.json").read_text())
MIN_GAP = 45  # user units between two places (a place's clickable disc has radius 24)


def test_every_place_sea_and_territory_of_the_map_is_drawn_inside_the_board():
    width, height = LAYOUT["width"], LAYOUT["height"]
    assert set(LAYOUT["locations"]) == set(MAP["locations"])
    assert set(LAYOUT["seas"]) == set(MAP["seas"])
    assert set(LAYOUT["territories"]) == set(MAP["territories"])
    assert set(LAYOUT.get("labels", {})) <= set(MAP["locations"])
    for name, (x, y) in [*LAYOUT["locations"].items(), *LAYOUT["seas"].items(), *LAYOUT["territories"].items()]:
        assert 10 <= x <= width - 10 and 10 <= y <= height - 10, name


def test_places_are_far_enough_apart_to_tell_and_tap():
    close = [(a, b) for (a, pa), (b, pb) in itertools.combinations(LAYOUT["locations"].items(), 2)
             if math.dist(pa, pb) < MIN_GAP]
    assert not close, close
