"""Resigning during a Yashima match's setup (docs/games/yashima.md, "Resigning", rules decision 23): two
sides end at once as at any time; with three sides or more the setup goes on with the others, never
waiting on the master who left, and the log still replays and verifies."""

import pytest

from games.application import seedcheck, selectors
from games.application.verify import SAME, match_check
from games.eventstore.models import MatchEvent
from games.projections import rebuild
from games.projections.models import MatchDeadline

from .test_resign_three_sides import advance, started, state_of

pytestmark = pytest.mark.django_db


def replays(match):
    """The log folds to the same state, the projections rebuild clean, every command (the engine's concede
    included) is decided again alike, and the revealed seed accounts for them."""
    match.refresh_from_db()
    assert rebuild.check(match.pk).clean
    assert match_check(match).outcome == SAME
    doc = seedcheck.seed_check(match)
    assert doc["verdict"] == "verified" and doc["unchecked"] == [], doc["summary"]


def test_three_masters_the_setup_goes_on_without_the_one_who_resigns(make_user, client_for):
    # given a three-master Yashima match with a turn clock, in its setup, awaiting seat 0's pick
    match, users = started(make_user, "yashima", 3, {"turn_seconds": 300})
    assert MatchDeadline.objects.get(match=match).seats == [0]
    # then the view offers Resign, and no rule holds it back
    view = client_for(users[0]).get(f"/api/matches/{match.pk}/view/").json()
    assert view["resignable"] is True and view["resign_refused"] is None
    # when seat 0 resigns
    res = client_for(users[0]).post(f"/api/matches/{match.pk}/resign/")
    # then the match runs on without them: one line of the log says so (no master of theirs: none was chosen)
    assert res.status_code == 200, res.json()
    assert res.json()["status"] == "active" and res.json()["conceded"] == [0]
    conceded = MatchEvent.objects.get(match=match, type="SeatConceded")
    texts = [e["text"] for e in selectors.events_for_seat(match, None, after=conceded.seq - 1)]
    assert [t for t in texts if users[0].username in t] == [f"{users[0].username} resigns and leaves the game"]
    # and the setup goes on with seat 1, whose clock runs (none runs for seat 0)
    state = state_of(match)
    assert state["game"]["phase"] == "setup" and state["game"]["players"][0]["dead"]
    assert selectors.engine_of(match).status(state["game"]).awaiting == [1]
    assert MatchDeadline.objects.get(match=match).seats == [1]
    assert selectors.view_for_seat(match, 0)["legal_commands"] == []
    # when the others play the setup out, the first destiny step awaits the two of them
    state = advance(match, users, lambda game: game["phase"] == "destiny")
    assert selectors.engine_of(match).status(state["game"]).awaiting == [1, 2]
    assert state["game"]["players"][0]["hand"] == []
    # and when seat 2 resigns in turn, seat 1 wins (the seed is revealed: the whole log verifies)
    res = client_for(users[2]).post(f"/api/matches/{match.pk}/resign/")
    assert res.json()["status"] == "finished" and res.json()["winners"] == [1]
    replays(match)


def test_two_masters_the_other_wins_at_once(make_user, client_for):
    # given a two-master Yashima match in its setup
    match, users = started(make_user, "yashima", 2)
    # when seat 1 resigns
    res = client_for(users[1]).post(f"/api/matches/{match.pk}/resign/")
    # then seat 0 wins at once
    assert res.status_code == 200 and res.json()["status"] == "finished" and res.json()["winners"] == [0]
    assert MatchEvent.objects.get(match=match, type="MatchFinished").payload["resigned"] == 1
    replays(match)


def test_two_against_two_the_team_loses_at_once_as_in_play(make_user, client_for):
    # given a 2-against-2 Yashima match (seats 0+2 against 1+3) in its setup
    match, users = started(make_user, "yashima", 4, {"teams": True})
    # when seat 2 resigns: two sides, so the platform's rule for two sides applies, as at any time
    res = client_for(users[2]).post(f"/api/matches/{match.pk}/resign/")
    # then the other team wins at once
    assert res.status_code == 200 and res.json()["status"] == "finished" and res.json()["winners"] == [1, 3]
    replays(match)


def test_three_teams_of_two_a_team_that_resigns_is_out_and_the_others_set_up(make_user, client_for):
    # given three teams of two (0+3, 1+4, 2+5) in the setup
    match, users = started(make_user, "yashima", 6, {"teams": True, "team_size": 2})
    # when seat 3 resigns, then the other master of the same team, seat 0
    for seat in (3, 0):
        res = client_for(users[seat]).post(f"/api/matches/{match.pk}/resign/")
        assert res.status_code == 200 and res.json()["status"] == "active", res.json()
    # then the two teams left set up and reach the first destiny step, nobody waiting on seats 0 and 3
    state = advance(match, users, lambda game: game["phase"] == "destiny")
    assert selectors.engine_of(match).status(state["game"]).awaiting == [1, 2, 4, 5]
    assert [b["seat"] for b in state["game"]["boards"]] == [1, 2, 4, 5]
    # and when the masters of team 2 (seats 1 and 4) resign as well, team 3 (seats 2 and 5) wins
    for seat in (1, 4):
        res = client_for(users[seat]).post(f"/api/matches/{match.pk}/resign/")
    assert res.json()["status"] == "finished" and res.json()["winners"] == [2, 5]
    replays(match)
