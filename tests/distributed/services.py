"""Private Redis and PostgreSQL servers for the fault tests: started on free ports from the
machine's own binaries (``redis-server``; Debian's ``initdb`` and ``pg_ctl``), killed and restarted
at will, and never the machine's shared ones (127.0.0.1:5432 and :6379 are left alone).

``initdb`` refuses to run as root, so as root (CI on a fresh clone) the cluster is created and run
by the ``postgres`` system user that Debian's postgresql package creates (else ``nobody``), in a
directory of its own under the system temp dir."""

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not come up within {timeout} s")


class PrivateRedis:
    """``redis-server`` on a free port, without persistence: a restart loses every key (queued
    Celery tasks, channel groups, cache entries), the harshest Redis restart there is."""

    def __init__(self, tmp: Path):
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (.ci/run installs it)")
        self.binary, self.tmp, self.port = binary, tmp, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self):
        log = open(self.tmp / "redis.log", "ab")
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.tmp)],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _wait(self.ping, 20, "redis-server")

    def ping(self) -> bool:
        try:
            return redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
        except redis.RedisError:
            return False

    def kill(self):
        """SIGKILL: no shutdown, no save."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self):
        self.kill()


def _pg_bindir() -> str | None:
    explicit = os.environ.get("KAMIZA_PG_BINDIR")
    if explicit:
        return explicit
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


class PrivatePostgres:
    """A throw-away PostgreSQL cluster (``initdb`` + ``pg_ctl``) on a free port, trust auth for the
    ``postgres`` superuser over 127.0.0.1. ``fsync=off`` (a process crash still loses nothing: the
    OS keeps the written pages); commits stay synchronous, so an acknowledged commit survives an
    immediate (crash) shutdown."""

    def __init__(self):
        bindir = _pg_bindir()
        if bindir is None:
            pytest.skip("initdb/pg_ctl not found (install Debian's postgresql; .ci/run does)")
        self.bindir = bindir
        self.port = free_port()
        self.run_as = None
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                try:
                    self.run_as = pwd.getpwnam(name)
                    break
                except KeyError:
                    continue
            if self.run_as is None:
                pytest.skip("initdb refuses root and there is no postgres or nobody user")
        self.home = Path(tempfile.mkdtemp(prefix="kamiza-pg-"))
        if self.run_as is not None:
            os.chown(self.home, self.run_as.pw_uid, self.run_as.pw_gid)
        self.data = self.home / "data"
        self.admin_url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args, check=True):
        kwargs = {}
        if self.run_as is not None:
            kwargs = {"user": self.run_as.pw_uid, "group": self.run_as.pw_gid, "extra_groups": []}
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home), "LC_ALL": "C"}
        out = subprocess.run([os.path.join(self.bindir, args[0]), *args[1:]], cwd=self.home, env=env,
                             capture_output=True, text=True, timeout=120, **kwargs)
        if check and out.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {out.stdout}\n{out.stderr}\n{self.log()}")
        return out

    def init(self):
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C",
                  "--no-sync", "--no-instructions")

    def start(self):
        options = (f"-p {self.port} -h 127.0.0.1 -k {self.home} -c fsync=off -c full_page_writes=off "
                   "-c max_connections=200")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.home / "postgres.log"), "-o", options, "-w",
                  "-t", "60", "start")
        _wait(self.ready, 30, "PostgreSQL")

    def ready(self) -> bool:
        try:
            with psycopg.connect(self.admin_url, connect_timeout=1) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def crash(self):
        """Stop at once, as a crash would (``-m immediate``: no checkpoint; recovery on the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)

    def stop(self):
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def remove(self):
        shutil.rmtree(self.home, ignore_errors=True)

    def log(self) -> str:
        path = self.home / "postgres.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


def kill_group(proc: subprocess.Popen, sig=signal.SIGKILL):
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
