"""The distributed suite's client, speaking the public contract only: REST players, live sockets
and a table that plays a Pebbles match through either, surviving faults the way a careful client
does (the same ``command_id`` resent until it gets an answer; sockets that reconnect, to the other
server if theirs is gone, and ``sync`` from the last seq they hold).

Everything the service acknowledged (a 201, a socket ``command_result``) goes into a ``Ledger``, which
afterwards says which acknowledged commands the log does not hold (``Ledger.lost``)."""

import asyncio
import contextlib
import json
import threading
import time
import uuid

import requests
import websockets

from games.kernel import Rng

PASSWORD = "kamiza-dist-pass-1"


def wait_until(predicate, timeout=60.0, interval=0.2, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out waiting for {what}")


# -- what the clients were told ---------------------------------------------------------------


class Ledger:
    """Commands sent and acknowledged, and every answer a client got while a fault was on."""

    def __init__(self):
        self._lock = threading.Lock()
        self.sent = 0
        self.acks: list[dict] = []  # {match_id, command_id, seq, events: [(seq, type)], via}
        self.unavailable = 0  # 503 {code: "unavailable"} answers (REST) / socket errors
        self.bad_answers: list[str] = []  # any 5xx that is not a JSON 503 "unavailable", or a non-JSON body

    def count_sent(self):
        with self._lock:
            self.sent += 1

    def ack(self, match_id, command_id, body: dict, via: str):
        with self._lock:
            self.acks.append({"match_id": str(match_id), "command_id": str(command_id), "seq": body["seq"],
                              "events": [(e["seq"], e["type"]) for e in body["events"]], "via": via})

    def answer(self, response: requests.Response, what: str):
        """Look at a REST answer: a 503 must be ``{code: "unavailable", message}`` JSON; no other 5xx."""
        status = response.status_code
        if status < 500:
            return
        try:
            body = response.json()
        except ValueError:
            body = None
        with self._lock:
            if status == 503 and isinstance(body, dict) and body.get("code") == "unavailable" and body.get("message"):
                self.unavailable += 1
            else:
                self.bad_answers.append(f"{what}: {status} {response.headers.get('content-type')} {response.text[:200]!r}")

    def lost(self, stack) -> list[dict]:
        """Acknowledged commands the log does not hold exactly as acknowledged (their events, in
        their seqs, produced by that command)."""
        missing = []
        for ack in self.acks:
            rows = stack.sql("SELECT first_seq, last_seq FROM eventstore_matchcommand WHERE match_id = %s "
                             "AND command_id = %s", (ack["match_id"], ack["command_id"]))
            events = stack.sql("SELECT seq, type FROM eventstore_matchevent WHERE match_id = %s AND command_id = %s "
                               "ORDER BY seq", (ack["match_id"], ack["command_id"]))
            seqs = [s for s, _t in ack["events"]]
            if not rows or (rows[0][0], rows[0][1]) != (min(seqs), max(seqs)) or \
                    [(s, t) for s, t in events] != ack["events"]:
                missing.append(ack)
        return missing


# -- REST --------------------------------------------------------------------------------------


class Player:
    """A registered user (``password=None``) or, with its password, an existing one logging in."""

    def __init__(self, stack, server: int, username: str, ledger: Ledger | None = None, password: str | None = None):
        self.stack, self.server, self.username = stack, server, username
        self.ledger = ledger if ledger is not None else Ledger()
        if password is None:
            r = requests.post(stack.url(server, "/api/auth/register/"), json={"username": username, "password": PASSWORD},
                              timeout=10)
            assert r.status_code == 201, r.text
        else:
            r = requests.post(stack.url(server, "/api/auth/token/"), json={"username": username, "password": password},
                              timeout=10)
            assert r.status_code == 200, r.text
        self.token = r.json()["token"]
        self.headers = {"Authorization": f"Token {self.token}"}

    def call(self, method, path, server=None, **kw):
        server = self.server if server is None else server
        r = requests.request(method, self.stack.url(server, path), headers=self.headers, timeout=20, **kw)
        assert r.status_code < 500, r.text
        return r

    def request(self, method, path, server=None, **kw) -> requests.Response | None:
        """One attempt that may meet a fault: None when the server is gone (refused, reset)."""
        server = self.server if server is None else server
        try:
            r = requests.request(method, self.stack.url(server, path), headers=self.headers, timeout=20, **kw)
        except (requests.ConnectionError, requests.Timeout):
            return None
        self.ledger.answer(r, f"{method} {path}")
        return r

    def view(self, match_id, server=None) -> dict:
        return self.call("GET", f"/api/matches/{match_id}/view/", server).json()

    def submit(self, match_id, command, expected_seq, server=None):
        body = {"command_id": str(uuid.uuid4()), "expected_seq": expected_seq, **command}
        self.ledger.count_sent()
        r = self.call("POST", f"/api/matches/{match_id}/commands/", server, json=body)
        if r.status_code == 201:
            self.ledger.ack(match_id, body["command_id"], r.json(), "rest")
        return r

    def submit_until_answered(self, match_id, command, expected_seq, server=None, timeout=90.0) -> requests.Response:
        """Send one command and resend it, with the same ``command_id``, to the other server when
        the connection fails and again after a 503, until the service answers it for good."""
        body = {"command_id": str(uuid.uuid4()), "expected_seq": expected_seq, **command}
        self.ledger.count_sent()
        server = self.server if server is None else server
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r = self.request("POST", f"/api/matches/{match_id}/commands/", server, json=body)
            if r is None:
                server = 1 - server  # what a load balancer does with a dead backend
            elif r.status_code >= 500:
                pass  # noted by the ledger; try again
            else:
                if r.status_code == 201:
                    self.ledger.ack(match_id, body["command_id"], r.json(), "rest")
                return r
            time.sleep(0.25)
        raise AssertionError(f"{self.username}: no answer to a command within {timeout} s")


# -- sockets -----------------------------------------------------------------------------------


class SocketRecorder:
    """Connects once (``?token=``, with the Origin a browser sends) and records every message."""

    def __init__(self, url: str):
        self.url = url
        self.messages: list[dict] = []
        self.raw: list[str] = []

    async def run(self, stop: asyncio.Event):
        origin = self.url.replace("ws://", "http://").split("/ws/")[0]  # browsers always send one
        async with websockets.connect(self.url, open_timeout=20, origin=origin) as ws:
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=0.2)
                except asyncio.TimeoutError:
                    continue
                self.raw.append(text)
                self.messages.append(json.loads(text))

    def seqs(self) -> list[int]:
        return [ev["seq"] for m in self.messages if m.get("type") == "events" for ev in m["events"]]

    def last_seq(self) -> int:
        seqs = [m.get("seq", 0) for m in self.messages if "seq" in m]
        return max(seqs) if seqs else 0


