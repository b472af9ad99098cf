"""Request limits (issue #14 findings 1, 5 and 8): oversized bodies, command ids, paged event reads."""

import io
import json
import uuid

import pytest
from django.core.handlers.asgi import ASGIRequest

from config.middleware import BodySizeLimitMiddleware
from games.application import services

pytestmark = pytest.mark.django_db

BIG = 3 * 1024 * 1024  # over the 2.5 MiB DATA_UPLOAD_MAX_MEMORY_SIZE


def counter_match(make_user, adds=0):
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    for _ in range(adds):
        match.refresh_from_db()
        services.match_submit_command(match_id=match.pk, seat=0, actor=services.Actor.user(user),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq, type_="add", args={})
    match.refresh_from_db()
    return match, user


# -- finding 1: a body over ~2.5 MB was a 500 ----------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/auth/token/", "/api/auth/register/", "/api/matches/"])
def test_an_oversized_json_body_is_413_payload_too_large_not_500(api, path):
    res = api.post(path, data=json.dumps({"username": "x" * BIG, "password": "y"}), content_type="application/json")
    assert res.status_code == 413, res.content[:300]
    assert res.json()["code"] == "payload_too_large" and res.json()["message"]


def test_an_oversized_form_post_to_a_page_is_413_too(client):
    res = client.post("/login/", data=f"username={'x' * BIG}&password=y", content_type="application/x-www-form-urlencoded")
    assert res.status_code == 413 and res.json()["code"] == "payload_too_large"


def test_command_bodies_have_their_own_smaller_limit(make_user, client_for, settings):
    match, user = counter_match(make_user)
    body = {"command_id": str(uuid.uuid4()), "expected_seq": match.head_seq, "type": "add",
            "args": {"n": 1, "pad": "x" * settings.COMMAND_BODY_MAX_BYTES}}
    res = client_for(user).post(f"/api/matches/{match.pk}/commands/", body, format="json")
    assert res.status_code == 413 and res.json()["code"] == "payload_too_large"
    assert str(settings.COMMAND_BODY_MAX_BYTES) in res.json()["message"]
    before = match.head_seq
    match.refresh_from_db()
    assert match.head_seq == before  # nothing appended


def test_a_body_without_content_length_is_measured_once_read(settings):
    """Chunked uploads carry no Content-Length; Django itself would not limit them."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    scope = {"type": "http", "method": "POST", "path": "/api/auth/token/", "headers": [(b"content-type", b"application/json")],
             "query_string": b"", "server": ("kamiza.test", 80)}
    reached = []
    middleware = BodySizeLimitMiddleware(lambda request: reached.append(request) or "reached")
    res = middleware(ASGIRequest(scope, io.BytesIO(b"x" * 1001)))
    assert res.status_code == 413 and json.loads(res.content)["code"] == "payload_too_large" and not reached
    assert middleware(ASGIRequest(scope, io.BytesIO(b"x" * 1000))) == "reached"


# -- finding 5: command_id 123 / true were accepted and stored as made-up UUIDs ---------------------------------


@pytest.mark.parametrize("command_id", [123, True, 1.5, None, ["x"], {"a": 1}, "not-a-uuid"])
def test_command_id_must_be_a_uuid_string(make_user, client_for, command_id):
    match, user = counter_match(make_user)
    body = {"command_id": command_id, "expected_seq": match.head_seq, "type": "add", "args": {}}
    res = client_for(user).post(f"/api/matches/{match.pk}/commands/", body, format="json")
    assert res.status_code == 400, res.content
    assert res.json()["code"] == "malformed" and "command_id" in res.json()["extra"]
    before = match.head_seq
    match.refresh_from_db()
    assert match.head_seq == before


# -- finding 8: /events/ had no paging ------------------------------------------------------------------------


def test_events_are_paged_with_next_until_the_head(make_user, client_for):
    match, user = counter_match(make_user, adds=6)  # 4 setup events + 6 adds: seqs 1..10
    assert match.head_seq == 10
    c = client_for(user)
    seen, url, pages = [], f"/api/matches/{match.pk}/events/?after=0&limit=4", 0
    while url:
        body = c.get(url).json()
        assert body["seq"] == 10 and len(body["events"]) <= 4
        seen += [e["seq"] for e in body["events"]]
        url, pages = body["next"], pages + 1
    assert seen == list(range(1, 11)) and pages == 3
    first = c.get(f"/api/matches/{match.pk}/events/", {"after": 2, "limit": 3}).json()
    assert [e["seq"] for e in first["events"]] == [3, 4, 5]
    assert first["next"].endswith(f"/api/matches/{match.pk}/events/?after=5&limit=3")


def test_the_default_page_is_bounded(make_user, client_for):
    from games.api.serializers import EVENTS_PAGE_DEFAULT

    match, user = counter_match(make_user, adds=EVENTS_PAGE_DEFAULT + 5)
    body = client_for(user).get(f"/api/matches/{match.pk}/events/").json()
    assert len(body["events"]) == EVENTS_PAGE_DEFAULT and body["next"] is not None


@pytest.mark.parametrize("limit", [0, -1, 501, "x"])
def test_a_bad_limit_is_malformed(make_user, client_for, limit):
    match, user = counter_match(make_user)
    res = client_for(user).get(f"/api/matches/{match.pk}/events/", {"limit": limit})
    assert res.status_code == 400 and res.json()["code"] == "malformed"


async def test_the_body_limit_works_in_an_async_chain_too(settings):
    """Sync and async capable: in an async chain it answers the same, without an adapter around it."""
    from asgiref.sync import iscoroutinefunction

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    reached = []

    async def inner(request):
        reached.append(request)
        return "reached"

    middleware = BodySizeLimitMiddleware(inner)
    assert iscoroutinefunction(middleware)

    def request(body: bytes, length: bool):
        headers = [(b"content-type", b"application/json")] + ([(b"content-length", str(len(body)).encode())] if length else [])
        scope = {"type": "http", "method": "POST", "path": "/api/auth/token/", "headers": headers, "query_string": b"",
                 "server": ("kamiza.test", 80)}
        return ASGIRequest(scope, io.BytesIO(body))

    for length in (True, False):
        res = await middleware(request(b"x" * 1001, length))
        assert res.status_code == 413 and json.loads(res.content)["code"] == "payload_too_large"
    assert not reached
    assert await middleware(request(b"x" * 1000, True)) == "reached"
    assert await middleware(request(b"x" * 1000, False)) == "reached"
