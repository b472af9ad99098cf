"""An unreachable database or Redis is 503 ``{code: "unavailable", message}`` with Retry-After, on
the API and on pages (a plain page), never a 500 or a traceback. The distributed suite restarts a
real PostgreSQL and Redis (tests/distributed/test_faults.py); these pin each path cheaply."""

import json

import pytest
import redis
from django.db import InterfaceError, OperationalError
from django.test import Client, RequestFactory
from kombu.exceptions import OperationalError as BrokerUnreachable

from config import urls
from config.middleware import server_error
from games.api.errors import exception_handler
from games.application import selectors
from games.application.errors import Unavailable, as_unavailable
from games.api.throttles import MatchCreateThrottle

pytestmark = pytest.mark.django_db

DOWN = OperationalError('connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection refused')


@pytest.mark.parametrize("exc", [DOWN, InterfaceError("connection already closed"),
                                 redis.exceptions.ConnectionError("Error 111 connecting"),
                                 redis.exceptions.TimeoutError("Timeout reading from socket"),
                                 BrokerUnreachable("Error 111 connecting")])
def test_outages_are_unavailable_and_other_errors_are_not(exc):
    assert isinstance(as_unavailable(exc), Unavailable)
    res = exception_handler(exc, {})
    assert res.status_code == 503 and res.data["code"] == "unavailable" and res.data["message"]
    assert res["Retry-After"] == "2"


@pytest.mark.parametrize("exc", [ValueError("a bug"), redis.exceptions.ResponseError("WRONGTYPE")])
def test_a_bug_is_not_an_outage(exc):
    assert as_unavailable(exc) is None
    assert exception_handler(exc, {}).status_code == 500


def _down(*args, **kwargs):
    raise DOWN


def test_an_api_read_during_a_database_outage_is_503_json(started_pebbles, client_for, monkeypatch):
    match, (u0, _) = started_pebbles()
    client = client_for(u0)
    monkeypatch.setattr(selectors, "match_get", _down)
    r = client.get(f"/api/matches/{match.pk}/view/")
    assert r.status_code == 503 and r["Content-Type"] == "application/json" and r["Retry-After"] == "2"
    assert r.json()["code"] == "unavailable" and r.json()["message"]


def test_a_lobby_write_during_a_redis_outage_is_503_json(make_user, client_for, monkeypatch):
    """The per-user throttles count in the cache, which is Redis in distributed mode."""
    def redis_down(self, request, view):
        raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    monkeypatch.setattr(MatchCreateThrottle, "allow_request", redis_down)
    r = client_for(make_user()).post("/api/matches/", {"game": "pebbles", "seats": 2, "options": {}}, format="json")
    assert r.status_code == 503 and r.json()["code"] == "unavailable"


def test_a_page_during_a_database_outage_is_a_plain_503_page(started_pebbles, monkeypatch):
    match, _ = started_pebbles()
    monkeypatch.setattr(selectors, "match_get", _down)
    r = Client(raise_request_exception=False).get(f"/matches/{match.pk}/")
    assert r.status_code == 503 and r["Content-Type"].startswith("text/html") and r["Retry-After"] == "2"
    body = r.content.decode()
    assert "Kamiza is back in a moment" in body and "Traceback" not in body and "OperationalError" not in body
    assert "<script" not in body and "style=" not in body  # satisfies the pages' Content-Security-Policy


def test_an_outage_outside_any_view_still_gets_503_and_anything_else_a_plain_500():
    """handler500: an exception raised outside a view (e.g. a session saved on the way out)."""
    assert urls.handler500 == "config.middleware.server_error"
    rf = RequestFactory()
    try:
        raise DOWN
    except OperationalError:
        page, api = server_error(rf.get("/")), server_error(rf.get("/api/matches/"))
    assert page.status_code == api.status_code == 503
    assert b"back in a moment" in page.content and api["Content-Type"] == "application/json"
    try:
        raise ValueError("a bug")
    except ValueError:
        page, api = server_error(rf.get("/")), server_error(rf.get("/api/matches/"))
    assert page.status_code == api.status_code == 500
    assert json.loads(api.content) == {"code": "server_error", "message": "internal server error"}


async def test_the_unavailable_middleware_is_sync_and_async_capable():
    from asgiref.sync import iscoroutinefunction

    from config.middleware import ServiceUnavailableMiddleware

    async def inner(request):
        return "reached"

    rf = RequestFactory()
    in_async = ServiceUnavailableMiddleware(inner)
    in_sync = ServiceUnavailableMiddleware(lambda request: "reached")
    assert iscoroutinefunction(in_async) and not iscoroutinefunction(in_sync)
    assert await in_async(rf.get("/")) == "reached" and in_sync(rf.get("/")) == "reached"
    for middleware in (in_async, in_sync):
        res = middleware.process_exception(rf.get("/api/matches/"), DOWN)
        assert res.status_code == 503 and json.loads(res.content)["code"] == "unavailable"
        assert middleware.process_exception(rf.get("/api/matches/"), ValueError("a bug")) is None
