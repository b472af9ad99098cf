"""Yashima in a real browser against a bot: sign up, create a 2-seat match with a round cap from the
lobby, add a bot, start, and play to the end only through the board's own controls (master/kami
buttons, the terrain board pictures, slot and rotation with the board previewed on the map,
highlighted hexes, facing arrows, hand card -> facing arrow for attacks, labelled buttons for
everything else). Every click must send exactly a command the page's document listed."""

import json
import random
import re
import time
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, table_shot
from .test_match_flow import assert_not_reloaded, create_match, mark_no_reload, sign_up, wait_live

pytestmark = pytest.mark.e2e

MAX_ACTIONS = 400
TIME_BUDGET = 150  # seconds for the play loop
PASSIVE = ["end_turn", "no_defense", "end_reconcile", "skip_effect", "take_token", "decline_chain", "done", "stay"]

SETTLED_JS = """() => { const m = window.KamizaMatch; const y = window.KamizaYashima;
  return m.doc.seq === m.lastSeq && m.pending.size === 0 && !(y && y.ui.busy)
    && (m.doc.status.finished || (m.doc.status.awaiting || []).includes(m.doc.seat)); }"""
STATE_JS = """() => { const m = window.KamizaMatch; const d = m.doc;
  return {seq: m.lastSeq, finished: !!d.status.finished, phase: d.status.phase, legal: d.legal_commands || [],
          awaiting: d.status.awaiting || [], seat: d.seat}; }"""
# Every command the page sends, recorded on the way out (wrapping the socket's send).
TAP_JS = """() => { const s = window.KamizaMatch.socket; const orig = s.send.bind(s); window.__sent = [];
  s.send = (msg) => { if (msg && msg.type === 'command') window.__sent.push({cmd: msg.command,
    legal: JSON.stringify(window.KamizaMatch.doc.legal_commands)}); return orig(msg); }; }"""


def create_yashima_match(page, options=None):
    return create_match(page, {"round_cap": 2} if options is None else options, game="yashima")


def expect_game_over(page):
    """The end screen: the banner names the winners (or a draw), the match is finished, no controls."""
    banner = page.get_by_test_id("yashima-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Game over")
    expect(banner).to_contain_text(re.compile(r"wins?!|draw"))
    expect(page.locator("#status-match")).to_have_text("finished")
    expect(page.locator("#board .ys-card.is-playable, #board .ys-arrow, #board [data-testid=yashima-options]")).to_have_count(0)


def click_option(page, index):
    """Click the labelled button of legal command number ``index`` (its data-cmd is that command).
    Found by that attribute at each try, so that a live update redrawing the board between finding
    and clicking (it happened under a loaded machine) makes the click find the new button."""
    want = page.evaluate("(i) => JSON.stringify(window.KamizaMatch.doc.legal_commands[i])", index)
    quoted = want.replace("\\", "\\\\").replace('"', '\\"')
    button = page.locator(f'#board [data-testid=yashima-options] button[data-cmd="{quoted}"]')
    assert button.count(), f"no button for legal command #{index}"
    button.first.click()


# Where the board offers legal command number i: on a hex (its own classify() puts a command there
# when it is the hex's only one) or as a labelled button.
OFFERED_ON_JS = """(i) => { const doc = window.KamizaMatch.doc; const want = JSON.stringify(doc.legal_commands[i]);
  for (const [cell, cmd] of window.KamizaYashima.classify(doc).cells) if (JSON.stringify(cmd) === want) return cell;
  return null; }"""


def click_command(page, index):
    """Click legal command number ``index`` where the board offers it: its hex, else its button."""
    cell = page.evaluate(OFFERED_ON_JS, index)
    if cell is None:
        click_option(page, index)
    else:
        page.locator(f'#board .ys-cell.is-target[data-cell="{cell}"]').click()


