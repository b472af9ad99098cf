"""Yashima between two people in two browsers: each signs up in its own browser context, one creates
a 2-seat match with a round cap in the lobby, the other joins it from its lobby, and both play the
whole match only by clicking their own board (setup picks, hexes, arrows, hand cards, prompt
buttons; the click driving is test_yashima_board's) until the end screen shows in both.

After every click both pages are brought to the same seq and checked:
- the other page got the move live (over its socket, never reloaded: the event is in its log)
  and shows the same public board: the same view apart from what is a seat's own, the same
  miniatures at the same places with the same facings, the same life counts;
- each page only ever shows its own hand: its hand area holds exactly the cards of its own seat's
  hand, the other seat's hand is not in its document at all, and no card id and no card name of
  the other seat's hand shows in its hand area (unless it holds that card itself);
- at the end: every command either page sent was, unchanged, among the legal commands its document
  listed for its seat at that moment.

The match seed is the server's own (random per match), so the game differs from run to run; the
clicking is driven by a seeded random.Random, and the round cap bounds the game."""

import json
import random
import re
import time
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import load_scenario, SHOTS, assert_fits_width, table_shot
from .test_match_flow import assert_not_reloaded, mark_no_reload, sign_up, wait_live
from .test_yashima_board import STATE_JS, TAP_JS, create_yashima_match, expect_game_over, play_one

pytestmark = pytest.mark.e2e

MAX_ACTIONS = 400
TIME_BUDGET = 150  # seconds for the play loop
SYNC_TIMEOUT = 15  # seconds for a move to reach the other page

# The page's seq once it has nothing in flight and shows a decision for a person (or the end);
# null while it is still catching up, sending, or showing a SYSTEM step.
AT_REST_JS = """() => { const m = window.KamizaMatch; const y = window.KamizaYashima; const st = m.doc.status;
  const rest = m.doc.seq === m.lastSeq && m.pending.size === 0 && !(y && y.ui.busy)
    && (st.finished || (st.awaiting || []).some((s) => typeof s === "number"));
  return rest ? m.lastSeq : null; }"""
# What every seat may see, and must therefore see alike: the view less what is the seat's own (its
# seat, destiny token, prompts and their labelled choices, hand).
PUBLIC_JS = """() => { const m = window.KamizaMatch; const v = JSON.parse(JSON.stringify(m.doc.view));
  for (const own of ["seat", "destiny", "prompts", "choices"]) delete v[own]; for (const p of v.players) delete p.hand;
  const minis = [...document.querySelectorAll('#board .ys-mini')].map((g) => { const c = g.querySelector('circle');
    return [g.dataset.seat, g.dataset.facing, c.getAttribute('cx'), c.getAttribute('cy'), g.classList.contains('is-dead')]; });
  const lives = [...document.querySelectorAll('#board [data-testid=yashima-life]')].map((e) => e.textContent);
  return {seq: m.lastSeq, status: m.doc.status, view: v, minis, lives}; }"""
HAND_JS = """() => { const m = window.KamizaMatch; const d = m.doc; const players = d.view.players;
  return {seat: d.seat, own: (players[d.seat].hand || []).map((c) => [c.id, c.d]),
          others_listed: players.filter((p, i) => i !== d.seat && 'hand' in p).length,
          counts: players.map((p) => p.hand_count),
          shown: [...document.querySelectorAll('#board [data-testid=yashima-hand] .ys-card')].map((e) =>
            [e.dataset.cardId, e.dataset.d, e.querySelector('.nm').textContent])}; }"""
# Which of ``ids`` appear anywhere in the page: its DOM (board, log) or its match document.
FIND_IDS_JS = """(ids) => { const text = document.documentElement.outerHTML + JSON.stringify(window.KamizaMatch.doc);
  return ids.filter((id) => text.includes(id)); }"""


