"""The refusal toast (a refused command's words, pinned to the foot of the screen) hides no control for
good: a Yokai player whose hand sits at the foot of the screen is refused a move; the toast shows in
view without moving the page under their eyes, the page keeps the toast's whole height free at its
foot (measured with the words in it), so that its end scrolls clear of the toast, at 1280 and 390 px;
dismissed, the toast gives the space back."""

import random
import uuid

import pytest
from playwright.sync_api import expect

from .api_play import api
from .conftest import SHOTS
from .test_match_flow import PASSWORD, sign_in, wait_live
from .test_replay import play_some

pytestmark = pytest.mark.e2e

# A command with a stale seq (as a second tab that missed a move would send): refused, version_conflict.
STALE_JS = """() => { const m = window.KamizaMatch;
  m.socket.send({type: 'command', command_id: crypto.randomUUID(), expected_seq: 1, command: {type: 'end_turn', args: {}}}); }"""
# The board's controls on screen that the toast covers (their boxes meet the toast's).
COVERED_JS = """() => { const t = document.getElementById('command-toast').getBoundingClientRect();
  return [...document.querySelectorAll('#board button, #board [role=button], #board a[href], #commands button')].filter((b) => {
    const r = b.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > t.top && r.top < t.bottom && r.right > t.left && r.left < t.right;
  }).map((b) => b.className || b.textContent); }"""


@pytest.mark.parametrize("width, height", [(1280, 720), (390, 844)])
def test_the_refusal_toast_covers_no_control(new_page, live_server_url, width, height):
    # given a Yokai match at the start of the first player's turn, their first player's page scrolled so that the hand sits at the foot of the screen
    tag = uuid.uuid4().hex[:6]
    names = [f"t{seat}-{tag}" for seat in range(2)]
    tokens = {seat: api(live_server_url, "/api/auth/register/", body={"username": n, "password": PASSWORD})["token"]
              for seat, n in enumerate(names)}
    match_id = api(live_server_url, "/api/matches/", tokens[0], {"game": "yokai", "seats": 2, "options": {}})["id"]
    api(live_server_url, f"/api/matches/{match_id}/join/", tokens[1], {"seat": 1})
    api(live_server_url, f"/api/matches/{match_id}/start/", tokens[0], {})
    rng = random.Random(tag)
    while api(live_server_url, f"/api/matches/{match_id}/", tokens[0])["awaiting"] != [0]:  # their turn: the hand is playable
        play_some(live_server_url, match_id, tokens, rng, 1)
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    sign_in(page, names[0], f"/matches/{match_id}/")
    wait_live(page)
    hand = page.locator("#board .yk-hand").first
    expect(hand.locator("button.yk-hcard").first).to_be_visible()
    hand.evaluate("(e) => e.scrollIntoView({block: 'end'})")
    at = page.evaluate("window.scrollY")
    # when a move of theirs is refused
    page.evaluate(STALE_JS)
    toast = page.get_by_test_id("command-toast")
    expect(page.locator("#command-error")).not_to_be_empty()
    expect(toast).to_be_visible()
    expect(toast).to_be_in_viewport()
    page.wait_for_timeout(300)
    # then the toast is in view and the page did not move under the player's eyes (nothing they used is under it)
    assert page.evaluate("window.scrollY") == at
    # and the space kept free at the foot of the page is the toast's whole height, measured with its words
    # in it (at 390 px they take three lines: measured empty, the space was one line's and controls stayed under it)
    kept, tall = page.evaluate("""() => [parseFloat(document.body.style.paddingBottom),
                                         document.getElementById('command-toast').getBoundingClientRect().height]""")
    assert kept >= tall, (kept, tall)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"toast-yokai-{width}.png"))
    # and the page's end scrolls clear of it too
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate(COVERED_JS) == []
    # once dismissed, the page gives the space back
    toast.get_by_role("button", name="Dismiss").click()
    expect(toast).to_be_hidden()
    assert page.evaluate("document.body.style.paddingBottom") == ""
    assert page.console_errors == [], page.console_errors
