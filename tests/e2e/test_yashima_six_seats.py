"""Yashima at six seats in a real browser: the lobby offers six players and the team options, one
person and five bots play the setup through the board's own controls, and the page then shows all
six terrain boards round the relic board, six coloured panels and who plays with whom (3 against 3)."""

import random
import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, table_shot
from .test_match_flow import create_match, sign_up, wait_live
from .test_yashima_board import SETTLED_JS, STATE_JS, play_one

pytestmark = pytest.mark.e2e

NO_SIDE_SCROLL_JS = "() => document.documentElement.scrollWidth <= window.innerWidth"
SEAT_COLOURS_JS = """() => [...document.querySelectorAll('#board .ys-player')].map((e) =>
  getComputedStyle(e).borderLeftColor)"""


# The map's measures in the page: a hex's width on screen, whether the map scrolls in its own box
# while the page does not, and where the player's own miniature sits in the map's visible box.
MAP_JS = """() => { const map = document.querySelector('#board .ys-map'); const box = map.getBoundingClientRect();
  const hex = document.querySelector('#board .ys-map .ys-hex').getBoundingClientRect();
  const seat = window.KamizaMatch.doc.seat;
  const mine = document.querySelector(`#board .ys-mini[data-seat="${seat}"] circle.body`).getBoundingClientRect();
  const centre = mine.left + mine.width / 2;
  const label = document.querySelector('#board .ys-map .ys-space-label').getBoundingClientRect();
  return {hex: hex.width, label: label.height, scrolls: map.scrollWidth > map.clientWidth, page: document.documentElement.scrollWidth <= window.innerWidth,
          mineShown: centre > box.left && centre < box.right}; }"""
TEAMS_JS = """() => [...document.querySelectorAll('#board .ys-mini')].map((m) => m.getAttribute('data-team'))"""


def set_up_through_the_board(page):
    """Play the person's setup (master, kami, terrain board, miniature) through the board's controls
    while the bots play theirs, until the first round begins."""
    rng, done = random.Random(6), []
    for _ in range(40):
        page.wait_for_function(SETTLED_JS, timeout=30_000)
        s = page.evaluate(STATE_JS)
        if s["phase"] != "setup":
            return
        done.append(play_one(page, s, rng, done))
        page.wait_for_function("(seq) => window.KamizaMatch.lastSeq > seq", arg=s["seq"], timeout=30_000)
    pytest.fail(f"the setup did not end: {done[-5:]}")


def start_with_bots(page, seats, options):
    sign_up(page, f"rin-{uuid.uuid4().hex[:6]}")
    create_match(page, {"round_cap": 1, **options}, game="yashima", seats=seats)
    wait_live(page)
    for _ in range(seats - 1):
        page.get_by_role("button", name="Add bot").first.click()
    page.get_by_role("button", name="Start").click()
    wait_live(page)
    set_up_through_the_board(page)


# A finger needs a hex about 32 px across, and the space labels ("H8") need hexes about 48 px across
# to read at about 10 px: on a phone the map keeps that size and scrolls sideways in its own box (the
# page itself never does), opened on the player's own miniature.
@pytest.mark.parametrize("seats, options", [(2, {}), (4, {"teams": True}), (6, {})], ids=["two", "four-teams", "six"])
def test_the_map_keeps_hexes_a_finger_can_hit_and_scrolls_in_its_own_box(new_page, seats, options):
    page = new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    start_with_bots(page, seats, options)
    page.reload()
    wait_live(page)
    page.wait_for_function(SETTLED_JS, timeout=30_000)
    phone = page.evaluate(MAP_JS)
    assert phone["hex"] >= 46 and phone["page"] and phone["mineShown"], phone  # 48 px, less the hex's own border
    assert phone["label"] >= 9.5 and phone["scrolls"], phone
    table_shot(page, f"yashima-map-{seats}-390")
    page.locator("#board .ys-map").screenshot(path=str(SHOTS / f"yashima-map-{seats}-box-390.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(200)
    desk = page.evaluate(MAP_JS)
    assert desk["hex"] >= 31 and desk["page"] and desk["mineShown"] and not desk["scrolls"], desk
    table_shot(page, f"yashima-map-{seats}-1280")
    # rules: Yashima core, "Playing a Team Game": team rings only when there are teams
    teams = page.evaluate(TEAMS_JS)
    assert teams == (["A", "B", "A", "B"] if options else [None] * seats), teams
    expect(page.get_by_test_id("yashima-team-legend")).to_have_count(1 if options else 0)
    assert not page.console_errors, page.console_errors


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

    set_up_through_the_board(page)

    board = page.locator("#board")
    expect(board.locator(".ys-map svg .ys-cell")).to_have_count(19 * 7)  # the relic board and six terrain boards
    expect(board.locator(".ys-map.is-large")).to_have_count(1)
    expect(board.locator(".ys-player")).to_have_count(6)
    assert len(set(page.evaluate(SEAT_COLOURS_JS))) == 6
    teams = board.get_by_test_id("yashima-team")
    expect(teams).to_have_count(6)
    expect(teams.nth(0)).to_contain_text("Team A (your team) · with Bot 3 and Bot 5")
    expect(teams.nth(1)).to_contain_text("Team B · with Bot 4 and Bot 6")
    assert page.evaluate(NO_SIDE_SCROLL_JS)
    # each miniature wears its team's ring and letter, and the map's key names the teams
    assert page.evaluate(TEAMS_JS) == ["A", "B", "A", "B", "A", "B"]
    expect(board.locator(".ys-mini[data-seat='2'] .ys-team-badge")).to_have_text("A")
    expect(board.get_by_test_id("yashima-team-legend")).to_have_text(re.compile(
        r"Team A: rin-\w+ \(you\), Bot 3, Bot 5\s*Team B: Bot 2, Bot 4, Bot 6"))
    table_shot(page, "yashima-six-seats-1280")
    page.set_viewport_size({"width": 1920, "height": 1080})
    table_shot(page, "yashima-six-seats-1920")
    assert not page.console_errors, page.console_errors
