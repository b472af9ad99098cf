"""What the live benchmarks share: the processes of a local distributed stack (a fresh PostgreSQL
database, two uvicorn servers, a Celery worker on a Redis database, all on 127.0.0.1) and a light
asyncio client for them (keep-alive HTTP/1.1 and WebSockets, orjson)."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
BENCH_ENGINES = "tests.engines.counter"


def _pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _base_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["KAMIZA_EXTRA_ENGINES"] = BENCH_ENGINES
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _TempPostgres:
    def __init__(self, admin_url: str):
        self.admin_url = admin_url
        # A shared server may ask for a prefix of its own (KAMIZA_BENCH_DB_PREFIX).
        self.name = f"{os.environ.get('KAMIZA_BENCH_DB_PREFIX', 'kamiza_bench')}_{uuid.uuid4().hex[:8]}"
        self.url = f"{admin_url.rsplit('/', 1)[0]}/{self.name}"

    def __enter__(self):
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        return self

    def __exit__(self, *exc):
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def _wait(predicate, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except Exception:
            pass
        time.sleep(0.3)
    raise RuntimeError("server did not come up")


def stop_process_groups(procs, timeout: float) -> None:
    """SIGTERM each process's group (each was started in a session of its own), then SIGKILL any
    group whose leader has not exited within ``timeout`` seconds."""
    procs = list(procs)
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for proc in procs:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def peak_rss_mib(pid: int) -> float | None:
    """Peak resident set size of ``pid`` (VmHWM), MiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def user_system_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds ``pid`` has used so far ((0, 0) once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def machine_busy_seconds() -> float | None:
    """CPU seconds all of this machine's cores have spent busy since boot (user, nice, system, irq and
    softirq in /proc/stat), or None where there is no /proc/stat."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(f) for f in fields[:7])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time ``pid`` has used so far."""
    return sum(user_system_seconds(pid))


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


class Http:
    """A small keep-alive HTTP/1.1 client for JSON POSTs (the load client must stay light)."""

    def __init__(self, port: int, size: int = 16):
        self.port = port
        self.idle: list = []
        self.sem = asyncio.Semaphore(size)

    async def post(self, path: str, body: dict, token: str) -> tuple[int, dict]:
        data = orjson.dumps(body)
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nAuthorization: Token {token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n").encode()
        async with self.sem:
            for attempt in (0, 1):
                fresh = not self.idle
                reader, writer = self.idle.pop() if self.idle else await asyncio.open_connection("127.0.0.1", self.port)
                try:
                    writer.write(head + data)
                    status_line = await reader.readline()
                    if not status_line:
                        raise ConnectionResetError("closed")
                    status = int(status_line.split()[1])
                    length, keep = 0, True
                    while (line := await reader.readline()) not in (b"\r\n", b""):
                        name, _, value = line.decode("latin1").partition(":")
                        if name.lower() == "content-length":
                            length = int(value)
                        elif name.lower() == "connection" and value.strip().lower() == "close":
                            keep = False
                    payload = await reader.readexactly(length) if length else b""
                except (ConnectionError, asyncio.IncompleteReadError):
                    writer.close()
                    if fresh or attempt:
                        raise
                    continue  # an idle connection the server had closed: once more on a new one
                if keep:
                    self.idle.append((reader, writer))
                else:
                    writer.close()
                return status, (orjson.loads(payload) if payload else {})
        raise ConnectionError("unreachable")

    def close(self):
        for _, writer in self.idle:
            writer.close()


class Sock:
    """One client socket: every seq it receives (when), gaps, its last seen seq."""

    def __init__(self, match: str, token: str | None):
        self.match, self.token = match, token
        self.busy = False  # a command of this seat is waiting for its answer
        self.arrived = asyncio.Event()
        self.ws = None
        self.hello = None
        self.last = 0
        self.arrivals: dict[int, float] = {}
        self.gaps = 0
        self.errors: list = []
        self.results: dict = {}  # command_id -> future

    async def open(self, port: int):
        import websockets

        headers = {"Authorization": f"Token {self.token}"} if self.token else {}
        self.ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws/matches/{self.match}/", additional_headers=headers,
                                           max_queue=None, ping_interval=None, open_timeout=60)
        hello = orjson.loads(await asyncio.wait_for(self.ws.recv(), 60))
        if hello.get("type") != "hello":
            raise RuntimeError(f"no hello: {hello}")
        self.hello = self.last = hello["seq"]

    async def read(self):
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                msg = orjson.loads(raw)
                kind = msg.get("type")
                if kind == "events":
                    for ev in msg["events"]:
                        seq = ev["seq"]
                        if seq <= self.last:
                            continue
                        if seq != self.last + 1:
                            self.gaps += seq - self.last - 1
                        self.arrivals[seq] = now
                        self.last = seq
                    self.arrived.set()
                elif kind in ("command_result", "error") and msg.get("command_id") in self.results:
                    fut = self.results.pop(msg["command_id"])
                    if not fut.done():
                        fut.set_result(msg)
                elif kind == "error":
                    self.errors.append(msg)
        except Exception as exc:  # a closed socket is reported as an error of the run
            self.errors.append({"code": "socket_closed", "message": repr(exc)[:200]})

    async def command(self, seq: int) -> dict:
        command_id = str(uuid.uuid4())
        fut = asyncio.get_running_loop().create_future()
        self.results[command_id] = fut
        await self.ws.send(orjson.dumps({"type": "command", "command_id": command_id, "expected_seq": seq,
                                         "command": {"type": "add", "args": {"n": 1}}}).decode())
        return await asyncio.wait_for(fut, 30)


class Stack:
    """2 uvicorn servers + 1 Celery worker on a fresh database; every process killed on exit."""

    def __init__(self, database_url: str, redis_url: str, tmp: Path, extra_env: dict | None = None):
        prefix = f"kzl{uuid.uuid4().hex[:6]}"
        self.env = {**_base_env(), "DATABASE_URL": database_url, "REDIS_URL": redis_url, "CHANNELS_PREFIX": prefix,
                    "CACHE_PREFIX": prefix, "ALLOWED_HOSTS": "127.0.0.1,localhost", "SOCKET_RATE_MESSAGES": "100000",
                    "DJANGO_ENV": "", "PYTHONUNBUFFERED": "1", **(extra_env or {})}
        self.redis_url, self.prefix, self.tmp = redis_url, prefix, tmp
        self.procs: dict[str, subprocess.Popen] = {}
        self.ports = [_free_port(), _free_port()]

    def manage(self, *args, timeout=600):
        out = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
                             text=True, timeout=timeout)
        if out.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed: {out.stderr[-2000:]}")
        return out.stdout

    def start(self, servers: int = 2, worker: bool = True):
        """Migrate, then start ``servers`` uvicorn servers (at most 2) and, with ``worker``, the Celery worker."""
        import requests

        self.ports = self.ports[:servers]
        self.manage("migrate", "--noinput", "-v", "0")
        for i, port in enumerate(self.ports):
            self._spawn(f"asgi{i}", [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                                     "--port", str(port), "--log-level", "warning", "--no-access-log",
                                     "--loop", "uvloop", "--http", "httptools", "--ws", "websockets-sansio",
                                     "--backlog", "4096", "--timeout-keep-alive", "60", "--ws-per-message-deflate", "false"])
        if worker:
            self._spawn("worker", [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "warning", "-c", "1",
                                   "--without-gossip", "--without-mingle", "-n", f"{self.prefix}@%h"])
        for port in self.ports:
            _wait(lambda port=port: requests.get(f"http://127.0.0.1:{port}/api/games/", timeout=2).ok)

    def _spawn(self, name, cmd):
        log = open(self.tmp / f"{name}.log", "ab")
        self.procs[name] = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)

    def rss(self, database: str) -> dict:
        out = {}
        for name, proc in self.procs.items():
            pids = [proc.pid, *_children(proc.pid)]
            figures = [r for r in (peak_rss_mib(p) for p in pids) if r is not None]
            out[name] = round(sum(figures), 1) if figures else None
        out["postgresql_backends"] = _pg_backends_rss(self.env["DATABASE_URL"], database)
        out["load_client"] = peak_rss_mib(os.getpid())
        return out

    def cpu(self, database: str) -> dict:
        """CPU seconds used so far by each of our processes, PostgreSQL's backends for the database
        (by pid: a backend that has gone since the last call makes that figure unknown, None) and
        the load client."""
        out = {name: sum(cpu_seconds(p) for p in [proc.pid, *_children(proc.pid)]) for name, proc in self.procs.items()}
        backends = {p: cpu_seconds(p) for p in _pg_backend_pids(self.env["DATABASE_URL"], database)}
        gone = set(getattr(self, "_backends", {})) - set(backends)
        self._backends = backends
        out["postgresql_backends"] = None if gone else sum(backends.values())
        out["load_client"] = cpu_seconds(os.getpid())
        return out

    def stop(self):
        stop_process_groups(self.procs.values(), timeout=15)
        try:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            for key in client.scan_iter(f"{self.prefix}*", count=1000):
                client.delete(key)
        except Exception:
            pass

    def logs(self) -> str:
        return "".join(f"--- {p.name}\n{p.read_text()[-1500:]}\n" for p in self.tmp.glob("*.log"))


def _pg_backend_pids(database_url: str, database: str) -> list[int]:
    import psycopg

    try:
        with psycopg.connect(database_url, autocommit=True) as conn:
            return [r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> "
                                               "pg_backend_pid()", [database])]
    except Exception:
        return []


def _pg_backends_rss(database_url: str, database: str) -> float | None:
    figures = [r for r in (peak_rss_mib(p) for p in _pg_backend_pids(database_url, database)) if r is not None]
    return round(sum(figures), 1) if figures else None


