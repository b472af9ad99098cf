"""POST /api/matches/{id}/commands/: the write path over REST, every documented refusal."""

import uuid

import pytest

from games.application import services
from games.eventstore.models import MatchEvent

pytestmark = pytest.mark.django_db


def url(match, tail="commands"):
    return f"/api/matches/{match.pk}/{tail}/"


def hand(client, match):
    return client.get(url(match, "view")).json()["view"]["my_hand"]


def test_play_a_tile_returns_201_with_seq_and_events(started_pebbles, client_for, command):
    match, users = started_pebbles(options={"bonus_rolls": False})
    c0 = client_for(users[0])
    tile = hand(c0, match)[0]
    res = c0.post(url(match), command("play", {"tile": tile["id"]}, expected_seq=match.head_seq), format="json")
    assert res.status_code == 201, res.content
    body = res.json()
    assert body["seq"] == match.head_seq + 1
    assert [e["type"] for e in body["events"]] == ["TilePlayed"]
    assert body["events"][0]["payload"]["tile"]["id"] == tile["id"]
    assert body["events"][0]["actor"] == {"kind": "user", "seat": 0, "user_id": users[0].pk}
    view = c0.get(url(match, "view")).json()
    assert view["seq"] == body["seq"] and view["view"]["scores"][0] == tile["value"]
    assert view["status"]["awaiting"] == [1] and view["legal_commands"] == []


def test_legal_commands_can_be_posted_as_is(started_pebbles, client_for, command):
    match, users = started_pebbles(options={"bonus_rolls": False})
    c0 = client_for(users[0])
    view = c0.get(url(match, "view")).json()
    assert view["seat"] == 0 and view["legal_commands"]
    legal = view["legal_commands"][-1]
    res = c0.post(url(match), command(legal["type"], legal["args"], expected_seq=view["seq"]), format="json")
    assert res.status_code == 201, res.content


def test_stale_expected_seq_is_409_version_conflict_with_current_seq(started_pebbles, client_for, command):
    match, users = started_pebbles()
    res = client_for(users[0]).post(url(match), command("pass", expected_seq=match.head_seq - 1), format="json")
    assert res.status_code == 409
    body = res.json()
    assert body["code"] == "version_conflict"
    assert body["extra"] == {"current_seq": match.head_seq}
    assert body["current_seq"] == match.head_seq
    assert body["message"]


def test_rule_violation_is_422_with_the_engines_code(started_pebbles, client_for, command):
    match, users = started_pebbles()
    before = MatchEvent.objects.filter(match=match).count()
    res = client_for(users[0]).post(url(match), command("play", {"tile": "no-such-tile"}, expected_seq=match.head_seq),
                                    format="json")
    assert res.status_code == 422
    assert res.json()["code"] == "illegal_tile" and res.json()["message"]
    res = client_for(users[0]).post(url(match), command("dance", expected_seq=match.head_seq), format="json")
    assert res.status_code == 422 and res.json()["code"] == "unknown_command"
    assert MatchEvent.objects.filter(match=match).count() == before


def test_wrong_seat_is_403_not_your_decision(started_pebbles, client_for, command):
    match, users = started_pebbles()
    res = client_for(users[1]).post(url(match), command("pass", expected_seq=match.head_seq), format="json")
    assert res.status_code == 403
    assert res.json()["code"] == "not_your_decision"


def test_spectator_is_403_not_your_decision(started_pebbles, client_for, make_user, command):
    match, users = started_pebbles()
    res = client_for(make_user()).post(url(match), command("pass", expected_seq=match.head_seq), format="json")
    assert res.status_code == 403
    assert res.json()["code"] == "not_your_decision"


def test_anonymous_command_is_401(started_pebbles, api, command):
    match, users = started_pebbles()
    res = api.post(url(match), command("pass", expected_seq=match.head_seq), format="json")
    assert res.status_code == 401
    assert res.json()["code"] == "not_authenticated"
    assert res.headers["WWW-Authenticate"].startswith("Token")


def test_bad_token_is_401_authentication_failed(started_pebbles, api, command):
    match, users = started_pebbles()
    api.credentials(HTTP_AUTHORIZATION="Token nope")
    res = api.post(url(match), command("pass", expected_seq=match.head_seq), format="json")
    assert res.status_code == 401 and res.json()["code"] == "authentication_failed"


def test_repeated_command_id_returns_identical_body_and_appends_nothing(started_pebbles, client_for, command):
    match, users = started_pebbles(options={"bonus_rolls": False})
    c0 = client_for(users[0])
    tile = hand(c0, match)[0]
    cmd = command("play", {"tile": tile["id"]}, expected_seq=match.head_seq)
    first = c0.post(url(match), cmd, format="json")
    assert first.status_code == 201
    count = MatchEvent.objects.filter(match=match).count()
    again = c0.post(url(match), cmd, format="json")
    assert again.status_code == 201
    assert again.content == first.content
    assert MatchEvent.objects.filter(match=match).count() == count
    # ...even once the match moved on (the retry's expected_seq is stale by then)
    c1 = client_for(users[1])
    assert c1.post(url(match), command("pass", expected_seq=first.json()["seq"]), format="json").status_code == 201
    late = c0.post(url(match), cmd, format="json")
    assert late.status_code == 201 and late.content == first.content