def wait_at_rest(page, after=None, seq=None, timeout=SYNC_TIMEOUT):
    """The page at rest (see AT_REST_JS) past seq ``after`` or exactly at ``seq``; returns its seq."""
    deadline = time.monotonic() + timeout
    while True:
        at = page.evaluate(AT_REST_JS)
        if at is not None and (after is None or at > after) and (seq is None or at == seq):
            return at
        assert seq is None or at is None or at <= seq, f"the page ran past seq {seq} to {at} on its own"
        assert time.monotonic() < deadline, f"page not at rest (after={after}, seq={seq}) within {timeout}s"
        page.wait_for_timeout(25)


def assert_same_public_board(a, b):
    pa, pb = a.evaluate(PUBLIC_JS), b.evaluate(PUBLIC_JS)
    assert pa["seq"] == pb["seq"]
    assert pa["status"] == pb["status"]
    assert pa["view"] == pb["view"], "the two seats see different public boards"
    assert pa["minis"] == pb["minis"] and pa["lives"] == pb["lives"], (pa["minis"], pb["minis"], pa["lives"], pb["lives"])
    return pa


def card_names(page):
    """Card kind -> its name, from the content pack the board itself loads."""
    resp = page.request.get("/api/games/yashima/content/")
    assert resp.ok, resp.status
    pack = resp.json()
    names = {c["id"]: c["name"] for group in ("masters", "kami") for owner in pack[group] for c in owner["cards"]}
    distinct = set(names.values())
    # so that a name found in the hand area's text is that card's, not part of another's
    assert not [(x, y) for x in distinct for y in distinct if x != y and x in y]
    return names


def assert_own_hand_only(page, other_page, names):
    """``page`` shows its own hand and nothing of ``other_page``'s; returns its hand size."""
    mine, theirs = page.evaluate(HAND_JS), other_page.evaluate(HAND_JS)
    assert mine["others_listed"] == 0, "another seat's hand is in this page's document"
    assert [s[:2] for s in mine["shown"]] == mine["own"], "the hand area is not this seat's own hand"
    assert len(mine["own"]) == theirs["counts"][mine["seat"]], "the other seat counts a different hand"
    own_ids, their_ids = [cid for cid, _ in mine["own"]], [cid for cid, _ in theirs["own"]]
    assert not set(their_ids) & set(own_ids), "one card id in two hands"
    assert page.evaluate(FIND_IDS_JS, own_ids) == own_ids  # the search below does find ids in the page
    leaked = page.evaluate(FIND_IDS_JS, their_ids)
    assert not leaked, f"seat {mine['seat']}'s page shows seat {theirs['seat']}'s hand card ids {leaked}"
    # Names: the hand area names this seat's cards, and no name that only the other hand holds.
    shown_names = [name for *_, name in mine["shown"]]
    assert shown_names == [names[d] for _, d in mine["own"]], shown_names
    their_names = {names[d] for _, d in theirs["own"]} - set(shown_names)
    hand_text = page.get_by_test_id("yashima-hand").text_content()
    assert not [n for n in their_names if n in hand_text], (their_names, hand_text)
    return len(mine["own"])


