"""The campaigns REST contract: create, join, start, read, list mine; refusals as {code, message}."""

import uuid

import pytest
from rest_framework.test import APIClient

from games.eventstore.models import Match

pytestmark = pytest.mark.django_db


def _client(user=None):
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


def _error(resp, status, code):
    assert resp.status_code == status, (resp.status_code, resp.content[:300])
    body = resp.json()
    assert body["code"] == code and isinstance(body["message"], str), body


def test_create_join_start_and_read_a_campaign(make_user, django_capture_on_commit_callbacks):
    alice, bob, carol = make_user(), make_user(), make_user()
    resp = _client(alice).post("/api/campaigns/", {"game": "harakiri", "act": 1, "seats": 2}, format="json")
    assert resp.status_code == 201 and set(resp.json()) == {"id"}
    cid = resp.json()["id"]
    url = f"/api/campaigns/{cid}/"
    doc = _client().get(url).json()
    assert (doc["status"], doc["phase"], doc["chapter"], doc["current_match"], doc["history"]) == ("open", "between", None, None, [])
    _error(_client(bob).post(f"{url}start/"), 403, "not_creator")
    _error(_client(alice).post(f"{url}start/"), 409, "seats_not_filled")
    _error(_client(alice).post(f"{url}join/"), 409, "already_seated")
    assert _client(bob).post(f"{url}join/").status_code == 200
    _error(_client(carol).post(f"{url}join/"), 409, "campaign_full")
    with django_capture_on_commit_callbacks(execute=True):
        resp = _client(alice).post(f"{url}start/")
    assert resp.status_code == 200
    doc = _client(bob).get(url).json()
    assert {"id", "status", "chapter", "phase", "current_match", "sheet", "characters", "history"} <= set(doc)
    assert (doc["yomi"], doc["failure"]) == (None, None)
    assert (doc["status"], doc["chapter"], doc["phase"]) == ("active", 1, "adventure")
    assert doc["history"] == [{"chapter": 1, "phase": "adventure", "match_id": doc["current_match"], "outcome": None}]
    match = Match.objects.get(pk=doc["current_match"])
    assert match.options["phase"] == "adventure" and match.seat_count == 2
    _error(_client(alice).post(f"{url}start/"), 409, "campaign_started")
    _error(_client(carol).post(f"{url}join/"), 409, "campaign_started")
    mine = _client(bob).get("/api/campaigns/", {"mine": 1}).json()
    assert [c["id"] for c in mine] == [cid]
    assert _client(carol).get("/api/campaigns/", {"mine": 1}).json() == []
    assert _client().get("/api/campaigns/", {"mine": 1}).json() == []


@pytest.mark.parametrize("body,code", [
    ({"game": "yokai", "act": 1, "seats": 2}, "malformed"),
    ({"game": "harakiri", "act": 1, "seats": 5}, "malformed"),
    ({"game": "harakiri", "act": 1, "seats": 0}, "malformed"),
    ({"game": "harakiri", "act": 9, "seats": 1}, "bad_act"),
    ({"game": "harakiri", "act": "one", "seats": 1}, "malformed"),
    ({"game": "harakiri", "act": 1, "seats": 2, "control": {"akira": 0}}, "bad_control"),
    ({"game": "harakiri", "act": 1, "seats": True}, "malformed"),
    ({"game": "harakiri", "act": 1, "seats": 1, "yomi_mode": "perhaps"}, "malformed"),
    ([], "malformed"),
])
def test_bad_requests_are_4xx_with_a_code(body, code, make_user):
    resp = _client(make_user()).post("/api/campaigns/", body, format="json")
    _error(resp, 400, code)


def test_unknown_campaigns_and_anonymous_writes_are_refused(make_user):
    _error(_client().get(f"/api/campaigns/{uuid.uuid4()}/"), 404, "not_found")
    _error(_client(make_user()).post(f"/api/campaigns/{uuid.uuid4()}/join/"), 404, "not_found")
    _error(_client().post("/api/campaigns/", {"game": "harakiri", "act": 1, "seats": 1}, format="json"), 401, "not_authenticated")
    _error(_client().get("/api/campaigns/not-a-uuid/"), 404, "not_found")
