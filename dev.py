#!/usr/bin/env python3
"""Kamiza's two everyday commands, needing only Python 3.11+ on the machine:

    python3 dev.py serve [HOST:PORT]   # set up and run the service on the embedded default, with demo
                                       # data, at HOST:PORT (default 127.0.0.1:8000)
    python3 dev.py test [PYTEST ARGS]  # set up and run the whole test suite (or the given tests)
    python3 dev.py --help              # this text

Both create ./.venv and install the pinned requirements on first use (and again whenever a
requirements file changes).
"""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / "bin" / "python"
CHROMIUM = Path("/usr/bin/chromium")


def run(*cmd, env=None, check=True):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, env=env, check=check)


def ensure_venv(requirements: str) -> None:
    if sys.version_info < (3, 11):
        sys.exit("Kamiza needs Python 3.11 or newer")
    if not PY.exists():
        run(sys.executable, "-m", "venv", VENV)
    req_dir = ROOT / "requirements"
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(req_dir.glob("*.txt")))).hexdigest()
    stamp = VENV / f".installed-{requirements}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    run(PY, "-m", "pip", "install", "-q", "--upgrade", "pip")
    run(PY, "-m", "pip", "install", "-q", "-r", req_dir / f"{requirements}.txt")
    stamp.write_text(digest)


def ensure_chromium() -> bool:
    """The browser tests drive Debian's Chromium; install it when we can (root + apt)."""
    if CHROMIUM.exists():
        return True
    if os.geteuid() == 0 and shutil.which("apt-get"):
        run("apt-get", "update", "-qq", check=False)
        run("apt-get", "install", "-y", "-qq", "chromium", check=False)
    if not CHROMIUM.exists():
        print("! /usr/bin/chromium is missing: the browser tests will be skipped", flush=True)
    return CHROMIUM.exists()


def serve_env(environ) -> dict:
    """The embedded default's environment. DEBUG is opt-in, for development only: this is development."""
    env = {k: v for k, v in environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.setdefault("DJANGO_DEBUG", "1")
    return env


def serve(args) -> None:
    ensure_venv("dev")
    env = serve_env(os.environ)
    run(PY, "manage.py", "migrate", "--noinput", env=env)
    run(PY, "manage.py", "seed_demo", env=env)
    addr = args[0] if args else "127.0.0.1:8000"
    print(f"\nKamiza on http://{addr}/  (demo users: alice / bob, password kamiza-demo-1; staff: admin / kamiza-admin-1)\n", flush=True)
    # The embedded mode has no Celery beat: this loop fires the decision clocks (timeouts).
    clocks = subprocess.Popen([str(PY), "manage.py", "run_clocks"], cwd=ROOT, env=env)
    try:
        server = subprocess.run([str(PY), "manage.py", "runserver", addr], cwd=ROOT, env=env, check=False)
    except KeyboardInterrupt:
        server = None
    finally:
        clocks.terminate()
        clocks.wait(timeout=10)
    sys.exit(server.returncode if server else 0)


def test(args) -> None:
    ensure_venv("dev")
    ensure_chromium()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    # Everything but the distributed suite, which needs PostgreSQL, Redis and a worker (.ci/run).
    # Two workers: the machine has two cores and the suite is CPU-bound (browser tests included).
    workers = ["-n", os.environ.get("KAMIZA_TEST_WORKERS", "2")] if not args else []
    result = run(PY, "-m", "pytest", "-m", "not distributed", *workers, *args, env=env, check=False)
    sys.exit(result.returncode)


if __name__ == "__main__":
    commands = {"serve": serve, "test": test}
    if len(sys.argv) >= 2 and sys.argv[1] in ("-h", "--help", "help"):
        print(__doc__)
        sys.exit(0)
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](sys.argv[2:])
