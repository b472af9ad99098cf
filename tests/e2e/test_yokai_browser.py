"""Yokai Battle in two real browsers: sign up, create a 2-player match from the lobby, join, start,
and play it to the end only by clicking on the board (hand card -> highlighted terrain ->
orientation; my monster -> highlighted enemy; ability targets; End turn). Each page must see the
other's moves live (same seq, same monsters) without reloading, until both show the end banner."""

import random
import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, assert_fits_width, table_shot
from .test_match_flow import assert_not_reloaded, create_match, mark_no_reload, sign_up, wait_live

pytestmark = pytest.mark.e2e

MAX_ACTIONS = 400
STATE_JS = """() => {
  const m = window.KamizaMatch;
  const doc = m.doc;
  return {seq: m.lastSeq, docSeq: doc.seq, inflight: m.pending.size, seat: doc.seat,
          awaiting: (doc.status && doc.status.awaiting) || [], finished: !!(doc.status && doc.status.finished),
          legal: doc.legal_commands || [], pending: (doc.view && doc.view.pending) || [],
          monsters: Object.keys((doc.view && doc.view.monsters) || {}).length,
          busy: !!(window.KamizaYokai && window.KamizaYokai.ui.busy)};
}"""


def state(page):
    return page.evaluate(STATE_JS)


def create_yokai_match(page):
    return create_match(page, game="yokai")


def wait_settled(page, at_least_seq):
    """The page has caught up to ``at_least_seq``, its state matches its log, nothing is in flight."""
    page.wait_for_function(
        """(seq) => { const m = window.KamizaMatch; return m.lastSeq >= seq && m.doc.seq === m.lastSeq
                      && m.pending.size === 0 && !(window.KamizaYokai && window.KamizaYokai.ui.busy); }""",
        arg=at_least_seq,
        timeout=15_000,
    )


def click_highlighted(page, selector):
    node = page.locator(selector)
    expect(node).to_have_count(1)
    expect(node).to_have_class(re.compile(r"\bis-(target|playable)\b"))
    node.click()


def play_one_action(page, rng):
    """Choose one legal command from the page's own document and perform it by clicking the board.
    Returns a short description of what was done."""
    s = state(page)
    legal = s["legal"]
    assert legal, "the awaited player has nothing to click"
    by_type = {}
    for cmd in legal:
        by_type.setdefault(cmd["type"], []).append(cmd)
    board = page.locator("#board")
    if "choose_target" in by_type:
        cmd = rng.choice(by_type["choose_target"])
        target = cmd["args"]["target"]
        if isinstance(target, int):
            board.locator(f'[data-target-seat="{target}"]').click()
        else:
            click_highlighted(board, f'.yk-cell[data-pos="{target}"]')
        return f"choose {target}"
    if s["pending"] and s["pending"][0]["kind"] == "summon_attack":
        cmd = rng.choice(by_type["attack"])
        expect(page.get_by_test_id("yokai-prompt")).to_contain_text("must attack")
        click_highlighted(board, f'.yk-cell[data-pos="{cmd["args"]["defender"]}"]')
        return f"summoning attack on {cmd['args']['defender']}"
    if "summon" in by_type and rng.random() < 0.9:
        cmd = rng.choice(by_type["summon"])
        a = cmd["args"]
        click_highlighted(board, f'.yk-hcard[data-card-id="{a["card"]}"]')
        click_highlighted(board, f'.yk-cell[data-pos="{a["terrain"]}"]')
        wanted = board.locator(f'.yk-orient[data-orientation="{a["orientation"]}"]')
        expect(board.locator(".yk-orient").first).to_be_visible()
        # a monster alike on every side is offered one orientation only (the others change nothing)
        (wanted if wanted.count() else board.locator(".yk-orient").first).click()
        return f"summon on {a['terrain']}"
    if "attack" in by_type and rng.random() < 0.8:
        cmd = rng.choice(by_type["attack"])
        a = cmd["args"]
        click_highlighted(board, f'.yk-cell[data-pos="{a["attacker"]}"]')
        defender = board.locator(f'.yk-cell[data-pos="{a["defender"]}"]')
        expect(defender.locator(".yk-action")).to_contain_text("CP")  # the attack's cost is shown
        click_highlighted(board, f'.yk-cell[data-pos="{a["defender"]}"]')
        return f"attack {a['attacker']} -> {a['defender']}"
    board.locator('button[data-action="end-turn"]').click()
    return "end turn"


