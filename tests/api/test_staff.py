"""Staff-only endpoints: the full log and the folded state at a seq; every read is recorded."""

import uuid

import pytest

from games.eventstore import store
from games.eventstore.models import StaffAccess

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user, client_for):
    user = make_user(is_staff=True)
    return user, client_for(user)


def test_log_is_full_and_unredacted_with_the_seed(started_pebbles, staff):
    match, users = started_pebbles()
    user, c = staff
    res = c.get(f"/api/admin/matches/{match.pk}/log/")
    assert res.status_code == 200
    body = res.json()
    full = store.events_load(match)
    assert body["events"] == full
    dealt = next(e for e in body["events"] if e["type"] == "TilesDealt")
    assert set(dealt["payload"]["hands"]) == {"0", "1"} and dealt["payload"]["pile"]
    assert body["seed"] == match.seed and body["seed_hash"] == match.seed_hash and body["seq"] == match.head_seq
    access = StaffAccess.objects.get()
    assert access.user == user and access.match_id == match.pk and "log" in access.what


def test_state_at_a_seq_with_every_seats_view(started_pebbles, staff, client_for, command):
    match, users = started_pebbles(options={"bonus_rolls": False})
    user, c = staff
    started_at = match.head_seq
    client_for(users[0]).post(f"/api/matches/{match.pk}/commands/", command("pass", expected_seq=started_at),
                              format="json")
    now = c.get(f"/api/admin/matches/{match.pk}/state/").json()
    assert now["seq"] == now["head_seq"] == started_at + 1 and now["status"]["awaiting"] == [1]
    res = c.get(f"/api/admin/matches/{match.pk}/state/", {"at": started_at})
    assert res.status_code == 200
    then = res.json()
    assert then["seq"] == started_at and then["head_seq"] == started_at + 1
    assert then["status"]["awaiting"] == [0] and then["state"]["game"]["turn"] == 0
    assert len(then["state"]["game"]["hands"]["1"]) == 3
    assert [v["seat"] for v in then["views"]] == [0, 1] and all(v["seq"] == started_at for v in then["views"])
    assert then["views"][0]["view"]["my_hand"] == then["state"]["game"]["hands"]["0"]
    assert then["views"][0]["legal_commands"] and not then["views"][1]["legal_commands"]
    assert then["spectator"]["seat"] is None and then["spectator"]["view"]["my_hand"] == []
    lobby_only = c.get(f"/api/admin/matches/{match.pk}/state/", {"at": 1}).json()
    assert lobby_only["status"]["phase"] == "lobby" and lobby_only["state"]["game"] is None
    assert StaffAccess.objects.filter(user=user, match=match).count() == 3


@pytest.mark.parametrize("at", ["0", "-3", "x"])
def test_state_bad_at_is_400(started_pebbles, staff, at):
    match, _ = started_pebbles()
    res = staff[1].get(f"/api/admin/matches/{match.pk}/state/", {"at": at})
    assert res.status_code == 400 and res.json()["code"] == "malformed"
    assert not StaffAccess.objects.exists()


@pytest.mark.parametrize("past", [1, 99999])
def test_state_past_the_head_is_422_seq_beyond_head_as_the_replay_answers(finished_pebbles, staff, client_for, past):
    """Given a finished match, ``at`` past its last seq is refused as ``/replay/`` refuses it (before:
    200 with the head's state, as if the staff had asked for the last seq), and nothing is recorded."""
    match, users = finished_pebbles()
    at = match.head_seq + past
    res = staff[1].get(f"/api/admin/matches/{match.pk}/state/", {"at": at})
    assert res.status_code == 422 and res.json()["code"] == "seq_beyond_head", res.json()
    assert res.json()["message"] == f"the match log runs from seq 1 to {match.head_seq}"
    replay = client_for(users[0]).get(f"/api/matches/{match.pk}/replay/", {"at": at})
    assert (replay.status_code, replay.json()["code"], replay.json()["message"]) == (
        422, "seq_beyond_head", res.json()["message"])
    assert not StaffAccess.objects.exists()
    # the last seq itself is still answered
    assert staff[1].get(f"/api/admin/matches/{match.pk}/state/", {"at": match.head_seq}).json()["seq"] == match.head_seq


def test_non_staff_get_403_and_anonymous_401(started_pebbles, client_for, api):
    match, users = started_pebbles()
    for tail in ("log", "state"):
        res = client_for(users[0]).get(f"/api/admin/matches/{match.pk}/{tail}/")
        assert res.status_code == 403 and res.json()["code"] == "permission_denied"
        res = api.get(f"/api/admin/matches/{match.pk}/{tail}/")
        assert res.status_code == 401 and res.json()["code"] == "not_authenticated"
    assert not StaffAccess.objects.exists()


def test_staff_unknown_match_is_404(staff):
    for tail in ("log", "state"):
        res = staff[1].get(f"/api/admin/matches/{uuid.uuid4()}/{tail}/")
        assert res.status_code == 404 and res.json()["code"] == "not_found"
