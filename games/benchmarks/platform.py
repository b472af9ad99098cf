"""Platform benchmark: the write path, projection rebuilds and live latency, each beside a bare
baseline measured in the same run, so every figure is also a ratio.

``run_writepath`` runs in the current process against whatever DATABASES says; ``run_platform``
orchestrates subprocesses for SQLite, PostgreSQL and two uvicorn servers on Redis.
"""

import asyncio
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from .stack import ROOT, Http, Sock, Stack, _base_env, _pct, _TempPostgres, machine_busy_seconds



# -- in-process: the write path on the configured database ---------------------------------------


def _bench_match():
    from django.contrib.auth import get_user_model

    from games.application import services

    user = get_user_model().objects.create_user(username=f"bench-{uuid.uuid4().hex[:8]}", password=None)
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, services.Actor.user(user)


def _submit(match_id, actor, seq: int) -> int:
    """One command on the bench match at head ``seq``; the new head."""
    from games.application import services

    return services.match_submit_command(match_id=match_id, seat=0, actor=actor, command_id=uuid.uuid4(),
                                         expected_seq=seq, type_="add", args={"n": 1}).seq


def _submit_loop(match, actor, commands: int) -> int:
    seq = match.head_seq
    for _ in range(commands):
        seq = _submit(match.pk, actor, seq)
    return seq


