"""HTTP through the real ``config.asgi.application`` (uvicorn's entry point): Django's middleware run as
one sync chain on the request's thread (config.handlers), with every answer it gave before."""

import asyncio
import json
import threading
import uuid

import pytest
from asgiref.sync import iscoroutinefunction
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.core import signals
from django.db import OperationalError

from config.asgi import application, django_asgi_app
from games.application import selectors

pytestmark = pytest.mark.django_db(transaction=True)

HOST = "kamiza.test"


@pytest.fixture(autouse=True)
def _host(settings):
    settings.ALLOWED_HOSTS = [HOST]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@database_sync_to_async
def started_counter(make_user):
    from rest_framework.authtoken.models import Token

    from games.application import services

    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, Token.objects.create(user=user).key


async def request(method, path, body=b"", token=None, headers=()):
    head = [(b"host", HOST.encode()), *headers]
    if token:
        head.append((b"authorization", f"Token {token}".encode()))
    if body:
        head += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    comm = HttpCommunicator(application, method, path, body=body, headers=head)
    await comm.send_input({"type": "http.request", "body": body})
    start = await comm.receive_output(10)
    content = b""
    while True:  # a streamed (file) response's last message may carry no body
        chunk = await comm.receive_output(10)
        content += chunk.get("body", b"")
        if not chunk.get("more_body"):
            break
    await comm.wait(timeout=10)
    return start["status"], dict(start["headers"]), content


def command(seq, n=1):
    return json.dumps({"command_id": str(uuid.uuid4()), "expected_seq": seq, "type": "add", "args": {"n": n}}).encode()


def test_the_middleware_chain_is_built_sync():
    # One sync_to_async call runs it all (an async chain would cross threads per middleware hook).
    assert not iscoroutinefunction(django_asgi_app._middleware_chain)


async def test_a_request_crosses_threads_once(monkeypatch):
    """The request_started signal, the chain (middlewares, view, rendering) and closing the response
    (request_finished): one sync_to_async call (Django's own handler made 17 crossings here, and 3
    with the chain built sync). A streamed response (a static file) is read (Django's own sync_to_async
    over its file) and closed once it was sent: two more."""
    from asgiref import sync

    crossings = []
    to_async, to_sync = sync.SyncToAsync.__call__, sync.AsyncToSync.__call__

    async def counted_to_async(self, *args, **kwargs):
        crossings.append(self.func)
        return await to_async(self, *args, **kwargs)

    def counted_to_sync(self, *args, **kwargs):
        crossings.append(self.awaitable)
        return to_sync(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted_to_async)
    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted_to_sync)
    status, _, _ = await request("GET", "/api/games/")
    assert status == 200 and len(crossings) == 1, crossings
    crossings.clear()
    status, _, body = await request("GET", "/static/css/kamiza.css")
    assert status == 200 and len(body) > 100 and len(crossings) == 3, crossings
    assert crossings[-1].__name__ == "close"


async def test_a_command_runs_on_one_thread_from_request_started_to_request_finished(make_user, monkeypatch):
    match, token = await started_counter(make_user)
    threads = {}

    def note(name):
        def receiver(**kwargs):
            threads[name] = threading.get_ident()
        return receiver

    started, finished = note("started"), note("finished")
    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    seat_now = selectors.seat_now
    monkeypatch.setattr(selectors, "seat_now", lambda *a, **kw: note("view")() or seat_now(*a, **kw))
    try:
        status, headers, body = await request("POST", f"/api/matches/{match.pk}/commands/", command(match.head_seq),
                                              token)
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert status == 201, body
    assert json.loads(body)["seq"] == match.head_seq + 1
    # The view's database connection is opened and given back on the thread that used it.
    assert threads["started"] == threads["view"] == threads["finished"] != threading.get_ident()
    assert headers[b"X-Frame-Options"] == b"DENY" and headers[b"X-Content-Type-Options"] == b"nosniff"


async def test_errors_keep_their_answers(make_user, monkeypatch, settings):
    match, token = await started_counter(make_user)
    path = f"/api/matches/{match.pk}/commands/"
    status, _, body = await request("POST", path, command(match.head_seq), "not-a-token")
    assert status == 401 and json.loads(body)["code"] == "authentication_failed"
    big = json.dumps({"pad": "x" * settings.COMMAND_BODY_MAX_BYTES}).encode()
    status, _, body = await request("POST", path, big, token)
    assert status == 413 and json.loads(body)["code"] == "payload_too_large"

    def down(*args, **kwargs):
        raise OperationalError("connection failed: connection to server at 127.0.0.1 failed")

    monkeypatch.setattr(selectors, "seat_now", down)
    status, headers, body = await request("POST", path, command(match.head_seq), token)
    assert status == 503 and json.loads(body)["code"] == "unavailable" and b"Retry-After" in headers


async def test_static_files_are_served():
    status, headers, body = await request("GET", "/static/css/kamiza.css")
    assert status == 200 and headers[b"Content-Type"].startswith(b"text/css") and len(body) > 100


async def test_requests_at_once_get_a_thread_each_and_later_ones_reuse_them(monkeypatch):
    """config.handlers.RequestThreads: a thread per request for as long as it runs, lent again to the
    requests after it instead of a new thread started (and joined) for every one."""
    ran = []
    both_inside = threading.Barrier(2, timeout=10)  # two requests sharing one thread would never meet here
    get_response = django_asgi_app.get_response

    def recorded(request):
        ran.append(threading.get_ident())
        if request.GET.get("together"):
            both_inside.wait()
        return get_response(request)

    monkeypatch.setattr(django_asgi_app, "get_response", recorded)
    answers = await asyncio.gather(request("GET", "/api/games/?together=1"), request("GET", "/api/games/?together=1"))
    assert [status for status, _, _ in answers] == [200, 200]
    lent = set(ran)
    assert len(lent) == 2 and threading.get_ident() not in lent
    ran.clear()
    for _ in range(3):
        assert (await request("GET", "/api/games/"))[0] == 200
    assert len(set(ran)) == 1 and set(ran) <= lent
