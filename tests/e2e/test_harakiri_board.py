"""Harakiri in a real browser: one player signs up, creates a solo match limited to one round from
the lobby, starts it, sees the board (grid, initiative queue, party) and plays the round to its end
only by clicking on the board: a party decision button, a highlighted square to step, a highlighted
enemy then an attack variant, the dice prompt, or a button of the board's action bar. The enemies
and the oracle are played by the (eager) workers in between."""

import random
import re
import time
import uuid

import pytest
from playwright.sync_api import expect

from tests.engines.harakiri.helpers import arena, doc, open_rows

from .conftest import load_scenario, SHOTS, assert_fits_width, table_shot
from .test_match_flow import assert_not_reloaded, create_match, mark_no_reload, sign_up, wait_live

pytestmark = pytest.mark.e2e

MAX_ACTIONS = 300
TIME_BUDGET = 80  # seconds for the round itself
STATE_JS = """() => {
  const m = window.KamizaMatch;
  const doc = m.doc;
  return {seq: m.lastSeq, docSeq: doc.seq, awaiting: (doc.status && doc.status.awaiting) || [],
          finished: !!(doc.status && doc.status.finished), legal: doc.legal_commands || [],
          phase: doc.status && doc.status.phase, turn: doc.view && doc.view.turn,
          busy: !!(window.KamizaHarakiri && window.KamizaHarakiri.ui.busy)};
}"""


def state(page):
    return page.evaluate(STATE_JS)


def wait_settled(page, at_least_seq):
    """Until the page has caught up with ``at_least_seq`` and nothing is pending, and the worker's
    steps (the enemies, the oracle) that followed are on the page too: the player is awaited again."""
    page.wait_for_function(
        """(seq) => { const m = window.KamizaMatch; return m.lastSeq >= seq && m.doc.seq === m.lastSeq
                      && m.pending.size === 0 && !(window.KamizaHarakiri && window.KamizaHarakiri.ui.busy)
                      && !((m.doc.status && m.doc.status.awaiting) || []).includes('system'); }""",
        arg=at_least_seq,
        timeout=15_000,
    )


# The last-roll panel against the page's own log: it shows the latest roll (the player's own too) and
# exactly the outcomes logged after that roll for its roller, never an older roll's.
ROLL_JS = """() => { const m = window.KamizaMatch; const d = m.doc; const panel = document.querySelector('#board [data-testid=harakiri-dice]');
  const shown = {seq: panel.dataset.seq ? +panel.dataset.seq : null, outcomes: panel.querySelectorAll('.hk-outcome').length,
                 dice: panel.querySelectorAll('.hk-dice .hk-die').length};
  if (d.view.attack) return {shown, live: true, dice: d.view.attack.dice.length, seq: d.seq};
  const rolls = new Set(['AttackRolled', 'AttackDieRerolled', 'EnemyAttackRolled', 'ResurrectionRolled']);
  const evs = [...m.events.values()].filter((e) => e.seq <= d.seq).sort((a, b) => a.seq - b.seq);
  const activation = (e) => e.type === 'EnemyActivated' && Number.isInteger((e.payload || {}).roll); // an enemy's behaviour roll
  let last = null; for (const e of evs) if (rolls.has(e.type) || activation(e)) last = e;
  if (!last) return {shown, seq: null};
  if (activation(last)) return {shown, seq: last.seq, outcomes: 1, dice: 1};
  const p = last.payload || {}; const who = (p.attack || {}).attacker || p.attacker || p.who;
  const removed = evs.filter((e) => e.seq > last.seq && e.type === 'AttackDieRemoved' && e.payload.attacker === who).length;
  const dice = ((p.attack || {}).dice || p.dice || [1]).length - removed;
  const outcomes = last.type === 'ResurrectionRolled' ? 1 : evs.filter((e) => e.seq > last.seq && (
    (e.type === 'AttackResolved' && e.payload.attacker === who) || (e.type === 'AttackFinished' && e.payload.summary.attacker === who))).length;
  return {shown, seq: last.seq, outcomes, dice}; }"""