def play_one(page, s, rng, done):
    legal = s["legal"]
    board = page.locator("#board")
    types = {}
    for i, cmd in enumerate(legal):
        types.setdefault(cmd["type"], []).append(i)
    if "pick" in types:
        cmd = legal[rng.choice(types["pick"])]
        board.locator(f'[data-master="{cmd["args"]["master"]}"]').click()
        board.locator(f'[data-kami="{cmd["args"]["kami"]}"]').click()
        return f"pick {cmd['args']}"
    if "choose_board" in types:  # a picture of each board side
        cmd = legal[rng.choice(types["choose_board"])]
        board.locator(f'[data-testid=yashima-boards] [data-board="{cmd["args"]["board"]}"][data-side="{cmd["args"]["side"]}"]').click()
        return f"board {cmd['args']}"
    if "place_board" in types:  # slot, rotation (previewed on the map as 19 dashed spaces), then place
        cmd = legal[rng.choice(types["place_board"])]
        placing = board.get_by_test_id("yashima-placement")
        placing.locator(f'[data-slot="{cmd["args"]["slot"]}"]').click()
        placing.locator(f'[data-rotation="{cmd["args"]["rotation"]}"]').click()
        expect(board.locator(".ys-map .ys-cell.is-ghost")).to_have_count(19)
        placing.locator("[data-action=place-board]").click()
        return f"place board {cmd['args']}"
    if "place_miniature" in types:
        cmd = legal[rng.choice(types["place_miniature"])]
        cell = board.locator(f'.ys-cell.is-target[data-cell="{cmd["args"]["cell"]}"]')
        expect(cell).to_have_count(1)
        cell.click()
        # the chosen space's label moves to the middle of its hex, inside the six facing arrows' tails
        expect(board.locator(f'.ys-space-tag[data-of="{cmd["args"]["cell"]}"]')).to_have_attribute("data-slot", "centre")
        page.mouse.move(0, 0)  # no tooltip over the map
        board.locator(".ys-map").screenshot(path=str(SHOTS / "yashima-place-miniature-arrows.png"))
        board.locator(f'.ys-arrow[data-facing="{cmd["args"]["facing"]}"]').click()
        return f"place {cmd['args']}"
    if "attack" in types and (rng.random() < 0.7 or not any("attack facing" in d for d in done)):
        cmd = legal[rng.choice(types["attack"])]
        board.locator(f'.ys-card.is-playable[data-card-id="{cmd["args"]["card"]}"]').click()
        arrow = board.locator(f'.ys-arrow[data-facing="{cmd["args"]["facing"]}"]')
        arrow.hover()
        expect(board.locator(f'.ys-arrow.is-hover[data-facing="{cmd["args"]["facing"]}"]')).to_have_count(1)
        arrow.click()
        return f"attack facing {cmd['args']['facing']}"
    steps = types.get("step", [])
    if steps and rng.random() < 0.6:
        i = rng.choice(steps)
        click_command(page, i)
        return f"step {legal[i]['args']['to']}"
    if "end_move" in types:
        cmd = legal[rng.choice(types["end_move"])]
        board.locator(f'.ys-arrow[data-facing="{cmd["args"]["facing"]}"][data-cmd-type="end_move"]').click()
        return f"end move facing {cmd['args']['facing']}"
    if "move_action" in types and (rng.random() < 0.4 or not any(d.startswith("battle: step") for d in done)):
        click_option(page, types["move_action"][0])
        return "move action"
    if "draw" in types and rng.random() < 0.8:
        click_option(page, types["draw"][0])
        return "draw"
    if "lose_card" in types and rng.random() < 0.3 and page.locator("#board [data-action=lose-all]").count():
        page.locator("#board [data-action=lose-all]").click()  # one click: the rest go from the deck top
        return "lose all"
    clickable = [i for i, c in enumerate(legal) if c["type"] not in ("step", "attack", "chain_attack")]
    passive = [i for t in PASSIVE for i in types.get(t, [])]
    i = passive[0] if passive and rng.random() < 0.75 else rng.choice(clickable or list(range(len(legal))))
    click_command(page, i)  # a cell command (dodge_to, relocate_to, ...) is a hex, the rest buttons
    return f"{legal[i]['type']} {legal[i]['args']}"


def test_play_yashima_against_a_bot_by_clicking_the_board(new_page):
    page = new_page()
    sign_up(page, f"hana-{uuid.uuid4().hex[:6]}")
    match_id = create_yashima_match(page)
    wait_live(page)
    page.get_by_role("button", name="Add bot").click()
    page.get_by_role("button", name="Start").click()
    wait_live(page)
    mark_no_reload(page)
    page.evaluate(TAP_JS)

    board = page.locator("#board")
    expect(board.locator(".ys-map svg .ys-cell")).to_have_count(19)  # the relic board alone
    expect(page.get_by_test_id("yashima-prompt")).to_contain_text("pick your master")
    expect(page.locator("#commands button")).to_have_count(0)  # the board offers everything itself
    expect(board.locator("[data-testid=yashima-life]")).to_have_count(0)  # no "Life 0" before the deal

    rng = random.Random(20261129)
    done, shots, started = [], set(), time.monotonic()
    for _ in range(MAX_ACTIONS):
        page.wait_for_function(SETTLED_JS, timeout=15_000)
        s = page.evaluate(STATE_JS)
        if s["finished"]:
            break
        assert time.monotonic() - started < TIME_BUDGET, f"too slow; last actions: {done[-10:]}"
        assert s["legal"], f"awaited with nothing to click in {s['phase']}; last: {done[-5:]}"
        if s["phase"] not in shots and s["phase"] in ("destiny", "battle"):
            shots.add(s["phase"])
            if s["phase"] == "destiny":
                expect(page.get_by_test_id("yashima-prompt")).to_contain_text("Destiny (secret")
            table_shot(page, f"yashima-{s['phase']}")
        try:
            done.append(f"{s['phase']}: {play_one(page, s, rng, done)}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; last actions: {done[-10:]}") from exc
        page.wait_for_function("(seq) => window.KamizaMatch.lastSeq > seq", arg=s["seq"], timeout=15_000)
        # the rules help of the button or space just used does not stay over the redrawn board
        expect(page.locator("#kz-tip"), done[-1]).to_be_hidden()
    else:
        pytest.fail(f"the match did not end within {MAX_ACTIONS} actions; last: {done[-10:]}")

    expect_game_over(page)
    expect(page.locator("#board [data-testid=yashima-life]")).to_have_count(2)
    assert "battle" in shots, f"never reached a battle turn: {done[:20]}"

    # Every command that left the page was one of the document's legal commands, unchanged.
    sent = page.evaluate("window.__sent")
    auto = sum(1 for d in done if d.endswith("lose all"))  # one click, one command per card lost
    assert len(sent) == len(done) if not auto else len(sent) >= len(done), (len(sent), len(done))
    for item in sent:
        assert item["cmd"] in json.loads(item["legal"]), item["cmd"]
    # the map itself was played on in battle: an attack (card + arrow) or a move (hexes + arrow)
    assert any(d.startswith(("battle: attack", "battle: step", "battle: end move")) for d in done), done

    # A spectator sees the final board and no controls.
    watcher = new_page()
    watcher.goto(f"/matches/{match_id}/")
    wait_live(watcher)
    expect(watcher.get_by_test_id("yashima-banner")).to_be_visible()
    expect(watcher.locator("#board button")).to_have_count(0)
    expect(watcher.locator("#board [data-testid=yashima-hand]")).to_have_count(0)

    assert_not_reloaded(page)
    table_shot(page, "yashima-end")
    assert page.console_errors == [] and watcher.console_errors == [], (page.console_errors, watcher.console_errors)
