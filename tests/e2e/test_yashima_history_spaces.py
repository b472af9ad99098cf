"""Yashima in a real browser: the history names a space the way the map labels it. A player moves
onto a road space by clicking the board; the history, the step buttons and the replay's moves read
"the road space H8" (never "(0,1)"), the hex the text names shows "H8", and pointing at the name in
the history or the replay outlines that hex. Screenshots of the page at 1280 and 390 px go to var/screenshots."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import assert_fits_width, load_scenario, table_shot
from .test_match_flow import sign_up, wait_live
from .test_yashima_board import SETTLED_JS, click_option, create_yashima_match

pytestmark = pytest.mark.e2e

# the player (seat 0) on 0,0 at the start of her turn, the road space 0,1 below her (labelled H8);
# the bot's master far off, and one round to play: a move each, then the match ends
SCENARIO = {
    "map": {"radius": 3}, "terrain": {"0,1": "road"}, "options": {"round_cap": 1},
    "players": [
        {"master": "akiko", "kami": "tiger", "pos": "0,0", "facing": 0, "deck": ["tiger_01"] * 8, "hand": ["tiger_01"]},
        {"master": "rosamu", "kami": "dragon", "pos": "0,-3", "facing": 3, "deck": ["dragon_01"] * 8, "hand": ["dragon_01"]},
    ],
    "phase": "battle", "turn": 0, "pool": {"move": 2, "attack": 0},
}


def option_index(page, type_):
    legal = page.evaluate("() => window.KamizaMatch.doc.legal_commands")
    return next(i for i, c in enumerate(legal) if c["type"] == type_)


# rules: Yashima core, "Move Action" and "Terrain" (a master moves across the board's terrain spaces)
def test_the_history_names_a_space_as_the_map_labels_it(new_page, live_server_env):
    # given a match started from the scenario against a bot
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    name = f"hana-{uuid.uuid4().hex[:6]}"
    sign_up(page, name)
    match_id = create_yashima_match(page, {"round_cap": 1})
    wait_live(page)
    page.get_by_role("button", name="Add bot").click()
    load_scenario(live_server_env, match_id, name, SCENARIO)
    page.goto(f"/matches/{match_id}/")
    wait_live(page)
    board = page.locator("#board")
    road = board.locator('.ys-cell[data-cell="0,1"]')
    # the map draws the label on the hex, and the hex's help names it as the texts do
    expect(road).to_have_attribute("data-space", "H8")
    expect(road.locator(".ys-space-label")).to_have_text("H8")
    expect(road).to_have_attribute("aria-label", re.compile(r"^The road space H8"))

    # when she takes a move action and steps onto the road (its button and the hex name the space)
    click_option(page, option_index(page, "move_action"))
    page.wait_for_function(SETTLED_JS)
    expect(road).to_have_attribute("aria-label", "The road space H8: Step to the road space H8")
    road.click()
    page.wait_for_function(SETTLED_JS)

    # then the history says where, in the map's words
    moved = f"{name}'s master moves to the road space H8, facing down"
    expect(page.locator("#log")).to_contain_text(moved)
    assert "(0,1)" not in page.locator("#log").inner_text()
    # and pointing at the space's name there outlines its hex on the board
    named = page.locator("#log li.event", has_text=moved).locator(".kz-square")
    expect(named).to_have_text("the road space H8")
    named.hover()
    expect(board.locator("g.ys-cell.is-named")).to_have_attribute("data-space", "H8")
    table_shot(page, "yashima-history-spaces-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    assert_fits_width(page)
    page.locator("#log li.event", has_text=moved).scroll_into_view_if_needed()
    table_shot(page, "yashima-history-spaces-390")
    page.set_viewport_size({"width": 1280, "height": 900})

    # when she ends her move and turn, the bot plays its own, and the round limit ends the match
    board.locator('.ys-arrow[data-cmd-type="end_move"]').first.click()
    page.wait_for_function(SETTLED_JS)
    click_option(page, option_index(page, "end_turn"))
    expect(page.locator("#status-match")).to_have_text("finished", timeout=30_000)

    # then the replay's moves name the space the same way, and pointing at one outlines that hex
    page.goto(f"/matches/{match_id}/replay/")
    step = page.locator("#replay-log button", has_text=moved)
    expect(step).to_have_count(1)
    assert not page.locator("#replay-log", has_text=re.compile(r"\(-?\d+,-?\d+\)")).count()
    step.hover()
    expect(page.locator('#replay-board g.ys-cell.is-named')).to_have_attribute("data-space", "H8")
    table_shot(page, "yashima-replay-spaces-1280")
    assert page.console_errors == [], page.console_errors