def test_same_command_id_with_other_content_is_422_command_id_reused(started_pebbles, client_for, command):
    match, users = started_pebbles(options={"bonus_rolls": False})
    c0 = client_for(users[0])
    tiles = hand(c0, match)
    cid = uuid.uuid4()
    assert c0.post(url(match), command("play", {"tile": tiles[0]["id"]}, match.head_seq, cid), format="json").status_code == 201
    count = MatchEvent.objects.filter(match=match).count()
    res = c0.post(url(match), command("play", {"tile": tiles[1]["id"]}, match.head_seq, cid), format="json")
    assert res.status_code == 422
    assert res.json()["code"] == "command_id_reused"
    assert MatchEvent.objects.filter(match=match).count() == count


def test_command_on_an_open_match_is_422_match_not_active(make_user, client_for, command):
    c = client_for(make_user())
    match_id = c.post("/api/matches/", {"game": "pebbles", "seats": 2}, format="json").json()["id"]
    res = c.post(f"/api/matches/{match_id}/commands/", command("pass", expected_seq=2), format="json")
    assert res.status_code == 422 and res.json()["code"] == "match_not_active"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"expected_seq": 0, "type": "pass"}, "command_id"),
        ({"command_id": "not-a-uuid", "expected_seq": 0, "type": "pass"}, "command_id"),
        ({"command_id": str(uuid.uuid4()), "type": "pass"}, "expected_seq"),
        ({"command_id": str(uuid.uuid4()), "expected_seq": -1, "type": "pass"}, "expected_seq"),
        ({"command_id": str(uuid.uuid4()), "expected_seq": "soon", "type": "pass"}, "expected_seq"),
        ({"command_id": str(uuid.uuid4()), "expected_seq": True, "type": "pass"}, "expected_seq"),
        ({"command_id": str(uuid.uuid4()), "expected_seq": 0}, "type"),
        ({"command_id": str(uuid.uuid4()), "expected_seq": 0, "type": ["pass"]}, "type"),
        ({"command_id": str(uuid.uuid4()), "expected_seq": 0, "type": "pass", "args": [1, 2]}, "args"),
        ({"command_id": str(uuid.uuid4()), "expected_seq": 0, "type": "pass", "args": "x"}, "args"),
    ],
)
def test_malformed_commands_are_400_invalid_with_field_details(started_pebbles, client_for, body, field):
    match, users = started_pebbles()
    res = client_for(users[0]).post(url(match), body, format="json")
    assert res.status_code == 400, res.content
    err = res.json()
    assert err["code"] == "malformed"
    assert field in err["extra"] and err["message"]


def test_malformed_json_is_400_malformed(started_pebbles, client_for):
    match, users = started_pebbles()
    res = client_for(users[0]).post(url(match), data='{"command_id": ', content_type="application/json")
    assert res.status_code == 400
    assert res.json()["code"] == "malformed"


def test_non_object_json_body_is_400(started_pebbles, client_for):
    match, users = started_pebbles()
    res = client_for(users[0]).post(url(match), data="[1, 2]", content_type="application/json")
    assert res.status_code == 400 and res.json()["code"] == "malformed"


def test_wrong_content_type_is_415(started_pebbles, client_for):
    match, users = started_pebbles()
    res = client_for(users[0]).post(url(match), data="pass please", content_type="text/plain")
    assert res.status_code == 415
    assert res.json()["code"] == "unsupported_media_type"


def test_unknown_match_is_404(make_user, client_for, command):
    res = client_for(make_user()).post(f"/api/matches/{uuid.uuid4()}/commands/", command(), format="json")
    assert res.status_code == 404 and res.json()["code"] == "not_found"


def test_a_move_while_the_round_is_paused_is_409_match_paused(started_pebbles, client_for, command):
    # given a running match whose organizer paused the round for a power cut (the clock is held)
    match, users = started_pebbles(options={"bonus_rolls": False})
    organizer = services.Actor("worker", extra={"task": "test", "purpose": "tournament_pause"})
    services.match_hold_clock(match_id=match.pk, actor=organizer, reason="power cut")
    c0 = client_for(users[0])
    view = c0.get(url(match, "view")).json()
    assert view["match"]["clock_held"] is True and view["match"]["clock_reason"] == "power cut"
    assert view["legal_commands"] == []  # nothing is offered while paused
    # when the player whose turn it is plays a tile all the same
    tile = view["view"]["my_hand"][0]
    res = c0.post(url(match), command("play", {"tile": tile["id"]}, expected_seq=view["seq"]), format="json")
    # then it is refused, naming the pause, and nothing is written
    assert res.status_code == 409, res.content
    assert res.json()["code"] == "match_paused" and res.json()["message"] == "the round is paused: power cut"
    assert c0.get(url(match, "view")).json()["seq"] == view["seq"]