def assert_last_roll_shown(page):
    r = page.evaluate(ROLL_JS)
    if r["seq"] is None:
        assert r["shown"]["seq"] is None, r
        return
    assert r["shown"]["seq"] == r["seq"] and r["shown"]["dice"] == r["dice"], r
    if not r.get("live"):
        assert r["shown"]["outcomes"] == r["outcomes"], r


def play_one_action(page, rng):
    """Pick one of the page's own legal commands and perform it by clicking the board."""
    s = state(page)
    legal = s["legal"]
    assert legal, f"the awaited player has nothing to click: {s}"
    types = {c["type"] for c in legal}
    board = page.locator("#board")
    if "choose" in types:
        squares = board.locator("button.hk-cell.act-choice")
        if squares.count() and rng.random() < 0.5:
            sq = squares.first.get_attribute("data-sq")
            squares.first.click()
            return f"decision: square {sq}"
        buttons = board.locator(".hk-choice")
        expect(buttons).to_have_count(len(legal))
        i = rng.randrange(len(legal))
        label = buttons.nth(i).inner_text()
        buttons.nth(i).click()
        return f"decision: {label}"
    if "resolve_attack" in types:
        board.locator('[data-action="resolve_attack"]').click()
        return "resolve attack"
    attacks = [c for c in legal if c["type"] == "attack" and isinstance(c["args"].get("target"), str)]
    if attacks and rng.random() < 0.9:
        cmd = rng.choice(attacks)
        target = cmd["args"]["target"]
        sq = page.evaluate("(id) => window.KamizaMatch.doc.view.enemies[id].sq", target)
        cell = board.locator(f'.hk-cell[data-sq="{sq}"]')
        expect(cell).to_have_class(re.compile(r"\bact-attack\b"))
        cell.click()
        variants = board.locator(".hk-variant")
        expect(variants.first).to_be_visible()
        variants.first.click()
        return f"attack {target} at {sq}"
    steps = [c for c in legal if c["type"] == "step"]
    if steps and rng.random() < 0.85:
        to = rng.choice(steps)["args"]["to"]
        cell = board.locator(f'.hk-cell[data-sq="{to}"]')
        expect(cell).to_have_class(re.compile(r"\bact-step\b"))
        cell.click()
        return f"step {to}"
    turn = s["turn"] or {}
    prefer = ["move"] if not turn.get("moved") and rng.random() < 0.7 else []
    prefer += ["end_move", "end_activation"]
    for kind in prefer:
        if kind in types:
            board.locator(f'.hk-actions button[data-type="{kind}"]').first.click()
            return kind
    if steps:  # standing on an ally's square: the move must go on
        to = steps[0]["args"]["to"]
        board.locator(f'.hk-cell[data-sq="{to}"]').click()
        return f"step {to}"
    # anything else the board offers as a button (the same command, unchanged)
    button = board.locator(".hk-actions button").first
    label = button.inner_text()
    button.click()
    return f"action: {label}"


