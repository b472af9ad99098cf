"""Fold a tournament's records into its state (PURE).

``fold(records)`` checks every record against what came before (a round is paired once and only after
the previous round is complete, a table's result is counted once, places name exactly the table's
entrants, a report names a player of its table and is resolved once, ...) and raises ``TournamentError`` on the first that breaks the rules, so a corrupt log
never yields standings. ``apply(state, record)`` is the same check for one new record, used by the
services before they append it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from games.tournaments.records import (
    EDITABLE_SETTINGS,
    RESULT_BY,
    TOO_FEW_ENTRANTS,
    Adjudicated,
    Cancelled,
    ClockPaused,
    ClockResumed,
    Dropped,
    Overridden,
    Paired,
    Registered,
    Reported,
    Result,
    SettingsChanged,
    SpectatorDelaySet,
    Started,
    Table,
    TournamentError,
    Withdrawn,
    check_spectator_delay,
)
from games.tournaments.scoring import validate_places


@dataclass(frozen=True)
class Entrant:
    entrant_id: str
    name: str
    user_ids: tuple = ()


@dataclass(frozen=True)
class TableResult:
    places: dict
    by: str
    reason: str = ""


OPEN, UPHELD, OVERRIDDEN = "open", "upheld", "overridden"  # a report's status


@dataclass(frozen=True)
class Report:
    """A player's report on a table, as the log knows it: who filed it, the match ``seq`` it is pinned
    to, and its status (open until a judge upholds or overrides the table's result in answer)."""

    report_id: int
    round: int
    table: int
    entrant_id: str
    seq: int
    status: str = OPEN


@dataclass
class Round:
    round: int
    stage: str
    tables: dict[int, Table]
    seeds: tuple[str, ...] = ()
    results: dict[int, TableResult] = field(default_factory=dict)
    adjudications: list = field(default_factory=list)
    reports: dict[int, Report] = field(default_factory=dict)  # report id -> report, in filing order
    clock_paused: bool = False

    @property
    def complete(self) -> bool:
        return all(t.is_bye or number in self.results for number, t in self.tables.items())

    def result_of(self, table: Table) -> TableResult | None:
        """A finished table's result; a bye is its own result (a sole first place)."""
        if table.is_bye:
            return TableResult(places={table.entrant_ids[0]: 1}, by="bye")
        return self.results.get(table.table)


@dataclass
class State:
    entrants: dict[str, Entrant] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    started: bool = False
    dropped: set[str] = field(default_factory=set)
    rounds: list[Round] = field(default_factory=list)
    spectator_delay: tuple[int, int] | None = None  # (seconds, turns) as an organizer last set them
    settings: dict = field(default_factory=dict)  # the pre-start settings changed: name -> last value (JSON)
    start_cleared: bool = False  # the last start time passed with too few entrants (and was cleared)
    cancelled: bool = False
    cancel_reason: str = ""

    @property
    def active(self) -> list[str]:
        """Entrants still to be paired, in seeding order."""
        return [e for e in self.order if e not in self.dropped]

    @property
    def current_round(self) -> int:
        return len(self.rounds)

    def round_complete(self) -> bool:
        return not self.rounds or self.rounds[-1].complete

    @property
    def round_paused(self) -> bool:
        """The organizer has the clock of the round being played paused: the tournament does not move
        on (the next round is not paired, the event does not end) until they resume it, even once
        every table of the round has its result."""
        return bool(self.rounds) and self.rounds[-1].clock_paused

    def reports(self) -> list[Report]:
        """Every report filed, in filing order (rounds first)."""
        return [r for rnd in self.rounds for r in rnd.reports.values()]


def fold(records, state: State | None = None) -> State:
    state = state or State()
    for record in records:
        apply(state, record)
    return state


def apply(state: State, record) -> State:
    """Check one record against the state and apply it in place (returns the state)."""
    handler = _HANDLERS.get(type(record))
    if handler is None:
        raise TournamentError("invalid_record", f"not a tournament record: {type(record).__name__}")
    if state.cancelled:
        raise TournamentError("tournament_cancelled", "the tournament was cancelled")
    handler(state, record)
    return state


def _registered(state: State, r: Registered):
    if state.started:
        raise TournamentError("registration_closed", "the tournament has started")
    if r.entrant_id in state.entrants:
        raise TournamentError("already_registered", f"entrant {r.entrant_id} is already registered")
    state.entrants[r.entrant_id] = Entrant(r.entrant_id, r.name, tuple(r.user_ids))


def _withdrawn(state: State, r: Withdrawn):
    if state.started:
        raise TournamentError("registration_closed", "after the start an entrant is dropped, not withdrawn")
    if r.entrant_id not in state.entrants:
        raise TournamentError("not_registered", f"entrant {r.entrant_id} is not registered")
    del state.entrants[r.entrant_id]


def _started(state: State, r: Started):
    if state.started:
        raise TournamentError("already_started", "the tournament has already started")
    if sorted(r.order) != sorted(state.entrants) or len(set(r.order)) != len(r.order):
        raise TournamentError("invalid_seeding", "the seeding must list every registered entrant once")
    state.order = tuple(r.order)
    state.started = True


def _paired(state: State, r: Paired):
    if not state.started:
        raise TournamentError("not_started", "the tournament has not started")
    if r.round != state.current_round + 1:
        raise TournamentError("round_already_paired" if r.round <= state.current_round else "invalid_round",
                              f"round {r.round} cannot be paired now (next is {state.current_round + 1})")
    if not state.round_complete():
        raise TournamentError("round_in_progress", f"round {state.current_round} is not complete")
    seated = [e for t in r.tables for e in t.entrant_ids]
    if len(seated) != len(set(seated)):
        raise TournamentError("invalid_pairing", "an entrant is seated twice in one round")
    unknown = [e for e in seated if e not in state.entrants or e in state.dropped]
    if unknown:
        raise TournamentError("invalid_pairing", f"not active entrants: {', '.join(unknown)}")
    if [t.table for t in r.tables] != list(range(1, len(r.tables) + 1)):
        raise TournamentError("invalid_pairing", "tables are numbered 1..n in order")
    if any(not t.entrant_ids for t in r.tables):
        raise TournamentError("invalid_pairing", "a table seats at least one entrant")
    state.rounds.append(Round(r.round, r.stage, {t.table: t for t in r.tables}, tuple(r.seeds)))


def _table(state: State, round_no: int, table_no: int) -> tuple[Round, Table]:
    if not 1 <= round_no <= state.current_round:
        raise TournamentError("unknown_table", f"round {round_no} has not been paired")
    rnd = state.rounds[round_no - 1]
    table = rnd.tables.get(table_no)
    if table is None:
        raise TournamentError("unknown_table", f"round {round_no} has no table {table_no}")
    if table.is_bye:
        raise TournamentError("bye_table", "a bye has no result to record")
    return rnd, table


def _result(state: State, r: Result):
    rnd, table = _table(state, r.round, r.table)
    if r.table in rnd.results:
        raise TournamentError("result_already_recorded", f"round {r.round} table {r.table} already has a result")
    if r.by not in RESULT_BY:
        raise TournamentError("invalid_result", f"by must be one of {', '.join(RESULT_BY)}")
    validate_places(table.entrant_ids, r.places)
    rnd.results[r.table] = TableResult(dict(r.places), r.by)


def _dropped(state: State, r: Dropped):
    if not state.started:
        raise TournamentError("not_started", "before the start an entrant withdraws")
    if r.entrant_id not in state.entrants:
        raise TournamentError("not_registered", f"entrant {r.entrant_id} is not in the tournament")
    if r.entrant_id in state.dropped:
        raise TournamentError("already_dropped", f"entrant {r.entrant_id} has already been dropped")
    state.dropped.add(r.entrant_id)


def _reported(state: State, r: Reported):
    rnd, table = _table(state, r.round, r.table)
    if r.entrant_id not in table.entrant_ids:
        raise TournamentError("not_a_player", f"entrant {r.entrant_id} does not play round {r.round} table {r.table}")
    if not isinstance(r.report_id, int) or any(r.report_id in x.reports for x in state.rounds):
        raise TournamentError("invalid_report", f"report {r.report_id!r} is already recorded")
    if not isinstance(r.seq, int) or isinstance(r.seq, bool) or r.seq < 1:
        raise TournamentError("invalid_seq", "a report is pinned to a seq of the match log (1 or more)")
    rnd.reports[r.report_id] = Report(r.report_id, r.round, r.table, r.entrant_id, r.seq)


def _answer(rnd: Round, r, status: str) -> None:
    """A judge's decision that names a report resolves it: it must be an open report of that table."""
    if r.report_id is None:
        return
    report = rnd.reports.get(r.report_id)
    if report is None or report.table != r.table:
        raise TournamentError("unknown_report", f"round {r.round} table {r.table} has no report {r.report_id}")
    if report.status != OPEN:
        raise TournamentError("already_resolved", f"report {r.report_id} has been resolved")
    rnd.reports[r.report_id] = replace(report, status=status)


def _adjudicated(state: State, r: Adjudicated):
    rnd, _table_ = _table(state, r.round, r.table)
    if r.table not in rnd.results:
        raise TournamentError("no_result", "only a recorded result can be upheld")
    _answer(rnd, r, UPHELD)
    rnd.adjudications.append(r)


def _overridden(state: State, r: Overridden):
    rnd, table = _table(state, r.round, r.table)
    if not r.reason.strip():
        raise TournamentError("reason_required", "an override needs a written reason")
    validate_places(table.entrant_ids, r.places)
    _answer(rnd, r, OVERRIDDEN)
    rnd.results[r.table] = TableResult(dict(r.places), "judge", r.reason)
    rnd.adjudications.append(r)


def _clock_round(state: State, round_no) -> Round:
    if not state.rounds or round_no != state.current_round:
        raise TournamentError("not_current_round", "only the clock of the round being played can be paused or resumed")
    return state.rounds[-1]


def _clock_paused(state: State, r: ClockPaused):
    rnd = _clock_round(state, r.round)
    if rnd.complete:
        raise TournamentError("round_over", f"round {r.round} is over: its clock has stopped")
    if rnd.clock_paused:
        raise TournamentError("already_paused", f"the clock of round {r.round} is already paused")
    rnd.clock_paused = True


def _clock_resumed(state: State, r: ClockResumed):
    """A paused round is resumed even once it is over: its last match ended during the pause, and the
    next round waits for this resume to be paired."""
    rnd = _clock_round(state, r.round)
    if not rnd.clock_paused:
        if rnd.complete:
            raise TournamentError("round_over", f"round {r.round} is over: its clock has stopped")
        raise TournamentError("not_paused", f"the clock of round {r.round} is running")
    rnd.clock_paused = False


def _spectator_delay_set(state: State, r: SpectatorDelaySet):
    check_spectator_delay(r.seconds, r.turns)
    state.spectator_delay = (r.seconds, r.turns)


def _before_start(state: State, what: str) -> None:
    if state.started:
        raise TournamentError("already_started", f"the tournament has started: {what} only before the start")


def _settings_changed(state: State, r: SettingsChanged):
    _before_start(state, "its settings change")
    if not isinstance(r.changes, dict) or not r.changes or set(r.changes) - set(EDITABLE_SETTINGS):
        raise TournamentError("invalid_settings", f"only {', '.join(EDITABLE_SETTINGS)} change before the start")
    state.settings.update(r.changes)
    if "starts_at" in r.changes:
        state.start_cleared = r.reason == TOO_FEW_ENTRANTS


def _cancelled(state: State, r: Cancelled):
    _before_start(state, "it can be cancelled")
    state.cancelled = True
    state.cancel_reason = r.reason


_HANDLERS = {
    Registered: _registered,
    Withdrawn: _withdrawn,
    Started: _started,
    Paired: _paired,
    Result: _result,
    Dropped: _dropped,
    Reported: _reported,
    Adjudicated: _adjudicated,
    Overridden: _overridden,
    ClockPaused: _clock_paused,
    ClockResumed: _clock_resumed,
    SpectatorDelaySet: _spectator_delay_set,
    SettingsChanged: _settings_changed,
    Cancelled: _cancelled,
}

__all__ = ["OPEN", "OVERRIDDEN", "UPHELD", "Entrant", "Report", "Round", "State", "TableResult", "apply", "fold"]
