"""A tournament match ended by a drop (docs/ratings.md, "Tournaments: time limits, judges' overrides and
drops"): before every side has made a move it is not rated, like an aborted game (a play-through saw a
player who dropped out before their first move lose 80 points, their opponent gain 132); once both sides
have moved, the drop is a resignation and rated like one. The rebuild from the logs agrees."""

import pytest

from games.application import selectors
from games.eventstore.models import Match
from games.ratings import policy, rebuild
from games.ratings.models import Rating, RatingChange
from games.tournaments import services
from games.tournaments.policies import tournament_start_and_play

from ..tournaments.play import play, round_matches, yokai_cup

pytestmark = pytest.mark.django_db


def _seated(match_id) -> dict[int, int]:
    """{seat: user id} of a match."""
    lobby = selectors.state_load(Match.objects.get(pk=match_id))["lobby"]
    return {i: s["user_id"] for i, s in enumerate(lobby["seats"])}


def _play_until_both_moved(match_id):
    for _ in range(12):
        if policy.seats_that_moved(match_id) == {0, 1}:
            return
        assert not play(match_id, 1), "the match ended before both sides moved"
    raise AssertionError("both sides never moved")


@pytest.fixture
def cup(make_user):
    organizer, t, players = yokai_cup(make_user, players=4, rounds=2)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    return organizer, t, {p.pk: p for p in players}


def test_a_drop_before_the_dropper_moved_is_not_rated(cup, django_capture_on_commit_callbacks):
    _organizer, t, players = cup
    first, _second = round_matches(t.pk, 1)
    seats = _seated(first)
    # given one player of the table has made a move and the other has not
    play(first, 1)
    (mover,) = policy.seats_that_moved(first)
    idle = players[seats[1 - mover]]
    # when the player who has not moved drops out
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_withdraw(tournament_id=t.pk, user=idle)
    # then the match is over (the opponent wins the table) but nobody's rating moved
    assert selectors.state_load(Match.objects.get(pk=first))["lobby"]["status"] == "finished"
    assert not RatingChange.objects.filter(match_id=first).exists()
    assert not Rating.objects.filter(user_id__in=seats.values(), matches__gt=0).exists()
    # and the rebuild from the logs agrees
    assert rebuild.check().clean


def test_a_drop_once_both_sides_moved_is_a_rated_resignation(cup, django_capture_on_commit_callbacks):
    organizer, t, players = cup
    _first, second = round_matches(t.pk, 1)
    seats = _seated(second)
    _play_until_both_moved(second)
    # when the organizer drops a player mid-game
    leaver = players[seats[0]]
    entrant = services.state_of(t.pk)
    entrant_id = next(e for e, v in entrant.entrants.items() if leaver.pk in v.user_ids)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_drop(tournament_id=t.pk, user=organizer, entrant_id=entrant_id)
    # then it counts as a resignation: the leaver loses rating, the opponent gains
    changes = {c.user_id: c for c in RatingChange.objects.filter(match_id=second)}
    assert set(changes) == set(seats.values())
    assert changes[leaver.pk].display_after < changes[leaver.pk].display_before
    other = seats[1]
    assert changes[other].display_after > changes[other].display_before
    assert rebuild.check().clean


def test_the_rule_reads_the_finish_actor_and_the_seats_that_moved():
    lobby = {"game": "yokai", "engine_version": None, "options": {}, "seats": [{}, {}], "resigned": 1}
    drop = {"kind": "user", "user_id": 9, "seat": None, "purpose": "tournament_drop"}
    assert policy.dropped_before_play(lobby, drop, set()) is True
    assert policy.dropped_before_play(lobby, drop, {0}) is True
    assert policy.dropped_before_play(lobby, drop, {0, 1}) is False
    # a player's own resignation outside a drop is rated whenever it comes
    assert policy.dropped_before_play(lobby, {"kind": "user", "seat": 1}, set()) is False
    # in a 2v2 each team is one side: one partner's move is the team's
    teams = {**lobby, "options": {"teams": True}, "seats": [{}, {}, {}, {}]}
    assert policy.dropped_before_play(teams, drop, {0, 2}) is True
    assert policy.dropped_before_play(teams, drop, {2, 1}) is False
    no_resign = {k: v for k, v in lobby.items() if k != "resigned"}
    assert policy.dropped_before_play(no_resign, drop, set()) is False
