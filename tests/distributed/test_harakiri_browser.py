"""The issue's browser check on the real stack: two players in two browsers, each on a different
ASGI server, each control two Harakiri characters through two rounds while a real Celery worker
process (not eager tasks) draws the oracle, reveals events and activates every enemy. Both pages
receive the worker's steps live through channels_redis. The scenario and every assertion are the
embedded browser test's (tests/e2e/test_harakiri_party.py)."""

import pytest

from tests.e2e.conftest import launch_chromium, page_maker
from tests.e2e.test_harakiri_party import play_party_rounds

pytestmark = [pytest.mark.distributed, pytest.mark.e2e]


def test_two_browsers_on_two_servers_play_while_a_real_worker_plays_the_enemies(stack):
    worker_log = stack.tmp / "worker.log"
    log_before = worker_log.stat().st_size if worker_log.exists() else 0
    # The browser lives only for this test: Playwright's loop must be gone before the suite's
    # asyncio-based socket tests run in this thread.
    with launch_chromium() as browser, page_maker(browser) as make:
        leader = make(stack.url(0, ""))
        ally = make(stack.url(1, ""))
        play_party_rounds(leader, ally)
    with open(worker_log, "rb") as log:
        log.seek(log_before)
        during = log.read().decode(errors="replace")
    assert "Traceback" not in during, during[-3000:]
