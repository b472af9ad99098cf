"""The Yashima match page for a player on a keyboard or a screen reader: axe-core finds no serious or
critical WCAG 2.1 AA fault (conftest.assert_accessible) at 1280 and 390 px in every state a player
meets (setup and deployment, a turn with its reachable hexes and facing arrows, an attack with its
defence and damage, the opponent's turn, a team game, the finished banner, a spectator), and the
keyboard alone plays a move: Tab reaches the Move button, each reachable hex and the facing arrows,
Enter does it, and the focus stays on the board while it redraws. Each hex is named as a sighted
player reads it: its space, terrain, who stands there, facing, life and statuses."""

import os
import random
import re
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import assert_accessible, load_scenario
from .test_match_flow import create_match, sign_up, wait_live
from .test_yashima_board import SETTLED_JS, STATE_JS, create_yashima_match, play_one

pytestmark = pytest.mark.e2e

# the page has drawn all it was sent and has nothing on its way
IDLE_JS = """() => { const m = window.KamizaMatch; const y = window.KamizaYashima;
  return m.doc.seq === m.lastSeq && m.pending.size === 0 && !(y && y.ui.busy); }"""
SHOTS = Path(os.environ.get("E2E_A11Y_SHOTS_DIR", "/tmp/shots-a11y-yashima"))


def checked(page, name):
    """No blocking accessibility fault at 1280 and 390 px (a shot of each, for the review)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => { const t = document.getElementById('kz-tip'); if (t) t.hidden = true; }")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        try:
            assert_accessible(page)
        except AssertionError as exc:
            raise AssertionError(f"{name} at {width} px:\n{exc}") from exc
    page.set_viewport_size({"width": 1280, "height": 900})


def tab_to(page, selector, limit=250):
    """Press Tab until the focus is on an element matching ``selector``: the keyboard reaches it."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => Boolean(document.activeElement && document.activeElement.matches(sel))", selector):
            return
    pytest.fail(f"Tab never reached {selector}")


def assert_focus_ring(page):
    """The focused element is drawn with a visible ring (an outline, or the hex's / arrow's stroke)."""
    ring = page.evaluate("""() => { const e = document.activeElement; const s = getComputedStyle(e);
      const shape = e.querySelector(':scope > .ys-hex, :scope > polygon');
      return {visible: e.matches(':focus-visible'), outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
              stroke: shape ? getComputedStyle(shape).stroke : null}; }""")
    assert ring["visible"] and (ring["outline"] or ring["stroke"] == "rgb(27, 106, 201)"), ring


def focused_on_board(page):
    return page.evaluate("() => Boolean(document.activeElement && document.activeElement.closest('#board .ys'))")


def _card(cid, **kw):
    return {"id": cid, "name": cid, "owner": "test", "karma": 3, "atk": 3, "pattern": "jab", "attack": [], **kw}


CARDS = {"strike": _card("strike"), "parry": _card("parry", karma=2, atk=1, defense="BLOCK")}

# Akiko (seat 0, her turn, BURN on her) right behind Rosamu (seat 1, life 3: a parry, a strike and
# one deck card, already restored once); a SEED on a road space. A jab's 3 damage kills Rosamu
# (rules: Yashima core, "Restoration and Winning the Game": a restored master is killed for good).
DUEL = {
    "map": {"radius": 3}, "custom_cards": CARDS, "terrain": {"1,-1": "road", "-1,0": "arduous"},
    "space_statuses": {"1,-1": {"SEED": 0}},
    "players": [
        {"master": "akiko", "kami": "tiger", "pos": "0,0", "facing": 0, "deck": ["strike"] * 8,
         "hand": ["strike", "strike"], "statuses": {"BURN": 1}},
        {"master": "rosamu", "kami": "dragon", "pos": "0,-1", "facing": 3, "deck": ["strike"], "hand": ["parry", "strike"],
         "restored": True},
    ],
    "phase": "battle", "turn": 0, "pool": {"move": 1, "attack": 1},
}

# 2 against 2: the person (seat 0) and Bot 3 against Bot 2 and Bot 4; the person's turn.
TEAMS = {
    "map": {"radius": 3}, "custom_cards": CARDS, "teams": [0, 1, 0, 1],
    "players": [
        {"master": "akiko", "kami": "tiger", "pos": "0,0", "facing": 0, "deck": ["strike"] * 8, "hand": ["strike", "strike"]},
        {"master": "rosamu", "kami": "dragon", "pos": "0,-2", "facing": 3, "deck": ["strike"] * 8, "hand": ["parry"]},
        {"master": "hikaru", "kami": "phoenix", "pos": "2,0", "facing": 5, "deck": ["strike"] * 8, "hand": ["strike"]},
        {"master": "kenta", "kami": "tortoise", "pos": "-2,1", "facing": 1, "deck": ["strike"] * 8, "hand": ["strike"]},
    ],
    "phase": "battle", "turn": 0, "pool": {"move": 1, "attack": 1},
}


