"""``manage.py bench load``: the distributed stack on this machine, under many live matches at once.

It starts, on 127.0.0.1 only and for a bounded time: a fresh PostgreSQL database (dropped at the
end), two uvicorn servers and a Celery worker on the given Redis database. Then two scenarios:

- **matches**: ``--matches`` active matches (the counter test engine, 2 seats), each watched by its
  2 seated players' sockets and ``--spectators`` spectator sockets, spread over both servers;
  clients submit ``--rate`` commands/s in total for ``--seconds`` s, half over the socket and half
  over REST, each to a random seat of a random match with the seq its socket last saw (so conflicts
  happen, as in play). Measured from sending the command to its event's delivery on the last of
  the match's sockets.
- **fanout**: 1 match in front of ``--fanout-spectators`` spectator sockets; ``--fanout-rate``
  commands/s over REST for ``--fanout-seconds`` s; measured to every socket's delivery and to the last.

Every socket checks that the seqs it receives are gapless and, after a settling pause, that it
reached the match's final head: a missing seq counts as lost. The JSON gives p50/p95/p99, errors,
conflicts, lost events, each process's peak RSS (VmHWM; PostgreSQL's backends serving the database,
and Redis's own figure, which is shared with whatever else uses that server), and the baselines
(a bare channels_redis group_send, and a bare WebSocket echo through uvicorn) beside the figures.

The load client is one asyncio process (websockets, a small keep-alive HTTP/1.1 client, orjson);
its own CPU and RSS are reported too.
"""

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

from .platform import _bare_group_send
from .stack import Http, Sock, Stack, _free_port, _pct, _TempPostgres, _wait


HARD_LIMIT_SECONDS = 1800  # the whole run, whatever the flags


def _percentiles(values) -> dict:
    if not values:
        return {"p50": None, "p95": None, "p99": None, "n": 0}
    return {"p50": round(statistics.median(values), 2), "p95": round(_pct(values, 0.95), 2),
            "p99": round(_pct(values, 0.99), 2), "n": len(values)}


# -- seeding (runs in a subprocess against the benchmark's database) --------------------------------


