"""Spectator counts: sockets without a seat, reported by each server with an expiry, shown as
``spectators`` in the match list and detail of active matches."""

import asyncio
import time

import pytest
from django.test import Client

from games.application import presence

from .conftest import HOST, close_all, db, open_socket, recv

pytestmark = pytest.mark.django_db(transaction=True)


def _counts(match_id):
    client = Client(HTTP_HOST=HOST)
    detail = client.get(f"/api/matches/{match_id}/").json()["spectators"]
    listed = {x["id"]: x["spectators"] for x in client.get("/api/matches/?page_size=100").json()["results"]}
    return detail, listed[str(match_id)]


async def _until(match_id, expected, timeout=15.0):
    deadline = time.monotonic() + timeout
    while True:
        got = await db(_counts)(match_id)
        if got == (expected, expected) or time.monotonic() > deadline:
            return got
        await asyncio.sleep(0.1)


async def test_sockets_without_a_seat_are_counted_in_the_list_and_the_detail(started_pebbles, make_user, settings):
    settings.SPECTATOR_REPORT_SECONDS = 0.5
    m, (u0, _) = await db(started_pebbles)()
    player, _ = await open_socket(m.pk, user=u0)
    watchers = [(await open_socket(m.pk))[0], (await open_socket(m.pk))[0],
                (await open_socket(m.pk, user=await db(make_user)()))[0]]
    for comm in (player, *watchers):
        await recv(comm)
    assert await _until(m.pk, 3) == (3, 3), "two anonymous spectators and a signed-in one; the player is not counted"
    await watchers[0].disconnect()
    assert await _until(m.pk, 2) == (2, 2)
    await close_all(player, *watchers[1:])
    assert await _until(m.pk, 0) == (0, 0), "the last socket gone, the server's report is withdrawn"


def test_reports_add_up_over_servers_and_expire(finished_pebbles):
    store = presence.MemoryPresence()
    store.report("server-a", {"m1": 2, "m2": 1}, ttl=30)
    store.report("server-b", {"m1": 3}, ttl=30)
    assert store.spectators(["m1", "m2", "m3"]) == {"m1": 5, "m2": 1, "m3": 0}
    store.report("server-b", {"m1": 4}, ttl=-1)  # a server that stopped reporting: its counts are gone
    assert store.spectators(["m1"]) == {"m1": 2}
    store.report("server-a", {}, ttl=30)
    assert store.spectators(["m1", "m2"]) == {"m1": 0, "m2": 0}

    m, _ = finished_pebbles()
    client = Client(HTTP_HOST=HOST)
    assert client.get(f"/api/matches/{m.pk}/").json()["spectators"] is None, "counted for active matches only"
