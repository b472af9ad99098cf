"""Yashima at six seats in a real browser: the lobby offers six players and the team options, one
person and five bots play the setup through the board's own controls, and the page then shows all
six terrain boards round the relic board, six coloured panels and who plays with whom (3 against 3)."""

import random
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import table_shot
from .test_match_flow import create_match, sign_up, wait_live
from .test_yashima_board import SETTLED_JS, STATE_JS, play_one

pytestmark = pytest.mark.e2e

NO_SIDE_SCROLL_JS = "() => document.documentElement.scrollWidth <= window.innerWidth"
SEAT_COLOURS_JS = """() => [...document.querySelectorAll('#board .ys-player')].map((e) =>
  getComputedStyle(e).borderLeftColor)"""


# rules: Yashima core, "Setting up the Game" (more players with more sets; six slots round the relic board)
# and "Playing a Team Game" (teams of one size, team-mates never side by side)
def test_six_masters_in_teams_of_three_set_up_by_clicking_the_board(new_page):
    page = new_page()
    sign_up(page, f"rin-{uuid.uuid4().hex[:6]}")
    page.goto("/lobby/")
    page.get_by_label("Game").select_option("yashima")
    expect(page.locator("#id_seats option[value='6']")).to_be_enabled()
    fieldset = page.get_by_test_id("options-yashima")
    expect(fieldset).to_contain_text("Teams")
    expect(fieldset).to_contain_text("Team size")
    create_match(page, {"teams": True, "round_cap": 1}, game="yashima", seats=6)
    wait_live(page)
    for _ in range(5):
        page.get_by_role("button", name="Add bot").first.click()
    page.get_by_role("button", name="Start").click()
    wait_live(page)

    rng, done = random.Random(6), []
    for _ in range(40):
        page.wait_for_function(SETTLED_JS, timeout=30_000)
        s = page.evaluate(STATE_JS)
        if s["phase"] != "setup":
            break
        done.append(play_one(page, s, rng, done))
        page.wait_for_function("(seq) => window.KamizaMatch.lastSeq > seq", arg=s["seq"], timeout=30_000)
    else:
        pytest.fail(f"the setup did not end: {done[-5:]}")

    board = page.locator("#board")
    expect(board.locator(".ys-map svg .ys-cell")).to_have_count(19 * 7)  # the relic board and six terrain boards
    expect(board.locator(".ys-map.is-large")).to_have_count(1)
    expect(board.locator(".ys-player")).to_have_count(6)
    assert len(set(page.evaluate(SEAT_COLOURS_JS))) == 6
    teams = board.get_by_test_id("yashima-team")
    expect(teams).to_have_count(6)
    expect(teams.nth(0)).to_contain_text("Team 1 (your team) · with Bot 3 and Bot 5")
    expect(teams.nth(1)).to_contain_text("Team 2 · with Bot 4 and Bot 6")
    assert page.evaluate(NO_SIDE_SCROLL_JS)
    table_shot(page, "yashima-six-seats-1280")
    page.set_viewport_size({"width": 1920, "height": 1080})
    table_shot(page, "yashima-six-seats-1920")
    assert not page.console_errors, page.console_errors
