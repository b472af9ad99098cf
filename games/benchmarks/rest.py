"""``manage.py bench rest``: the server CPU of a REST command POST.

One uvicorn server (the stack's command line, no Celery worker) on a fresh PostgreSQL database and
a Redis database; one started 2-seat counter match with its players' tokens (``bench loadseed``).
One client POSTs ``/api/matches/<id>/commands/`` one at a time over a keep-alive connection, the
two seats in turn, each with the seq of the last answer; ``--rounds`` rounds of ``--commands``
POSTs after a warm-up. Per round: the server process's CPU (user + system, /proc/<pid>/stat; the
system part too) per POST, the database backends' CPU per POST, and the latency p50 / p95 seen by the client. With
``--profile FILE``, py-spy (when on the PATH or given by ``--py-spy``) samples the server during
the rounds and writes a flame graph or, for a ``.txt`` FILE, its collapsed stacks.
"""

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from .stack import Http, Stack, _pct, _TempPostgres, user_system_seconds


def _round_figures(cpu_s: float, system_s: float, db_cpu_s: float | None, latencies: list[float]) -> dict:
    n = max(len(latencies), 1)
    return {"posts": len(latencies), "server_cpu_ms_per_post": round(1000 * cpu_s / n, 3),
            "of_which_system_ms": round(1000 * system_s / n, 3),
            "db_cpu_ms_per_post": None if db_cpu_s is None else round(1000 * db_cpu_s / n, 3),
            "latency_ms_p50": round(statistics.median(latencies), 2) if latencies else None,
            "latency_ms_p95": round(_pct(latencies, 0.95), 2) if latencies else None}


async def _post_commands(http: Http, match: str, tokens: list[str], seq: int, count: int) -> tuple[int, list[float]]:
    """``count`` sequential POSTs, the seats in turn; returns (the last seq, latencies in ms)."""
    latencies = []
    for i in range(count):
        body = {"command_id": str(uuid.uuid4()), "expected_seq": seq, "type": "add", "args": {"n": 1}}
        t0 = time.perf_counter()
        status, reply = await http.post(f"/api/matches/{match}/commands/", body, tokens[i % len(tokens)])
        latencies.append((time.perf_counter() - t0) * 1000)
        if status != 201:
            raise RuntimeError(f"POST answered {status}: {str(reply)[:200]}")
        seq = reply["seq"]
    return seq, latencies


def _start_py_spy(py_spy: str, pid: int, out: str) -> subprocess.Popen:
    fmt = "raw" if out.endswith(".txt") else "flamegraph"
    return subprocess.Popen([py_spy, "record", "--pid", str(pid), "--rate", "250", "--gil", "--format", fmt, "--output", out,
                             "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _stop_py_spy(proc: subprocess.Popen) -> None:
    import signal

    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)


def _backends_cpu(stack: Stack) -> float | None:
    return stack.cpu(stack.database)["postgresql_backends"]


async def _measure(stack: Stack, seed: dict, seq: int, commands: int, rounds: int, warmup: int,
                   when_warm=lambda: None) -> list[dict]:
    http = Http(stack.ports[0], size=1)
    pid = stack.procs["asgi0"].pid
    tokens = seed["tokens"]
    seq, _ = await _post_commands(http, seed["match"], tokens, seq, warmup)
    when_warm()
    out = []
    try:
        for _ in range(rounds):
            db0, (user0, sys0) = _backends_cpu(stack), user_system_seconds(pid)
            seq, latencies = await _post_commands(http, seed["match"], tokens, seq, commands)
            (user1, sys1), db1 = user_system_seconds(pid), _backends_cpu(stack)
            out.append(_round_figures(user1 - user0 + sys1 - sys0, sys1 - sys0,
                                      None if db0 is None or db1 is None else db1 - db0, latencies))
    finally:
        http.close()
    return out


def _first_seq(database_url: str, match: str) -> int:
    import psycopg

    with psycopg.connect(database_url) as conn:
        return conn.execute("SELECT head_seq FROM eventstore_match WHERE id = %s", [uuid.UUID(match)]).fetchone()[0]


def run_rest(*, pg_admin_url: str, redis_url: str, commands: int = 500, rounds: int = 5, warmup: int = 100,
             profile: str | None = None, py_spy: str | None = None) -> dict:
    started = time.monotonic()
    result = {"benchmark": "rest", "commands_per_round": commands, "warmup": warmup}
    with tempfile.TemporaryDirectory() as tmp, _TempPostgres(pg_admin_url) as pg:
        tmp = Path(tmp)
        stack = Stack(pg.url, redis_url, tmp)
        stack.database = pg.name
        spies = []
        try:
            stack.start(servers=1, worker=False)
            seeds_file = tmp / "seeds.json"
            stack.manage("bench", "loadseed", "--matches", "1", "--out", str(seeds_file))
            seed = json.loads(seeds_file.read_text())[0]
            head = _first_seq(stack.env["DATABASE_URL"], seed["match"])

            def start_profile():
                if profile:
                    spies.append(_start_py_spy(py_spy or shutil.which("py-spy") or "py-spy", stack.procs["asgi0"].pid,
                                               profile))

            result["rounds"] = asyncio.run(_measure(stack, seed, head, commands, rounds, warmup, start_profile))
        except Exception as exc:
            result["error"] = repr(exc)[:500]
            result["logs"] = stack.logs()[-4000:]
        finally:
            for spy in spies:
                _stop_py_spy(spy)
            stack.stop()
    rounds_done = result.get("rounds") or []
    if rounds_done:
        cpu = [r["server_cpu_ms_per_post"] for r in rounds_done]
        result["server_cpu_ms_per_post"] = {"min": min(cpu), "median": round(statistics.median(cpu), 3)}
        result["latency_ms_p50_median"] = round(statistics.median(r["latency_ms_p50"] for r in rounds_done), 2)
    result["load_average_1m"] = round(os.getloadavg()[0], 2)
    result["wall_s"] = round(time.monotonic() - started, 1)
    return result
