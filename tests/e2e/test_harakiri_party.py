"""Harakiri with a party of two players in two browsers: one creates a two-seat match whose
``control`` option gives each seat two characters, the other joins, the match starts, and each
browser plays only its own characters' activations by clicking on the board (party decisions are
the leader's, seat 0). The enemies and the oracle are played by the platform's worker task
(eager in the embedded server) in between; both browsers see those SYSTEM steps live.

Checked at every step: both browsers show the same seq; only the awaited seat's browser has any
control on the board (the other shows no action, decision, attack or square button and its
legal_commands are empty); the awaited seat controls the active character. Every command the
browsers send over the socket is one of the legal_commands the page held at that seq. At the end:
the SYSTEM events of the log (oracle draws, enemy activations) carry the system actor, the others
the seat that played; enemy activations reached both pages live (the generic log and the board's
activation feed, without reload) and the enemies' tokens sit where the view says; both rounds end
in both browsers."""

import json
import random
import re
import time
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS
from .test_harakiri_board import play_one_action, state, wait_settled
from .test_match_flow import assert_not_reloaded, create_match, mark_no_reload, sign_up, wait_live

pytestmark = pytest.mark.e2e

CONTROL = {"akira": 0, "hattori": 0, "hikaru": 1, "tomoe": 1}  # not the round-robin default
ROUND_CAP = 2  # the second round is played entirely after both pages went live
MAX_ACTIONS = 400
TIME_BUDGET = 150  # seconds for the rounds themselves
CONTROLS = ".hk-actions button, .hk-choice, .hk-variant, .hk-reroll, [data-action], button.hk-cell"
# What the enemies and the oracle do (an enemy's counter attack on a character's critical fail is
# part of that character's attack)
SYSTEM_EVENTS = {"OracleDrawn", "OracleReshuffled", "EventRevealed", "EnemyActivated", "EnemyLineChosen"}

# Every line the page's "last move" box above the board ever showed, gathered as it re-renders.
FEED_OBSERVER = """
window.__hkFeedSeen = new Set();
new MutationObserver((muts) => {
  for (const m of muts) for (const n of m.addedNodes) {
    if (n.nodeType !== 1) continue;
    const lis = n.matches('#last-move li') ? [n] : n.querySelectorAll('#last-move li');
    for (const li of lis) window.__hkFeedSeen.add(li.textContent);
  }
}).observe(document, {childList: true, subtree: true});
"""
ENEMY_SQUARES_JS = """() => Object.fromEntries([...document.querySelectorAll('#board .hk-grid .hk-mini.is-enemy')]
  .map((m) => [m.dataset.mini, m.closest('.hk-cell').dataset.sq]))"""


def record_sent_commands(page, sent):
    """Collect every command this page sends over the match socket: (expected_seq, type, args)."""

    def on_socket(ws):
        def on_frame(payload):
            msg = json.loads(payload)
            if msg.get("type") == "command":
                sent.append((msg["expected_seq"], msg["command"]["type"], msg["command"].get("args", {})))

        ws.on("framesent", on_frame)

    page.on("websocket", on_socket)


def two_recorded_players(a, b, prefixes, height: int, init_script: str):
    """A and B's pages at 1440 x ``height`` px running ``init_script``, each recording the commands it
    sends (``record_sent_commands``), signed up as new players named after ``prefixes``: (sent, names)."""
    for page in (a, b):
        page.set_viewport_size({"width": 1440, "height": height})
        page.add_init_script(init_script)
    sent = [[], []]
    record_sent_commands(a, sent[0])
    record_sent_commands(b, sent[1])
    names = [f"{prefix}-{uuid.uuid4().hex[:6]}" for prefix in prefixes]
    sign_up(a, names[0])
    sign_up(b, names[1])
    return sent, names


def assert_sent_were_legal(sent, played, legal_at):
    """Every command each seat's page sent (``record_sent_commands``) was one of the legal commands
    that page held at that seq, one per click."""
    for seat in (0, 1):
        assert len(sent[seat]) == played[seat], f"seat {seat}: {played[seat]} clicks sent {len(sent[seat])} commands"
        for seq, type_, args in sent[seat]:
            legal = legal_at[seat].get(seq)
            assert legal is not None, f"seat {seat} sent {type_} at seq {seq}, where it was not awaited"
            assert {"type": type_, "args": args} in legal, f"seat {seat} sent {type_} {args}, not in {legal}"


def all_events(page, match_id):
    """The whole log as this page's user reads it (/events/ is paged: follow `next`)."""
    events, url = [], f"/api/matches/{match_id}/events/?limit=500"
    while url:
        body = page.request.get(url).json()
        events += body["events"]
        url = body["next"]
    return events


def match_detail(page, match_id):
    resp = page.request.get(f"/api/matches/{match_id}/")
    assert resp.ok, resp.status
    return resp.json()