def open_match(page, match_id):
    page.goto(f"/matches/{match_id}/")
    wait_live(page)
    page.wait_for_function("() => document.querySelector('#board .ys-map svg')")


def check_setup(page):
    """Setup against a bot, through the board: each step scanned, the miniature placed by keyboard."""
    sign_up(page, f"mei-{uuid.uuid4().hex[:6]}")
    create_yashima_match(page)
    wait_live(page)
    page.get_by_role("button", name="Add bot").click()
    page.get_by_role("button", name="Start").click()
    wait_live(page)
    seen, done = set(), []
    rng = random.Random(7)
    for _ in range(40):
        page.wait_for_function(SETTLED_JS, timeout=30_000)
        s = page.evaluate(STATE_JS)
        if s["phase"] != "setup":
            break
        step = next(t for t in ("pick", "choose_board", "place_board", "place_miniature") if any(c["type"] == t for c in s["legal"]))
        if step not in seen:
            seen.add(step)
            checked(page, f"setup-{step}")
        if step == "place_miniature":
            # deployment by keyboard: a highlighted space of the player's board, then a facing arrow;
            # the prompt says choose (Enter, Space, a tap and a click all do it), never click
            expect(page.get_by_test_id("yashima-prompt")).to_contain_text(
                "Setup: choose a highlighted space of your board for your miniature, then its facing.")
            tab_to(page, "#board .ys-cell.is-target")
            assert_focus_ring(page)
            expect(page.locator("#board .ys-cell.is-target").first).to_have_attribute("aria-label", re.compile(r"[Pp]lace your miniature"))
            page.keyboard.press("Enter")
            expect(page.locator("#board .ys-arrow")).to_have_count(6)
            expect(page.get_by_test_id("yashima-prompt")).to_contain_text("of your board: choose an arrow around it for the facing.")
            assert focused_on_board(page), "the focus left the board when the arrows were drawn"
            checked(page, "setup-facing-arrows")
            tab_to(page, "#board .ys-arrow")
            page.keyboard.press("Enter")
            page.wait_for_function("(seq) => window.KamizaMatch.lastSeq > seq", arg=s["seq"], timeout=30_000)
            done.append("placed by keyboard")
            continue
        done.append(play_one(page, s, rng, done))
        page.wait_for_function("(seq) => window.KamizaMatch.lastSeq > seq", arg=s["seq"], timeout=30_000)
    assert seen == {"pick", "choose_board", "place_board", "place_miniature"} and "placed by keyboard" in done, (seen, done)