def run_seed(matches: int, out: str) -> dict:
    """Create ``matches`` started 2-seat counter matches, each with two fresh users and their tokens;
    write ``[{match, tokens: [t0, t1]}]`` to ``out``."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from rest_framework.authtoken.models import Token

    from games.application import services

    User = get_user_model()
    tag = uuid.uuid4().hex[:6]
    unusable = make_password(None)
    users = User.objects.bulk_create([User(username=f"load-{tag}-{i}", password=unusable) for i in range(2 * matches)])
    tokens = Token.objects.bulk_create([Token(key=Token.generate_key(), user=u) for u in users])
    rows = []
    for i in range(matches):
        a, b = users[2 * i], users[2 * i + 1]
        match = services.match_create(game="counter", seats=2, options={}, creator=a)
        services.match_join(match_id=match.pk, user=b, seat=1)
        services.match_start(match_id=match.pk, user=a)
        rows.append({"match": str(match.pk), "tokens": [tokens[2 * i].key, tokens[2 * i + 1].key]})
    Path(out).write_text(json.dumps(rows))
    return {"matches": len(rows)}


# -- the load client -------------------------------------------------------------------------------


class Load:
    def __init__(self, ports: list[int]):
        self.ports = ports
        self.http = [Http(p) for p in ports]
        self.latencies: list[float] = []  # command -> last socket of the match
        self.deliveries: list[float] = []  # command -> every socket
        self.own: list[float] = []  # a socket command's own round trip
        self.errors: dict = defaultdict(int)
        self.conflicts = 0
        self.sent = 0
        self.pending: list = []  # (match, seq, t0)
        self.samples: list = []  # a few error bodies, to say what went wrong
        self.skipped = 0  # due while that seat's previous command was still unanswered (not sent)

    async def connect(self, socks: list[Sock], parallel: int = 50):
        sem = asyncio.Semaphore(parallel)
        readers = []

        async def one(i, sock):
            async with sem:
                await sock.open(self.ports[i % len(self.ports)])
            readers.append(asyncio.create_task(sock.read()))

        await asyncio.gather(*(one(i, s) for i, s in enumerate(socks)))
        return readers

    async def submit(self, match: str, seat_sock: Sock, token: str, via_socket: bool, server: int):
        seq = seat_sock.last
        t0 = time.perf_counter()
        self.sent += 1
        try:
            if via_socket:
                reply = await seat_sock.command(seq)
                self.own.append((time.perf_counter() - t0) * 1000)
                status = 201 if reply.get("type") == "command_result" else (409 if reply.get("code") == "version_conflict" else 400)
            else:
                status, reply = await self.http[server].post(f"/api/matches/{match}/commands/", {
                    "command_id": str(uuid.uuid4()), "expected_seq": seq, "type": "add", "args": {"n": 1}}, token)
        except Exception as exc:
            self.errors[type(exc).__name__] += 1
            self.samples.append(repr(exc)[:200])
            return
        if status == 201:
            self.pending.append((match, reply["seq"], t0))
        elif status == 409 and reply.get("code") == "version_conflict":
            self.conflicts += 1
        else:
            self.errors[str(reply.get("code") or status)] += 1
            self.samples.append(str(reply)[:200])

    async def drive(self, targets, rate: float, seconds: float, rng: random.Random, socket_share: float = 0.5):
        """``targets``: [(match, [(seat socket, token)])]. Commands at ``rate``/s for ``seconds``."""
        tasks = set()
        start = time.perf_counter()
        n = 0
        while True:
            due = start + n / rate
            now = time.perf_counter()
            if due - start >= seconds:
                break
            if due > now:
                await asyncio.sleep(due - now)
            n += 1
            match, seats = rng.choice(targets)
            seat_sock, token = rng.choice(seats)
            if seat_sock.busy:  # a player waits for the answer to their last command before the next
                self.skipped += 1
                continue
            seat_sock.busy = True
            task = asyncio.create_task(self.submit(match, seat_sock, token, rng.random() < socket_share,
                                                   rng.randrange(len(self.ports))))
            tasks.add(task)
            task.add_done_callback(lambda t, sock=seat_sock: (tasks.discard(t), setattr(sock, "busy", False)))
        if tasks:
            await asyncio.wait(tasks, timeout=60)
        return time.perf_counter() - start

    def measure(self, socks_of: dict):
        for match, seq, t0 in self.pending:
            arrived = [s.arrivals.get(seq) for s in socks_of[match]]
            got = [t for t in arrived if t is not None]
            self.deliveries.extend((t - t0) * 1000 for t in got)
            if len(got) == len(arrived):
                self.latencies.append((max(got) - t0) * 1000)


def lost_events(socks: list[Sock], heads: dict) -> dict:
    """Seqs a socket never received between its hello and its match's final head (gaps included)."""
    missing = sum(max(0, heads[s.match] - s.hello - len([q for q in s.arrivals if q > s.hello])) for s in socks)
    return {"lost": missing, "gaps": sum(s.gaps for s in socks)}


# -- orchestration --------------------------------------------------------------------------------


def _redis_rss_mib(redis_url: str) -> float | None:
    try:
        import redis

        return round(int(redis.Redis.from_url(redis_url).info("memory")["used_memory_rss"]) / 2**20, 1)
    except Exception:
        return None


def _heads(database_url: str, matches) -> dict:
    import psycopg

    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT id, head_seq FROM eventstore_match WHERE id = ANY(%s)",
                            [[uuid.UUID(m) for m in matches]]).fetchall()
    return {str(mid): head for mid, head in rows}


