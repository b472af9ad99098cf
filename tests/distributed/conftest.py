"""The distributed stack, started for real: a fresh PostgreSQL database, Redis, a Celery worker
process, Celery beat, and two ASGI servers (uvicorn) sharing matches through channels_redis.

Tests talk to it like clients do (HTTP + WebSocket) and read the store directly with psycopg to
check the log. Needs KAMIZA_PG_ADMIN_URL and KAMIZA_REDIS_TEST_URL (set by .ci/run). The fault tests
(test_faults.py) build a second stack on a Redis and a PostgreSQL of their own (services.py), which
they restart; the fault scoreboard (scoreboard.py) is printed at the end of the run."""

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import psycopg
import pytest
import redis
import requests

from games.benchmarks.stack import stop_process_groups

from .scoreboard import pytest_terminal_summary  # noqa: F401  (the fault scoreboard, a pytest hook)
from .services import free_port

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get("KAMIZA_PG_ADMIN_URL")
REDIS_TEST_URL = os.environ.get("KAMIZA_REDIS_TEST_URL")

pytestmark = pytest.mark.distributed


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/distributed/" in str(item.fspath):
            item.add_marker(pytest.mark.distributed)


class Stack:
    """``pg_admin_url`` / ``redis_url`` default to the machine's shared servers (KAMIZA_PG_ADMIN_URL,
    KAMIZA_REDIS_TEST_URL); the fault tests pass their own private ones."""

    def __init__(self, tmp: Path, pg_admin_url=None, redis_url=None, extra_env: dict | None = None):
        self.tmp = tmp
        self.pg_admin_url = pg_admin_url or PG_ADMIN_URL
        self.redis_url = redis_url or REDIS_TEST_URL
        if not self.pg_admin_url or not self.redis_url:
            pytest.skip("set KAMIZA_PG_ADMIN_URL and KAMIZA_REDIS_TEST_URL to run the distributed suite")
        self.db_name = f"kamiza_dist_{uuid.uuid4().hex[:10]}"
        base = self.pg_admin_url.rsplit("/", 1)[0]
        self.database_url = f"{base}/{self.db_name}"
        self.ports = [free_port(), free_port()]
        self.procs: dict[str, subprocess.Popen] = {}
        self._specs: dict[str, tuple] = {}
        self._lock = threading.RLock()
        self.restarts: list[tuple[str, int]] = []  # (process, exit status) the supervisor restarted
        self._supervising = threading.Event()
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "CHANNELS_PREFIX": f"kz{uuid.uuid4().hex[:6]}",
            "CACHE_PREFIX": f"kz{uuid.uuid4().hex[:6]}",
            "KAMIZA_EXTRA_ENGINES": "tests.engines.pebbles,tests.engines.counter",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CELERY_VISIBILITY_TIMEOUT": "5",
            "CELERY_RESTORE_INTERVAL": "1",
            "TIMER_SWEEP_SECONDS": "1",
            "TOURNAMENT_SWEEP_SECONDS": "1",
            "PYTHONUNBUFFERED": "1",
            "WORKER_CHAOS_DIR": str(tmp / "chaos"),  # workers.chaos: tests arm points to kill a worker mid-task
            **(extra_env or {}),
        }
        (tmp / "chaos").mkdir(exist_ok=True)

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self):
        with psycopg.connect(self.pg_admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        redis.Redis.from_url(self.redis_url).flushdb()
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=self.env, check=True)
        for i in range(len(self.ports)):
            self.start_server(i, wait=False)
        self.start_worker()
        self.start_beat()
        for port in self.ports:
            self._wait_http(port)
        self._supervising.set()
        threading.Thread(target=self._supervise, daemon=True).start()

    def _supervise(self):
        """What a deployment's process supervisor does (README, "Running distributed"): start the
        worker or beat again when it exits by itself (a worker can exit on a lost broker connection).
        Processes a test kills on purpose are not restarted (``_kill`` forgets them first)."""
        while self._supervising.is_set():
            with self._lock:
                for name in ("worker", "beat"):
                    proc = self.procs.get(name)
                    if proc is not None and proc.poll() is not None and self._supervising.is_set():
                        self.restarts.append((name, proc.returncode))
                        self._spawn(name, *self._specs[name])
            time.sleep(0.5)

    def start_server(self, i: int, wait: bool = True):
        self._spawn(f"asgi{i}", [sys.executable, "-m", "uvicorn", "config.asgi:application",
                                 "--host", "127.0.0.1", "--port", str(self.ports[i]), "--log-level", "warning"])
        if wait:
            self._wait_http(self.ports[i])

    def kill_server(self, i: int):
        self._kill(f"asgi{i}")

    def start_beat(self):
        self._spawn("beat", [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "warning",
                             "-s", str(self.tmp / "beat-schedule")])

    def kill_beat(self):
        self._kill("beat")

    def start_worker(self, extra_env: dict | None = None):
        self._spawn("worker", [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "warning",
                               "-c", "2", "--without-gossip", "--without-mingle", "-n", f"w{uuid.uuid4().hex[:6]}@%h"],
                    extra_env)

    def kill_worker(self):
        self._kill("worker")  # the main process and its pool children, no warm shutdown

    def ensure_worker(self):
        if "worker" not in self.procs:
            self.start_worker()

    # -- killing a worker mid-task (workers.chaos) -----------------------------------------------
    def arm(self, point: str, seconds: float = 5.0):
        """From now on every task reaching ``point`` says so and pauses ``seconds`` there."""
        (self.tmp / "chaos" / point).write_text(str(seconds))

    def disarm(self, point: str):
        (self.tmp / "chaos" / point).unlink(missing_ok=True)

    def marks(self, point: str) -> int:
        """How many times a task has paused at ``point``."""
        path = self.tmp / "chaos" / "marks"
        return sum(1 for line in path.read_text().splitlines() if line.split()[0] == point) if path.exists() else 0

    def kill_worker_at(self, point: str, after: int = 0, timeout: float = 120.0, must: bool = True) -> bool:
        """SIGKILL the worker as soon as a task pauses at ``point`` for the ``after + 1``-th time:
        it is then mid-task (see ``workers.chaos`` for where each point is). With ``must=False``,
        False when no task got there within ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.marks(point) > after:
                self.kill_worker()
                return True
            time.sleep(0.05)
        if must:
            raise AssertionError(f"no task paused at {point} within {timeout} s")
        return False

    def _kill(self, name: str):
        with self._lock:
            proc = self.procs.pop(name)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def stop(self):
        self._supervising.clear()
        with self._lock:
            pass  # a restart under way has finished
        stop_process_groups(self.procs.values(), timeout=10)
        with psycopg.connect(self.pg_admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    def _spawn(self, name, cmd, extra_env=None):
        with self._lock:
            self._specs[name] = (cmd, extra_env)
            with open(self.tmp / f"{name}.log", "ab") as log:
                self.procs[name] = subprocess.Popen(cmd, cwd=ROOT, env={**self.env, **(extra_env or {})},
                                                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def _wait_http(self, port, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if requests.get(f"http://127.0.0.1:{port}/api/games/", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"ASGI server on {port} did not come up: {self.logs()}")

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in self.tmp.glob("*.log"))

    # -- clients -----------------------------------------------------------------------------
    def url(self, server: int, path: str) -> str:
        return f"http://127.0.0.1:{self.ports[server]}{path}"

    def ws_url(self, server: int, match_id, token=None) -> str:
        query = f"?token={token}" if token else ""
        return f"ws://127.0.0.1:{self.ports[server]}/ws/matches/{match_id}/{query}"

    def sql(self, query: str, params=()):
        with psycopg.connect(self.database_url) as conn:
            return conn.execute(query, params).fetchall()

    def manage(self, *args, timeout=300) -> subprocess.CompletedProcess:
        """``manage.py <args>`` against this stack's database and Redis."""
        return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=timeout)


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    s = Stack(tmp_path_factory.mktemp("stack"))
    s.start()
    yield s
    s.stop()