def test_yashima_page_is_accessible_in_every_state_and_playable_by_keyboard(new_page, live_server_env):
    check_setup(new_page())

    # -- a duel: the player's turn, a keyboard-only move, an attack, the defence, the damage, the end
    a, b, watcher = new_page(), new_page(), new_page()
    alice, bob = f"aoi-{uuid.uuid4().hex[:6]}", f"botan-{uuid.uuid4().hex[:6]}"
    sign_up(a, alice)
    sign_up(b, bob)
    match_id = create_yashima_match(a)
    b.goto(f"/matches/{match_id}/")
    b.get_by_role("button", name="Join").click()
    wait_live(b)
    load_scenario(live_server_env, match_id, alice, DUEL)
    for page in (a, b, watcher):
        open_match(page, match_id)
    expect(a.get_by_test_id("yashima-prompt")).to_contain_text("Your turn")
    # the prompt is spoken by one live region that outlives the redraws (a new one would stay silent)
    expect(b.get_by_test_id("yashima-said")).to_have_text(re.compile(r"^Waiting for "))
    b.evaluate("() => { window.__said = document.querySelector('[data-testid=yashima-said]'); }")

    # each space is named as it is seen: its label and terrain, who stands there, facing, life, statuses
    expect(a.locator('#board .ys-cell[data-cell="0,0"]')).to_have_attribute("aria-label", re.compile(rf"Akiko \({alice} \(you\)\), facing up, life 10, BURN"))
    expect(a.locator('#board .ys-cell[data-cell="0,-1"]')).to_have_attribute("aria-label", re.compile(rf"Rosamu \({bob}\), facing down, life 3"))
    expect(a.locator('#board .ys-cell[data-cell="1,-1"]')).to_have_attribute("aria-label", re.compile(r"road space.*SEED"))
    checked(a, "turn")
    checked(b, "opponent-turn")
    checked(watcher, "spectator-turn")
    # the opponent's focus stays where it was while the attack arrives live
    b.locator('#board .ys-mini[data-seat="1"]').focus()

    # the attack: a hand card, then the arrow that reaches Rosamu, by keyboard
    tab_to(a, "#board .ys-card.is-playable")
    a.keyboard.press("Enter")
    expect(a.locator("#board .ys-arrow")).to_have_count(6)
    expect(a.get_by_test_id("yashima-said")).to_contain_text(": choose an arrow around your miniature to attack that way")
    checked(a, "attack-arrows")
    tab_to(a, '#board .ys-arrow[data-facing="0"]')
    a.keyboard.press("Enter")
    expect(b.get_by_test_id("yashima-prompt")).to_contain_text("You are targeted")
    expect(b.get_by_test_id("yashima-said")).to_contain_text("You are targeted")
    assert b.evaluate("() => document.querySelector('[data-testid=yashima-said]') === window.__said")
    assert b.evaluate("() => document.activeElement.matches('#board .ys-mini[data-seat=\"1\"]')"), "the live update took the focus"
    checked(b, "defence")
    checked(a, "attack-waiting")
    checked(watcher, "spectator-attack")
    b.locator("#board [data-testid=yashima-options] button", has_text="No defense").click()
    expect(b.get_by_test_id("yashima-prompt")).to_contain_text("You LOSE 3")
    # one deck card only: no "Lose all 3 from the top of your deck", which could not keep its word
    expect(b.locator("#board [data-action=lose-all]")).to_have_count(0)
    checked(b, "damage")
    # the cards lost by keyboard: each redraw leaves the focus on the next LOSE button
    b.locator("#board [data-testid=yashima-options] button", has_text="Lose the top card of your deck").focus()
    for _ in range(3):
        b.wait_for_function(IDLE_JS)
        if not b.locator("#board [data-testid=yashima-prompt] .ys-ask", has_text="You LOSE").count():
            break
        assert b.evaluate("() => /^Lose /.test(document.activeElement.textContent)"), "no LOSE button focused"
        seq = b.evaluate("window.KamizaMatch.lastSeq")
        b.keyboard.press("Enter")
        b.wait_for_function("(seq) => window.KamizaMatch.lastSeq > seq", arg=seq)
    # Rosamu is out of the game; Akiko ends her turn by keyboard, and the game is over
    expect(a.locator('#board .ys-player[data-seat="1"] .ys-flag')).to_have_text("killed")
    tab_to(a, """#board [data-testid=yashima-options] button[data-cmd*='"end_turn"']""")
    a.keyboard.press("Enter")
    for page in (a, b, watcher):
        expect(page.get_by_test_id("yashima-banner")).to_contain_text("Game over")
    checked(a, "finished-winner")
    checked(b, "finished-loser")
    checked(watcher, "finished-spectator")

    # -- a team game, 2 against 2, on the player's turn
    team = new_page()
    sign_up(team, f"ren-{uuid.uuid4().hex[:6]}")
    team_match = create_match(team, {"teams": True, "round_cap": 1}, game="yashima", seats=4)
    wait_live(team)
    for _ in range(3):
        team.get_by_role("button", name="Add bot").first.click()
    expect(team.locator("#seats li", has_text="Bot")).to_have_count(3)
    load_scenario(live_server_env, team_match, team.get_by_test_id("whoami").text_content(), TEAMS)
    open_match(team, team_match)
    expect(team.get_by_test_id("yashima-team-legend")).to_have_count(1)
    expect(team.locator('#board .ys-cell[data-cell="2,0"]')).to_have_attribute("aria-label", re.compile(r"Hikaru \(Bot 3\), facing upper left, Team A"))
    checked(team, "team-turn")

    # a move by keyboard alone: the Move button, a highlighted space, then a facing arrow
    tab_to(team, """#board [data-testid=yashima-options] button[data-cmd*='"move_action"']""")
    assert_focus_ring(team)
    team.keyboard.press("Enter")
    expect(team.locator("#board .ys-cell.is-target")).not_to_have_count(0)
    assert focused_on_board(team), "the focus left the board when it redrew"
    checked(team, "move-reachable-hexes")
    target = '#board .ys-cell.is-target[data-cell="1,-1"]'
    tab_to(team, target)
    assert_focus_ring(team)
    expect(team.locator(target)).to_have_attribute("aria-label", re.compile(r"Step to"))
    team.keyboard.press("Enter")
    expect(team.locator('#board .ys-mini[data-seat="0"] circle.body')).to_have_count(1)
    team.wait_for_function("() => window.KamizaMatch.doc.view.players[0].pos === '1,-1'")
    expect(team.locator("#board .ys-arrow[data-cmd-type=end_move]")).not_to_have_count(0)
    assert focused_on_board(team), "the focus left the board after the step"
    checked(team, "move-facing-arrows")
    tab_to(team, '#board .ys-arrow[data-cmd-type=end_move][data-facing="1"]')
    assert_focus_ring(team)
    team.keyboard.press("Enter")
    expect(team.locator('#board .ys-mini[data-seat="0"]')).to_have_attribute("data-facing", "1")
    expect(team.locator('#board .ys-cell[data-cell="1,-1"]')).to_have_attribute("aria-label", re.compile(r"Akiko .*facing upper right, Team A"))

    for page in (a, b, watcher, team):
        assert page.console_errors == [], page.console_errors
