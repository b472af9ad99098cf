"""The socket database threads' outage breaker (``games.realtime.dbthreads``): while the pool cannot
hand out a connection, one call at a time tries the database and the others are told "unavailable"
at once, instead of each holding one of the few threads for the pool's whole timeout."""

import asyncio
import threading

import pytest
from django.db import OperationalError
from psycopg_pool import PoolTimeout

from games.application.errors import Unavailable
from games.realtime import dbthreads

# Channels closes a thread's stale connections around each call, which touches the database layer
pytestmark = pytest.mark.django_db(transaction=True)


def _pool_timed_out():
    try:
        raise PoolTimeout("couldn't get a connection after 3.00 sec")
    except PoolTimeout as cause:
        raise OperationalError("couldn't get a connection after 3.00 sec") from cause


@pytest.fixture(autouse=True)
def closed_breaker(monkeypatch):
    monkeypatch.setattr(dbthreads, "breaker", dbthreads.OutageBreaker())


class Database:
    """A stand-in for the database: down (each call waits for the pool, then times out) or up;
    ``hold`` keeps the next call waiting until released."""

    def __init__(self):
        self.down, self.calls = True, 0
        self.hold, self.entered = threading.Event(), threading.Event()
        self.hold.set()

    def call(self):
        self.calls += 1
        self.entered.set()
        self.hold.wait(10)
        if self.down:
            _pool_timed_out()
        return "row"


async def _outcome(coro):
    try:
        return await coro
    except Unavailable:
        return "refused at once"
    except OperationalError:
        return "timed out"


async def test_while_the_pool_times_out_one_call_tries_and_the_others_are_refused_at_once():
    database = Database()
    call = dbthreads.db(database.call)
    # given a call that found the pool empty (the breaker opens)
    assert await _outcome(call()) == "timed out"
    # when, with the database still down, a probe is waiting on the pool and three more calls come
    database.hold.clear()
    database.entered.clear()
    probe = asyncio.ensure_future(_outcome(call()))
    await asyncio.get_running_loop().run_in_executor(None, database.entered.wait, 10)
    others = await asyncio.gather(*(_outcome(call()) for _ in range(3)))
    # then the three are refused without touching the database, and the probe times out as before
    assert others == ["refused at once"] * 3 and database.calls == 2
    database.hold.set()
    assert await probe == "timed out"
    # and once the database is back the next call (the new probe) gets through and closes the
    # breaker, after which calls run side by side again
    database.down = False
    assert await _outcome(call()) == "row"
    assert not dbthreads.breaker.open
    assert await asyncio.gather(*(_outcome(call()) for _ in range(3))) == ["row"] * 3


async def test_other_database_errors_leave_the_breaker_closed():
    def statement_timeout():
        raise OperationalError("canceling statement due to statement timeout")

    assert await _outcome(dbthreads.db(statement_timeout)()) == "timed out"
    assert not dbthreads.breaker.open
    assert await dbthreads.db(lambda: "row")() == "row"
