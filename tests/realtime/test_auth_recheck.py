"""A socket stops acting within seconds of its login ending: logout (session gone), token revoked,
password changed, account deactivated. Checked on every message and by a periodic timer."""

import time
import uuid

import pytest
from django.contrib.sessions.models import Session

from .conftest import db, head_of, open_socket, recv, send

pytestmark = pytest.mark.django_db(transaction=True)


async def _ended_within(comm, seconds):
    t0 = time.monotonic()
    err = await recv(comm, timeout=seconds)
    assert err["type"] == "error" and err["code"] == "session_ended", err
    assert await recv(comm, timeout=1) == {"type": "__close__", "code": 4401}
    return time.monotonic() - t0


def _logout_session(key):
    Session.objects.filter(session_key=key).delete()


def _delete_token(key):
    from rest_framework.authtoken.models import Token

    Token.objects.filter(key=key).delete()


def _deactivate(user):
    type(user).objects.filter(pk=user.pk).update(is_active=False)


def _change_password(user):
    user = type(user).objects.get(pk=user.pk)
    user.set_password("a-brand-new-passphrase-42")
    user.save()


async def test_a_live_login_stays_connected(started_pebbles):
    m, (u0, _) = await db(started_pebbles)()
    comm, _ = await open_socket(m.pk, user=u0)
    assert (await recv(comm))["seat"] == 0
    assert await comm.receive_nothing(timeout=1.0), "several 0.2 s re-checks pass quietly"
    await send(comm, {"type": "ping"})
    assert await recv(comm) == {"type": "pong"}
    await comm.disconnect()


@pytest.mark.parametrize("via, end", [
    ("session", "logout"),
    ("token", "revoke"),
    ("session", "deactivate"),
    ("token", "deactivate"),
    ("session", "password"),
])
async def test_socket_is_ended_by_the_periodic_recheck(started_pebbles, via, end):
    m, (u0, _) = await db(started_pebbles)()
    comm, key = await open_socket(m.pk, user=u0, via=via)
    assert (await recv(comm))["seat"] == 0
    action = {"logout": lambda: _logout_session(key), "revoke": lambda: _delete_token(key),
              "deactivate": lambda: _deactivate(u0), "password": lambda: _change_password(u0)}[end]
    await db(action)()
    took = await _ended_within(comm, 5)
    assert took < 5
    await comm.disconnect()


async def test_command_right_after_logout_is_refused(started_pebbles, settings):
    settings.SOCKET_AUTH_RECHECK_SECONDS = 60  # the timer won't save us: the per-message check must
    m, (u0, _) = await db(started_pebbles)()
    comm, key = await open_socket(m.pk, user=u0)
    hello = await recv(comm)
    play = hello["state"]["legal_commands"][0]
    await db(_logout_session)(key)
    await send(comm, {"type": "command", "command_id": str(uuid.uuid4()), "expected_seq": hello["seq"], "command": play})
    await _ended_within(comm, 2)
    assert await db(head_of)(m.pk) == hello["seq"], "nothing was appended"
    await comm.disconnect()


async def test_any_message_after_deactivation_ends_the_socket(started_pebbles, settings):
    settings.SOCKET_AUTH_RECHECK_SECONDS = 60
    m, (_, u1) = await db(started_pebbles)()
    comm, _ = await open_socket(m.pk, user=u1, via="token")
    await recv(comm)
    await db(_deactivate)(u1)
    await send(comm, {"type": "sync", "after": 0})
    await _ended_within(comm, 2)
    await comm.disconnect()


async def test_pushes_stop_once_the_login_ended(started_pebbles, settings):
    """Even before the timer fires, the next push re-checks and ends instead of sending state."""
    from .conftest import seat_view, submit

    settings.SOCKET_AUTH_RECHECK_SECONDS = 60
    m, (u0, u1) = await db(started_pebbles)()
    comm, key = await open_socket(m.pk, user=u1)
    hello = await recv(comm)
    await db(_logout_session)(key)
    play = (await db(seat_view)(m.pk, 0))["legal_commands"][0]
    await db(submit)(m.pk, u0, 0, play, hello["seq"])
    await _ended_within(comm, 2)
    await comm.disconnect()
