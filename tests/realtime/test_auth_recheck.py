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


@pytest.fixture(params=["accounts", "fallback"])
def checker(request, monkeypatch):
    """Run with the accounts app's check, and with games.realtime.auth's own fallback."""
    from games.realtime import auth

    if request.param == "fallback":
        monkeypatch.setattr(auth, "_canonical_check", lambda: None)
    else:
        assert auth._canonical_check() is not None, "accounts.services.user_is_active_session is used when present"
    return request.param


def _auth_cases(make_user):
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from games.realtime.auth import still_authorised

    results = {}
    for case in ("live", "logout", "revoke", "deactivate", "password", "other_users_session", "no_credential"):
        user, other = make_user(), make_user()
        client = Client()
        client.force_login(user)
        session_key = client.cookies["sessionid"].value
        other_client = Client()
        other_client.force_login(other)
        token = Token.objects.create(user=user).key
        auth = {"user_id": user.pk, "session_key": session_key}
        tauth = {"user_id": user.pk, "token_key": token}
        if case == "logout":
            _logout_session(session_key)
        elif case == "revoke":
            _delete_token(token)
        elif case == "deactivate":
            _deactivate(user)
        elif case == "password":
            _change_password(user)
        elif case == "other_users_session":
            auth = {"user_id": user.pk, "session_key": other_client.cookies["sessionid"].value}
            tauth = {"user_id": other.pk, "token_key": token}
        elif case == "no_credential":
            auth = tauth = {"user_id": user.pk}
        results[case] = (still_authorised(auth), still_authorised(tauth))
    results["anonymous"] = (still_authorised(None), still_authorised({"error": "invalid_token"}))
    return results


def test_both_checkers_agree_on_every_case(checker, make_user, db):
    assert _auth_cases(make_user) == {
        "live": (True, True),
        "logout": (False, True),  # the session is gone; the token still stands
        "revoke": (True, False),
        "deactivate": (False, False),
        "password": (False, True),  # a password change invalidates sessions (auth hash), not tokens
        "other_users_session": (False, False),
        "no_credential": (False, False),
        "anonymous": (False, False),
    }


async def test_fallback_checker_ends_a_logged_out_socket(started_pebbles, monkeypatch):
    from games.realtime import auth

    monkeypatch.setattr(auth, "_canonical_check", lambda: None)
    m, (u0, _) = await db(started_pebbles)()
    comm, key = await open_socket(m.pk, user=u0)
    await recv(comm)
    await db(_logout_session)(key)
    assert await _ended_within(comm, 5) < 5
    await comm.disconnect()
