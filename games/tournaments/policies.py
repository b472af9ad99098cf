"""Reactions that run a tournament (Django), called by the Celery tasks of ``workers`` (thin wrappers):

- ``tournament_match_finished``: a tournament match's ``MatchFinished`` was committed -> its table's
  result is counted once, and when that completes the round the next one is paired and its matches
  created (``tournament_advance``), or the tournament finishes;
- ``tournament_advance``: bring a running tournament up to date from the database alone: count the
  result of every finished match not yet counted, create the missing matches of the current round,
  pair the next round when the current one is complete, and repeat (a round of byes only is complete
  at once). It is also what the start and the beat backstop call;
- ``tournament_start_due``: start a tournament whose ``starts_at`` has passed;
- ``tournament_round_time_up``: a round's time limit passed -> the SYSTEM ``time_limit`` command ends
  every unfinished match of the round (its result then comes back through ``MatchFinished``, ``by: time``).

Every step is idempotent, so a duplicated delivery, a redelivery after a worker was killed, or the
beat sweep racing an event-driven task changes nothing twice: the result, pairing and table unique
constraints of ``TournamentRecord``/``TournamentTable`` are the last word, and each step re-reads the
log under the tournament's row lock.
"""

from __future__ import annotations

import uuid

from django.utils import timezone

from games.application.errors import PlatformError
from games.application.services import Actor as MatchActor
from games.application.services import match_submit_system_command, server_command_id
from games.eventstore.models import MatchEvent
from games.kernel import RuleViolation
from games.tournaments.matches import tournament_create_matches
from games.tournaments.models import RUNNING, RoundDeadline, Tournament, TournamentRecord, TournamentTable
from games.tournaments.outcomes import places_from_winners
from games.tournaments.services import (
    Actor,
    state_of,
    tournament_pair_next_round,
    tournament_record_result,
    tournament_start,
    tournament_start_scheduled,
)

FINISHED_EVENT = "MatchFinished"
TIME_LIMIT = "time_limit"  # the engines' SYSTEM-only command (docs/tournaments.md, "Round time limits")
WORKER = Actor("worker", task="tournament")


def finish_of(match_id) -> tuple[list[int], str] | None:
    """A finished match's winning seats and how it ended (``time`` when the worker's ``time_limit``
    command finished it, else ``play``), read from its log; None while it is not finished."""
    row = MatchEvent.objects.filter(match_id=match_id, type=FINISHED_EVENT).only("payload", "actor").first()
    if row is None:
        return None
    by = "time" if (row.actor or {}).get("purpose") == TIME_LIMIT else "play"
    return list(row.payload.get("winners") or []), by


def tournament_match_finished(*, match_id, winners: list[int] | None = None, by: str = "play",
                              actor: Actor | None = None, between=None, inside=None) -> dict | None:
    """Record the result of the tournament table played as ``match_id`` (None if it is no tournament
    match or not finished), then advance the tournament if this finished the current round.

    The outcome is read from the match log (its ``MatchFinished`` and the actor that finished it);
    a caller that already holds it (a replay of a recorded outcome) passes ``winners`` and ``by``.
    ``between`` and ``inside`` are passed on to ``tournament_advance``."""
    table = TournamentTable.objects.select_related("tournament").filter(match_id=match_id).first()
    if table is None:
        return None
    if winners is None:
        finish = finish_of(match_id)
        if finish is None:
            return None
        winners, by = finish
    actor = actor or WORKER
    places = places_from_winners(list(table.entrant_ids), table.tournament.teams, winners)
    counted = tournament_record_result(tournament_id=table.tournament_id, round=table.round, table=table.table,
                                       places=places, by=by, actor=actor)
    paired = tournament_advance(tournament_id=table.tournament_id, actor=actor, between=between, inside=inside)
    return {"round": table.round, "table": table.table, "places": places, "by": by, "counted": counted,
            "paired": paired}