def test_two_people_play_yashima_in_two_browsers(new_page, record_property):
    a, b = new_page(), new_page()
    b.set_viewport_size({"width": 390, "height": 844})  # B plays the whole game on a phone-sized screen
    alice, bob = f"aoi-{uuid.uuid4().hex[:6]}", f"botan-{uuid.uuid4().hex[:6]}"
    b.add_init_script("window.KamizaLobbyRefreshMs = 500")
    sign_up(a, alice)
    sign_up(b, bob)
    b.goto("/lobby/")  # B waits in the lobby

    match_id = create_yashima_match(a)
    wait_live(a)
    row = b.locator(f'tr[data-match-id="{match_id}"]')
    expect(row).to_contain_text(alice)  # the new match reached B's lobby without a reload
    row.get_by_role("button", name=re.compile("^Join")).click()
    b.wait_for_url(f"**/matches/{match_id}/")
    wait_live(b)
    expect(a.locator("#seats li").nth(1)).to_contain_text(bob)
    start = a.get_by_role("button", name="Start")
    expect(start).to_be_enabled()
    start.click()  # a form post: A's page reloads; B's gets the start over its socket
    wait_live(a)
    expect(b.locator("#status-match")).to_have_text("active")
    pages = {0: a, 1: b}
    for page in pages.values():
        mark_no_reload(page)
        page.evaluate(TAP_JS)
        assert page.evaluate(STATE_JS)["seat"] in pages
    assert a.evaluate(STATE_JS)["seat"] == 0 and b.evaluate(STATE_JS)["seat"] == 1
    expect(a.get_by_test_id("yashima-prompt")).to_contain_text("pick your master")

    rng = random.Random(20261130)
    done = {0: [], 1: []}
    log, phases, hand_sizes, started = [], set(), set(), time.monotonic()
    names = card_names(a)
    seq = wait_at_rest(a)
    for _ in range(MAX_ACTIONS):
        for page in pages.values():  # the page that did not move may have the event before its document
            wait_at_rest(page, seq=seq)
        public = assert_same_public_board(a, b)
        for seat, page in pages.items():
            hand_sizes.add(assert_own_hand_only(page, pages[1 - seat], names))
        if public["status"]["finished"]:
            break
        assert time.monotonic() - started < TIME_BUDGET, f"too slow; last actions: {log[-10:]}"
        awaited = sorted(s for s in public["status"]["awaiting"] if s in pages)
        if public["status"]["phase"] not in phases and public["status"]["phase"] in ("destiny", "battle"):
            assert_fits_width(b)  # the whole map (every board placed) fits 390 px
            table_shot(b, f"yashima-390-{public['status']['phase']}")
        phases.add(public["status"]["phase"])
        seat = rng.choice(awaited)  # destiny / reconcile: both are awaited at once
        page, other = pages[seat], pages[1 - seat]
        s = page.evaluate(STATE_JS)
        assert s["seq"] == seq and s["legal"], f"seat {seat} awaited with nothing to click; last: {log[-5:]}"
        assert other.evaluate(STATE_JS)["legal"] == [] or len(awaited) == 2
        try:
            action = play_one(page, s, rng, done[seat])
        except AssertionError as exc:
            raise AssertionError(f"seat {seat}: {exc}; last actions: {log[-10:]}") from exc
        done[seat].append(f"{s['phase']}: {action}")
        log.append(f"{seat} {s['phase']}: {action}")
        seq = wait_at_rest(page, after=seq)
        # The other page shows the move without reloading (checked above at that seq, and below).
        expect(other.locator(f'#log li.event[data-seq="{seq}"]')).to_have_count(1, timeout=SYNC_TIMEOUT * 1000)
    else:
        pytest.fail(f"the match did not end within {MAX_ACTIONS} actions; last: {log[-10:]}")

    assert_fits_width(b)
    for seat, page in pages.items():
        expect_game_over(page)
        assert_not_reloaded(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"yashima-two-browsers-seat{seat}.png"), full_page=True)

        # Every command that left this page was one of its seat's legal commands, unchanged.
        sent = page.evaluate("window.__sent")
        auto = any(d.endswith("lose all") for d in done[seat])  # one click sent one LOSE per card
        assert len(sent) == len(done[seat]) if not auto else len(sent) >= len(done[seat]), (seat, len(sent), len(done[seat]))
        for item in sent:
            assert item["cmd"] in json.loads(item["legal"]), (seat, item["cmd"])
        assert page.console_errors == [], (seat, page.console_errors)

    record_property("actions", f"{len(done[0])}+{len(done[1])}")
    record_property("phases", sorted(phases))
    assert done[0] and done[1], "both people played"
    assert {"setup", "destiny", "battle"} <= phases, phases
    assert any(" battle: " in x and (" attack " in x or " step " in x or " end move " in x) for x in log), log
    assert max(hand_sizes) > 0, "the hands were checked while holding cards"


# -- the decision clock on a defense prompt -----------------------------------------------------

