"""Idempotency of the schedule: duplicated task deliveries, a sweep racing the event-driven reaction,
and a worker dying half-way through pairing leave one pairing per round, one match per table and one
counted result per table (the unique constraints and the re-read log, not luck)."""

from collections import Counter
from datetime import timedelta

import pytest
from django.db import IntegrityError
from django.utils import timezone

from games.eventstore.models import MatchEvent
from games.tournaments import policies, services
from games.tournaments.models import RoundDeadline, TournamentRecord, TournamentTable
from workers import tasks
from workers.models import DeadLetter

from .play import round_matches

pytestmark = pytest.mark.django_db(transaction=True)


def _counts(t):
    rows = TournamentRecord.objects.filter(tournament=t)
    paired = Counter(rows.filter(kind="paired").values_list("round", flat=True))
    results = Counter(rows.filter(kind="result").values_list("round", "table"))
    tables = Counter(TournamentTable.objects.filter(tournament=t).values_list("round", "table"))
    return paired, results, tables


def _expire(t):
    RoundDeadline.objects.filter(tournament=t).update(due_at=timezone.now() - timedelta(seconds=1))


def test_duplicated_deliveries_change_nothing(four_player_cup):
    organizer, t = four_player_cup
    policies.tournament_start_and_play(tournament_id=t.pk, user=organizer)
    first_round = round_matches(t.pk, 1)
    _expire(t)
    for _ in range(2):  # the round's time task delivered twice, then the sweep on top
        assert tasks.tournament_round_time_task.apply(args=(str(t.pk), 1)).get() in ("ended 2", "ended 0")
    tasks.sweep_tournaments()
    for match_id in first_round:  # every MatchFinished reaction delivered twice more
        for _ in range(2):
            assert tasks.tournament_match_finished_task.apply(args=(str(match_id),)).get() == "repeat"
    for _ in range(3):
        assert tasks.tournament_advance_task.apply(args=(str(t.pk),)).get() == "idle"
    paired, results, tables = _counts(t)
    assert paired == {1: 1, 2: 1} and set(results.values()) == {1} and len(results) == 2
    assert set(tables.values()) == {1} and len(round_matches(t.pk, 2)) == 2
    for match_id in first_round:  # one time_limit per match, whoever submitted it
        assert MatchEvent.objects.filter(match_id=match_id, type="MatchFinished").count() == 1


def test_a_worker_killed_inside_the_pairing_transaction_leaves_no_half_round(four_player_cup, monkeypatch):
    organizer, t = four_player_cup
    real = TournamentTable.objects.bulk_create
    dead = {"on": False}

    def dies(objs, *args, **kwargs):
        if dead["on"]:  # every worker dies after appending round 2's paired record, before its tables
            raise IntegrityError("worker lost")
        return real(objs, *args, **kwargs)

    monkeypatch.setattr(TournamentTable.objects, "bulk_create", dies)
    policies.tournament_start_and_play(tournament_id=t.pk, user=organizer)
    _expire(t)
    dead["on"] = True
    tasks.sweep_tournaments()  # ends round 1; every pairing of round 2 dies and rolls back
    paired, results, _tables = _counts(t)
    assert paired == {1: 1} and len(results) == 2  # the results stand; nothing of round 2 survived
    dead["on"] = False
    tasks.tournament_advance_task.apply(args=(str(t.pk),))  # the redelivery
    tasks.tournament_advance_task.apply(args=(str(t.pk),))  # and a duplicate of it
    paired, _results, tables = _counts(t)
    assert paired == {1: 1, 2: 1} and set(tables.values()) == {1}
    assert len(round_matches(t.pk, 2)) == 2


def test_a_worker_killed_between_pairing_and_match_creation_is_finished_by_the_next_delivery(four_player_cup, monkeypatch):
    organizer, t = four_player_cup
    real = policies.tournament_create_matches
    dead = {"on": False}

    def dies(**kwargs):
        if dead["on"] and kwargs["round_no"] == 2:  # every worker dies right after pairing round 2
            raise RuntimeError("worker lost")
        return real(**kwargs)

    monkeypatch.setattr(policies, "tournament_create_matches", dies)
    policies.tournament_start_and_play(tournament_id=t.pk, user=organizer)
    _expire(t)
    dead["on"] = True
    tasks.sweep_tournaments()
    paired, _results, tables = _counts(t)
    assert paired == {1: 1, 2: 1} and round_matches(t.pk, 2) == []  # paired, but no match created yet
    dead["on"] = False
    tasks.sweep_tournaments()  # beat's backstop advances every running tournament
    tasks.sweep_tournaments()
    paired, _results, tables = _counts(t)
    assert paired == {1: 1, 2: 1} and set(tables.values()) == {1}
    assert len(round_matches(t.pk, 2)) == 2


def test_a_redelivered_match_finished_after_an_override_is_a_no_op_not_a_dead_letter(four_player_cup, make_user):
    """BUG-2: after a judge overrode a table, every later delivery of that match's MatchFinished
    reaction is a repeat (the judge's decision stands), never a refusal parked as a dead letter."""
    organizer, t = four_player_cup
    policies.tournament_start_and_play(tournament_id=t.pk, user=organizer)
    _expire(t)
    tasks.tournament_round_time_task.apply(args=(str(t.pk), 1))  # round 1 ends by time, round 2 is paired
    table = TournamentTable.objects.filter(tournament=t, round=1).order_by("table").first()
    counted = TournamentRecord.objects.get(tournament=t, kind="result", round=1, table=table.table)
    first, second = table.entrant_ids
    loser_first = {first: 2, second: 1} if counted.payload["places"] == {first: 1, second: 2} else {first: 1, second: 2}
    services.tournament_override(tournament_id=t.pk, user=make_user(is_staff=True), round=1, table=table.table,
                                 places=loser_first, reason="the clock was wrong")
    for _ in range(2):
        assert tasks.tournament_match_finished_task.apply(args=(str(table.match_id),)).get() == "repeat"
    assert not DeadLetter.objects.exists()
    state = services.state_of(t.pk)
    assert state.rounds[0].results[table.table].by == "judge"
    assert state.rounds[0].results[table.table].places == loser_first
