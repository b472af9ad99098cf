"""The Yashima map's space labels (frontend/static/js/boards/yashima.js, run under Node): each label
sits where no miniature, facing nose or facing arrow lies (its hex's top, else its bottom, else its
middle), and on a phone the map keeps hexes wide enough for the labels to read."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

BOARD_JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "boards" / "yashima.js"
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

UP, UPPER_RIGHT, LOWER_RIGHT, DOWN, LOWER_LEFT, UPPER_LEFT = range(6)
KEYS = [f"{q},{r}" for q in range(-3, 4) for r in range(-3, 4)]


def run(expr):
    script = ("globalThis.window = globalThis;\n"
              f"const y = await import({json.dumps(BOARD_JS.as_uri())});\n"
              f"console.log(JSON.stringify({expr}));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def slots(minis, arrows=None):
    return run(f"y.labelSlots({json.dumps(KEYS)}, {json.dumps(minis)}, {json.dumps(arrows)})")


def test_a_miniature_facing_up_leaves_its_label_the_bottom_of_the_hex():
    # given a miniature on 0,0 whose nose points up (across the label's usual place)
    # then its space's label goes to the bottom; every other label stays at the top
    assert slots([{"pos": "0,0", "facing": UP}]) == {"0,0": "bottom"}
    assert slots([{"pos": "0,0", "facing": UPPER_LEFT}]) == {"0,0": "bottom"}


def test_a_miniature_facing_down_keeps_its_label_at_the_top():
    assert slots([{"pos": "0,0", "facing": DOWN}, {"pos": "1,1", "facing": LOWER_RIGHT}]) == {}


def test_while_placing_a_miniature_the_chosen_space_shows_its_label_in_the_middle():
    # given the six facing arrows around the chosen (still empty) space 0,0
    got = slots([], {"centre": "0,0", "facings": list(range(6))})
    # then its label sits in the middle, inside the arrows' tails
    assert got["0,0"] == "centre"
    # and the arrows reaching down into the space below and the lower neighbours move their labels off the top
    assert got["0,1"] == "bottom" and got["1,0"] == "bottom" and got["-1,1"] == "bottom"
    # while the arrows pointing up leave the top of the spaces above them free
    assert "0,-1" not in got and "1,-1" not in got and "-1,0" not in got


def test_a_label_with_both_top_and_bottom_taken_and_a_miniature_on_it_stays_at_the_top():
    # given the end-of-move arrows around a miniature facing up (drawn above both, the label still on top)
    got = slots([{"pos": "0,0", "facing": UP}], {"centre": "0,0", "facings": list(range(6))})
    assert "0,0" not in got


def test_on_a_phone_the_map_is_drawn_wider_than_on_a_desktop():
    # given a map 600 SVG units wide: hexes at least 32 px wide on a desktop, 48 px on a phone
    # (a label 8.2 units high then reads at about 10 px)
    assert run("[y.mapMinWidth(600), y.mapMinWidth(600, 48)]") == [480, 720]
