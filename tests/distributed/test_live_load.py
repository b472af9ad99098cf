"""Live play on the real stack: spectator counts add up over both servers (and expire with a server's
reports), and a tiny run of ``manage.py bench load`` so the benchmark cannot rot."""

import asyncio
import contextlib
import json
import subprocess
import sys
import threading
import time
import uuid

import pytest
import websockets

from .client import Player, wait_until
from .conftest import PG_ADMIN_URL, REDIS_TEST_URL, ROOT

pytestmark = pytest.mark.distributed


@contextlib.contextmanager
def spectators(urls: list[str]):
    """Anonymous sockets held open (in a background loop) until the block ends."""
    loop = asyncio.new_event_loop()
    opened, stop = [], asyncio.Event()

    async def hold(url):
        async with websockets.connect(url, open_timeout=20) as ws:
            assert json.loads(await ws.recv())["type"] == "hello"
            opened.append(url)
            while not stop.is_set():
                await asyncio.sleep(0.05)

    async def main():
        await asyncio.gather(*(hold(u) for u in urls))

    thread = threading.Thread(target=lambda: loop.run_until_complete(main()), daemon=True)
    thread.start()
    try:
        wait_until(lambda: len(opened) == len(urls), timeout=30, what="every spectator's hello")
        yield
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout=10)


def test_spectators_are_counted_over_both_servers(stack):
    owner = Player(stack, 0, f"spec-owner-{uuid.uuid4().hex[:6]}")
    guest = Player(stack, 1, f"spec-guest-{uuid.uuid4().hex[:6]}")
    match_id = owner.call("POST", "/api/matches/", json={"game": "pebbles", "seats": 2, "options": {}}).json()["id"]
    guest.call("POST", f"/api/matches/{match_id}/join/", json={"seat": 1})
    owner.call("POST", f"/api/matches/{match_id}/start/")

    def counts():
        return [owner.call("GET", f"/api/matches/{match_id}/", server=s).json()["spectators"] for s in (0, 1)]

    urls = [stack.ws_url(0, match_id), stack.ws_url(0, match_id), stack.ws_url(1, match_id)]
    with spectators(urls + [stack.ws_url(1, match_id, owner.token)]):  # the player's socket is no spectator
        assert wait_until(lambda: counts() == [3, 3], timeout=20, what="3 spectators on both servers' API")
    assert wait_until(lambda: counts() == [0, 0], timeout=20, what="the counts going back to 0")


def test_a_servers_report_expires_with_its_ttl():
    from games.application.presence import RedisPresence

    if not REDIS_TEST_URL:
        pytest.skip("set KAMIZA_REDIS_TEST_URL")
    store = RedisPresence(REDIS_TEST_URL, f"kz-presence-{uuid.uuid4().hex[:6]}")
    store.report("server-a", {"m1": 2, "m2": 1}, ttl=30)
    store.report("server-b", {"m1": 3}, ttl=1)
    assert store.spectators(["m1", "m2", "m3"]) == {"m1": 5, "m2": 1, "m3": 0}
    time.sleep(1.5)  # server-b was killed: it reports no more, and its counts go with its expiry
    assert store.spectators(["m1", "m2"]) == {"m1": 2, "m2": 1}
    store.report("server-a", {}, ttl=30)
    assert store.spectators(["m1"]) == {"m1": 0}


def test_a_tiny_bench_load_runs_clean():
    if not PG_ADMIN_URL or not REDIS_TEST_URL:
        pytest.skip("set KAMIZA_PG_ADMIN_URL and KAMIZA_REDIS_TEST_URL")
    out = subprocess.run(
        [sys.executable, "manage.py", "bench", "load", "--matches", "3", "--spectators", "1", "--rate", "6",
         "--seconds", "2", "--fanout-spectators", "5", "--fanout-rate", "2", "--fanout-seconds", "2", "--settle", "1",
         "--pg-admin-url", PG_ADMIN_URL, "--redis-url", REDIS_TEST_URL],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert "error" not in result, result
    matches, fanout = result["matches"], result["fanout"]
    assert (matches["sockets"], fanout["sockets"]) == (9, 7)
    for scenario in (matches, fanout):
        assert scenario["errors"] == 0 and scenario["lost"] == 0 and scenario["gaps"] == 0, scenario
        assert scenario["accepted"] > 0 and scenario["command_to_last_socket_ms"]["p95"] is not None
    assert matches["own_socket_command_ms"]["n"] > 0
    rss = result["peak_rss_mib"]
    assert rss["asgi0"] and rss["asgi1"] and rss["worker"] and rss["total"] >= rss["asgi0"] + rss["asgi1"]
    assert result["baselines"]["bare_group_send_ms"]["p50"] is not None