def settle_both(pages, match_id):
    """Wait until the workers are done (nothing awaits the system) and both pages show that seq."""
    deadline = time.monotonic() + 15
    while True:
        detail = match_detail(pages[0], match_id)
        if "system" not in detail["awaiting"]:
            break
        assert time.monotonic() < deadline, f"the worker never took the SYSTEM step: {detail}"
        time.sleep(0.1)
    for page in pages:
        wait_settled(page, detail["seq"])
    states = [state(page) for page in pages]
    assert [s["seq"] for s in states] == [detail["seq"]] * len(pages), (detail["seq"], states)
    return detail, states


def assert_controls_only_for_the_awaited(pages, states, view, awaited):
    for seat, (page, s) in enumerate(zip(pages, states)):
        board = page.locator("#board")
        if seat in awaited:
            assert s["legal"], f"seat {seat} is awaited with nothing to do: {s}"
            continue
        assert s["legal"] == [], f"seat {seat} is not awaited but holds commands: {s['legal']}"
        expect(board.locator(CONTROLS)).to_have_count(0)
        expect(board.get_by_test_id("harakiri-prompt")).to_contain_text("Waiting for")
    turn = view.get("turn") or {}
    if view.get("pending"):
        pending = view["pending"]
        expected = [0] if pending["by"] == "party" else [pending["by"]]
        assert awaited == expected, f"decision {pending['kind']} by {pending['by']} awaits {awaited}"
    elif view.get("attack"):
        assert awaited == [CONTROL[view["attack"]["attacker"]]]
    elif turn.get("kind") == "character":
        assert awaited == [CONTROL[turn["who"]]], f"{turn['who']}'s activation awaits {awaited}"
        # the active character's card is highlighted in both browsers
        card = f'#board .hk-queue .hk-card.is-active[data-card="char:{turn["who"]}"]'
        for page in pages:
            expect(page.locator(card)).to_have_count(1)


def test_two_players_each_play_their_two_characters_while_the_worker_plays_the_enemies(new_page):
    play_party_rounds(new_page(), new_page())


