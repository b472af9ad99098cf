"""Resigning from a cooperative Harakiri match (docs/games/harakiri.md, "Resigning"): the player
leaves the party's table, their characters pass to the first player left, the party plays on; the
last player leaving ends the match with no winners. Replayed and seed-checked like any resignation.

# rules: Harakiri core, "The Characters" ("If playing with fewer than four players, divide the
# characters between yourselves as you choose.")
"""

import pytest

from games.application import seedcheck, selectors
from games.application.verify import SAME, match_check
from games.eventstore.models import MatchEvent
from games.projections import rebuild
from games.projections.models import MatchDeadline

from .test_resign_three_sides import started, state_of, system_steps

pytestmark = pytest.mark.django_db


def test_two_players_one_resigns_the_other_plays_their_characters_then_the_last_ends_it(
        make_user, client_for, django_capture_on_commit_callbacks):
    # given a two-player Harakiri match at the party leader's (seat 0's) first decision
    match, users = started(make_user, "harakiri", 2)
    state = system_steps(match, users)
    assert selectors.engine_of(match).status(state["game"]).awaiting == [0]
    assert selectors.view_for_seat(match, 0)["resignable"] is True
    # when seat 0 resigns
    res = client_for(users[0]).post(f"/api/matches/{match.pk}/resign/")
    # then the match goes on: seat 1 plays every character and takes the decision that awaited seat 0
    assert res.status_code == 200, res.json()
    assert res.json()["status"] == "active" and res.json()["conceded"] == [0] and res.json()["resigned"] is None
    state = state_of(match)
    assert set(state["game"]["control"].values()) == {1} and state["game"]["leader"] == 1
    assert selectors.engine_of(match).status(state["game"]).awaiting == [1]
    left = MatchEvent.objects.get(match=match, type="PlayerLeftParty")
    assert left.payload["to"] == 1
    texts = [e["text"] for e in selectors.events_for_seat(match, 1, after=left.seq - 2)]
    assert texts[0] == f"{users[0].username} resigns and leaves the game"
    assert texts[1].startswith(f"{users[0].username}'s Akira and Hikaru pass to {users[1].username}")
    view = selectors.view_for_seat(match, 0)
    assert view["resignable"] is False and view["legal_commands"] == []
    assert selectors.view_for_seat(match, 1)["legal_commands"]
    again = client_for(users[0]).post(f"/api/matches/{match.pk}/resign/")
    assert (again.status_code, again.json()["code"]) == (409, "already_out")
    # when the last player resigns, the match ends: the party has failed, nobody wins
    with django_capture_on_commit_callbacks(execute=True):
        res = client_for(users[1]).post(f"/api/matches/{match.pk}/resign/")
    assert res.status_code == 200 and res.json()["status"] == "finished" and res.json()["winners"] == []
    assert res.json()["conceded"] == [0, 1]
    assert MatchEvent.objects.filter(match=match, type="PartyLeft").exists()
    assert not MatchDeadline.objects.filter(match=match).exists()
    # and the log replays, rebuilds and seed-checks alike
    match.refresh_from_db()
    assert rebuild.check(match.pk).clean
    assert match_check(match).outcome == SAME
    doc = seedcheck.seed_check(match)
    assert doc["verdict"] == "verified" and doc["unchecked"] == [], doc["summary"]


def test_solo_the_only_player_resigning_ends_the_match_with_no_winners(make_user, client_for):
    match, users = started(make_user, "harakiri", 1)
    res = client_for(users[0]).post(f"/api/matches/{match.pk}/resign/")
    assert res.status_code == 200 and res.json()["status"] == "finished" and res.json()["winners"] == []
    match.refresh_from_db()
    assert match_check(match).outcome == SAME


def test_four_players_the_characters_pass_to_the_first_player_left(make_user, client_for):
    match, users = started(make_user, "harakiri", 4)
    system_steps(match, users)
    res = client_for(users[2]).post(f"/api/matches/{match.pk}/resign/")
    assert res.status_code == 200 and res.json()["status"] == "active"
    assert state_of(match)["game"]["control"] == {"akira": 0, "hattori": 1, "hikaru": 0, "tomoe": 3}
    match.refresh_from_db()
    assert match_check(match).outcome == SAME
