"""The production server's access log carries no credential (issue #14 finding 2).

uvicorn logged ``"WebSocket /ws/matches/.../?token=<40 hex>" [accepted]`` and HTTP query strings in
clear text. This runs the README's server (uvicorn on config.asgi) and reads what it writes.
"""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
import websockets.sync.client

from config.logging import RedactQueryString, redact_query

ROOT = Path(__file__).resolve().parent.parent
SECRET = "f" * 40


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def uvicorn_server(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ENV")}
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    env["PYTHONUNBUFFERED"] = "1"  # uvicorn writes access lines to stdout: no block buffering
    log = tmp_path / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):  # wait for the port (up to ~30 s on a loaded machine); not a timed assertion
            if proc.poll() is not None:
                raise AssertionError(log.read_text())
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port, log
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_uvicorn_access_lines_have_no_query_string(uvicorn_server):
    port, log = uvicorn_server
    assert requests.get(f"http://127.0.0.1:{port}/api/nowhere/?token={SECRET}", timeout=10).status_code == 404
    # A ticket is looked up in the cache only, so the (unmigrated) database is never reached.
    url = f"ws://127.0.0.1:{port}/ws/matches/0b9a3c1e-5d2f-4a57-9a0e-3f1c7d2b8e64/?ticket={SECRET}"
    with websockets.sync.client.connect(url, open_timeout=10) as ws:
        assert '"not_authenticated"' in ws.recv(timeout=10)
    text = log.read_text()
    assert "?[redacted]" in text and "/api/nowhere/?[redacted]" in text, text
    assert '"WebSocket /ws/matches/0b9a3c1e-5d2f-4a57-9a0e-3f1c7d2b8e64/?[redacted]"' in text, text
    assert SECRET not in text


def test_the_filter_redacts_arguments_and_preformatted_lines():
    import logging

    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("1.2.3.4:5", "GET", f"/ws/?ticket={SECRET}", "1.1", 200), None)
    RedactQueryString().filter(record)
    assert record.getMessage() == '1.2.3.4:5 - "GET /ws/?[redacted] HTTP/1.1" 200'
    plain = logging.LogRecord("daphne.access", logging.INFO, __file__, 1, f'"WSCONNECT /ws/m/?token={SECRET}" - -', (), None)
    RedactQueryString().filter(plain)
    assert SECRET not in plain.getMessage() and "/ws/m/?[redacted]" in plain.getMessage()
    assert redact_query("/no/query/") == "/no/query/" and redact_query("GET") == "GET"