def _card(cid, **kw):
    return {"id": cid, "name": cid, "owner": "test", "karma": 3, "atk": 3, "pattern": "jab", "attack": [], **kw}


# Akiko (seat 0, her turn) stands right behind Rosamu (seat 1) with two jab attacks in hand; Rosamu
# holds a BLOCK. A 90 s defense clock: long enough never to run out during the test.
DUEL = {
    "map": {"radius": 3}, "options": {"defense_seconds": 90},
    "custom_cards": {"strike": _card("strike"), "parry": _card("parry", karma=2, atk=1, defense="BLOCK")},
    "players": [
        {"master": "akiko", "kami": "tiger", "pos": "0,0", "facing": 0, "deck": ["strike"] * 8, "hand": ["strike", "strike"]},
        {"master": "rosamu", "kami": "dragon", "pos": "0,-1", "facing": 3, "deck": ["strike"] * 8, "hand": ["parry", "strike"]},
    ],
    "phase": "battle", "turn": 0, "pool": {"move": 1, "attack": 1},
}
CLOCK_JS = """() => { const c = document.querySelector('#board [data-testid=yashima-clock]');
  return c && {text: c.textContent, left: c.querySelector('[data-due-at]').textContent,
               due: c.querySelector('[data-due-at]').dataset.dueAt, mine: c.dataset.mine === '1'}; }"""


def seconds(face):
    minutes, secs = face.split(":")
    return int(minutes) * 60 + int(secs)


def wait_ticked(page, left):
    """The page's clock counter shows something other than ``left`` (it ticks on its own); returns it."""
    page.wait_for_function("(left) => { const c = document.querySelector('#board .ys-clock-left');"
                           " return c && c.textContent !== left; }", arg=left, timeout=5_000)
    return page.evaluate(CLOCK_JS)


