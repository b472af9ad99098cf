"""The distributed stack, started for real: a fresh PostgreSQL database, Redis, a Celery worker
process, Celery beat, and two ASGI servers (uvicorn) sharing matches through channels_redis.

Tests talk to it like clients do (HTTP + WebSocket) and read the store directly with psycopg to
check the log. Needs KAMIZA_PG_ADMIN_URL and KAMIZA_REDIS_TEST_URL (set by .ci/run)."""

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest
import redis
import requests

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN_URL = os.environ.get("KAMIZA_PG_ADMIN_URL")
REDIS_TEST_URL = os.environ.get("KAMIZA_REDIS_TEST_URL")

pytestmark = pytest.mark.distributed


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/distributed/" in str(item.fspath):
            item.add_marker(pytest.mark.distributed)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stack:
    def __init__(self, tmp: Path):
        if not PG_ADMIN_URL or not REDIS_TEST_URL:
            pytest.skip("set KAMIZA_PG_ADMIN_URL and KAMIZA_REDIS_TEST_URL to run the distributed suite")
        self.tmp = tmp
        self.db_name = f"kamiza_dist_{uuid.uuid4().hex[:10]}"
        base = PG_ADMIN_URL.rsplit("/", 1)[0]
        self.database_url = f"{base}/{self.db_name}"
        self.ports = [_free_port(), _free_port()]
        self.procs: dict[str, subprocess.Popen] = {}
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": REDIS_TEST_URL,
            "CHANNELS_PREFIX": f"kz{uuid.uuid4().hex[:6]}",
            "CACHE_PREFIX": f"kz{uuid.uuid4().hex[:6]}",
            "KAMIZA_EXTRA_ENGINES": "tests.engines.pebbles,tests.engines.counter",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CELERY_VISIBILITY_TIMEOUT": "5",
            "TIMER_SWEEP_SECONDS": "1",
            "TOURNAMENT_SWEEP_SECONDS": "1",
            "PYTHONUNBUFFERED": "1",
        }

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self):
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        redis.Redis.from_url(REDIS_TEST_URL).flushdb()
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=self.env, check=True)
        for i, port in enumerate(self.ports):
            self._spawn(f"asgi{i}", [sys.executable, "-m", "uvicorn", "config.asgi:application",
                                     "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"])
        self.start_worker()
        self._spawn("beat", [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "warning",
                             "-s", str(self.tmp / "beat-schedule")])
        for port in self.ports:
            self._wait_http(port)

    def start_worker(self, extra_env: dict | None = None):
        self._spawn("worker", [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "warning",
                               "-c", "2", "--without-gossip", "--without-mingle", "-n", f"w{uuid.uuid4().hex[:6]}@%h"],
                    extra_env)

    def kill_worker(self):
        proc = self.procs.pop("worker")
        os.killpg(proc.pid, signal.SIGKILL)  # the main process and its pool children, no warm shutdown
        proc.wait(timeout=10)

    def stop(self):
        for proc in self.procs.values():
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for proc in self.procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')

    def _spawn(self, name, cmd, extra_env=None):
        log = open(self.tmp / f"{name}.log", "ab")
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


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    s = Stack(tmp_path_factory.mktemp("stack"))
    s.start()
    yield s
    s.stop()
