"""A finished tournament match becomes its table's result once, and the last one of a round pairs the
next round and creates its matches."""

import uuid

import pytest

from games.application.services import Actor, match_submit_system_command

from games.tournaments import services
from games.tournaments.matches import tournament_create_matches
from games.tournaments.models import Tournament, TournamentRecord, TournamentTable
from games.tournaments.outcomes import places_from_winners
from games.tournaments.policies import tournament_match_finished


def test_winning_seats_become_places():
    assert places_from_winners(["a", "b"], False, [1]) == {"a": 2, "b": 1}
    assert places_from_winners(["a", "b"], False, []) == {"a": 1, "b": 1}  # a draw
    assert places_from_winners(["a", "b", "c", "d"], False, [2]) == {"a": 2, "b": 2, "c": 1, "d": 2}
    assert places_from_winners(["a", "b", "c"], False, [0, 2]) == {"a": 1, "b": 3, "c": 1}
    assert places_from_winners(["t1", "t2"], True, [1, 3]) == {"t1": 2, "t2": 1}  # 2v2: seats 1+3 are team 2
    with pytest.raises(ValueError):
        places_from_winners(["a", "b"], False, [2])


def _end(match_id, task="test"):
    """End a match by the engine's SYSTEM time_limit (a test database never commits, so the
    MatchFinished reaction is called by hand below, as the worker would)."""
    match_submit_system_command(match_id=match_id, actor=Actor(kind="worker", extra={"task": task}),
                                command_id=uuid.uuid4(), type_="time_limit", args={})


@pytest.mark.django_db
def test_finished_matches_complete_the_round_then_pair_and_create_the_next(make_user):
    organizer = make_user(is_staff=True)
    t = services.tournament_create(creator=organizer, name="Cup", game="yashima", format="swiss", table_size=2,
                                   rounds=2, round_minutes=30, match_options={"turn_seconds": 60})
    for _ in range(4):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_create_matches(tournament_id=t.pk, round_no=1)
    first, second = TournamentTable.objects.filter(tournament=t, round=1).order_by("table")
    assert tournament_match_finished(match_id=first.match_id) is None  # not finished yet: nothing to count
    _end(first.match_id)
    outcome = tournament_match_finished(match_id=first.match_id)
    assert outcome == {"round": 1, "table": 1, "places": {first.entrant_ids[0]: 1, first.entrant_ids[1]: 1},
                       "by": "play", "counted": True, "paired": []}  # equal sides at the start: a draw
    assert tournament_match_finished(match_id=first.match_id)["counted"] is False  # duplicate delivery
    _end(second.match_id)
    assert tournament_match_finished(match_id=second.match_id)["paired"] == [2]
    round_two = TournamentTable.objects.filter(tournament=t, round=2)
    assert round_two.count() == 2 and all(tt.match_id for tt in round_two)
    for tt in round_two:
        _end(tt.match_id)
        tournament_match_finished(match_id=tt.match_id)
    t.refresh_from_db()
    assert t.status == "finished"
    assert TournamentRecord.objects.filter(tournament=t, kind="result").count() == 4
    assert tournament_match_finished(match_id="00000000-0000-4000-8000-000000000000") is None
    assert Tournament.objects.get(pk=t.pk).round == 2
