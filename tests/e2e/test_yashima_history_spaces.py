"""Yashima in a real browser: the history names a space the way the map labels it. A player moves
onto a road space by clicking the board; the history, the step buttons and the replay's moves read
"the road space H8" (never "(0,1)"), the hex the text names shows "H8", and pointing at the name in
the history or the replay outlines that hex; tapping it on a phone brings the hex into view. The label
reads inside its hex, never under the miniature standing there, and at a readable size on a phone. Screenshots of the page at 1280 and 390 px go to var/screenshots."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, assert_fits_width, load_scenario, table_shot
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


# the space label's plate and what it must not lie under: the miniature's body and its facing nose
LABEL_BOXES_JS = """(cell) => {
  const box = (n) => { const b = n.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height}; };
  const board = document.getElementById("board");
  const tag = board.querySelector(`.ys-space-tag[data-of="${cell}"]`);
  const hex = board.querySelector(`.ys-cell[data-cell="${cell}"] .ys-hex`);
  const mini = board.querySelector(".ys-mini[data-seat='0']");
  const tagOnTop = [...board.querySelector("svg").children].indexOf(tag.parentNode) > [...board.querySelector("svg").children].indexOf(mini);
  return {plate: box(tag.querySelector("rect")), text: box(tag.querySelector("text")), hex: box(hex),
          body: box(mini.querySelector("circle.body")), nose: box(mini.querySelector(".nose")), tagOnTop};
}"""


def overlaps(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def assert_label_clear(page, cell):
    """The label of ``cell`` lies inside its hex, clear of the miniature on it and its nose, drawn above them."""
    got = page.evaluate(LABEL_BOXES_JS, cell)
    hex_, plate = got["hex"], got["plate"]
    assert hex_["top"] <= plate["top"] and plate["bottom"] <= hex_["bottom"], got
    assert hex_["left"] <= plate["left"] and plate["right"] <= hex_["right"], got
    assert not overlaps(plate, got["nose"]), got
    assert got["tagOnTop"], got
    return got


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
    expect(board.locator('.ys-space-tag[data-of="0,1"] .ys-space-label')).to_have_text("H8")
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
    # and the label H8 reads inside its hex, clear of her miniature (facing down) and its nose
    assert_label_clear(page, "0,1")
    table_shot(page, "yashima-history-spaces-1280")
    board.locator(".ys-map").screenshot(path=str(SHOTS / "yashima-map-labels-1280.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    assert_fits_width(page)
    # on a phone the labels read at about 10 px (the map scrolls sideways in its own box instead)
    assert assert_label_clear(page, "0,1")["text"]["height"] >= 9.5
    # when she taps the space's name in the history, far below the board
    page.locator("#log li.event", has_text=moved).scroll_into_view_if_needed()
    assert page.evaluate("() => document.querySelector('#board .ys-cell[data-space=H8]').getBoundingClientRect().bottom") < 0
    named.dispatch_event("click")
    # then the page brings the outlined hex into view
    page.wait_for_function("""() => { const b = document.querySelector('#board .ys-cell.is-named').getBoundingClientRect();
                                      return b.top >= 0 && b.bottom <= window.innerHeight && b.left >= 0 && b.right <= window.innerWidth; }""")
    page.wait_for_timeout(600)  # the smooth scroll settles
    page.screenshot(path=str(SHOTS / "yashima-tap-space-name-390.png"))
    table_shot(page, "yashima-history-spaces-390")
    page.set_viewport_size({"width": 1280, "height": 900})

    # when she ends her move and turn, the bot plays its own, and the round limit ends the match
    board.locator('.ys-arrow[data-cmd-type="end_move"]').first.click()
    page.wait_for_function(SETTLED_JS)
    click_option(page, option_index(page, "end_turn"))
    expect(page.locator("#status-match")).to_have_text("finished", timeout=30_000)
    # and the "Last move" box ends with the newest line of the history (never folded away)
    newest = page.evaluate("""() => [...document.querySelectorAll('#log li.event')].map((li) => li.innerText.trim()).filter(Boolean).pop()""")
    shown = page.locator("#last-move > ul li")
    assert shown.last.inner_text().startswith(newest), (newest, shown.all_inner_texts())
    page.get_by_test_id("last-move").screenshot(path=str(SHOTS / "yashima-last-move-1280.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_test_id("last-move").screenshot(path=str(SHOTS / "yashima-last-move-390.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    # then the replay's moves name the space the same way, and pointing at one outlines that hex
    page.goto(f"/matches/{match_id}/replay/")
    step = page.locator("#replay-log button", has_text=moved)
    expect(step).to_have_count(1)
    assert not page.locator("#replay-log", has_text=re.compile(r"\(-?\d+,-?\d+\)")).count()
    expect(page.locator("#replay-board g.ys-cell").first).to_be_visible()  # drawn: pointing outlines on this board
    step.hover()
    expect(page.locator('#replay-board g.ys-cell.is-named')).to_have_attribute("data-space", "H8")
    table_shot(page, "yashima-replay-spaces-1280")
    assert page.console_errors == [], page.console_errors