async def _settle(stack: Stack, socks: list, most: float) -> tuple[dict, float]:
    """Wait (at most ``most`` seconds) until every socket has its match's final head: what has not
    arrived by then counts as lost. Returns (heads, seconds waited)."""
    t0 = time.perf_counter()
    heads = await asyncio.to_thread(_heads, stack.env["DATABASE_URL"], list({s.match for s in socks}))
    while time.perf_counter() - t0 < most and any(s.last < heads[s.match] for s in socks):
        await asyncio.sleep(0.1)
    return heads, time.perf_counter() - t0


async def _drive_and_measure(stack: Stack, load: Load, socks_of: dict, targets: list, rate: float, seconds: float,
                             settle: float, rng: random.Random, socket_share: float) -> dict:
    """Connect every socket of ``socks_of`` ({match: sockets}), drive ``targets`` at ``rate`` for
    ``seconds``, wait (at most ``settle``) for the sockets to catch up, close everything and return
    what every scenario reports."""
    socks = [s for group in socks_of.values() for s in group]
    t0 = time.perf_counter()
    readers = await load.connect(socks)
    connect_s = time.perf_counter() - t0
    cpu0 = await asyncio.to_thread(stack.cpu, stack.database)
    took = await load.drive(targets, rate, seconds, rng, socket_share=socket_share)
    heads, settled = await _settle(stack, socks, settle)
    cpu = _cpu_per_command(cpu0, await asyncio.to_thread(stack.cpu, stack.database), load.sent, took + settled)
    load.measure(socks_of)
    lost = lost_events(socks, heads)
    socket_errors = sum(len(s.errors) for s in socks)
    for s in socks:
        await s.ws.close()
    for task in readers:
        task.cancel()
    for http in load.http:
        http.close()
    return {
        "sockets": len(socks), "connect_s": round(connect_s, 1),
        "commands_sent": load.sent, "commands_per_s": round(load.sent / took, 1), "not_sent_seat_busy": load.skipped,
        "accepted": len(load.pending), "conflicts": load.conflicts,
        "errors": sum(load.errors.values()) + socket_errors, "error_codes": dict(load.errors),
        "error_samples": (load.samples + [e for s in socks for e in s.errors])[:5],
        **lost,
        "command_to_last_socket_ms": _percentiles(load.latencies),
        "command_to_each_socket_ms": _percentiles(load.deliveries),
        "cpu": cpu,
    }


async def _matches_scenario(stack: Stack, seeds: list, spectators: int, rate: float, seconds: float, settle: float,
                            rng: random.Random) -> dict:
    load = Load(stack.ports)
    socks_of, targets = {}, []
    for row in seeds:
        seated = [Sock(row["match"], token) for token in row["tokens"]]
        socks_of[row["match"]] = seated + [Sock(row["match"], None) for _ in range(spectators)]
        targets.append((row["match"], list(zip(seated, row["tokens"]))))
    measured = await _drive_and_measure(stack, load, socks_of, targets, rate, seconds, settle, rng, socket_share=0.5)
    return {"matches": len(seeds), **measured, "own_socket_command_ms": _percentiles(load.own)}


async def _fanout_scenario(stack: Stack, seed: dict, spectators: int, rate: float, seconds: float, settle: float,
                           rng: random.Random) -> dict:
    seated = [Sock(seed["match"], token) for token in seed["tokens"]]
    socks_of = {seed["match"]: seated + [Sock(seed["match"], None) for _ in range(spectators)]}
    targets = [(seed["match"], list(zip(seated, seed["tokens"])))]
    measured = await _drive_and_measure(stack, Load(stack.ports), socks_of, targets, rate, seconds, settle, rng,
                                        socket_share=0.0)
    return {"spectators": spectators, **measured}


def _cpu_per_command(before: dict, after: dict, commands: int, wall: float) -> dict:
    """CPU ms per command by process while the commands ran, and the share of the machine used."""
    used = {k: None if after[k] is None or before.get(k) is None else after[k] - before[k] for k in after}
    known = [v for v in used.values() if v is not None]
    return {"ms_per_command": {k: None if v is None else round(1000 * v / max(commands, 1), 2) for k, v in used.items()},
            "total_ms_per_command": round(1000 * sum(known) / max(commands, 1), 2),
            "cores_busy": round(sum(known) / wall, 2), "machine_cores": os.cpu_count(),
            "load_average_1m": round(os.getloadavg()[0], 2)}