class LiveSocket:
    """A match socket that stays live through faults, as the match page's does: it authenticates with
    the ``Authorization`` header (no Origin: a script), syncs from the last seq it holds on every
    (re)connect, reconnects after any close (to the next server when its own refuses), and resends
    an unanswered command with the same ``command_id`` on the next connection.

    It keeps every event by seq; ``missing(head)`` says which seqs of 1..head it never got."""

    def __init__(self, stack, match_id, servers: list[int], token: str | None = None, ledger: Ledger | None = None):
        self.stack, self.match_id = stack, str(match_id)
        self.servers, self.at = list(servers), 0
        self.headers = {"Authorization": f"Token {token}"} if token else {}
        self.ledger = ledger if ledger is not None else Ledger()
        self.events: dict[int, dict] = {}
        self.contiguous = 0  # every seq up to this one is held
        self.hellos = 0
        self.closes: list = []  # close code of each ended connection (None: no close frame)
        self.errors: list[dict] = []  # every error message received
        self.refusals: list[int] = []  # HTTP statuses of refused handshakes
        self.pushed = 0  # events received while no sync was outstanding, since the last hello
        self.head_state = 0
        self._ws = None
        self._ready = asyncio.Event()
        self._sync_outstanding = False
        self._pending: dict[str, tuple[dict, asyncio.Future]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    @property
    def server(self) -> int:
        return self.servers[self.at % len(self.servers)]

    # -- the connection loop (in the pool's event loop) ---------------------------------------
    async def run(self, stop: asyncio.Event):
        self.loop = asyncio.get_running_loop()
        while not stop.is_set():
            url = self.stack.ws_url(self.server, self.match_id)
            opened = False
            try:
                async with websockets.connect(url, additional_headers=self.headers, open_timeout=5, close_timeout=2,
                                              proxy=None, ping_interval=None) as ws:
                    opened = True
                    await self._session(ws, stop)
            except websockets.InvalidStatus as exc:
                self.refusals.append(exc.response.status_code)
            except websockets.ConnectionClosed as exc:
                self.closes.append(exc.rcvd.code if exc.rcvd else None)
            except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake):
                pass
            finally:
                self._ws = None
                self._ready.clear()
            if stop.is_set():
                break
            if not opened:
                self.at += 1  # this server is gone or refuses: try the next one
            await asyncio.sleep(0.3)

    async def _session(self, ws, stop: asyncio.Event):
        self._ws = ws
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.2)
            except asyncio.TimeoutError:
                continue
            msg = json.loads(text)
            kind = msg.get("type")
            if kind == "hello":
                self.hellos += 1
                self.pushed = 0
                await self._sync(ws)
                self._ready.set()
                for body, _future in list(self._pending.values()):
                    await ws.send(json.dumps(body))
            elif kind == "events":
                self._take(msg["events"])
                if not self._sync_outstanding:
                    self.pushed += len(msg["events"])
                if msg.get("more") or self._gap():
                    await self._sync(ws)
            elif kind == "state":
                self.head_state = max(self.head_state, msg["seq"])
                self._sync_outstanding = False
                if self._gap():
                    await self._sync(ws)
            elif kind == "command_result":
                self._take(msg["events"])
                self._settle(msg["command_id"], msg)
            elif kind == "error":
                self.errors.append(msg)
                if msg.get("code") != "unavailable" and msg.get("command_id") in self._pending:
                    self._settle(msg["command_id"], msg)
        await ws.close()
        self.closes.append("stopped")

    async def _sync(self, ws):
        self._sync_outstanding = True
        await ws.send(json.dumps({"type": "sync", "after": self.contiguous}))

    def _take(self, events):
        for ev in events:
            held = self.events.setdefault(ev["seq"], ev)
            assert held["type"] == ev["type"], (held, ev)
        while self.contiguous + 1 in self.events:
            self.contiguous += 1

    def _gap(self) -> bool:
        return bool(self.events) and max(self.events) > self.contiguous

    def _settle(self, command_id, msg):
        entry = self._pending.pop(command_id, None)
        if entry is not None and not entry[1].done():
            entry[1].set_result(msg)

    async def _command(self, command: dict, expected_seq: int) -> dict:
        command_id = str(uuid.uuid4())
        body = {"type": "command", "command_id": command_id, "expected_seq": expected_seq, "command": command}
        future = self.loop.create_future()
        self._pending[command_id] = (body, future)
        self.ledger.count_sent()
        if self._ready.is_set() and self._ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self._ws.send(json.dumps(body))  # else the next hello sends it
        msg = await future
        if msg["type"] == "command_result":
            self.ledger.ack(self.match_id, command_id, msg, "socket")
        return msg

    # -- from the test's thread ----------------------------------------------------------------
    def command(self, command: dict, expected_seq: int, timeout=90.0) -> dict:
        """Send a command over the socket (resent on reconnects) and wait for its answer."""
        return asyncio.run_coroutine_threadsafe(self._command(command, expected_seq), self.loop).result(timeout)

    def missing(self, head: int) -> list[int]:
        return [s for s in range(1, head + 1) if s not in self.events]

    def caught_up(self, head: int) -> bool:
        return self.contiguous >= head


