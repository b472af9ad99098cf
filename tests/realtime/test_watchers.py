"""The spectator count on the socket: the hello's ``spectators``, then ``{"type": "watchers",
"spectators": N}`` to every socket on the match whenever the number of sockets without a seat,
summed over every server, changes. A count only; no database read for it."""

import asyncio
import time

import pytest
from channels.layers import get_channel_layer

from games.application import presence
from games.application.hooks import match_group
from games.realtime.fanout import WATCHERS_TYPE

from .conftest import close_all, db, open_socket, recv

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _quick_reports(settings):
    settings.SPECTATOR_REPORT_SECONDS = 0.5


async def watching(comm, expected: int, timeout: float = 10.0) -> dict:
    """The ``watchers`` messages up to the one saying ``expected`` (the count may pass through others
    on the way, as reports settle); returns that message."""
    deadline = time.monotonic() + timeout
    seen = []
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"never told {expected} watching; told {seen}"
        try:
            msg = await recv(comm, timeout=left, skip=("events", "state", "pong", "chat"))
        except TimeoutError:
            raise AssertionError(f"never told {expected} watching; told {seen}") from None
        assert msg["type"] == "watchers", msg
        assert set(msg) == {"type", "spectators"}, "a count, nothing else"
        seen.append(msg["spectators"])
        if msg["spectators"] == expected:
            return msg


async def test_two_spectators_join_and_one_leaves(started_pebbles, make_user):
    # given a running match with its player's socket open
    m, (u0, _) = await db(started_pebbles)()
    player, _ = await open_socket(m.pk, user=u0)
    hello = await recv(player)
    assert hello["type"] == "hello" and hello["spectators"] == 0
    # when two spectators open the match (one signed in, one not)
    first, _ = await open_socket(m.pk)
    second, _ = await open_socket(m.pk, user=await db(make_user)())
    for comm in (first, second):
        assert (await recv(comm))["type"] == "hello"
    # then the player and each spectator are told 2 are watching
    for comm in (player, first, second):
        await watching(comm, 2)
    # when one spectator leaves, then the others are told 1
    await first.disconnect()
    await watching(player, 1)
    await watching(second, 1)
    # and a socket opened now hears the count in its hello
    late, _ = await open_socket(m.pk, user=u0)
    assert (await recv(late))["spectators"] == 1
    await close_all(player, second, late)


async def test_spectators_on_another_server_are_counted_here(started_pebbles):
    # given a player's socket here, and another server reporting two spectators of the same match
    m, (u0, _) = await db(started_pebbles)()
    player, _ = await open_socket(m.pk, user=u0)
    await recv(player)
    await asyncio.to_thread(presence.report, "another-server", {str(m.pk): 2}, 30.0)
    try:
        # when that server tells the match's group its count changed
        await get_channel_layer().group_send(match_group(m.pk), {"type": WATCHERS_TYPE, "match": str(m.pk)})
        # then the sum over the servers reaches the socket here
        await watching(player, 2)
    finally:
        await asyncio.to_thread(presence.report, "another-server", {}, 30.0)
    # and once that server's spectators are gone, the next interval's re-read says so
    await watching(player, 0)
    await close_all(player)


async def test_telling_the_count_reads_no_database(started_pebbles, monkeypatch):
    from games.realtime import fanout

    m, (u0, _) = await db(started_pebbles)()
    player, _ = await open_socket(m.pk, user=u0)
    await recv(player)
    spectator, _ = await open_socket(m.pk)
    await recv(spectator)
    await watching(player, 1)
    # given every hop of the live layer to a database thread counted
    hops = []
    real_db = fanout.db

    def counting_db(fn):
        hops.append(getattr(fn, "__name__", repr(fn)))
        return real_db(fn)

    monkeypatch.setattr(fanout, "db", counting_db)
    # when a spectator leaves and the count reaches the player
    await spectator.disconnect()
    await watching(player, 0)
    # then no database was read for it (the sums come from the presence store); only the logins'
    # re-check ran, on its own timer
    assert set(hops) <= {"still_authorised_many"}, hops
    await close_all(player)
