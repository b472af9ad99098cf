"""An oversized socket message gets the error ``frame_too_large`` and the socket stays open, on the
match and tournament sockets (the two real servers handing such frames up: tests/test_server_frames.py)."""

import json

import pytest
from django.contrib.auth.models import Group

from games.realtime.consumers import MAX_MESSAGE_CHARS
from games.tournaments import services as tournament_services

from .conftest import close_all, db, open_socket, recv, send

OVER_DAPHNE_DEFAULT = 1_500_000  # bytes: over daphne's own 1 MiB, under the servers' 16 MiB


@pytest.mark.django_db(transaction=True)
async def test_an_oversized_message_is_answered_frame_too_large_and_the_socket_stays_open(started_pebbles):
    m, (u0, _) = await db(started_pebbles)()
    comm, _ = await open_socket(m.pk, user=u0)
    await recv(comm)
    # when a message over the limit comes, as text or as bytes
    for frame in ({"text_data": "x" * (MAX_MESSAGE_CHARS + 1)}, {"bytes_data": b"x" * OVER_DAPHNE_DEFAULT}):
        await comm.send_to(**frame)
        # then it is answered with a stable code and the limit
        err = await recv(comm)
        size = len(next(iter(frame.values())))
        assert err == {"type": "error", "code": "frame_too_large", "message": err["message"],
                       "extra": {"max_chars": MAX_MESSAGE_CHARS, "size": size}}
        assert str(MAX_MESSAGE_CHARS) in err["message"]
    # and the socket goes on
    await send(comm, {"type": "ping"})
    assert await recv(comm) == {"type": "pong"}
    await close_all(comm)


@pytest.mark.django_db(transaction=True)
async def test_the_tournament_socket_says_the_same(make_user):
    def tournament():
        organizer = make_user()
        organizer.groups.add(Group.objects.get_or_create(name="organizers")[0])
        return tournament_services.tournament_create(creator=organizer, name="Framed Open", game="yashima",
                                                     format="swiss", table_size=2, round_minutes=30,
                                                     match_options={"turn_seconds": 60})

    t = await db(tournament)()
    comm, _ = await open_socket(None, path=f"/ws/tournaments/{t.pk}/")
    assert (await recv(comm))["type"] == "snapshot"
    await comm.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 5000}))
    assert (await recv(comm))["code"] == "frame_too_large"
    await send(comm, {"type": "ping"})
    assert await recv(comm) == {"type": "pong"}
    await close_all(comm)