def run_writer(barrier: str, *, bare: bool = False, threads: int = 1) -> dict:
    """``threads`` of N concurrent writers, each on its own match (``bare``: one-row commits to a
    logged table of its own instead, the baseline of ``writers_8_vs_1``), in this process: each sets
    up, says ready at the ``barrier`` directory, and writes one command after another through the
    window the ``go`` file names. Each writer's report goes to ``<pid>-<n>.json``; it then waits for
    ``release`` before tearing down, so that one finishing first does not spend the others' window
    on closing its connection, dropping its table and unloading Django. With more than one thread
    the writers are threads of one process, as a server's requests are (each its own connection);
    the reports, one per writer."""
    if threads == 1:
        return _writer(barrier, bare, 0)
    reports, failures = [None] * threads, []

    def run(index):
        from django.db import connection

        try:
            reports[index] = _writer(barrier, bare, index)
        except BaseException as exc:  # the orchestrator sees the missing report and kills the process
            failures.append(exc)
        finally:
            connection.close()  # this thread's own

    workers = [threading.Thread(target=run, args=(index,)) for index in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise failures[0]
    return {"commands": sum(r["commands"] for r in reports), "start": min(r["start"] for r in reports),
            "end": max(r["end"] for r in reports)}


def _writer(barrier: str, bare: bool, index: int) -> dict:
    """One writer, on this thread's database connection."""
    from django.db import connection

    name = f"{os.getpid()}-{index}"
    if bare:
        with _Baseline(connection, table=f"bench_rows_{os.getpid()}_{index}") as baseline:
            return _write_through_window(barrier, name, lambda: baseline.commits(1, temp=False))
    match, actor = _bench_match()
    seq = match.head_seq

    def command():
        nonlocal seq
        seq = _submit(match.pk, actor, seq)

    return _write_through_window(barrier, name, command)


def _write_through_window(barrier: str, name: str, write) -> dict:
    window = _wait_at(barrier, name)
    commands = 0
    while time.time() < window["stop"]:
        write()
        commands += 1
    report = {"commands": commands, "start": window["start"], "end": time.time()}
    _write_whole(Path(barrier, f"{name}.json"), report)
    release = Path(barrier, "release")
    while not release.exists():
        time.sleep(0.005)
    return report


def _wait_at(barrier: str, name: str) -> dict:
    """Say ready (``<name>.ready``), wait for ``go`` and then for the start of the window it names
    (``{"start": ..., "stop": ...}``, seconds since the epoch)."""
    Path(barrier, f"{name}.ready").touch()
    go = Path(barrier, "go")
    while not go.exists():
        time.sleep(0.005)
    window = json.loads(go.read_text())
    time.sleep(max(window["start"] - time.time(), 0))
    return window


ROUNDS = 4  # write path and baseline alternate in rounds, so a noisy neighbour slows both alike
# The rebuild and the bare read alternate too, the fastest of each kept: a busy machine stretches a
# multi-millisecond task by whole scheduler slices, so enough tries that each gets a quiet one.
REBUILD_TRIES = 10


def run_writepath(commands: int) -> dict:
    """The write path and the rebuild on this database, each beside its bare baseline. They are
    measured alternately (``ROUNDS`` blocks of commands, each followed by as many bare commits; the
    rebuild and the bare read ``REBUILD_TRIES`` times each, the fastest of each kept), so that load
    from other processes on a shared machine falls on figure and baseline alike."""
    from django.core.management import call_command
    from django.db import connection

    from games.projections import rebuild

    call_command("migrate", verbosity=0)
    match, actor = _bench_match()
    block = max(commands // ROUNDS, 1)
    write_s, bare = 0.0, {"commit_s": 0.0, "temp_commit_s": 0.0}
    with _Baseline(connection) as baseline:
        for _ in range(ROUNDS):
            t0 = time.perf_counter()
            seq = _submit_loop(match, actor, block)
            match.head_seq = seq
            write_s += time.perf_counter() - t0
            for key, value in baseline.commits(block).items():
                bare[key] += value
        multi = baseline.multirow(commands)
    commands = block * ROUNDS

    rebuild_s = read_s = float("inf")
    for _ in range(REBUILD_TRIES):
        t0 = time.perf_counter()
        report = rebuild.check(match.pk)
        rebuild_s = min(rebuild_s, time.perf_counter() - t0)
        assert report.clean, report.lines()
        read_s = min(read_s, _baseline_read(connection, match.pk))

    commit_per_s = round(commands / bare["commit_s"], 1)
    return {
        "vendor": connection.vendor,
        "commands": commands,
        "commands_per_s": round(commands / write_s, 1),
        "rebuild_events": seq,
        "rebuild_events_per_s": round(seq / rebuild_s, 1),
        "baseline_read_decode_events_per_s": round(seq / read_s, 1),
        "rebuild_vs_bare_read": round(read_s / rebuild_s, 4),
        "baseline_commit_per_s": commit_per_s,
        **({"baseline_temp_table_commit_per_s": round(commands / bare["temp_commit_s"], 1)}
           if bare["temp_commit_s"] else {}),
        "baseline_multirow_rows_per_s": multi,
        "write_path_vs_single_row_commit": round((commands / write_s) / commit_per_s, 4),
    }


def _baseline_read(connection, match_id) -> float:
    """Seconds for a bare cursor to read every event row of the match and decode its payload."""
    t0 = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SELECT seq, type, payload FROM eventstore_matchevent WHERE match_id = %s ORDER BY seq",
                       [match_id.hex if connection.vendor == "sqlite" else match_id])
        for _seq, _type, payload in cursor.fetchall():
            if isinstance(payload, str):
                json.loads(payload)
    return time.perf_counter() - t0


class _Baseline:
    """Bare driver inserts of event-like rows, on their own connection: one row per commit on a
    regular logged table (PostgreSQL: and on a TEMP table, which writes no WAL, for comparison with
    older runs), and multi-row INSERTs."""

    PAYLOAD = json.dumps({"seat": 0, "n": 1})
    TABLE = "(seq int primary key, type text, payload {json}, at {ts})"

    def __init__(self, connection, table: str = "bench_rows"):
        self.vendor = connection.vendor
        self.connection = connection
        self.table = table
        self.next = 0

    def __enter__(self):
        if self.vendor == "postgresql":
            import psycopg

            params = self.connection.get_connection_params()
            dsn = {k: v for k, v in params.items() if k in ("dbname", "user", "host", "port", "password")}
            self.conn = psycopg.connect(**dsn, autocommit=True)
            table = self.TABLE.format(json="jsonb", ts="timestamptz")
            self.conn.execute(f"DROP TABLE IF EXISTS {self.table}")
            self.conn.execute(f"CREATE TABLE {self.table} {table}")
            self.conn.execute(f"CREATE TEMP TABLE bench_temp_rows {table}")
        else:
            self.dir = tempfile.mkdtemp()
            self.conn = sqlite3.connect(Path(self.dir) / "baseline.sqlite3", isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute(f"CREATE TABLE {self.table} {self.TABLE.format(json='text', ts='text')}")
        return self

    def __exit__(self, *exc):
        if self.vendor == "postgresql":
            self.conn.execute(f"DROP TABLE IF EXISTS {self.table}")
        self.conn.close()
        if self.vendor != "postgresql":
            shutil.rmtree(self.dir, ignore_errors=True)

    def _insert(self, table: str, rows: int) -> float:
        start, self.next = self.next, self.next + rows
        if self.vendor == "postgresql":
            values = ",".join(["(%s, 'Added', %s, now())"] * rows)
            args = [x for i in range(start, start + rows) for x in (i, self.PAYLOAD)]
            t0 = time.perf_counter()
            with self.conn.transaction():
                self.conn.execute(f"INSERT INTO {table} VALUES {values}", args)
            return time.perf_counter() - t0
        values = ",".join(["(?, 'Added', ?, datetime('now'))"] * rows)
        args = [x for i in range(start, start + rows) for x in (i, self.PAYLOAD)]
        t0 = time.perf_counter()
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(f"INSERT INTO {table} VALUES {values}", args)
        self.conn.execute("COMMIT")
        return time.perf_counter() - t0

    def commits(self, n: int, *, temp: bool = True) -> dict:
        """Seconds for ``n`` one-row transactions (per table; ``temp``: on the TEMP table too)."""
        out = {"commit_s": sum(self._insert(self.table, 1) for _ in range(n))}
        if self.vendor == "postgresql" and temp:
            out["temp_commit_s"] = sum(self._insert("bench_temp_rows", 1) for _ in range(n))
        return out

    def multirow(self, n: int, rows: int = 500) -> float:
        batches = n // rows or 1
        return round(batches * rows / sum(self._insert(self.table, rows) for _ in range(batches)), 1)


# -- orchestration -----------------------------------------------------------------------------


def _subprocess_writepath(env: dict, commands: int) -> dict:
    out = subprocess.run([sys.executable, "manage.py", "bench", "writepath", "--commands", str(commands)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        return {"error": out.stderr[-2000:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _concurrent_writers(env: dict, writers: int, seconds: float, *, bare: bool = False, threads: int = 1) -> dict:
    """``writers`` writers, each on its own match (``bare``: each committing bare rows to its own
    table), all writing through the same window of ``seconds``: aggregate commands/s. They are
    processes of one writer each, or (``threads`` > 1) ``writers / threads`` processes of that many
    writer threads each, as requests are in the servers."""
    extra = ["--bare"] if bare else []
    with tempfile.TemporaryDirectory() as barrier:
        procs = [subprocess.Popen([sys.executable, "manage.py", "bench", "writer", "--barrier", barrier,
                                   "--threads", str(threads), *extra],
                                  cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(writers // threads)]
        try:
            (error, busy_s), runs = _run_window(procs, writers, barrier, seconds), []
            if error is None:
                runs = [json.loads(path.read_text()) for path in Path(barrier).glob("*.json")]
        finally:
            Path(barrier, "release").touch()
            outs = [p.communicate(timeout=300) for p in procs]
    if error or any(p.returncode for p in procs):
        return {"error": (error or "a writer failed") + ": " + "".join(err[-500:] for _, err in outs)}
    wall = max(r["end"] for r in runs) - min(r["start"] for r in runs)
    return {"writers": writers, "threads_per_process": threads, "commands": sum(r["commands"] for r in runs),
            "commands_per_s": round(sum(r["commands"] for r in runs) / wall, 1),
            "window_s": seconds, "machine_busy_s": busy_s}


def _run_window(procs, writers: int, barrier: str, seconds: float) -> tuple[str | None, float | None]:
    """Wait for every one of the ``writers`` (in ``procs``) to be ready, open the window, wait for
    every report: what went wrong, and the CPU seconds the whole machine was busy during the window
    (None where unknown)."""
    if not _all_wrote(procs, writers, barrier, "ready", deadline=time.monotonic() + 300):
        return "a writer did not get ready", None
    start = time.time() + WINDOW_LEAD_S
    _write_whole(Path(barrier, "go"), {"start": start, "stop": start + seconds})
    # No polling while the writers write (it would take their CPU): sleep to each end of the window.
    time.sleep(max(start - time.time(), 0))
    busy_before = machine_busy_seconds()
    time.sleep(max(start + seconds - time.time(), 0))
    busy_after = machine_busy_seconds()
    if not _all_wrote(procs, writers, barrier, "json", deadline=time.monotonic() + seconds + 300):
        return "a writer did not report", None
    return None, (None if busy_before is None else round(busy_after - busy_before, 3))


def _all_wrote(procs, writers: int, barrier: str, suffix: str, *, deadline: float) -> bool:
    """Whether all ``writers`` left their ``<pid>-<n>.<suffix>`` before the deadline and no process
    failed (else they are killed)."""
    while len(list(Path(barrier).glob(f"*.{suffix}"))) < writers:
        if time.monotonic() > deadline or any(p.poll() not in (None, 0) for p in procs):
            for p in procs:
                p.kill()
            return False
        time.sleep(0.005)
    return True


def _write_whole(path: Path, value) -> None:
    """Write JSON that a reader polling for ``path`` never sees half-written."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(value))
    partial.rename(path)


WRITER_ROUNDS = 2
WRITER_WINDOW_S = 1.5  # each of the rounds' eight runs
WINDOW_LEAD_S = 0.1  # from the go to the window's start: every writer is waiting for it by then


# The shapes of eight writers beside one: (writers, writer threads per process). The servers run
# their requests and socket commands on threads, two server processes in the distributed stack.
SHAPES = ((1, 1), (8, 1), (8, 4))


def _writers_scaling(env: dict, seconds: float = WRITER_WINDOW_S) -> dict:
    """8 writers on 8 matches against 1 writer: the same ``bench writer`` processes writing through
    windows of the same length, in turn (1, 8, 8 as 2 x 4 threads, 1, ...) so that the machine's load
    falls on all alike. Each figure is total commands over total time. Beside it, in the same
    rounds, the same for bare one-row commits (8 writers on 8 tables against 1): how far this machine
    lets durable commits alone scale, the ceiling of the write path's ratio."""
    runs = {(bare, *shape): [] for bare in (False, True) for shape in SHAPES}
    for _ in range(WRITER_ROUNDS):
        for bare, writers, threads in runs:
            run = _concurrent_writers(env, writers, seconds, bare=bare, threads=threads)
            if "error" in run:
                return {"writers_8": run}
            runs[bare, writers, threads].append(run)

    def rate(of):
        return round(sum(r["commands"] for r in of) / sum(r["commands"] / r["commands_per_s"] for r in of), 1)

    one, eight, threaded = (rate(runs[(False, *shape)]) for shape in SHAPES)
    bare_one, bare_eight, bare_threaded = (rate(runs[(True, *shape)]) for shape in SHAPES)
    return {"writers_8": {"writers": 8, "commands": sum(r["commands"] for r in runs[False, 8, 1]), "commands_per_s": eight},
            "writers_1_commands_per_s": one, "writers_8_vs_1": round(eight / one, 4),
            "writers_8_in_2_processes": {"writers": 8, "processes": 2, "commands_per_s": threaded},
            "writers_8_in_2_processes_vs_1": round(threaded / one, 4),
            "baseline_commit_writers_1_per_s": bare_one, "baseline_commit_writers_8_per_s": bare_eight,
            "baseline_commit_writers_8_vs_1": round(bare_eight / bare_one, 4),
            "baseline_commit_writers_8_in_2_processes_vs_1": round(bare_threaded / bare_one, 4),
            **_machine_cpu(runs[False, 1, 1], runs[False, 8, 1]),
            **_machine_cpu(runs[False, 1, 1], runs[False, 8, 4], eight_name="writers_8_in_2_processes")}


def _machine_cpu(one: list[dict], eight: list[dict], *, eight_name: str = "writers_8") -> dict:
    """How busy the whole machine was in the write path's windows: its CPU per command with one
    writer and with eight, and how many of its cores eight writers kept busy. When eight writers keep
    every core busy, the ratio cannot pass (cores / CPU per command with eight) / one writer's rate,
    whatever the database's commits could do."""
    if any(r["machine_busy_s"] is None for r in one + eight):
        return {}

    def ms_per_command(runs):
        return round(1000 * sum(r["machine_busy_s"] for r in runs) / sum(r["commands"] for r in runs), 3)

    return {"machine_cores": os.cpu_count(),
            "writers_1_machine_cpu_ms_per_command": ms_per_command(one),
            f"{eight_name}_machine_cpu_ms_per_command": ms_per_command(eight),
            f"{eight_name}_cores_busy": round(sum(r["machine_busy_s"] for r in eight) / sum(r["window_s"] for r in eight), 2)}


def run_platform(*, commands: int, latency_samples: int, pg_admin_url: str | None, redis_url: str | None) -> dict:
    result = {"benchmark": "platform"}
    with tempfile.TemporaryDirectory() as tmp:
        env = {**_base_env(), "SQLITE_PATH": str(Path(tmp) / "bench.sqlite3")}
        result["sqlite"] = _subprocess_writepath(env, commands)
    if pg_admin_url:
        try:
            with _TempPostgres(pg_admin_url) as pg:
                pg_env = {**_base_env(), "DATABASE_URL": pg.url}
                result["postgresql"] = single = _subprocess_writepath(pg_env, commands)
                if "error" not in single:
                    single.update(_writers_scaling(pg_env))
                if redis_url:
                    result["latency"] = _latency(pg.url, redis_url, latency_samples)
        except Exception as exc:  # report, don't crash: a missing service is a finding
            result["postgresql_error"] = repr(exc)
    return result


def _latency(database_url: str, redis_url: str, samples: int) -> dict:
    """Live latency with two uvicorn servers on Redis, one command at a time: p50/p95 from POSTing a
    command on server A to its events arriving on a socket on server B, and of a player's own
    command sent over a socket until its answer; beside a bare channels_redis group_send -> receive
    in one process (the layer the servers use) and a bare WebSocket echo through uvicorn."""
    import requests

    with tempfile.TemporaryDirectory() as tmp:
        stack = Stack(database_url, redis_url, Path(tmp))
        try:
            stack.start()
            a, b = (f"http://127.0.0.1:{p}" for p in stack.ports)
            prefix = stack.prefix
            r = requests.post(f"{a}/api/auth/register/", json={"username": f"bench-{prefix}", "password": "kamiza-bench-pass-1"},
                              timeout=10)
            token = r.json()["token"]
            headers = {"Authorization": f"Token {token}"}
            match_id = requests.post(f"{a}/api/matches/", json={"game": "counter", "seats": 1, "options": {}},
                                     headers=headers, timeout=10).json()["id"]
            requests.post(f"{a}/api/matches/{match_id}/start/", headers=headers, timeout=10)
            platform, own = asyncio.run(_socket_latency(stack.ports, match_id, token, samples))
        finally:
            stack.stop()
    bare = asyncio.run(_bare_group_send(redis_url, f"kzb{uuid.uuid4().hex[:6]}", samples))
    core = asyncio.run(_bare_group_send(redis_url, f"kzb{uuid.uuid4().hex[:6]}", samples, kind="core"))
    return {
        "samples": samples,
        "command_to_socket_ms_p50": platform[0],
        "command_to_socket_ms_p95": platform[1],
        "own_socket_command_ms_p50": own[0],
        "own_socket_command_ms_p95": own[1],
        "bare_group_send_ms_p50": bare[0],  # channels_redis pub/sub, the layer the servers use
        "bare_group_send_ms_p95": bare[1],
        "bare_core_layer_group_send_ms_p50": core[0],  # channels_redis's list-based layer (the earlier one)
        "bare_core_layer_group_send_ms_p95": core[1],
        "p50_ratio": round(platform[0] / bare[0], 1) if bare[0] else None,
        "p95_ratio": round(platform[1] / bare[1], 1) if bare[1] else None,
    }


async def _socket_latency(ports, match_id, token, samples):
    """(p50, p95) of POST on A -> events on B's socket, and of a socket command's own round trip.
    The client is light (keep-alive HTTP/1.1 on asyncio, orjson), so the figures are the servers'."""
    http = Http(ports[0], size=1)
    watcher, player = Sock(match_id, token), Sock(match_id, token)
    await watcher.open(ports[1])
    await player.open(ports[0])
    readers = [asyncio.create_task(watcher.read()), asyncio.create_task(player.read())]
    to_other, own = [], []
    try:
        for _ in range(samples):
            seq = watcher.last
            t0 = time.perf_counter()
            status, body = await http.post(f"/api/matches/{match_id}/commands/", {
                "command_id": str(uuid.uuid4()), "expected_seq": seq, "type": "add", "args": {"n": 1}}, token)
            assert status == 201, body
            while body["seq"] not in watcher.arrivals:
                await watcher.arrived.wait()
                watcher.arrived.clear()
            to_other.append((watcher.arrivals[body["seq"]] - t0) * 1000)
        seq = watcher.last
        for _ in range(samples):
            while seq not in watcher.arrivals or seq not in player.arrivals:  # the last append fully pushed
                await asyncio.sleep(0.001)
            t0 = time.perf_counter()
            reply = await player.command(seq)
            assert reply["type"] == "command_result", reply
            own.append((time.perf_counter() - t0) * 1000)
            seq = reply["seq"]
    finally:
        for task in readers:
            task.cancel()
        http.close()
    return ((round(statistics.median(to_other), 2), round(_pct(to_other, 0.95), 2)),
            (round(statistics.median(own), 2), round(_pct(own, 0.95), 2)))


async def _bare_group_send(redis_url, prefix, samples, kind: str = "pubsub"):
    """(p50, p95) ms of a bare group_send -> receive between two channel layers of ``kind`` (the
    servers' own, channels_redis's pub/sub layer, or its list-based "core" one) in one process."""
    if kind == "pubsub":
        from channels_redis.pubsub import RedisPubSubChannelLayer as Layer
    else:
        from channels_redis.core import RedisChannelLayer as Layer

    sender = Layer(hosts=[redis_url], prefix=f"{prefix}b")
    receiver = Layer(hosts=[redis_url], prefix=f"{prefix}b")
    channel = await receiver.new_channel()
    await receiver.group_add("bench", channel)
    latencies = []
    for i in range(samples):
        t0 = time.perf_counter()
        await sender.group_send("bench", {"type": "bench.msg", "i": i})
        await receiver.receive(channel)
        latencies.append((time.perf_counter() - t0) * 1000)
    for layer in (sender, receiver):
        await (layer.flush() if kind == "pubsub" else layer.close_pools())
    return round(statistics.median(latencies), 2), round(_pct(latencies, 0.95), 2)
