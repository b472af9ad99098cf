"""The campaigns REST contract: create, join, start, read, list mine; refusals as {code, message}."""

import uuid

import pytest

from games.eventstore.models import Match
from tests.rest import api_as, assert_error

pytestmark = pytest.mark.django_db


def test_create_join_start_and_read_a_campaign(make_user, django_capture_on_commit_callbacks):
    alice, bob, carol = make_user(), make_user(), make_user()
    resp = api_as(alice).post("/api/campaigns/", {"game": "harakiri", "act": 1, "seats": 2}, format="json")
    assert resp.status_code == 201 and set(resp.json()) == {"id"}
    cid = resp.json()["id"]
    url = f"/api/campaigns/{cid}/"
    doc = api_as().get(url).json()
    assert (doc["status"], doc["phase"], doc["chapter"], doc["current_match"], doc["history"]) == ("open", "between", None, None, [])
    assert_error(api_as(bob).post(f"{url}start/"), 403, "not_creator")
    assert_error(api_as(alice).post(f"{url}start/"), 409, "seats_not_filled")
    assert_error(api_as(alice).post(f"{url}join/"), 409, "already_seated")
    assert api_as(bob).post(f"{url}join/").status_code == 200
    assert_error(api_as(carol).post(f"{url}join/"), 409, "campaign_full")
    with django_capture_on_commit_callbacks(execute=True):
        resp = api_as(alice).post(f"{url}start/")
    assert resp.status_code == 200
    doc = api_as(bob).get(url).json()
    assert {"id", "status", "chapter", "phase", "current_match", "sheet", "characters", "history"} <= set(doc)
    assert (doc["yomi"], doc["failure"]) == (None, None)
    assert (doc["status"], doc["chapter"], doc["phase"]) == ("active", 1, "adventure")
    assert doc["history"] == [{"chapter": 1, "phase": "adventure", "match_id": doc["current_match"], "outcome": None}]
    match = Match.objects.get(pk=doc["current_match"])
    assert match.options["phase"] == "adventure" and match.seat_count == 2
    assert_error(api_as(alice).post(f"{url}start/"), 409, "campaign_started")
    assert_error(api_as(carol).post(f"{url}join/"), 409, "campaign_started")
    mine = api_as(bob).get("/api/campaigns/", {"mine": 1}).json()
    assert [c["id"] for c in mine] == [cid]
    assert api_as(carol).get("/api/campaigns/", {"mine": 1}).json() == []
    assert api_as().get("/api/campaigns/", {"mine": 1}).json() == []


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
    resp = api_as(make_user()).post("/api/campaigns/", body, format="json")
    assert_error(resp, 400, code)


def test_unknown_campaigns_and_anonymous_writes_are_refused(make_user):
    assert_error(api_as().get(f"/api/campaigns/{uuid.uuid4()}/"), 404, "not_found")
    assert_error(api_as(make_user()).post(f"/api/campaigns/{uuid.uuid4()}/join/"), 404, "not_found")
    assert_error(api_as().post("/api/campaigns/", {"game": "harakiri", "act": 1, "seats": 1}, format="json"), 401, "not_authenticated")
    assert_error(api_as().get("/api/campaigns/not-a-uuid/"), 404, "not_found")