async def _echo_baseline(port: int, samples: int) -> dict:
    """A bare WebSocket round trip through uvicorn (no Django, no Channels): the transport's floor."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
        times = []
        for i in range(samples):
            t0 = time.perf_counter()
            await ws.send(str(i))
            await ws.recv()
            times.append((time.perf_counter() - t0) * 1000)
    return _percentiles(times)


def _echo_server(tmp: Path) -> tuple[subprocess.Popen, int]:
    app = tmp / "echo_app.py"
    app.write_text(
        "async def app(scope, receive, send):\n"
        "    if scope['type'] != 'websocket':\n        return\n"
        "    await receive()\n    await send({'type': 'websocket.accept'})\n"
        "    while True:\n        m = await receive()\n"
        "        if m['type'] != 'websocket.receive':\n            return\n"
        "        await send({'type': 'websocket.send', 'text': m.get('text')})\n")
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "echo_app:app", "--port", str(port), "--log-level", "warning",
                             "--loop", "uvloop", "--ws", "websockets-sansio"], cwd=tmp, start_new_session=True)
    return proc, port


def run_load(*, pg_admin_url: str, redis_url: str, matches: int, spectators: int, rate: float, seconds: float,
             fanout_spectators: int, fanout_rate: float, fanout_seconds: float, settle: float = 30.0,
             seed: int = 1) -> dict:
    started = time.monotonic()
    rng = random.Random(seed)
    result = {"benchmark": "load", "goals": {"command_to_last_socket_ms_p95": 100, "errors": 0, "lost": 0,
                                             "total_rss_mib": 3072, "fanout_command_to_each_socket_ms_p95": 200}}
    with tempfile.TemporaryDirectory() as tmp, _TempPostgres(pg_admin_url) as pg:
        tmp = Path(tmp)
        stack = Stack(pg.url, redis_url, tmp)
        stack.database = pg.name
        try:
            stack.start()
            seeds_file = tmp / "seeds.json"
            stack.manage("bench", "loadseed", "--matches", str(matches + (1 if fanout_spectators else 0)),
                         "--out", str(seeds_file), timeout=HARD_LIMIT_SECONDS)
            seeds = json.loads(seeds_file.read_text())

            async def scenarios():
                out = {}
                if matches:
                    out["matches"] = await asyncio.wait_for(
                        _matches_scenario(stack, seeds[:matches], spectators, rate, seconds, settle, rng),
                        timeout=HARD_LIMIT_SECONDS - (time.monotonic() - started))
                if fanout_spectators:
                    out["fanout"] = await asyncio.wait_for(
                        _fanout_scenario(stack, seeds[-1], fanout_spectators, fanout_rate, fanout_seconds, settle, rng),
                        timeout=HARD_LIMIT_SECONDS - (time.monotonic() - started))
                return out

            result.update(asyncio.run(scenarios()))
            rss = stack.rss(pg.name)
            result["peak_rss_mib"] = {**rss, "total": round(sum(v for v in rss.values() if v), 1),
                                      "redis_server_shared": _redis_rss_mib(redis_url)}
        except Exception as exc:
            result["error"] = repr(exc)[:500]
            result["logs"] = stack.logs()[-4000:]
        finally:
            stack.stop()
        echo, port = _echo_server(tmp)
        try:
            _wait(lambda: _port_open(port))
            result["baselines"] = {"bare_group_send_ms": dict(zip(("p50", "p95"), asyncio.run(
                _bare_group_send(redis_url, f"kzlb{uuid.uuid4().hex[:6]}", 200)))),
                "bare_websocket_echo_ms": asyncio.run(_echo_baseline(port, 200))}
        finally:
            echo.kill()
            echo.wait(timeout=10)
    result["wall_s"] = round(time.monotonic() - started, 1)
    return result


def _port_open(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
