"""API tokens expire and rotate; socket tickets are short-lived and single-use (issue #14 finding 2)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import tokens

pytestmark = pytest.mark.django_db


def token_client(key):
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return c


def age(token, seconds):
    Token.objects.filter(pk=token.pk).update(created=timezone.now() - timedelta(seconds=seconds))


def test_an_expired_token_authenticates_nothing(make_user, settings):
    user = make_user()
    token = Token.objects.create(user=user)
    assert token_client(token.key).get("/api/auth/me/").status_code == 200
    age(token, settings.API_TOKEN_TTL_SECONDS + 1)
    res = token_client(token.key).get("/api/auth/me/")
    assert res.status_code == 401 and res.json()["code"] == "authentication_failed"


def test_logging_in_again_replaces_an_expired_token(make_user, api, settings):
    user = make_user(password="correct-horse-battery-9")
    first = api.post("/api/auth/token/", {"username": user.username, "password": "correct-horse-battery-9"}).json()["token"]
    again = api.post("/api/auth/token/", {"username": user.username, "password": "correct-horse-battery-9"}).json()["token"]
    assert again == first  # still valid: the same token
    age(Token.objects.get(key=first), settings.API_TOKEN_TTL_SECONDS + 1)
    fresh = api.post("/api/auth/token/", {"username": user.username, "password": "correct-horse-battery-9"}).json()["token"]
    assert fresh != first and token_client(fresh).get("/api/auth/me/").status_code == 200


def test_rotation_revokes_the_old_token_and_issues_a_new_one(make_user, settings):
    user = make_user()
    old = Token.objects.create(user=user).key
    res = token_client(old).post("/api/auth/token/rotate/")
    assert res.status_code == 200
    body = res.json()
    assert body["token"] != old and 0 < body["expires_in"] <= settings.API_TOKEN_TTL_SECONDS
    assert token_client(old).get("/api/auth/me/").status_code == 401
    assert token_client(body["token"]).get("/api/auth/me/").json()["id"] == user.pk
    assert APIClient().post("/api/auth/token/rotate/").status_code == 401


def test_a_socket_ticket_needs_a_login_and_is_short_lived(make_user, settings):
    assert APIClient().post("/api/auth/socket-ticket/").status_code == 401
    user = make_user()
    res = token_client(Token.objects.create(user=user).key).post("/api/auth/socket-ticket/")
    assert res.status_code == 200
    body = res.json()
    assert set(body) == {"ticket", "expires_in"} and body["expires_in"] == settings.SOCKET_TICKET_TTL_SECONDS
    assert len(body["ticket"]) >= 40


def test_a_session_login_gets_a_ticket_with_csrf(make_user):
    from django.test import Client

    user = make_user()
    c = Client(enforce_csrf_checks=True)
    c.force_login(user)
    assert c.post("/api/auth/socket-ticket/").status_code == 403  # no CSRF token: refused
    c.get("/")  # the home page (its start buttons are forms) sets the csrftoken cookie
    res = c.post("/api/auth/socket-ticket/", HTTP_X_CSRFTOKEN=c.cookies["csrftoken"].value)
    assert res.status_code == 200, res.content
    data = tokens.ticket_redeem(res.json()["ticket"])
    assert data["user_id"] == user.pk and data["session_key"] == c.session.session_key and data["token_key"] is None


def test_a_ticket_is_redeemed_once(make_user):
    user = make_user()
    ticket, _ = tokens.ticket_issue(user_id=user.pk, token_key="k" * 40)
    assert tokens.ticket_redeem(ticket) == {"user_id": user.pk, "session_key": None, "token_key": "k" * 40}
    assert tokens.ticket_redeem(ticket) is None
    assert tokens.ticket_redeem("forged") is None and tokens.ticket_redeem(None) is None


def test_a_ticket_expires(make_user, settings, monkeypatch):
    from django.core.cache.backends import locmem

    user = make_user()
    ticket, ttl = tokens.ticket_issue(user_id=user.pk, session_key="s" * 32)
    now = locmem.time.time()
    monkeypatch.setattr(locmem.time, "time", lambda: now + ttl + 1)  # the cache's clock, moved on
    assert tokens.ticket_redeem(ticket) is None


def test_tickets_are_stored_hashed_in_the_cache(make_user):
    from django.core.cache import cache

    ticket, _ = tokens.ticket_issue(user_id=make_user().pk, token_key="t" * 40)
    assert cache.get(f"socket-ticket:{ticket}") is None  # the cache (Redis) never holds the ticket itself


def test_socket_tickets_are_throttled_per_user(make_user, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "socket_ticket": "2/minute"}}
    c = token_client(Token.objects.create(user=make_user()).key)
    codes = [c.post("/api/auth/socket-ticket/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert c.post("/api/auth/socket-ticket/").json()["code"] == "throttled"


def test_the_token_look_up_reads_what_the_orm_reads(make_user):
    user = make_user()
    user.last_login = timezone.now()
    user.save()
    token = Token.objects.create(user=user)
    orm = Token.objects.select_related("user").get(key=token.key)
    found = tokens.token_with_user(token.key)
    assert (found.key, found.user_id, found.created) == (orm.key, orm.user_id, orm.created)
    fields = [f.attname for f in type(user)._meta.concrete_fields]
    assert [getattr(found.user, f) for f in fields] == [getattr(orm.user, f) for f in fields]
    assert found.user.is_active is True and found.user.is_staff is False  # booleans, not SQLite's 1 / 0
    assert tokens.token_with_user("no-such-key") is None


def test_a_token_of_an_inactive_user_authenticates_nothing(make_user):
    user = make_user()
    key = Token.objects.create(user=user).key
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    res = token_client(key).get("/api/auth/me/")
    assert res.status_code == 401 and res.json()["code"] == "authentication_failed"
    assert "inactive" in res.json()["message"]
    assert tokens.user_for_token_key(key) is None
    res = token_client("not-a-token").get("/api/auth/me/")
    assert res.status_code == 401 and res.json()["message"] == "Invalid token."
