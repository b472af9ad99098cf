"""``ws /ws/tournaments/{id}/``: a snapshot on connect (anonymous welcome), then a fresh one after every
committed change (registration, start and pairing, results), nothing for a rolled-back write."""

import uuid

import pytest
from django.contrib.auth.models import Group

from games.tournaments import selectors, services
from games.tournaments.errors import TournamentServiceError
from games.tournaments.policies import tournament_match_finished

from .conftest import assert_quiet, close_all, db, open_socket, recv, send

pytestmark = pytest.mark.django_db(transaction=True)


def _tournament(make_user):
    organizer = make_user()
    organizer.groups.add(Group.objects.get_or_create(name="organizers")[0])
    t = services.tournament_create(creator=organizer, name="Live Open", game="yashima", format="swiss",
                                   table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    return t, organizer, [make_user() for _ in range(4)]


def _register(t, user):
    services.tournament_register(tournament_id=t.pk, user=user)


def _start(t, organizer):
    from games.tournaments.matches import tournament_create_matches

    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_create_matches(tournament_id=t.pk, round_no=1)


def _expected(t):
    t = selectors.tournament_get(t.pk)
    return {"tournament": selectors.tournament_detail(t), "pairings": selectors.tournament_pairings(t),
            "standings": selectors.tournament_standings(t)}


async def _snapshot(comm):
    msg = await recv(comm)
    assert msg["type"] == "snapshot", msg
    return msg


async def _latest(comm):
    """Drain the pushes of one change (each committed write may push once); return the last."""
    msg = await _snapshot(comm)
    while not await comm.receive_nothing(timeout=0.3):
        msg = await _snapshot(comm)
    return msg


async def test_snapshot_on_connect_and_live_changes(make_user):
    t, organizer, players = await db(_tournament)(make_user)
    path = f"/ws/tournaments/{t.pk}/"
    anon, _ = await open_socket(None, path=path)
    member, _ = await open_socket(None, user=players[0], path=path)
    for comm in (anon, member):
        hello = await _snapshot(comm)
        assert hello["tournament"]["status"] == "registering" and hello["pairings"] == []

    await db(_register)(t, players[0])
    for comm in (anon, member):
        msg = await _latest(comm)
        assert [e["user_ids"] for e in msg["tournament"]["entrants"]] == [[players[0].pk]]

    for p in players[1:]:
        await db(_register)(t, p)
    await db(_start)(t, organizer)
    msg = await _latest(anon)
    expected = await db(_expected)(t)
    assert msg["tournament"] == expected["tournament"] and msg["tournament"]["status"] == "running"
    assert msg["pairings"] == expected["pairings"] and len(msg["pairings"]) == 2
    assert all(p["match_id"] for p in msg["pairings"]), "the pushed pairings carry their matches"
    await _latest(member)

    first = msg["pairings"][0]
    await db(tournament_match_finished)(match_id=first["match_id"], winners=[1])
    msg = await _latest(anon)
    assert msg["pairings"][0]["result"]["winners"] == [first["entrant_ids"][1]]
    assert msg["standings"][0]["entrant_id"] == first["entrant_ids"][1] and msg["standings"][0]["points"] == 3
    assert msg == {"type": "snapshot", **(await db(_expected)(t))}
    await close_all(anon, member)


async def test_refused_write_pushes_nothing_and_sync_resends(make_user):
    t, organizer, players = await db(_tournament)(make_user)
    comm, _ = await open_socket(None, path=f"/ws/tournaments/{t.pk}/")
    first = await _snapshot(comm)
    with pytest.raises(TournamentServiceError):
        await db(services.tournament_start)(tournament_id=t.pk, user=organizer)  # too few entrants
    await assert_quiet(comm)
    await send(comm, {"type": "ping"})
    assert (await recv(comm))["type"] == "pong"
    await send(comm, {"type": "sync"})
    assert await _snapshot(comm) == first
    await send(comm, "not json")
    msg = await recv(comm)
    assert msg["type"] == "error" and msg["code"] == "malformed"
    await close_all(comm)


async def test_unknown_tournament_is_refused_with_4404(make_user):
    for raw in (uuid.uuid4(), "not-a-uuid"):
        comm, _ = await open_socket(None, path=f"/ws/tournaments/{raw}/")
        msg = await recv(comm)
        assert msg["type"] == "error" and msg["code"] == "not_found"
        assert (await recv(comm)) == {"type": "__close__", "code": 4404}
        await close_all(comm)


async def test_a_change_pushed_as_the_client_leaves_is_not_an_error(make_user):
    """The server refuses a frame for a client that has just gone (Daphne raises "Attempt to send on
    a closed protocol"): the push ends there, quietly, and no later change reads the tournament for it."""
    from games.realtime.tournaments import TournamentConsumer

    t, _, players = await db(_tournament)(make_user)
    consumer = TournamentConsumer()
    consumer.tournament_id, consumer.last_text, consumer.gone = str(t.pk), None, False
    frames = []

    async def refused(text_data=None, **_):
        frames.append(text_data)
        raise RuntimeError("Attempt to send on a closed protocol")

    consumer.send = refused
    await db(_register)(t, players[0])
    await consumer.tournament_changed({"type": "tournament.changed"})
    assert consumer.gone and len(frames) == 1
    await db(_register)(t, players[1])
    await consumer.tournament_changed({"type": "tournament.changed"})
    assert len(frames) == 1, "nothing more is sent to a client that has gone"


async def test_a_flooding_tournament_socket_is_closed_with_4429(make_user, settings):
    """An anonymous socket sending ``sync`` after ``sync`` (each a full snapshot read) gets as many as
    the match socket allows, then ``throttled`` and 4429, and nothing more."""
    settings.SOCKET_RATE_MESSAGES = 5
    settings.SOCKET_RATE_SECONDS = 3600  # the whole test lies inside one window
    t, _, _ = await db(_tournament)(make_user)
    comm, _ = await open_socket(None, path=f"/ws/tournaments/{t.pk}/")
    await _snapshot(comm)
    for _ in range(4):
        await send(comm, {"type": "sync"})
        await _snapshot(comm)
    await send(comm, {"type": "ping"})
    assert await recv(comm) == {"type": "pong"}
    await send(comm, {"type": "sync"})
    msg = await recv(comm)
    assert msg["type"] == "error" and msg["code"] == "throttled"
    assert await recv(comm) == {"type": "__close__", "code": 4429}
    await close_all(comm)