def test_defense_prompt_counts_down_for_the_defender_and_shows_who_decides(new_page, live_server_url, live_server_env):
    """Seat 0 attacks seat 1 from a scenario with a 90 s defense clock. Before any hover, seat 0's
    attack cards are marked as reaching Rosamu, and once one is chosen the facing that hits her is
    marked. Seat 1's prompt says "Defend within m:ss — otherwise: No defense", each option says what it
    does, and it ticks down every second without the board being rebuilt (the prompt node and the
    focused button stay); seat 0 sees "Rosamu ... deciding (m:ss)"; seat 1's history tells the attack
    in words. After "No defense" the LOSE prompt gets a fresh clock whose passive choice is the deck's
    top card, and one click loses the rest from the deck top."""
    a, b = new_page(), new_page()
    alice, bob = f"aoi-{uuid.uuid4().hex[:6]}", f"botan-{uuid.uuid4().hex[:6]}"
    sign_up(a, alice)
    sign_up(b, bob)
    match_id = create_yashima_match(a, {"defense_seconds": 90})  # the lobby passes Yashima's options
    b.goto(f"/matches/{match_id}/")
    b.get_by_role("button", name="Join").click()
    wait_live(b)
    load_scenario(live_server_env, match_id, alice, DUEL)
    for page in (a, b):
        page.goto(f"/matches/{match_id}/")
        wait_live(page)
    expect(a.get_by_test_id("yashima-prompt")).to_contain_text("Your turn")
    assert a.evaluate(CLOCK_JS) is None and b.evaluate(CLOCK_JS) is None  # no turn clock: nothing counts
    mark_no_reload(b)

    # Reach marks, before any hover: both jabs reach Rosamu (right in front), with one facing each.
    card = a.locator('#board .ys-card.is-playable[data-card-id="0h0"]')
    expect(card).to_have_class(re.compile(r"\bis-reach\b"))
    expect(card.get_by_test_id("yashima-reach")).to_have_text(f"⚔ reaches {bob} (1 facing)")
    expect(a.get_by_test_id("yashima-prompt")).to_contain_text("2 marked ⚔ reach an opponent")
    card.click()
    expect(a.locator("#board .ys-arrow")).to_have_count(6)
    a.keyboard.press("Escape")  # cancels the selection
    expect(a.locator("#board .ys-arrow")).to_have_count(0)
    card.focus()
    a.keyboard.press("Enter")  # the same by keyboard
    expect(a.locator("#board .ys-arrow")).to_have_count(6)
    expect(a.locator("#board .ys-arrow.is-reach")).to_have_count(1)
    expect(a.locator('#board .ys-arrow.is-reach[data-facing="0"]')).to_have_attribute("aria-label", re.compile(f"hits {bob}$"))
    table_shot(a, "yashima-reach-marks")
    a.locator('#board .ys-arrow[data-facing="0"]').click()

    expect(b.get_by_test_id("yashima-prompt")).to_contain_text("You are targeted")
    # the attacker's move, in words, in the defender's history and above the board
    told = re.compile(rf"{alice} attacks {bob} with .+ facing up: 3 damage before defenses")  # (a scenario's own card is "a card")
    expect(b.locator('#log li[data-type="AttackDeclared"]')).to_have_text(told)
    expect(b.get_by_test_id("last-move")).to_contain_text(told)
    # every option says what it does
    options = b.get_by_test_id("yashima-options")
    expect(options.locator("button", has_text="Defend with parry")).to_contain_text("USE this card: prevent 3 damage: you take 0")
    expect(options.locator("button", has_text="No defense")).to_contain_text("You LOSE 3 cards")
    clock = b.get_by_test_id("yashima-clock")
    expect(clock).to_contain_text(re.compile(r"^Defend within \d:\d\d — otherwise: No defense$"))
    first = b.evaluate(CLOCK_JS)
    assert first["mine"] and 80 <= seconds(first["left"]) <= 90, first
    b.locator('#board [data-testid=yashima-options] button', has_text="No defense").focus()
    b.evaluate("window.__promptNode = document.querySelector('#board [data-testid=yashima-prompt]')")
    later = wait_ticked(b, first["left"])
    assert seconds(later["left"]) < seconds(first["left"]) and later["due"] == first["due"], (first, later)
    assert b.evaluate("""() => document.contains(window.__promptNode)
        && document.activeElement.querySelector('.ys-opt-label').textContent === 'No defense'"""), "the tick rebuilt the board"

    expect(a.get_by_test_id("yashima-clock")).to_contain_text(re.compile(rf"^Rosamu \({bob}\) deciding \(\d:\d\d\)$"))
    watched = a.evaluate(CLOCK_JS)
    assert not watched["mine"] and watched["due"] == first["due"]
    assert seconds(wait_ticked(a, watched["left"])["left"]) < seconds(watched["left"])

    table_shot(b, "yashima-defense")
    b.keyboard.press("Enter")  # the focused "No defense"
    expect(b.get_by_test_id("yashima-prompt")).to_contain_text("You LOSE 3")
    expect(clock).to_contain_text(re.compile(r"^Decide within \d:\d\d — otherwise: Lose the top card of the deck$"))
    fresh = b.evaluate(CLOCK_JS)
    assert fresh["due"] > first["due"] and 80 <= seconds(fresh["left"]) <= 90, (first, fresh)
    assert_not_reloaded(b)
    SHOTS.mkdir(parents=True, exist_ok=True)
    b.screenshot(path=str(SHOTS / "yashima-defense-clock.png"), full_page=True)
    # One click loses the rest from the deck top: three LOSE commands, no click per card.
    lost_before = b.evaluate("window.KamizaMatch.doc.view.players[1].discard.length")
    b.locator("#board [data-action=lose-all]").click()
    expect(b.get_by_test_id("yashima-prompt")).not_to_contain_text("You LOSE")
    b.wait_for_function("(n) => window.KamizaMatch.doc.view.players[1].discard.length === n + 3", arg=lost_before)
    expect(b.locator("#board [data-testid=yashima-life]").nth(1)).to_have_text("Life 7")  # 8 deck + 2 hand - 3
    assert a.console_errors == [] and b.console_errors == [], (a.console_errors, b.console_errors)