def test_solo_harakiri_round_played_by_clicking_the_board(new_page):
    page = new_page()
    page.set_viewport_size({"width": 1440, "height": 900})
    sign_up(page, f"ronin-{uuid.uuid4().hex[:6]}")
    create_match(page, {"round_cap": 1}, game="harakiri", seats=1)
    wait_live(page)
    start = page.get_by_role("button", name="Start")
    expect(start).to_be_enabled()
    start.click()
    wait_live(page)
    mark_no_reload(page)

    board = page.locator("#board")
    # The board: a grid of squares with the four heroes and the enemies, the initiative queue,
    # the oracle and malice, the party sheets; no generic command buttons under it.
    expect(board.locator(".hk-grid .hk-cell").first).to_be_visible()
    squares = page.evaluate("Object.keys(window.KamizaMatch.doc.view.squares).length")
    assert board.locator(".hk-grid .hk-cell:not(.t-wall)").count() == squares
    expect(board.locator(".hk-grid .hk-mini.is-char")).to_have_count(4)
    assert board.locator(".hk-grid .hk-mini.is-enemy").count() >= 1
    expect(board.get_by_test_id("harakiri-initiative").locator(".hk-card").first).to_be_visible()
    expect(board.get_by_test_id("harakiri-oracle")).to_be_visible()
    expect(board.get_by_test_id("harakiri-malice")).to_be_visible()
    expect(board.get_by_test_id("harakiri-party").locator(".hk-hero")).to_have_count(4)
    expect(page.locator("#commands button")).to_have_count(0)
    # the status panel names the phase as the board's bar does
    bar_phase = board.locator(".hk-stat", has=page.locator(".hk-stat-label", has_text="Phase")).first.inner_text()
    expect(page.locator("#status-phase")).to_have_text(bar_phase.replace("Phase", "", 1).strip())

    rng = random.Random(20261129)
    done = []
    shot = False
    started = time.monotonic()
    for _ in range(MAX_ACTIONS):
        s = state(page)
        if s["finished"]:
            break
        assert time.monotonic() - started < TIME_BUDGET, f"the round took too long; last: {done[-10:]}"
        wait_settled(page, s["seq"])
        s = state(page)
        if s["finished"]:
            break
        assert s["awaiting"] == [0], f"a solo player should always be awaited, got {s}"
        if s["phase"] == "activation" and s["turn"] and s["turn"].get("kind") == "character":
            # the active character's initiative card is highlighted
            card = f'char:{s["turn"]["who"]}'
            expect(board.locator(f'.hk-queue .hk-card.is-active[data-card="{card}"]')).to_have_count(1)
        before = s["seq"]
        try:
            done.append(play_one_action(page, rng))
        except AssertionError as exc:
            raise AssertionError(f"could not play by clicking after {done[-10:]}: {exc}") from exc
        wait_settled(page, before + 1)
        assert_last_roll_shown(page)
        if not shot and len(done) >= 12 and not state(page)["finished"]:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "harakiri-board.png"), full_page=True)
            shot = True
    else:
        pytest.fail(f"the round did not end within {MAX_ACTIONS} clicks; last: {done[-10:]}")

    banner = page.get_by_test_id("harakiri-banner")
    expect(banner).to_contain_text("Game over")
    expect(banner).to_contain_text("round limit")
    expect(page.locator("#status-match")).to_have_text("finished")
    expect(board.locator(".hk-actions button, .hk-choice, button.hk-cell")).to_have_count(0)
    assert_not_reloaded(page)
    if not shot:
        SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "harakiri-board.png" if not shot else SHOTS / "harakiri-board-end.png"),
                    full_page=True)
    table_shot(page, "harakiri-end")
    # A phone: the board comes first and the whole grid fits 390 px without side scrolling.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(board.locator(".hk-grid")).to_be_visible()
    assert_fits_width(page)
    assert page.evaluate("document.querySelector('.board-card').getBoundingClientRect().top"
                         " < document.querySelector('.log-card').getBoundingClientRect().top")
    table_shot(page, "harakiri-390")
    assert page.console_errors == [], page.console_errors
    print(f"harakiri round played in {len(done)} clicks, {time.monotonic() - started:.1f}s")




def test_escape_cancels_an_attack_target_on_the_board(new_page, live_server_env):
    # Akira's activation with an ashigaru next to him (a prepared position, as staff load one): the
    # target's attack choices open on a click, and Escape closes them and unselects it
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    username = f"ronin-{uuid.uuid4().hex[:6]}"
    sign_up(page, username)
    match_id = create_match(page, {}, game="harakiri", seats=1)
    document = doc(arena(open_rows()), {"akira": {"sq": "2,2", "ap": 3}},
                   {"foe": {"type": "ashigaru", "color": "red", "at": "3,2"}}, activate="char:akira")
    load_scenario(live_server_env, match_id, username, document)
    page.goto(f"/matches/{match_id}/")
    wait_live(page)
    board = page.locator("#board")
    cell = board.locator('.hk-cell[data-sq="3,2"]')
    expect(cell).to_have_class(re.compile(r"\bact-attack\b"))
    cell.click()
    variants = board.locator(".hk-variant")
    expect(variants.first).to_be_visible()
    expect(cell).to_have_class(re.compile(r"\bis-selected\b"))
    page.keyboard.press("Escape")
    expect(variants).to_have_count(0)
    expect(cell).not_to_have_class(re.compile(r"\bis-selected\b"))
    cell.click()  # and the target can be chosen again
    expect(variants.first).to_be_visible()
