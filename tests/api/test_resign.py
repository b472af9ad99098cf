"""Resigning (docs/platform.md, "Resigning"): a seated player concedes a running match of two sides
and the other side wins at once, through the one write path (a lobby command recorded in the log);
refused with a stable code where it cannot apply."""

import uuid

import pytest

from games.application import selectors, services
from games.eventstore.models import MatchEvent
from games.projections.models import MatchDeadline

pytestmark = pytest.mark.django_db


def test_a_player_resigns_and_the_other_wins_at_once(started_pebbles, client_for):
    # given a running two-player match with a decision clock
    match, (alice, bob) = started_pebbles(options={"bonus_rolls": False, "turn_seconds": 60})
    assert MatchDeadline.objects.filter(match=match).exists()
    # when bob resigns
    res = client_for(bob).post(f"/api/matches/{match.pk}/resign/")
    # then the match is over, alice won, and the log says who resigned
    assert res.status_code == 200, res.json()
    assert res.json()["status"] == "finished" and res.json()["winners"] == [0]
    finished = MatchEvent.objects.get(match=match, type="MatchFinished")
    assert finished.payload["resigned"] == 1 and finished.payload["winners"] == [0]
    assert finished.actor["user_id"] == bob.pk
    match.refresh_from_db()
    view = selectors.view_for_seat(match, 0)
    assert view["status"]["finished"] and view["status"]["winners"] == [0] and view["legal_commands"] == []
    assert view["match"]["resigned"] == 1 and res.json()["resigned"] == 1 and view["resignable"] is False
    assert not MatchDeadline.objects.filter(match=match).exists()  # no clock runs on
    text = selectors.events_for_seat(match, None)[-1]["text"]
    assert text == f"{bob.username} resigns: the match is over"
    # and nothing more can be played or resigned
    again = client_for(alice).post(f"/api/matches/{match.pk}/resign/")
    assert (again.status_code, again.json()["code"]) == (409, "match_not_active")
    assert again.json()["message"] == "the match is over"


def test_resigning_is_refused_where_it_cannot_apply(started_pebbles, make_user, client_for):
    match, (alice, bob) = started_pebbles()
    stranger = client_for(make_user())
    res = stranger.post(f"/api/matches/{match.pk}/resign/")
    assert (res.status_code, res.json()["code"]) == (403, "not_seated")
    # three sides: no one side to resign to
    three, users = started_pebbles(seats=3)
    res = client_for(users[1]).post(f"/api/matches/{three.pk}/resign/")
    assert (res.status_code, res.json()["code"]) == (409, "resign_unavailable")
    # an open match has nothing to resign
    open_match = services.match_create(game="pebbles", seats=2, options={}, creator=alice)
    res = client_for(alice).post(f"/api/matches/{open_match.pk}/resign/")
    assert (res.status_code, res.json()["code"]) == (409, "match_not_active")
    assert res.json()["message"] == "the match has not started"
    # (a cooperative game lets a player leave the party: tests/api/test_resign_harakiri.py)
    assert not MatchEvent.objects.filter(match__in=[match, three], type="MatchFinished").exists()


def test_in_two_against_two_the_other_team_wins(make_user, client_for):
    # given a Yokai Battle 2 v 2 (seats 0 and 2 against 1 and 3)
    users = [make_user() for _ in range(4)]
    match = services.match_create(game="yokai", seats=4, options={"teams": True}, creator=users[0])
    for seat, user in enumerate(users[1:], start=1):
        services.match_join(match_id=match.pk, user=user, seat=seat)
    services.match_start(match_id=match.pk, user=users[0])
    # when seat 3 resigns, then seats 0 and 2 win
    res = client_for(users[3]).post(f"/api/matches/{match.pk}/resign/")
    assert res.status_code == 200 and res.json()["winners"] == [0, 2]


def test_a_resigned_rated_match_counts_for_the_ratings(started_pebbles, client_for,
                                                      django_capture_on_commit_callbacks):
    match, (alice, bob) = started_pebbles(options={"bonus_rolls": False})
    assert match.rated
    with django_capture_on_commit_callbacks(execute=True):
        client_for(alice).post(f"/api/matches/{match.pk}/resign/")
    recent = client_for(bob).get(f"/api/users/{bob.username}/").json()["recent_matches"]
    assert recent[0]["id"] == str(match.pk) and recent[0]["result"] == "won"
    assert recent[0]["rating_after"] > recent[0]["rating_before"]
    # a command sent after the resignation is refused, not played
    with pytest.raises(Exception) as refused:
        services.match_submit_command(match_id=match.pk, seat=1, actor=services.Actor.user(bob), command_id=uuid.uuid4(),
                                      expected_seq=match.head_seq + 1, type_="take", args={"n": 1})
    assert getattr(refused.value, "code", None) in ("match_not_active", "version_conflict")
