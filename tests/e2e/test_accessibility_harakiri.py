"""Harakiri for a player on a keyboard or a screen reader, in real browsers.

The match board of a two-player match is scanned with axe-core (serious and critical WCAG 2.1 A/AA
faults, ``assert_accessible``) at 1280 and 390 px in each state a player meets: the active seat's
turn with its targets, a target selected, the attack roll, the other seat waiting (the party of
several players), a spectator, a character down, the enemies' turn that follows, and the ended
banner; then a solo campaign's page and its Adventure board. The active seat plays by keyboard only:
Tab reaches the enemy's square, Enter selects it and puts the focus on the attack choices, Enter
attacks; the focus stays on the board through the redraws that follow, and every square, character
and enemy has an accessible name that says what a sighted player sees there."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.engines.harakiri.helpers import arena, doc, open_rows

from .conftest import HARAKIRI_SETTLED_JS, faults_at_widths, load_scenario
from .test_match_flow import create_match, sign_up, wait_live

pytestmark = pytest.mark.e2e

FOCUSED_JS = """() => { const a = document.activeElement; const board = document.getElementById('board');
  return {inBoard: !!(board && a && board.contains(a) && a !== board), sq: a && a.dataset ? a.dataset.sq || null : null,
          variant: a && a.dataset ? a.dataset.variant || null : null, tag: a ? a.tagName : null,
          ring: a ? getComputedStyle(a).outlineStyle !== 'none' || getComputedStyle(a).boxShadow !== 'none' : false}; }"""


def settle(page):
    page.wait_for_function(HARAKIRI_SETTLED_JS, timeout=20_000)


def scan(page, name, found):
    """axe's serious and critical faults at either width added to ``found`` (asserted empty at the
    end, so one run lists them all); the shots kept for review."""
    found += faults_at_widths(page, f"a11y-harakiri-{name}")


def tab_to(page, selector, limit=250):
    """Press Tab until the focus is on ``selector`` (the keyboard's way there); fails if never."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def accessible_name(locator):
    return locator.evaluate("(n) => n.getAttribute('aria-label') || n.textContent")


def two_players_at_a_prepared_fight(new_page, live_server_env):
    """Alice (seat 0: Akira, Hikaru) and Bob (seat 1: Hattori, down, and Tomoe) at a two-seat match
    loaded from a position: Akira's activation, a yellow ashigaru next to him, a white one further."""
    a, b = new_page(), new_page()
    alice, bob = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    sign_up(a, alice)
    sign_up(b, bob)
    match_id = create_match(a, {}, game="harakiri", seats=2)
    b.goto(f"/matches/{match_id}/")
    b.get_by_role("button", name=re.compile("^Join")).first.click()
    wait_live(b)
    document = doc(arena(open_rows(9, 6)),
                   {"akira": {"sq": "2,2", "ap": 3}, "hikaru": {"sq": "1,2"},
                    "hattori": {"defeated": True, "sq": None, "health": 0}, "tomoe": {"sq": "3,5"}},
                   {"foe": {"type": "ashigaru", "color": "yellow", "at": "3,2"},
                    "kin": {"type": "ashigaru", "color": "white", "at": "6,1"}}, activate="char:akira", seats=2)
    load_scenario(live_server_env, match_id, alice, document)
    for page in (a, b):
        page.goto(f"/matches/{match_id}/")
        wait_live(page)
        settle(page)
    return a, b, match_id


def test_harakiri_board_and_adventure_for_keyboard_and_screen_reader(new_page, live_server_env):
    a, b, match_id = two_players_at_a_prepared_fight(new_page, live_server_env)
    found = []
    board = a.locator("#board")
    foe = board.locator('.hk-cell[data-sq="3,2"]')
    expect(foe).to_have_class(re.compile(r"\bact-attack\b"))

    # What a sighted player sees on a square is in its name: the terrain, who stands there and how
    # they are, what the square offers; Hattori, down, is named down in the party.
    assert re.search(r"Ashigaru \(yellow\).*health.*attack", accessible_name(foe)), accessible_name(foe)
    akira = accessible_name(board.locator('.hk-cell[data-sq="2,2"]'))
    assert re.search(r"Akira.*\d+/\d+ health", akira), akira
    # ARIA's grid: a square that offers an action is a button inside its gridcell (a screen reader
    # says "button"); a square that offers none is the gridcell itself. The prompt's words fit a
    # mouse, a tap and the keyboard alike.
    expect(foe).to_have_role("button")
    expect(foe.locator("xpath=..")).to_have_attribute("role", "gridcell")
    expect(foe.locator("xpath=..")).to_have_attribute("aria-selected", "false")
    expect(board.locator('.hk-cell[data-sq="2,2"]')).to_have_role("gridcell")
    expect(board.locator("button[role], .hk-gridrow > :not([role=gridcell])")).to_have_count(0)
    expect(board.get_by_test_id("harakiri-prompt")).to_contain_text("choose a red-glowing enemy on the map to attack it")
    expect(board.get_by_test_id("harakiri-prompt")).not_to_contain_text(re.compile("click", re.I))
    assert foe.get_attribute("data-help").startswith("Press to attack this enemy."), foe.get_attribute("data-help")
    assert "defeated" in board.locator('[data-character="hattori"]').inner_text()
    scan(a, "your-turn", found)
    scan(b, "party-waiting", found)
    spectator = new_page()
    spectator.goto(f"/matches/{match_id}/")
    wait_live(spectator)
    expect(spectator.locator("#board .hk-spectating")).to_be_visible()
    scan(spectator, "spectator", found)

    # Keyboard only: Tab reaches the enemy's square, with a visible focus ring; Enter selects it and
    # the focus moves to the attack choices (the redraw loses nothing); Escape gives it back.
    a.set_viewport_size({"width": 1280, "height": 900})
    a.locator("body").focus()
    tab_to(a, '#board .hk-cell[data-sq="3,2"]')
    focused = a.evaluate(FOCUSED_JS)
    assert focused["ring"], focused
    a.keyboard.press("Enter")
    expect(board.locator(".hk-variant").first).to_be_focused()
    expect(foe.locator("xpath=..")).to_have_attribute("aria-selected", "true")
    scan(a, "target-selected", found)
    a.keyboard.press("Escape")
    expect(board.locator(".hk-variant")).to_have_count(0)
    expect(foe).to_be_focused()
    a.keyboard.press("ArrowLeft")  # the arrow keys walk the map: Akira's square, then back
    expect(board.locator('.hk-cell[data-sq="2,2"]')).to_be_focused()
    a.keyboard.press("ArrowRight")
    expect(foe).to_be_focused()
    a.keyboard.press("Space")
    expect(board.locator(".hk-variant").first).to_be_focused()
    seq = a.evaluate("window.KamizaMatch.lastSeq")
    a.keyboard.press("Enter")  # the first variant: the attack
    a.wait_for_function("(s) => window.KamizaMatch.lastSeq > s", arg=seq)
    settle(a)
    assert a.evaluate(FOCUSED_JS)["inBoard"], a.evaluate(FOCUSED_JS)
    scan(a, "attack", found)
    resolve = board.locator('[data-action="resolve_attack"]')
    if resolve.count():
        tab_to(a, '#board [data-action="resolve_attack"]')
        a.keyboard.press("Enter")
        settle(a)
    # Alice ends Akira's and Hikaru's activations by keyboard, Bob Tomoe's; the enemies' turn follows
    # (the worker plays it) and the next round's oracle.
    # the prompt is spoken by one live region that outlives the redraws (a new one would stay silent)
    b.evaluate("() => { window.__said = document.querySelector('[data-testid=harakiri-said]'); }")
    for _ in ("akira", "hikaru"):
        seq = a.evaluate("window.KamizaMatch.lastSeq")
        tab_to(a, '#board .hk-actions button[data-type="end_activation"]')
        a.keyboard.press("Enter")
        a.wait_for_function("(s) => window.KamizaMatch.lastSeq > s", arg=seq)
        settle(a)
    settle(b)
    expect(b.get_by_test_id("harakiri-prompt")).to_contain_text("Tomoe's activation")
    expect(b.get_by_test_id("harakiri-said")).to_contain_text("Tomoe's activation")
    assert b.evaluate("() => document.querySelector('[data-testid=harakiri-said]') === window.__said")
    scan(b, "party-other-seat", found)
    b.locator('#board .hk-actions button[data-type="end_activation"]').click()
    seq = b.evaluate("window.KamizaMatch.lastSeq")
    b.wait_for_function("(s) => window.KamizaMatch.lastSeq > s", arg=seq)
    settle(b)
    settle(a)
    assert b.evaluate("(({turn, round}) => (turn && turn.kind === 'enemies') || round >= 2)(window.KamizaMatch.doc.view)")
    scan(b, "after-enemies", found)
    scan(a, "after-enemies-seat0", found)

    # The ended banner: Bob resigns (Alice takes his characters), then Alice, the last at the table.
    for page in (b, a):
        page.once("dialog", lambda d: d.accept())
        page.get_by_test_id("resign").click()
        page.wait_for_load_state()
    a.goto(f"/matches/{match_id}/")
    wait_live(a)
    expect(a.get_by_test_id("harakiri-banner")).to_be_visible()
    scan(a, "ended", found)

    # A solo campaign: its page, then the Adventure board, played by keyboard.
    a.set_viewport_size({"width": 1280, "height": 900})
    a.get_by_test_id("nav-campaigns").click()
    form = a.get_by_test_id("campaign-form")
    form.get_by_label("Players").select_option("1")
    form.get_by_role("button", name="Create the campaign").click()
    a.wait_for_url(re.compile(r"/campaigns/[0-9a-f-]{36}/$"))
    a.get_by_test_id("campaign-start").click()
    expect(a.get_by_test_id("campaign-continue")).to_be_visible()
    scan(a, "campaign", found)
    a.get_by_test_id("campaign-continue").click()
    wait_live(a)
    expect(a.get_by_test_id("adv-map")).to_be_visible()
    a.wait_for_function("() => window.KamizaAdventure && !window.KamizaAdventure.ui.busy")
    scan(a, "adventure", found)
    # the prompt is spoken by the board's one live region, kept across redraws (not a new one each time)
    expect(a.get_by_test_id("adventure-said")).to_have_attribute("role", "status")
    expect(a.get_by_test_id("adventure-said")).to_contain_text("Chapter")
    expect(a.get_by_test_id("adv-prompt")).not_to_have_attribute("role", "status")
    a.evaluate("() => { window.__advSaid = document.querySelector('[data-testid=adventure-said]'); }")
    seq = a.evaluate("window.KamizaMatch.lastSeq")
    a.locator("body").focus()
    tab_to(a, "#board .adv-actions button:not([disabled])")
    a.keyboard.press("Enter")
    a.wait_for_function("(s) => window.KamizaMatch.lastSeq > s", arg=seq)
    a.wait_for_function("() => !window.KamizaAdventure.ui.busy")
    assert a.evaluate(FOCUSED_JS)["inBoard"], a.evaluate(FOCUSED_JS)
    assert a.evaluate("() => document.querySelector('[data-testid=adventure-said]') === window.__advSaid")
    scan(a, "adventure-after-keyboard", found)
    assert not found, "\n".join(found)
    assert a.console_errors == [] and b.console_errors == [], (a.console_errors, b.console_errors)