def play_party_rounds(a, b):
    """The whole scenario above, with A and B's pages open on whichever server(s) the caller chose
    (the distributed suite puts them on two servers with a real Celery worker)."""
    pages = [a, b]
    sent, names = two_recorded_players(a, b, ("leader", "ally"), 900, FEED_OBSERVER)

    # "Who plays each hero" in the lobby's form: one choice of player per hero in play
    match_id = create_match(a, {"round_cap": ROUND_CAP, "control": CONTROL}, game="harakiri", seats=2)
    wait_live(a)

    b.goto(f"/matches/{match_id}/")
    b.locator("#lobby-actions").get_by_role("button", name="Join").click()
    b.wait_for_url(f"**/matches/{match_id}/")
    wait_live(b)
    expect(b.locator("#status-seat")).to_contain_text("(seat 2)")
    mark_no_reload(b)
    start = a.get_by_role("button", name="Start")
    expect(start).to_be_enabled()
    start.click()  # a form post: A's page reloads, B's must not
    wait_live(a)
    expect(a.locator("#status-seat")).to_contain_text("(seat 1)")
    mark_no_reload(a)
    for page in pages:
        expect(page.locator("#status-match")).to_have_text("active")
        expect(page.locator("#board .hk-grid .hk-mini.is-char")).to_have_count(4)
        expect(page.locator("#commands button")).to_have_count(0)
    detail, states = settle_both(pages, match_id)
    live_from = detail["seq"]  # both pages are live and unreloaded from here on
    for page in pages:
        page.evaluate("window.__hkFeedSeen.clear()")
        # each hero sheet names its controller: the option was applied
        for hero, seat in CONTROL.items():
            you = " (you)" if page is pages[seat] else ""
            expect(page.locator(f'#board .hk-hero[data-character="{hero}"] header')).to_have_text(
                re.compile(re.escape(f" · {names[seat]}{you}") + "$"))
    assert a.evaluate("window.KamizaMatch.doc.view.control") == CONTROL

    rng = random.Random(20261129)
    legal_at = [{}, {}]  # per seat: seq -> the legal commands its page held
    played = {0: 0, 1: 0}
    party_decisions = 0
    enemy_moves_seen = [0, 0]
    last_squares = [page.evaluate(ENEMY_SQUARES_JS) for page in pages]
    done = []
    started = time.monotonic()
    for _ in range(MAX_ACTIONS):
        detail, states = settle_both(pages, match_id)
        view = a.evaluate("window.KamizaMatch.doc.view")
        for i, page in enumerate(pages):
            squares = page.evaluate(ENEMY_SQUARES_JS)
            expect_squares = {e: en["sq"] for e, en in view["enemies"].items() if en.get("sq")}
            assert squares == expect_squares, f"seat {i}'s board shows enemies at {squares}, the view {expect_squares}"
            enemy_moves_seen[i] += sum(1 for e, sq in squares.items() if last_squares[i].get(e) not in (None, sq))
            last_squares[i] = squares
        if states[0]["finished"]:
            assert states[1]["finished"]
            break
        assert time.monotonic() - started < TIME_BUDGET, f"the rounds took too long; last: {done[-10:]}"
        awaited = states[0]["awaiting"]
        assert awaited == states[1]["awaiting"] and len(awaited) == 1 and awaited[0] in (0, 1), awaited
        assert_controls_only_for_the_awaited(pages, states, view, awaited)
        seat = awaited[0]
        page = pages[seat]
        party_decisions += bool(view.get("pending")) and view["pending"]["by"] == "party"
        legal_at[seat][detail["seq"]] = states[seat]["legal"]
        try:
            done.append(f"seat {seat}: {play_one_action(page, rng)}")
        except AssertionError as exc:
            raise AssertionError(f"seat {seat} could not play by clicking after {done[-10:]}: {exc}") from exc
        played[seat] += 1
        wait_settled(page, detail["seq"] + 1)
    else:
        pytest.fail(f"the match did not end within {MAX_ACTIONS} clicks; last: {done[-10:]}")

    # Both seats played, and every command a browser sent was listed for it at that seq.
    assert played[0] > 0 and played[1] > 0, played
    assert_sent_were_legal(sent, played, legal_at)

    # The log: SYSTEM steps carry the system actor (the worker), the players' commands their seat.
    events = all_events(a, match_id)
    by_type = {}
    for ev in events:
        by_type.setdefault(ev["type"], []).append(ev)
    assert len(by_type["OracleDrawn"]) == ROUND_CAP and len(by_type["RoundEnded"]) == ROUND_CAP
    activations = by_type["EnemyActivated"]
    for ev in events:
        if ev["type"] in SYSTEM_EVENTS or (ev["type"] == "EnemyAttackRolled" and not ev["payload"]["counter"]):
            assert ev["actor"]["kind"] == "worker" and ev["actor"]["seat"] == "system", ev
    steps = [ev for ev in by_type.get("CreatureMoved", []) if ev["payload"].get("who") in CONTROL
             and "cost" in ev["payload"]]
    assert steps, "no character stepped"
    for ev in steps:  # a character's step is its controller's command
        assert ev["actor"]["kind"] == "user" and ev["actor"]["seat"] == CONTROL[ev["payload"]["who"]], ev
    seats_seen = {ev["actor"]["seat"] for ev in events if ev["actor"]["kind"] == "user" and ev["seq"] > live_from}
    assert seats_seen == {0, 1}, seats_seen

    # Enemy activations reached both browsers live: in the history, as the game's own steps, and in
    # the last-move box above the board; and any enemy token that moved was seen moving in both.
    live = [ev for ev in activations if ev["seq"] > live_from]
    assert live, f"no enemy activated after both pages went live (seq {live_from})"
    for page in pages:
        for ev in live:
            entry = page.locator(f'#log li.event[data-seq="{ev["seq"]}"]')
            expect(entry).to_have_attribute("data-type", "EnemyActivated")
            expect(entry).to_contain_text(" activates")
            assert page.evaluate("(q) => window.KamizaMatch.events.get(q).actor.seat", ev["seq"]) == "system"
        feed = page.evaluate("[...window.__hkFeedSeen]")
        assert any(" activates" in line for line in feed), feed
    enemy_ids = set(view["enemies"]) | {ev["payload"].get("enemy") for ev in activations}
    moved = [ev for ev in by_type.get("CreatureMoved", []) if ev["seq"] > live_from
             and ev["payload"].get("who") in enemy_ids and ev["actor"]["seat"] == "system"]
    if moved:
        assert enemy_moves_seen[0] > 0 and enemy_moves_seen[1] > 0, (len(moved), enemy_moves_seen)

    # Both rounds ended in both browsers, live.
    for page in pages:
        expect(page.locator('#log li.event[data-type="RoundEnded"]')).to_have_count(ROUND_CAP)
        banner = page.get_by_test_id("harakiri-banner")
        expect(banner).to_contain_text("Game over")
        expect(banner).to_contain_text("round limit")
        expect(page.locator("#status-match")).to_have_text("finished")
        expect(page.locator("#board").locator(CONTROLS)).to_have_count(0)
        assert_not_reloaded(page)
        assert page.console_errors == [], page.console_errors
    SHOTS.mkdir(parents=True, exist_ok=True)
    b.screenshot(path=str(SHOTS / "harakiri-party.png"), full_page=True)
    print(f"harakiri party: {played} clicks per seat ({party_decisions} party decisions by the leader), "
          f"{len(live)} live enemy activations, "
          f"enemy moves seen {enemy_moves_seen}, {time.monotonic() - started:.1f}s")