@contextlib.contextmanager
def socket_pool(sockets):
    """Run sockets (``LiveSocket`` or ``SocketRecorder``) in a background event loop while the body runs."""
    sockets = list(sockets)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    errors = []

    async def main():
        results = await asyncio.gather(*(s.run(stop) for s in sockets), return_exceptions=True)
        errors.extend(r for r in results if isinstance(r, Exception))

    thread = threading.Thread(target=lambda: loop.run_until_complete(main()), daemon=True)
    thread.start()
    try:
        wait_until(lambda: errors or all(_greeted(s) for s in sockets), timeout=30, what="hello on every socket")
        assert not errors, errors
        yield sockets
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout=15)
    assert not errors, errors


def _greeted(sock) -> bool:
    if isinstance(sock, LiveSocket):
        return sock.hellos > 0
    return any(m.get("type") == "hello" for m in sock.messages)


# -- a table playing Pebbles ---------------------------------------------------------------------


def new_pebbles(owner: Player, seats: int, options: dict, joiners=(), bots=()) -> str:
    r = owner.call("POST", "/api/matches/", json={"game": "pebbles", "seats": seats, "options": options})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    for player in joiners:
        assert player.call("POST", f"/api/matches/{match_id}/join/", json={}).status_code in (200, 201)
    for seat in bots:
        assert owner.call("POST", f"/api/matches/{match_id}/bots/", json={"seat": seat}).status_code in (200, 201)
    assert owner.call("POST", f"/api/matches/{match_id}/start/", json={}).status_code in (200, 201)
    return match_id


