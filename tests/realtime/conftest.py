"""Socket test helpers: open a WebsocketCommunicator on the real ``config.asgi.application``
(Origin check + session/token auth + routing), authenticated by a real login session or DRF token.

Tests here are async and use ``django_db(transaction=True)`` so the write path's on_commit
publish (and the eager Celery follow-ups: SYSTEM bonus rolls) really fire.
"""

import asyncio
import inspect
import json
import time

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application

HOST = "kamiza.test"
ORIGIN = f"http://{HOST}"


@pytest.fixture(autouse=True)
def _realtime_settings(settings):
    settings.ALLOWED_HOSTS = [HOST]
    settings.SOCKET_AUTH_RECHECK_SECONDS = 0.2
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast users
    # A fresh in-memory layer per test: its queues belong to one event loop.
    channel_layers.backends.pop("default", None)
    yield
    channel_layers.backends.pop("default", None)


@pytest.fixture
async def _worker_thread_connections_closed():
    """DB calls from async code run on asgiref's one worker thread; with CONN_MAX_AGE (PostgreSQL
    settings) its connection would outlive the test and block dropping the test database."""
    yield
    from django.db import connections

    await sync_to_async(connections.close_all)()


@pytest.fixture(autouse=True)
def _close_worker_thread_connections(request):
    """Only an async test has the worker thread to clean up. A sync test asks for no event loop: on a
    worker where a browser test's Playwright still runs one, an async fixture could not start."""
    if inspect.iscoroutinefunction(request.function):
        request.getfixturevalue("_worker_thread_connections_closed")
    yield


def db(fn):
    return database_sync_to_async(fn)


def login_session(user) -> str:
    """A real login (Django's login(): session row with the user id, backend and auth hash)."""
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def token_key(user) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key


async def open_socket(match_id, *, user=None, via="session", origin=ORIGIN, path=None, extra_headers=()):
    """Connect; returns (communicator, credential) where credential is the session/token key."""
    path = path or f"/ws/matches/{match_id}/"
    headers = [(b"host", HOST.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    credential = None
    if user is not None and via == "session":
        credential = await db(login_session)(user)
        headers.append((b"cookie", f"sessionid={credential}".encode()))
    elif user is not None and via == "token":
        credential = await db(token_key)(user)
        path = f"{path}?token={credential}"
    headers.extend(extra_headers)
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=5)
    assert connected, f"connection refused ({code})"
    return comm, credential


# The spectator count comes whenever a spectator joins or leaves (after the server's report settles):
# tests of other messages pass over it; tests of the count ask for it (``skip=()``).
ADVISORY = ("watchers",)


async def recv(comm, timeout=5.0, *, skip=ADVISORY) -> dict:
    """The next message as a dict (passing over ``skip`` types); a close frame comes back as
    {"type": "__close__", "code": N}."""
    deadline = time.monotonic() + timeout
    while True:
        out = await comm.receive_output(max(deadline - time.monotonic(), 0.01))
        if out["type"] == "websocket.close":
            return {"type": "__close__", "code": out.get("code")}
        assert out["type"] == "websocket.send", out
        assert "text" in out and out["text"] is not None, out
        msg = json.loads(out["text"])
        if msg.get("type") not in skip:
            return msg


async def send(comm, payload):
    await comm.send_to(text_data=payload if isinstance(payload, str) else json.dumps(payload))


async def collect_until(comm, seq, timeout=10.0) -> list[dict]:
    """Every message up to and including the ``state`` message at ``seq`` (or later)."""
    deadline = time.monotonic() + timeout
    out = []
    while True:
        left = deadline - time.monotonic()
        got = [(m["type"], m.get("seq"), m.get("code")) for m in out]
        assert left > 0, f"no state at seq {seq}; got {got}"
        try:
            msg = await recv(comm, timeout=left)
        except TimeoutError:
            raise AssertionError(f"no state at seq {seq}; got {got}") from None
        out.append(msg)
        assert msg["type"] != "__close__", out
        if msg["type"] == "state" and msg["seq"] >= seq:
            return out


async def assert_quiet(comm, timeout=0.3):
    """Nothing but the advisory spectator count arrives within ``timeout``."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        if await comm.receive_nothing(timeout=left):
            return
        msg = await recv(comm, skip=())
        assert msg["type"] in ADVISORY, msg


async def close_all(*comms):
    for c in comms:
        try:
            await c.disconnect()
        except (asyncio.CancelledError, Exception):  # already closed by the server
            pass


def head_of(match_id) -> int:
    from games.eventstore.models import Match

    return Match.objects.get(pk=match_id).head_seq


def submit(match_id, user, seat, command, expected_seq, command_id=None):
    """Submit through the one write path (no socket): the REST-less way in."""
    import uuid

    from games.application import services

    return services.match_submit_command(
        match_id=match_id, seat=seat, actor=services.Actor.user(user), command_id=command_id or uuid.uuid4(),
        expected_seq=expected_seq, type_=command["type"], args=command.get("args", {}),
    )


def seat_view(match_id, seat):
    from games.application import selectors

    match = selectors.match_get(match_id)
    return selectors.view_for_seat(match, seat)


def seat_events(match_id, seat, after=0):
    from games.application import selectors

    match = selectors.match_get(match_id)
    return selectors.events_for_seat(match, seat, after=after)