def tournament_advance(*, tournament_id, actor: Actor | None = None, between=None, inside=None) -> list[int]:
    """Count uncounted finished matches, create missing matches, pair every round that is due; returns
    the rounds paired by this call. ``between()``, if given, runs before matches are created, so also
    between pairing a round and creating its matches; ``inside()`` runs inside a pairing's transaction
    before it commits (the workers' chaos delays, to test a worker killed right there)."""
    actor = actor or WORKER
    paired_rounds = []
    while True:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None or tournament.status != RUNNING:
            return paired_rounds
        _count_finished(tournament, actor)
        if tournament.round:
            if between is not None:
                between()
            tournament_create_matches(tournament_id=tournament_id, round_no=tournament.round)
        paired = tournament_pair_next_round(tournament_id=tournament_id, actor=actor, inside=inside)
        if paired is None:
            return paired_rounds
        paired_rounds.append(paired.round)


def _count_finished(tournament: Tournament, actor: Actor) -> None:
    """The backstop: a finished match of the current round whose result is not in the log yet (its
    reaction was lost) is counted now. Which tables have a result is read from the records' own
    columns (no fold); ``tournament_record_result`` checks each against the fold as usual."""
    if not tournament.round:
        return
    decided = set(TournamentRecord.objects.filter(tournament=tournament, round=tournament.round,
                                                  kind__in=("result", "overridden")).values_list("table", flat=True))
    open_tables = (TournamentTable.objects.filter(tournament=tournament, round=tournament.round, match__isnull=False)
                   .exclude(table__in=decided))
    for table in open_tables:
        finish = finish_of(table.match_id)
        if finish is None:
            continue
        winners, by = finish
        places = places_from_winners(list(table.entrant_ids), tournament.teams, winners)
        tournament_record_result(tournament_id=tournament.pk, round=tournament.round, table=table.table, places=places,
                                 by=by, actor=actor)


def tournament_start_and_play(*, tournament_id, user):
    """An organizer starts the tournament now (``services.tournament_start``), then round 1's matches are
    created and started: what the API's start endpoint calls."""
    tournament = tournament_start(tournament_id=tournament_id, user=user)
    tournament_advance(tournament_id=tournament_id)
    return tournament


def tournament_start_due(*, tournament_id, inside=None) -> bool:
    """Start the tournament if its ``starts_at`` has passed, then create round 1's matches. ``inside``:
    as for ``tournament_advance`` (round 1's pairing is part of the start's transaction)."""
    started = tournament_start_scheduled(tournament_id=tournament_id, inside=inside)
    if started is None:
        return False
    tournament_advance(tournament_id=tournament_id, inside=inside)
    return True


def time_limit_command_id(match_id) -> uuid.UUID:
    """One ``time_limit`` command per match, whoever submits it and however often (keyed: no player
    can take the id first, services.server_command_id)."""
    return server_command_id(f"{match_id}:{TIME_LIMIT}")


def tournament_round_time_up(*, tournament_id, round_no: int, task: str = "tournament_round_time",
                             between=None, inside=None) -> list[str]:
    """The round's time ran out: end each of its unfinished matches with the engine's SYSTEM
    ``time_limit`` command (recorded in the match log; its ``MatchFinished`` then counts the result
    as ``by: time``). Returns the matches ended by this call."""
    deadline = RoundDeadline.objects.filter(tournament_id=tournament_id, round=round_no).first()
    if deadline is None or deadline.due_at is None or deadline.due_at > timezone.now():
        return []  # not due, or the organizer has the round clock paused
    state = state_of(tournament_id)
    if round_no != state.current_round:
        return []
    results = state.rounds[round_no - 1].results
    ended = []
    actor = MatchActor(kind="worker", extra={"task": task, "purpose": TIME_LIMIT})
    for table in TournamentTable.objects.filter(tournament_id=tournament_id, round=round_no, match__isnull=False):
        if table.table in results or finish_of(table.match_id) is not None:
            continue
        try:
            result = match_submit_system_command(match_id=table.match_id, actor=actor,
                                                 command_id=time_limit_command_id(table.match_id),
                                                 type_=TIME_LIMIT, args={})
        except (RuleViolation, PlatformError):
            continue  # finished meanwhile (game_over / match_not_active): its own result counts
        if not result.replayed:
            ended.append(str(table.match_id))
    tournament_advance(tournament_id=tournament_id, between=between, inside=inside)
    return ended
