"""Resigning from a Yashima match of three masters or more (docs/platform.md and docs/games/yashima.md,
"Resigning"): the master leaves the game as if killed, the turn passes, the last master left wins."""

import pytest

from games.application import seedcheck, selectors
from games.application.verify import SAME, match_check
from games.eventstore.models import MatchEvent
from games.projections import rebuild
from games.projections.models import MatchDeadline

from .test_resign_three_sides import advance, started, system_steps

pytestmark = pytest.mark.django_db


def yashima_turn(game):
    return game["phase"] == "battle" and game["turn"] and game["stacks"]["main"] == [] and game["turn"]["seat"] == 0


def test_three_masters_one_resigns_play_goes_on_then_the_last_one_wins(make_user, client_for,
                                                                       django_capture_on_commit_callbacks):
    # given a rated three-master Yashima match with a turn clock, at seat 0's turn in the battle phase
    match, users = started(make_user, "yashima", 3, {"turn_seconds": 300})
    assert match.rated
    advance(match, users, yashima_turn)
    assert MatchDeadline.objects.get(match=match).seats == [0]
    # when seat 0 (whose turn it is) resigns
    res = client_for(users[0]).post(f"/api/matches/{match.pk}/resign/")
    # then the match runs on without them: one line of the log says so
    assert res.status_code == 200, res.json()
    assert res.json()["status"] == "active" and res.json()["conceded"] == [0] and res.json()["resigned"] is None
    conceded = MatchEvent.objects.filter(match=match, type="SeatConceded").get()
    assert conceded.payload == {"seat": 0, "username": users[0].username} and conceded.actor["user_id"] == users[0].pk
    texts = [e["text"] for e in selectors.events_for_seat(match, None, after=conceded.seq - 1)]
    assert [t for t in texts if users[0].username in t] == [f"{users[0].username} resigns and leaves the game"]
    assert not MatchEvent.objects.filter(match=match, type="MatchFinished").exists()
    # and the turn passes to the next master to the left, whose clock runs (none runs for seat 0)
    state = system_steps(match, users)
    assert state["game"]["players"][0]["dead"] and state["game"]["turn"]["seat"] == 1
    assert MatchDeadline.objects.get(match=match).seats == [1]
    view = selectors.view_for_seat(match, 0)
    assert view["match"]["conceded"] == [0] and view["resignable"] is False and view["legal_commands"] == []
    assert selectors.view_for_seat(match, 1)["resignable"] is True
    # a seat that left cannot resign again
    again = client_for(users[0]).post(f"/api/matches/{match.pk}/resign/")
    assert (again.status_code, again.json()["code"]) == (409, "already_out")
    # when seat 2 resigns too, seat 1 is the last master in the game and wins
    with django_capture_on_commit_callbacks(execute=True):
        res = client_for(users[2]).post(f"/api/matches/{match.pk}/resign/")
    assert res.status_code == 200 and res.json()["status"] == "finished" and res.json()["winners"] == [1]
    assert res.json()["conceded"] == [0, 2]
    finished = MatchEvent.objects.get(match=match, type="MatchFinished")
    assert finished.payload["winners"] == [1] and "resigned" not in finished.payload
    assert not MatchDeadline.objects.filter(match=match).exists()
    # and the result counts: the winner won, both players who resigned lost
    results = {u.pk: client_for(u).get(f"/api/users/{u.username}/").json()["recent_matches"][0]["result"] for u in users}
    assert results == {users[0].pk: "lost", users[1].pk: "won", users[2].pk: "lost"}
    # the log folds to the same state, the projections rebuild clean, every command is decided again alike
    match.refresh_from_db()
    assert rebuild.check(match.pk).clean
    assert match_check(match).outcome == SAME
    # and the revealed seed accounts for the resignations too (decided again by the engine's concede)
    doc = seedcheck.seed_check(match)
    assert doc["verdict"] == "verified" and doc["unchecked"] == [], doc["summary"]


def test_past_the_yashima_setup_the_view_offers_resign(make_user):
    # given a three-master Yashima match played past its setup
    match, users = started(make_user, "yashima", 3)
    advance(match, users, lambda game: game["phase"] != "setup")
    # then every master may resign, and no rule holds it back
    view = selectors.view_for_seat(match, 1)
    assert view["resignable"] is True and view["resign_refused"] is None