def test_two_players_play_yokai_to_the_end_by_clicking(new_page):
    a, b = new_page(), new_page()
    alice, bob = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    b.add_init_script("window.KamizaLobbyRefreshMs = 500")
    sign_up(a, alice)
    sign_up(b, bob)
    b.goto("/lobby/")  # B waits in the lobby

    match_id = create_yokai_match(a)
    wait_live(a)
    row = b.locator(f'tr[data-match-id="{match_id}"]')
    expect(row).to_contain_text(alice)
    row.get_by_role("button", name=re.compile("^Join")).click()
    b.wait_for_url(f"**/matches/{match_id}/")
    wait_live(b)
    mark_no_reload(b)
    start = a.get_by_role("button", name="Start")
    expect(start).to_be_enabled()
    start.click()
    wait_live(a)
    mark_no_reload(a)

    # Both boards are drawn: a 3x3 grid, my hand of 5, each player's counts, no generic buttons.
    for page in (a, b):
        expect(page.locator("#board .yk-grid .yk-cell")).to_have_count(9)
        expect(page.locator("#board .yk-hand .yk-hcard")).to_have_count(5)
        expect(page.locator("#board .yk-player")).to_have_count(2)
        expect(page.locator("#commands button")).to_have_count(0)
    expect(a.locator("#board .yk-turn")).to_have_text(re.compile("Your turn"))
    expect(a.locator("#status-phase")).to_have_text("Combat")  # the board's words, not the engine's
    expect(b.locator("#board .yk-turn")).to_contain_text(f"{alice}'s turn")
    expect(b.locator('#board button[data-action="end-turn"]')).to_have_count(0)
    # the turn bar shows the chakra of the player whose turn it is, on both pages
    expect(a.get_by_test_id("yokai-chakra")).to_have_text(re.compile(r"^Your chakra\s*2 / 2"))
    expect(b.get_by_test_id("yokai-chakra")).to_have_text(re.compile(rf"^{alice}'s chakra\s*2 / 2"))
    expect(a.get_by_test_id("yokai-prompt")).not_to_contain_text("Your move: or")
    # Escape cancels a selection: a hand card picked lights up the terrains it may go to; Escape
    # puts it back, and the card can be picked again.
    card = a.locator("#board .yk-hcard.is-playable").first
    expect(a.locator("#board .yk-cell.is-target")).to_have_count(0)
    card.click()
    expect(card).to_have_class(re.compile(r"\bis-selected\b"))
    expect(a.locator("#board .yk-cell.is-target").first).to_be_visible()
    a.keyboard.press("Escape")
    expect(a.locator("#board .yk-hcard.is-selected")).to_have_count(0)
    expect(a.locator("#board .yk-cell.is-target")).to_have_count(0)
    # A refused move shows where the player is looking: A's page holds a stale seq (as if another tab
    # had moved), End turn at the top is refused, and the words show on screen, not under the hand.
    a.evaluate("() => { window.KamizaMatch.lastSeq = 1; }")
    a.locator('#board button[data-action="end-turn"]').click()
    refusal = a.locator("#command-error")
    expect(refusal).to_have_text(re.compile("^The match moved on meanwhile"))
    expect(refusal).to_be_in_viewport()
    expect(a.locator('#board button[data-action="end-turn"]')).to_be_in_viewport()  # the board did not jump away
    table_shot(a, "yokai-refused")
    a.get_by_test_id("command-toast").get_by_role("button", name="Dismiss").click()
    expect(refusal).to_be_hidden()
    wait_settled(a, state(b)["seq"])

    # A third user watches: the board without hands or controls, updated live.
    carol = new_page()
    carol.set_viewport_size({"width": 390, "height": 844})  # on a phone
    sign_up(carol, f"carol-{uuid.uuid4().hex[:6]}")
    carol.goto(f"/matches/{match_id}/")
    wait_live(carol)
    mark_no_reload(carol)
    expect(carol.locator("#status-seat")).to_have_text("spectator")
    expect(carol.locator("#board .yk-grid .yk-cell")).to_have_count(9)
    assert_fits_width(carol)

    pages = {0: a, 1: b}
    rng = random.Random(20261129)
    done = []
    shot_taken = square_named = False
    for _ in range(MAX_ACTIONS):
        s = state(a)
        if s["finished"]:
            break
        seat = s["awaiting"][0]
        me, other = pages[seat], pages[1 - seat]
        wait_settled(me, s["seq"])
        before = state(me)["seq"]
        done.append(f"seat {seat}: {play_one_action(me, rng)}")
        wait_settled(me, before + 1)
        # The other page sees the move live: same seq, same monsters, without reloading.
        after = state(me)
        wait_settled(other, after["seq"])
        theirs = state(other)
        assert theirs["seq"] == after["seq"] and theirs["monsters"] == after["monsters"], (done[-1], after, theirs)
        expect(other.locator("#board .yk-monster")).to_have_count(after["monsters"])
        if done[-1].startswith(f"seat {seat}: summon on"):  # the opponent's history says it in words
            summoned = me.evaluate("""() => [...window.KamizaMatch.events.values()].filter((e) => e.type === 'MonsterSummoned').pop()""")
            name = [alice, bob][seat]
            entry = other.locator(f'#log li.event[data-seq="{summoned["seq"]}"]')
            expect(entry).to_have_text(re.compile(rf"^{name} summons .+ on \({summoned['payload']['at']}\) for \d+ chakra, \d+ LP"))
            expect(other.get_by_test_id("last-move")).to_contain_text(f"Last move: {name}")
            if not square_named:  # pointing at the square the sentence names outlines it on the board
                entry.locator(".kz-square").hover()
                expect(other.locator(f'#board [data-pos="{summoned["payload"]["at"]}"]')).to_have_class(re.compile(r"\bis-named\b"))
                expect(other.locator("#board .is-named")).to_have_count(1)
                other.mouse.move(0, 0)
                expect(other.locator("#board .is-named")).to_have_count(0)
                # and a tap (a click) on it outlines it too, with the square in view
                entry.locator(".kz-square").click()
                named = other.locator(f'#board [data-pos="{summoned["payload"]["at"]}"]')
                expect(named).to_have_class(re.compile(r"\bis-named\b"))
                expect(named).to_be_in_viewport()
                other.mouse.move(0, 0)
                square_named = True
        if not shot_taken and after["monsters"] >= 4 and not after["finished"]:
            wait_settled(carol, after["seq"])
            expect(carol.locator("#board .yk-monster")).to_have_count(after["monsters"])
            expect(carol.locator("#board .yk-hand")).to_have_count(0)
            # no controls to play with at all; only the two "Explain ..." buttons of the rules help
            expect(carol.locator("#board button:not(.yk-explain-toggle)")).to_have_count(0)
            expect(carol.locator("#board button.yk-explain-toggle")).to_have_count(2)
            carol.screenshot(path=str(SHOTS / "yokai-spectator.png"), full_page=True)
            assert_fits_width(carol)
            table_shot(carol, "yokai-390-spectator")
            table_shot(me, "yokai-midgame")
            SHOTS.mkdir(parents=True, exist_ok=True)
            other.screenshot(path=str(SHOTS / "yokai-midgame-opponent.png"), full_page=True)
            shot_taken = True
    else:
        pytest.fail(f"the game did not finish within {MAX_ACTIONS} actions; last: {done[-10:]}")

    for page in (a, b, carol):
        banner = page.get_by_test_id("yokai-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("Game over")
        expect(page.locator("#status-match")).to_have_text("finished")
        expect(page.locator("#board .yk-hcard.is-playable")).to_have_count(0)
        expect(page.locator('#board button[data-action="end-turn"]')).to_have_count(0)
        assert_not_reloaded(page)
    winners = state(a)  # both pages name the same winner
    name = alice if a.evaluate("window.KamizaMatch.doc.status.winners")[0] == 0 else bob
    for page in (a, b, carol):
        expect(page.get_by_test_id("yokai-banner")).to_contain_text(name)
    assert winners["finished"]
    a.screenshot(path=str(SHOTS / "yokai-finished.png"), full_page=True)
    table_shot(a, "yokai-end")
    assert shot_taken, "no mid-game screenshot was taken"
    assert a.console_errors == [] and b.console_errors == [] and carol.console_errors == [], (
        a.console_errors, b.console_errors, carol.console_errors)
