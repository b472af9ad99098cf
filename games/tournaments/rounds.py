"""The next round of any format, as a ``Paired`` record (PURE): the one entry point the services call.

``next_pairing(settings, state)`` returns the record for round ``state.current_round + 1``, or None
when the tournament is over; it raises ``TournamentError`` while a round is still being played.
``planned_rounds`` says how many rounds a format plays for a field of n.
"""

from __future__ import annotations

import math
from collections import Counter

from games.tournaments import elimination, pods, roundrobin, swiss
from games.tournaments.records import Paired, Settings, Table, TournamentError
from games.tournaments.standings import ELIMINATION, advancing, compute, histories
from games.tournaments.state import State

SWISS = "swiss"
ROUND_ROBIN = "round_robin"


def default_swiss_rounds(n: int) -> int:
    """ceil(log2 n), at least 1: enough rounds for a sole undefeated 2-player winner."""
    return max(1, math.ceil(math.log2(n))) if n > 1 else 1


def swiss_rounds(settings: Settings, n: int) -> int:
    return settings.rounds or default_swiss_rounds(n)


def planned_rounds(settings: Settings, n: int) -> int:
    if settings.format == SWISS:
        return swiss_rounds(settings, n)
    if settings.format == ROUND_ROBIN:
        return roundrobin.rounds_needed(n)
    if settings.format == "single_elimination":
        return elimination.rounds_needed(n)
    return swiss_rounds(settings, n) + elimination.rounds_needed(min(settings.top_cut, n))


def next_pairing(settings: Settings, state: State) -> Paired | None:
    if not state.started:
        raise TournamentError("not_started", "the tournament has not started")
    if not state.round_complete():
        raise TournamentError("round_in_progress", f"round {state.current_round} is not complete")
    round_no = state.current_round + 1
    n = len(state.order)
    if settings.format == SWISS:
        return _swiss(settings, state, round_no) if round_no <= swiss_rounds(settings, n) else None
    if settings.format == ROUND_ROBIN:
        return _round_robin(state, round_no) if round_no <= roundrobin.rounds_needed(n) else None
    if settings.format == "single_elimination":
        return _elimination(state, round_no, list(state.order))
    if round_no <= swiss_rounds(settings, n):
        return _swiss(settings, state, round_no)
    return _elimination(state, round_no, None, settings)


def _paired(round_no: int, stage: str, tables, seeds=()) -> Paired | None:
    if not tables:
        return None
    return Paired(round_no, stage, tuple(Table(i + 1, tuple(t)) for i, t in enumerate(tables)), tuple(seeds))


def swiss_candidates(settings: Settings, state: State) -> list[swiss.Candidate]:
    """Active entrants best first (Swiss points, then seeding), with their byes, opponents and first seats."""
    hist = histories(settings, state)
    firsts = Counter(t.entrant_ids[0] for r in state.rounds for t in r.tables.values() if len(t.entrant_ids) == 2)
    seed_index = {e: i for i, e in enumerate(state.order)}
    stages = {SWISS}
    active = sorted(state.active, key=lambda e: (-hist[e].points(stages), seed_index[e]))
    return [swiss.Candidate(e, hist[e].points(stages), hist[e].byes, Counter(hist[e].met), firsts[e]) for e in active]


def _swiss(settings: Settings, state: State, round_no: int) -> Paired | None:
    candidates = swiss_candidates(settings, state)
    if settings.is_pods:
        tables = pods.pair(candidates, settings.entrants_per_table).tables
    else:
        result = swiss.pair(candidates)
        tables = list(result.tables) + ([(result.bye,)] if result.bye else [])
    return _paired(round_no, SWISS, tables)


def _round_robin(state: State, round_no: int) -> Paired | None:
    tables = []
    for table in roundrobin.berger_round(list(state.order), round_no):
        present = tuple(e for e in table if e not in state.dropped)
        if present:
            tables.append(present)
    # a game that lost an entrant to a drop becomes a bye for the other: byes go last
    tables.sort(key=lambda t: len(t) == 1)
    return _paired(round_no, ROUND_ROBIN, tables)


def _elimination(state: State, round_no: int, seeds: list[str] | None, settings: Settings | None = None):
    played = [r for r in state.rounds if r.stage == ELIMINATION]
    if played:
        seeds = list(played[0].seeds)
    elif seeds is None:  # the top cut: the best of the Swiss standings still in the event
        ranked = [s.entrant_id for s in compute(settings, state) if not s.dropped]
        seeds = ranked[: settings.top_cut]
    seed_index = {e: i for i, e in enumerate(seeds)}
    slots = elimination.first_slots(seeds)
    for rnd in played:
        table_of = {e: t for t in rnd.tables.values() for e in t.entrant_ids}

        def winner_of(members, rnd=rnd, table_of=table_of):
            tables = {table_of[e].table: table_of[e] for e in members if e in table_of}
            if not tables:  # every entrant of this slot pair was dropped before the round
                return None
            (table,) = tables.values()
            return advancing(rnd.result_of(table).places, seed_index)

        slots = elimination.advance(slots, winner_of)
    if len(slots) <= 1:
        return None
    slots = [None if s in state.dropped else s for s in slots]
    return _paired(round_no, ELIMINATION, elimination.pair_slots(slots), seeds if not played else ())
