"""Chat and rematch news over the match socket: each message reaches the sockets allowed to read
it, and no other (games.application.social, games.realtime.fanout)."""

import pytest

from games.application import chat, rematch

from .conftest import assert_quiet, close_all, collect_until, db, head_of, open_socket, recv
from tests.application.social_play import play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)


async def next_of(comm, kind, timeout=5.0):
    """The next message of type ``kind`` (others, e.g. events and states, are skipped)."""
    while True:
        msg = await recv(comm, timeout=timeout)
        assert msg["type"] != "__close__", msg
        if msg["type"] == kind:
            return msg


async def sockets_on(match, users, watcher):
    socks = {"p0": (await open_socket(match.pk, user=users[0]))[0],
             "p1": (await open_socket(match.pk, user=users[1], via="token"))[0],
             "watcher": (await open_socket(match.pk, user=watcher))[0],
             "anon": (await open_socket(match.pk))[0]}
    for comm in socks.values():
        assert (await recv(comm))["type"] == "hello"
    return socks


async def test_each_channel_is_pushed_to_its_readers_only(started_pebbles, make_user):
    match, users = await db(started_pebbles)(options={"bonus_rolls": False, "target": 5})
    watcher, staff = await db(make_user)(), await db(make_user)(is_staff=True)
    socks = await sockets_on(match, users, watcher)
    players, spectators = [socks["p0"], socks["p1"]], [socks["watcher"], socks["anon"]]

    said = await db(chat.chat_post)(match_id=match.pk, user=users[0], channel="players", text="my plan: <b>hold</b>")
    for comm in players:
        assert await next_of(comm, "chat") == {"type": "chat", "message": said}
    for comm in spectators:
        await assert_quiet(comm)

    cheer = await db(chat.chat_post)(match_id=match.pk, user=watcher, channel="spectators", text="seat 2 holds a 9")
    for comm in spectators:
        assert (await next_of(comm, "chat"))["message"]["text"] == "seat 2 holds a 9"
    for comm in players:  # no coaching through the chat while the match runs
        await assert_quiet(comm)

    await db(chat.chat_hide)(message_id=said["id"], user=staff, reason="spoiler")
    for comm in players:
        assert await next_of(comm, "chat_hidden") == {"type": "chat_hidden", "id": said["id"], "channel": "players"}
    for comm in spectators:
        await assert_quiet(comm)

    # Over: the spectators' channel now reaches everyone; the players' one still only the players.
    await db(play_to_the_end)(match, users)
    head = await db(head_of)(match.pk)
    for comm in socks.values():
        await collect_until(comm, head)
    await db(chat.chat_post)(match_id=match.pk, user=users[1], channel="spectators", text="thanks all")
    for comm in socks.values():
        assert (await next_of(comm, "chat"))["message"]["text"] == "thanks all"
    await db(chat.chat_post)(match_id=match.pk, user=users[1], channel="players", text="gg")
    for comm in players:
        assert (await next_of(comm, "chat"))["message"]["text"] == "gg"
    for comm in spectators:
        await assert_quiet(comm)
    assert cheer["channel"] == "spectators"
    await close_all(*socks.values())


async def test_rematch_news_reach_every_socket_and_name_the_new_match(started_pebbles, make_user):
    match, users = await db(started_pebbles)(options={"bonus_rolls": False, "target": 5})
    await db(play_to_the_end)(match, users)
    socks = await sockets_on(match, users, await db(make_user)())
    await db(rematch.rematch_accept)(match_id=match.pk, user=users[0])
    for comm in socks.values():
        news = await next_of(comm, "rematch")
        assert (news["accepted"], news["waiting"], news["match_id"]) == ([0], [1], None)
    status = await db(rematch.rematch_accept)(match_id=match.pk, user=users[1])
    for comm in socks.values():
        news = await next_of(comm, "rematch")
        assert news["match_id"] == status["match_id"] and news["waiting"] == []
    await close_all(*socks.values())