class Table:
    """Human seats of one match, played (in a thread, or not) until the match ends or ``max_moves``
    were made, through whatever fault the test injects meanwhile: each move over REST (either server, resent until answered) or, for
    seats given a socket, over that socket. Bot and SYSTEM steps are left to the worker."""

    def __init__(self, match_id, players: dict, sockets: dict | None = None, seed: int = 0, timeout: float = 240.0,
                 pace: float = 0.0, max_moves: int | None = None):
        self.match_id, self.players, self.sockets = match_id, players, sockets or {}
        self.rng = Rng(f"table-{seed}".encode(), "play")
        self.timeout, self.pace, self.max_moves = timeout, pace, max_moves
        self.moves = 0
        self._down: dict[int, float] = {}
        self.final: dict | None = None
        self.failure: BaseException | None = None
        self._thread: threading.Thread | None = None

    def _server(self) -> int:
        """Either server at random, as a load balancer spreads requests, but not one that just
        refused a connection (for a few seconds: it is probably gone)."""
        up = [s for s in (0, 1) if self._down.get(s, 0) < time.monotonic()]
        return self.rng.choice(up) if up else self.rng.below(2)

    def _view(self, player) -> dict | None:
        server = self._server()
        r = player.request("GET", f"/api/matches/{self.match_id}/view/", server)
        if r is None:
            self._down[server] = time.monotonic() + 3
        return r.json() if r is not None and r.status_code == 200 else None

    def step(self) -> bool:
        anyone = next(iter(self.players.values()))
        v = self._view(anyone)
        if v is None:
            time.sleep(0.2)  # a fault is on: try again
            return False
        if v["status"]["finished"] or (self.max_moves is not None and self.moves >= self.max_moves):
            self.final = v
            return True
        humans = [s for s in v["status"]["awaiting"] if s in self.players]
        if not humans:
            time.sleep(0.05)
            return False  # the worker's turn
        seat = self.rng.choice(humans)
        pv = self._view(self.players[seat])
        if pv is None or not pv["legal_commands"]:
            return False
        command = self.rng.choice(pv["legal_commands"])
        if seat in self.sockets:
            answer = self.sockets[seat].command(command, pv["seq"])
            assert answer["type"] == "command_result" or answer.get("code") in ("version_conflict", "not_your_decision"), answer
        else:
            r = self.players[seat].submit_until_answered(self.match_id, command, pv["seq"], server=self._server())
            assert r.status_code in (201, 409, 403), r.text
        self.moves += 1
        if self.pace:
            time.sleep(self.pace)
        return False

    def play(self):
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            if self.step():
                return self.final
        raise AssertionError(f"match {self.match_id} did not finish within {self.timeout} s ({self.moves} moves)")

    def start(self) -> "Table":
        def run():
            try:
                self.play()
            except BaseException as exc:  # handed to join()
                self.failure = exc
        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        return self

    def join(self) -> dict:
        self._thread.join(self.timeout + 30)
        if self.failure is not None:
            raise self.failure
        assert self.final is not None, "the table is still playing"
        return self.final


def probe_socket(stack, server: int, match_id, token: str | None = None) -> tuple[list[dict], object]:
    """Open one socket (token in the header), read until it closes: (messages, close code), or
    ([], HTTP status) when the handshake itself is refused."""

    async def run():
        headers = {"Authorization": f"Token {token}"} if token else {}
        messages = []
        try:
            async with websockets.connect(stack.ws_url(server, match_id), additional_headers=headers, proxy=None,
                                          open_timeout=10, ping_interval=None) as ws:
                while True:
                    messages.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=10)))
        except websockets.InvalidStatus as exc:
            return messages, exc.response.status_code
        except websockets.ConnectionClosed as closed:
            return messages, closed.rcvd.code if closed.rcvd else None

    return asyncio.run(run())
