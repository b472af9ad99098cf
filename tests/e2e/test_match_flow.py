"""Two players in two browsers: sign up, create / join / start from the lobby, and play a
Pebbles match over the live socket; each sees the other's move without reloading, as a sentence in
the history and as the last move above the board."""

import json
import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, table_shot

pytestmark = pytest.mark.e2e

PASSWORD = "paper-lantern-42"
ENABLED_COMMAND = "#commands button.command:not([disabled])"


def sign_up(page, username):
    page.goto("/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("whoami")).to_have_text(username)


def sign_in(page, name, path):
    """Sign in as ``name`` (an account made with ``PASSWORD``) from the sign-in page, landing on ``path``."""
    page.goto(f"/login/?next={path}")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"**{path}")


def fill_options(page, game, options):
    """Set the lobby form's fields of ``game``'s options (the form shows the chosen game's only):
    a box ticked or not, a number typed, a choice picked, a hero's player chosen."""
    for name, value in options.items():
        if isinstance(value, dict):  # one player per key (Harakiri's "Who plays each hero")
            for key, seat in value.items():
                page.locator(f'[name="{game}__{name}__{key}"]').select_option(str(seat))
            continue
        field = page.locator(f'[name="{game}__{name}"]')
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("(e) => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))


def create_match(page, options=None, game="pebbles", seats=2):
    """Create a match from the lobby's form; returns its id (the page is on its table)."""
    page.goto("/lobby/")
    page.get_by_label("Game").select_option(game)
    page.get_by_label("Players").select_option(str(seats))
    fill_options(page, game, options or {})
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/matches/[0-9a-f-]{36}/$"))
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def wait_live(page):
    """The socket is open: "Live" while the match runs, "Connected" once it is over (tests/e2e/test_social.py)."""
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(page.locator("#connection")).to_have_text(re.compile(r"^(Live|Connected)$"))


def mark_no_reload(page):
    page.evaluate("window.__noReload = 'still-the-same-document'")


def assert_not_reloaded(page):
    assert page.evaluate("window.__noReload") == "still-the-same-document"


# A command sent out of turn (as a stale tab or a double click would): the server refuses it.
OUT_OF_TURN_JS = """() => { const m = window.KamizaMatch;
  m.socket.send({type: 'command', command_id: crypto.randomUUID(), expected_seq: m.lastSeq,
                 command: {type: 'pass', args: {}}}); }"""


def log_types(page):
    return page.locator("#log li.event[data-seq]").evaluate_all("els => els.map(e => [+e.dataset.seq, e.dataset.type])")


def payload_of(page, seq):
    """The event at ``seq`` as this page received it (the history shows its sentence, not its payload)."""
    return page.evaluate("(q) => window.KamizaMatch.events.get(q).payload", seq)


def test_two_players_see_each_others_moves_live(new_page):
    a, b = new_page(), new_page()
    alice, bob = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    b.add_init_script("window.KamizaLobbyRefreshMs = 500")
    sign_up(a, alice)
    sign_up(b, bob)
    b.goto("/lobby/")  # B waits in the lobby
    mark_no_reload(b)

    match_id = create_match(a, {"bonus_rolls": False})
    wait_live(a)
    expect(a.locator("#seats li")).to_have_count(2)
    expect(a.locator("#seats li").nth(1)).to_have_text("free")
    expect(a.get_by_role("button", name="Start")).to_be_disabled()
    mark_no_reload(a)

    # The new match shows up in B's lobby without a reload; B joins from there, and A's page
    # shows the new seat live and enables Start.
    row = b.locator(f'tr[data-match-id="{match_id}"]')
    expect(row).to_contain_text(alice)
    assert_not_reloaded(b)
    SHOTS.mkdir(parents=True, exist_ok=True)
    b.screenshot(path=str(SHOTS / "match-flow-lobby.png"), full_page=True)
    row.get_by_role("button", name=re.compile("^Join")).click()
    b.wait_for_url(f"**/matches/{match_id}/")
    wait_live(b)
    expect(b.locator("#status-seat")).to_have_text(f"{bob} (seat 2)")  # seats counted from 1, never "seat 0"
    mark_no_reload(b)

    expect(a.locator("#seats li").nth(1)).to_contain_text(bob)
    expect(a.locator('#log li[data-type="SeatTaken"]')).to_have_count(2)
    expect(a.locator('#log li[data-type="SeatTaken"]').last).to_have_text(f"{bob} takes seat 2")  # the joiner, by name
    assert_not_reloaded(a)
    start = a.get_by_role("button", name="Start")
    expect(start).to_be_enabled()
    start.click()  # a form post: A's page reloads, B's must not
    wait_live(a)
    expect(a.locator("#status-match")).to_have_text("active")
    expect(a.locator("#lobby-actions")).to_have_count(0)
    mark_no_reload(a)

    # B sees the start live, and that it is A's turn.
    expect(b.locator("#status-match")).to_have_text("active")
    expect(b.locator("#lobby-actions")).to_be_hidden()
    expect(b.locator("#status-awaiting")).to_have_text(alice)
    expect(b.locator("#commands button.command")).to_have_count(0)
    expect(b.locator('#log li[data-type="TilesDealt"]')).to_have_count(1)
    assert_not_reloaded(b)

    # B, on a phone, tries a move out of turn: the refusal shows where B is looking (pinned to the
    # foot of the screen, not under the board far below), and it is gone once A's move arrives.
    b.set_viewport_size({"width": 390, "height": 844})
    b.evaluate(OUT_OF_TURN_JS)
    refusal = b.locator("#command-error")
    expect(refusal).to_be_visible()
    expect(refusal).not_to_be_empty()
    expect(refusal).to_be_in_viewport()
    assert b.evaluate("scrollY") == 0  # the page did not jump to show it
    table_shot(b, "match-flow-refusal-390")

    # An anonymous visitor spectates live.
    c = new_page()
    c.goto(f"/matches/{match_id}/")
    wait_live(c)
    expect(c.locator("#status-seat")).to_have_text("spectator")

    # A plays the first legal command; its label is the command's type + args.
    first = a.locator(ENABLED_COMMAND).first
    expect(first).to_have_text(re.compile(r"^play tile="))
    a_seq_before = a.evaluate("window.KamizaMatch.lastSeq")
    first.click()
    played = b.locator('#log li[data-type="TilePlayed"]')
    expect(played).to_have_count(1)
    expect(b.locator("#command-error")).to_be_hidden()  # B's refusal was about a table that has moved on
    b.set_viewport_size({"width": 1280, "height": 900})
    expect(played).to_have_attribute("data-seq", str(a_seq_before + 1))
    # B's history says it in words, and the board area shows it as the last move by someone else.
    expect(played).to_have_text(f"{alice}: tile played")
    expect(played).to_have_class(re.compile(r"\bis-last-move\b"))
    expect(b.get_by_test_id("last-move")).to_contain_text(f"Last move: {alice}")
    expect(b.get_by_test_id("last-move")).to_contain_text(f"{alice}: tile played")
    # A's draw is hidden from B: the payload B got only says a tile was drawn.
    assert payload_of(b, a_seq_before + 1)["seat"] == 0 and payload_of(b, a_seq_before + 1)["drawn"] is True
    expect(c.locator('#log li[data-type="TilePlayed"]')).to_have_text(f"{alice}: tile played")
    assert payload_of(c, a_seq_before + 1)["drawn"] is True
    expect(c.locator("#commands button.command")).to_have_count(0)

    # Now it is B's turn: B's buttons appear enabled, without any reload.
    expect(b.locator(ENABLED_COMMAND).first).to_be_visible()
    expect(b.locator("#status-awaiting")).to_contain_text(bob)
    assert_not_reloaded(b)
    expect(a.locator("#commands button.command")).to_have_count(0)

    b_cmd = b.locator(ENABLED_COMMAND).last  # "pass" is listed last
    expect(b_cmd).to_have_text("pass")
    b_cmd.click()
    passed = a.locator('#log li[data-type="TurnPassed"]')
    expect(passed).to_have_count(1)
    expect(passed).to_have_text(f"{bob}: turn passed")
    expect(a.get_by_test_id("last-move")).to_contain_text(f"Last move: {bob}")
    expect(a.locator(ENABLED_COMMAND).first).to_be_visible()
    assert_not_reloaded(a)
    assert_not_reloaded(b)

    # Both logs are the same contiguous sequence. B's own page may still be applying the pass it
    # sent when A's page has it, so wait for both to reach the pass's seq rather than snapshot one.
    b.locator('#log li[data-type="TurnPassed"]').wait_for()
    pass_seq = a.evaluate("window.KamizaMatch.lastSeq")
    expect(a.locator("#match-app")).to_have_attribute("data-seq", str(pass_seq))
    expect(b.locator("#match-app")).to_have_attribute("data-seq", str(pass_seq))
    seqs_a, seqs_b = log_types(a), log_types(b)
    assert [s for s, _ in seqs_a] == list(range(1, len(seqs_a) + 1))
    assert seqs_a == seqs_b

    # Hidden information: nothing of B's hand reaches A's page, and vice versa.
    b_hand = b.evaluate("window.KamizaMatch.doc.view.my_hand.map(t => t.secret)")
    a_hand = a.evaluate("window.KamizaMatch.doc.view.my_hand.map(t => t.secret)")
    assert len(a_hand) == 3 and len(b_hand) == 4  # A played then drew; B passed and drew
    a_html, b_html = a.content(), b.content()
    assert all(s in b_html for s in b_hand) and all(s in a_html for s in a_hand)
    assert not any(s in a_html for s in b_hand)
    assert not any(s in b_html for s in a_hand)
    c_html = c.content()
    assert not any(s in c_html for s in a_hand + b_hand)

    SHOTS.mkdir(parents=True, exist_ok=True)
    a.screenshot(path=str(SHOTS / "match-flow-page.png"), full_page=True)
    assert a.console_errors == [] and b.console_errors == [] and c.console_errors == []


def test_reconnect_catches_up_and_a_bot_game_reaches_its_end(new_page):
    a = new_page()
    sign_up(a, f"carol-{uuid.uuid4().hex[:6]}")
    match_id = create_match(a, {"bonus_rolls": False, "target": 12})
    a.get_by_role("button", name="Add bot").click()
    a.get_by_role("button", name="Start").click()
    wait_live(a)
    mark_no_reload(a)

    # Drop the socket; it reconnects with backoff and syncs from its last seq.
    a.evaluate("window.KamizaMatch.socket.ws.close()")
    expect(a.locator("#connection")).to_have_attribute("data-state", "retrying")
    wait_live(a)

    # Play until the game ends; the bot answers each move through the eager worker.
    for _ in range(40):
        if a.locator("#result").is_visible():
            break
        button = a.locator(ENABLED_COMMAND).first
        try:
            button.wait_for(timeout=5_000)
        except Exception:
            continue
        button.click()
    expect(a.locator("#result")).to_be_visible()
    expect(a.locator("#result")).to_contain_text("Game over")
    expect(a.locator("#result")).to_contain_text(re.compile(r"Winners?: |No winner"))
    expect(a.locator("#seed-reveal")).to_contain_text("The match's secret seed is now public")  # the end screen
    expect(a.locator("#status-match")).to_have_text("finished")
    expect(a.locator('#log li[data-type="MatchFinished"]')).to_have_count(1)
    seqs = [s for s, _ in log_types(a)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert_not_reloaded(a)
    a.screenshot(path=str(SHOTS / "match-flow-finished.png"), full_page=True)

    a.goto("/lobby/")
    expect(a.get_by_test_id("finished-matches").locator(f'li[data-match-id="{match_id}"]')).to_be_visible()
    assert a.console_errors == []


def wait_until(page, predicate, timeout=5.0):
    """Poll a Python-side condition while letting Playwright dispatch its events."""
    waited = 0.0
    while not predicate():
        assert waited < timeout, "condition not met in time"
        page.wait_for_timeout(100)
        waited += 0.1


class SocketTap:
    """Sits between the page and the real match socket (Playwright's WebSocket routing): records
    what the client sends, can drop chosen server messages and inject forged ones."""

    def __init__(self, page):
        self.sent = []
        self.drop = set()  # server message types to drop, once each, if they carry seq >= drop_from
        self.drop_from = 0
        self.route = None
        page.route_web_socket(re.compile(r"/ws/matches/"), self._handle)

    def _handle(self, ws):
        self.route = ws
        server = ws.connect_to_server()
        ws.on_message(lambda m: (self.sent.append(json.loads(m)), server.send(m)))
        server.on_message(self._from_server)

    def _from_server(self, message):
        msg = json.loads(message)
        kind = msg.get("type")
        # (an idle-sync answer carries the old seq, so only the push of the new move is dropped)
        if kind in self.drop and msg.get("seq", -1) >= self.drop_from:
            self.drop.discard(kind)
            return
        self.route.send(message)

    def syncs(self):
        return [m["after"] for m in self.sent if m.get("type") == "sync"]


def test_gaps_and_lost_pushes_are_recovered_with_sync(new_page):
    a = new_page()
    a.add_init_script("window.KamizaSyncIntervalMs = 3000")
    tap = SocketTap(a)
    sign_up(a, f"dave-{uuid.uuid4().hex[:6]}")
    create_match(a, {"bonus_rolls": False})
    a.get_by_role("button", name="Add bot").click()
    a.get_by_role("button", name="Start").click()
    wait_live(a)
    expect(a.locator(ENABLED_COMMAND).first).to_be_visible()

    # 0. A dropped connection reconnects and syncs from the last seq it holds.
    last = a.evaluate("window.KamizaMatch.lastSeq")
    n_syncs = len(tap.syncs())
    a.evaluate("window.KamizaMatch.socket.ws.close()")
    expect(a.locator("#connection")).to_have_attribute("data-state", "retrying")
    expect(a.locator("#connection")).to_have_text("Live")
    wait_until(a, lambda: last in tap.syncs()[n_syncs:])
    expect(a.locator(ENABLED_COMMAND).first).to_be_visible()

    # 1. A forged events message that skips seqs: the client must not apply it but sync.
    n_syncs = len(tap.syncs())
    tap.route.send(json.dumps({"type": "events", "seq": last + 5, "events": [
        {"seq": last + 5, "type": "Forged", "payload": {}, "actor": {"kind": "user"}, "at": "x"}]}))
    wait_until(a, lambda: last in tap.syncs()[n_syncs:])
    expect(a.locator('#log li[data-type="Forged"]')).to_have_count(0)
    assert a.evaluate("window.KamizaMatch.lastSeq") == last

    # 2. The push carrying the bot's answer loses its events message: the state that follows is
    #    ahead of the log, so the client syncs and the bot's move appears.
    tap.drop, tap.drop_from = {"events"}, last + 2
    a.locator(ENABLED_COMMAND).last.click()  # pass
    expect(a.locator("#log li.event[data-seq]").last).to_have_attribute("data-seq", str(last + 2))
    assert not tap.drop, "the events push was dropped"
    assert last + 1 in tap.syncs(), "the state ahead of the log triggered a sync"
    expect(a.locator(ENABLED_COMMAND).first).to_be_visible()

    # 3. A whole push (events + state) is lost: the idle sync recovers it.
    tap.drop, tap.drop_from = {"events", "state"}, last + 4
    a.locator(ENABLED_COMMAND).last.click()
    expect(a.locator("#log li.event[data-seq]").last).to_have_attribute("data-seq", str(last + 4), timeout=10_000)
    assert not tap.drop
    assert last + 3 in tap.syncs(), "the idle timer asked for a sync"
    expect(a.locator(ENABLED_COMMAND).first).to_be_visible()
    seqs = [s for s, _ in log_types(a)]
    assert seqs == list(range(1, last + 5))

    # 4. A hidden event (payload withheld by the server) still advances the log, folded away (no sentence).
    tap.route.send(json.dumps({"type": "events", "seq": last + 5, "events": [
        {"seq": last + 5, "type": "CardDrawn", "payload": None, "hidden": True, "actor": {"kind": "worker", "seat": "system"}, "at": "x"}]}))
    hidden = a.locator('#log li[data-type="CardDrawn"]')
    expect(hidden).to_have_class(re.compile(r"\bis-hidden\b"))
    expect(hidden).to_be_hidden()
    assert a.evaluate("window.KamizaMatch.lastSeq") == last + 5
    assert a.console_errors == []


TEST_BOARD = """
window.KamizaBoards = window.KamizaBoards || {};
window.KamizaBoards.pebbles = {
  render(container, doc, sendCommand) {
    const hand = (doc.view && doc.view.my_hand) || [];
    const legal = new Set((doc.legal_commands || []).map((c) => c.args && c.args.tile));
    container.replaceChildren(...hand.map((t) => {
      const b = document.createElement("button");
      b.className = "test-tile";
      b.textContent = "Tile " + t.value;
      b.disabled = !legal.has(t.id);
      b.addEventListener("click", () => sendCommand("play", { tile: t.id }).then((r) => { window.__lastResult = r; }));
      return b;
    }));
  },
};
"""


def test_board_renderer_hook_and_sign_out_ends_the_live_page(new_page):
    a = new_page()
    a.add_init_script(TEST_BOARD)  # a board registered before the page's modules run
    sign_up(a, f"erin-{uuid.uuid4().hex[:6]}")
    create_match(a, {"bonus_rolls": False})
    a.get_by_role("button", name="Add bot").click()
    a.get_by_role("button", name="Start").click()
    wait_live(a)

    # The game's board replaces the generic JSON view; the generic buttons stay.
    expect(a.locator("#board pre.json-view")).to_have_count(0)
    tiles = a.locator("#board button.test-tile:not([disabled])")
    expect(tiles).to_have_count(3)
    value = tiles.first.inner_text().split()[-1]
    seq = a.evaluate("window.KamizaMatch.lastSeq")
    tiles.first.click()
    played = a.locator(f'#log li[data-seq="{seq + 1}"]')
    expect(played).to_have_attribute("data-type", "TilePlayed")
    assert payload_of(a, seq + 1)["tile"]["value"] == int(value)
    wait_until(a, lambda: a.evaluate("window.__lastResult && window.__lastResult.seq") is not None)
    assert a.evaluate("window.__lastResult.events[0].seq") == seq + 1
    # the bot answered; it is our turn again and the board is live again
    expect(a.locator("#board button.test-tile:not([disabled])")).to_have_count(3)

    # Signing out in another tab ends this page's live session.
    other = a.context.new_page()
    other.goto("/")
    other.get_by_role("button", name="Sign out").click()
    other.wait_for_url("**/login/")
    expect(a.locator("#connection")).to_have_text("Signed out", timeout=10_000)
    expect(a.locator("#command-error")).to_contain_text("Your login has ended")
    expect(a.locator("#commands button.command:not([disabled])")).to_have_count(0)
    a.get_by_role("link", name="Sign in again").click()
    a.wait_for_url(re.compile(r"/login/\?next=(/|%2F)matches(/|%2F)"))
    assert a.console_errors == []
