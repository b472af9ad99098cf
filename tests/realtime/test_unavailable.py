"""A socket that meets an unreachable database or Redis says so: ``{"type": "error", "code":
"unavailable"}`` then close 1013 (try again later), whether at the handshake (the credential or
session lookup, before any consumer runs), on a command, or when the channel layer loses Redis;
never a handshake failing as a server error. The client reconnects and syncs from its last seq;
tests/distributed/test_faults.py does that against a real PostgreSQL and Redis restarted."""

import asyncio
import uuid

import channels.auth
import pytest
import redis
from channels.layers import InMemoryChannelLayer
from channels.testing import WebsocketCommunicator
from django.db import OperationalError

from config.asgi import application
from games.application import services
from games.realtime import middleware

from .conftest import HOST, ORIGIN, close_all, db, login_session, open_socket, recv, send, token_key

pytestmark = pytest.mark.django_db(transaction=True)

DOWN = OperationalError("connection failed: connection to server at 127.0.0.1 failed: Connection refused")


def _down(*args, **kwargs):
    raise DOWN


async def _connect(path, headers=()):
    comm = WebsocketCommunicator(application, path, headers=[(b"host", HOST.encode()), *headers])
    connected, code = await comm.connect(timeout=5)
    assert connected, code
    return comm


async def _assert_unavailable_then_1013(comm, command_id=None):
    error = await recv(comm)
    assert error["type"] == "error" and error["code"] == "unavailable" and error["message"], error
    if command_id is not None:
        assert error["command_id"] == command_id
    assert await recv(comm) == {"type": "__close__", "code": 1013}


async def test_a_token_handshake_while_the_database_is_down(started_pebbles, monkeypatch):
    m, (u0, _) = await db(started_pebbles)()
    key = await db(token_key)(u0)
    monkeypatch.setattr(middleware, "user_for_token", _down)
    comm = await _connect(f"/ws/matches/{m.pk}/", [(b"authorization", f"Token {key}".encode())])
    await _assert_unavailable_then_1013(comm)


async def test_a_cookie_handshake_while_the_database_is_down(started_pebbles, monkeypatch):
    """The session and its user are read by Channels' auth middleware, before our credential check."""
    m, (u0, _) = await db(started_pebbles)()
    session = await db(login_session)(u0)
    monkeypatch.setattr(channels.auth, "get_user", _down)
    comm = await _connect(f"/ws/matches/{m.pk}/", [(b"origin", ORIGIN.encode()), (b"cookie", f"sessionid={session}".encode())])
    await _assert_unavailable_then_1013(comm)


async def test_a_command_while_the_database_is_down(started_pebbles, monkeypatch):
    m, (u0, _) = await db(started_pebbles)()
    comm, _ = await open_socket(m.pk, user=u0)
    hello = await recv(comm)
    monkeypatch.setattr(services, "match_submit_command", _down)
    cid = str(uuid.uuid4())
    await send(comm, {"type": "command", "command_id": cid, "expected_seq": hello["seq"],
                      "command": hello["state"]["legal_commands"][0]})
    await _assert_unavailable_then_1013(comm, command_id=cid)


async def test_the_channel_layer_losing_redis_closes_the_socket_with_1013(started_pebbles, monkeypatch):
    m, (u0, _) = await db(started_pebbles)()
    real_receive = InMemoryChannelLayer.receive

    async def receive_then_lose_redis(self, channel):
        await asyncio.sleep(0.3)  # the socket is greeted first
        raise redis.exceptions.ConnectionError("Connection closed by server.")

    monkeypatch.setattr(InMemoryChannelLayer, "receive", receive_then_lose_redis)
    try:
        comm, _ = await open_socket(m.pk, user=u0)
        assert (await recv(comm))["type"] == "hello"
        await _assert_unavailable_then_1013(comm)
    finally:
        monkeypatch.setattr(InMemoryChannelLayer, "receive", real_receive)
    await close_all(comm)


async def test_a_fanout_that_could_not_open_is_replaced_on_the_next_connection(started_pebbles, monkeypatch):
    """Redis is down when the process's first socket arrives: that socket gets ``unavailable`` and
    1013; once Redis is back the next socket is greeted (the failed start is not kept forever)."""
    m, (u0, _) = await db(started_pebbles)()
    real_new_channel = InMemoryChannelLayer.new_channel
    redis_up = False

    async def new_channel_while_redis_is_down(self, prefix="specific."):
        if not redis_up:
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        return await real_new_channel(self, prefix)

    monkeypatch.setattr(InMemoryChannelLayer, "new_channel", new_channel_while_redis_is_down)
    first, _ = await open_socket(m.pk, user=u0)
    await _assert_unavailable_then_1013(first)
    redis_up = True
    second, _ = await open_socket(m.pk, user=u0)
    assert (await recv(second))["type"] == "hello"
    await close_all(second)
