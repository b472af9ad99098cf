"""An absent player in a cooperative match (docs/platform.md, "An absent player";
docs/games/harakiri.md): once the match has waited on a seat, with no move by anyone, for a day,
another player may take that seat's characters over; before that, refused with a stable code."""

import datetime

import pytest

from games.application import decisions, seedcheck, selectors
from games.application.verify import SAME, match_check
from games.eventstore import store
from games.eventstore.models import Match, MatchEvent

from .test_resign_three_sides import advance, started, state_of, system_steps

pytestmark = pytest.mark.django_db


def _waited(match, seconds):
    """The match's events as if appended ``seconds`` ago (the time nobody has moved)."""
    MatchEvent.objects.filter(match=match).update(at=MatchEvent.objects.filter(match=match).order_by("-seq")
                                                   .values_list("at", flat=True).first()
                                                  - datetime.timedelta(seconds=seconds))


def test_a_player_takes_over_an_absent_players_characters_after_a_day(make_user, client_for):
    # given a two-player Harakiri match waiting on seat 0
    match, users = started(make_user, "harakiri", 2)
    system_steps(match, users)
    url = f"/api/matches/{match.pk}/take-over/"
    # when seat 1 asks at once, it is refused: the game has not waited a day
    res = client_for(users[1]).post(url, {"seat": 0}, format="json")
    assert (res.status_code, res.json()["code"]) == (409, "not_idle_long_enough")
    assert selectors.view_for_seat(match, 1)["take_over"] == []
    assert (client_for(users[1]).post(url, {"seat": 1}, format="json").status_code,) == (400,)
    # when nobody has moved for a day, seat 1 may take seat 0 over
    _waited(match, decisions.IDLE_TAKE_OVER_SECONDS + 60)
    assert selectors.view_for_seat(match, 1)["take_over"] == [0]
    assert selectors.view_for_seat(match, 0)["take_over"] == []  # the awaited player has nobody to take over
    res = client_for(users[1]).post(url, {"seat": 0}, format="json")
    assert res.status_code == 200, res.json()
    assert res.json()["status"] == "active" and res.json()["conceded"] == [0]
    conceded = MatchEvent.objects.get(match=match, type="SeatConceded")
    assert conceded.payload["taken_over_by"] == 1 and conceded.actor["user_id"] == users[1].pk
    texts = [e["text"] for e in selectors.events_for_seat(match, 1, after=conceded.seq - 1)]
    assert texts[0].startswith(f"{users[1].username} takes over from {users[0].username}, whom the game had waited on")
    state = state_of(match)
    assert set(state["game"]["control"].values()) == {1}
    assert selectors.engine_of(match).status(state["game"]).awaiting == [1]
    # the player taken over has left: they can neither move nor resign
    assert selectors.view_for_seat(match, 0)["resignable"] is False
    # and once the last player leaves, the log replays and seed-checks alike
    assert client_for(users[1]).post(f"/api/matches/{match.pk}/resign/").json()["winners"] == []
    match.refresh_from_db()
    assert match_check(match).outcome == SAME
    doc = seedcheck.seed_check(match)
    assert doc["verdict"] == "verified" and doc["unchecked"] == [], doc["summary"]


def test_taking_over_a_seat_the_game_is_not_waiting_for_is_refused(make_user, client_for):
    match, users = started(make_user, "harakiri", 3)
    system_steps(match, users)
    _waited(match, decisions.IDLE_TAKE_OVER_SECONDS + 60)
    res = client_for(users[0]).post(f"/api/matches/{match.pk}/take-over/", {"seat": 2}, format="json")
    assert (res.status_code, res.json()["code"]) == (409, "not_awaited")
    res = client_for(make_user()).post(f"/api/matches/{match.pk}/take-over/", {"seat": 0}, format="json")
    assert (res.status_code, res.json()["code"]) == (403, "not_seated")


def test_a_game_that_is_not_cooperative_has_no_take_over(make_user, client_for):
    match, users = started(make_user, "yokai", 3)
    res = client_for(users[1]).post(f"/api/matches/{match.pk}/take-over/", {"seat": 0}, format="json")
    assert (res.status_code, res.json()["code"]) == (409, "take_over_unavailable")


def test_a_move_made_while_the_wait_is_measured_ends_the_wait(make_user, client_for, monkeypatch):
    # given a two-player Harakiri match that has waited on seat 0 for more than a day
    match, users = started(make_user, "harakiri", 2)
    system_steps(match, users)
    _waited(match, decisions.IDLE_TAKE_OVER_SECONDS + 60)
    engine = selectors.engine_of(match)
    measured, moved = store.event_last_at, []

    def the_players_move_right_after_the_measure(m):
        at = measured(m)
        if not moved:  # once, between the measure and the write: play goes on until seat 0 is awaited again
            moved.append(Match.objects.get(pk=match.pk).head_seq)
            advance(match, users, lambda game: Match.objects.get(pk=match.pk).head_seq > moved[0]
                    and engine.status(game).awaiting == [0])
        return at

    monkeypatch.setattr(store, "event_last_at", the_players_move_right_after_the_measure)
    # when seat 1 asks to take seat 0 over, and the wait is measured just before the players move again
    res = client_for(users[1]).post(f"/api/matches/{match.pk}/take-over/", {"seat": 0}, format="json")
    # then the wait is measured again from their last move (seat 0 awaited again), and the take-over refused
    assert (res.status_code, res.json()["code"]) == (409, "not_idle_long_enough")
    assert not MatchEvent.objects.filter(match=match, type="SeatConceded").exists()
