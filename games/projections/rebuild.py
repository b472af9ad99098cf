"""Rebuild every projection from the event stream and compare it with what is stored.

Read models are derived data: ``MatchSummary`` (+ players), ``MatchDeadline`` and ``PlayerRecord``
are recomputed here with the very functions the write path uses incrementally
(``updaters.summary_values`` / ``deadline_values`` / ``records_delta``), from a fold of every event
from scratch (no snapshot, no cache). Stored snapshots are checked against the same fold: they are a
cache, and a cache that disagrees with the log is a bug worth seeing.

The comparison functions (``compare_*``, ``first_difference``) are pure; ``match_rebuild`` and
``records_stored`` read the database; ``check`` drives a whole run (and, with ``fix=True``, rewrites
what differs). ``manage.py rebuild_projections`` is a thin wrapper around ``check``.
"""

import json
import uuid
from bisect import bisect_left
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, NamedTuple

import orjson
from django.db import transaction

from games.application import selectors
from games.application.errors import MatchNotFound
from games.application.lobby import FINISHED, PLATFORM_EVENTS, SEAT_TAKEN, aggregate_fold
from games.eventstore import sql, store
from games.eventstore.codec import json_decode
from games.eventstore.models import Match, MatchEvent, Snapshot
from games.kernel import canonical
from games.kernel.canonical import MISSING, first_difference, normalise

from .models import MatchDeadline, MatchSummary, PlayerRecord
from .updaters import deadline_values, deadline_write, records_delta, summary_values, summary_write


# Checkers of read models outside ``games`` (the campaigns app registers its own when Django
# starts: ``games`` never imports it). Each is ``fn(fix) -> (differences, fixed)``.
_checkers = []


def add_checker(fn) -> None:
    if fn not in _checkers:
        _checkers.append(fn)


# -- the result of a run --------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    match_id: str | None  # None for per-user projections (player records)
    projection: str  # summary | deadline | snapshot | player_record | stream
    field: str
    stored: Any
    rebuilt: Any
    fixable: bool = True
    key: Any = field(default=None, compare=False)  # snapshot seq / (user_id, game) for --fix

    def line(self) -> str:
        return (f"{self.match_id or '-'} {self.projection} {self.field}: "
                f"stored={_show(self.stored)} rebuilt={_show(self.rebuilt)}")


@dataclass
class Report:
    matches: int = 0
    differences: list = field(default_factory=list)
    fixed: int = 0

    @property
    def clean(self) -> bool:
        return not self.differences

    def lines(self) -> list[str]:
        return [d.line() for d in self.differences]


@dataclass
class MatchRebuild:
    """A match's projections as the log says they should be."""

    match_id: str
    seq: int  # last event's seq
    at: Any  # last event's time
    state: dict | None
    summary: dict | None = None
    players: list = field(default_factory=list)
    deadline: dict | None = None
    records: list = field(default_factory=list)  # [(user_id, game, won)] if the match finished
    error: str | None = None
    folded: dict = field(default_factory=dict)  # {seq: state_text(state)} at the stored snapshots' seqs
    seated: set = field(default_factory=set)  # every user who ever took a seat (SeatTaken)


# -- pure comparisons -------------------------------------------------------------------------


def _show(value) -> str:
    if value is MISSING:
        return MISSING
    if hasattr(value, "isoformat"):
        return value.isoformat()
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 300 else text[:297] + "..."


_TEXT_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def state_text(value) -> bytes:
    """``value`` as JSON text with sorted keys, the way ``normalise`` sees it (tuples as arrays, keys
    as strings): equal texts are equal JSON values, so comparing them is the fast path of a
    comparison (``first_difference`` runs only when they differ). The standard library writes what
    orjson refuses (integers past 64 bits)."""
    try:
        return orjson.dumps(value, option=_TEXT_OPTIONS, default=str)
    except TypeError:
        return json.dumps(value, sort_keys=True, default=str).encode()


def compare_summary(match_id: str, stored: dict | None, stored_players: list, rebuilt: MatchRebuild) -> list[Difference]:
    if rebuilt.summary is None:
        return []
    if stored is None:
        return [Difference(match_id, "summary", "*", MISSING, rebuilt.summary)]
    out = []
    for key, value in rebuilt.summary.items():
        if normalise(stored.get(key)) != normalise(value):
            out.append(Difference(match_id, "summary", key, stored.get(key), value))
    if sorted(stored_players) != sorted(rebuilt.players):
        out.append(Difference(match_id, "summary", "players", sorted(stored_players), sorted(rebuilt.players)))
    return out


def compare_deadline(match_id: str, stored: dict | None, rebuilt: dict | None) -> list[Difference]:
    if stored is None and rebuilt is None:
        return []
    if stored is None or rebuilt is None:
        return [Difference(match_id, "deadline", "*", stored or MISSING, rebuilt or MISSING)]
    out = []
    for key in ("seq", "seats", "due_at"):
        a, b = stored[key], rebuilt[key]
        if (a != b) if key == "due_at" else (normalise(a) != normalise(b)):
            out.append(Difference(match_id, "deadline", key, a, b))
    return out


def compare_snapshots(match_id: str, stored: dict[int, Any], folded: dict[int, bytes], head: int) -> list[Difference]:
    """``stored``: {seq: state}; ``folded``: {seq: ``state_text`` of the fold there}. A snapshot
    past the head cannot be checked."""
    out = []
    for seq in sorted(stored):
        if seq > head or seq not in folded:
            out.append(Difference(match_id, "snapshot", f"seq={seq}", "present", f"no event {seq} (head {head})", key=seq))
            continue
        if state_text(stored[seq]) == folded[seq]:
            continue
        found = first_difference(normalise(stored[seq]), normalise(json_decode(folded[seq])))
        if found:
            path, a, b = found
            out.append(Difference(match_id, "snapshot", f"seq={seq} {path}", a, b, key=seq))
    return out


def records_totals(contributions) -> dict[tuple[int, str], dict]:
    """{(user_id, game): {"played", "won"}} from [(user_id, game, won 0/1)]."""
    totals: dict = {}
    for user_id, game, won in contributions:
        row = totals.setdefault((user_id, game), {"played": 0, "won": 0})
        row["played"] += 1
        row["won"] += won
    return totals


def compare_records(stored: dict, rebuilt: dict, user_ids=None) -> list[Difference]:
    """Both {(user_id, game): {"played", "won"}}; an absent row equals 0 played, 0 won.
    ``user_ids`` limits the comparison to those users (None: everyone)."""
    zero = {"played": 0, "won": 0}
    keys = set(stored) | set(rebuilt)
    if user_ids is not None:
        keys = {k for k in keys if k[0] in user_ids}
    out = []
    for user_id, game in sorted(keys, key=lambda k: (k[0], k[1])):
        a, b = stored.get((user_id, game), zero), rebuilt.get((user_id, game), zero)
        for key in ("played", "won"):
            if a[key] != b[key]:
                out.append(Difference(None, "player_record", f"user={user_id} game={game} {key}", a[key], b[key],
                                      key=(user_id, game)))
    return out


# -- reading the store ----------------------------------------------------------------------------


class Fold(NamedTuple):
    state: dict | None  # canonical
    seq: int  # the last event's
    folded: dict  # {seq: state_text(state)} at the checkpoints
    finished: bool  # a MatchFinished was seen
    seated: set  # every user who took a seat


def fold_from_scratch(match: Match, engine, checkpoints=(), rows=None) -> Fold:
    """One pass over the whole log, no snapshot, no cache. ``rows``: the log as
    ``store.events_query`` reads it, if the caller has read it."""
    if rows is None:
        events = store.events_for_fold(match, engine_upcasters=engine.upcasters)
    else:
        events = store.events_from_rows(rows, engine.upcasters)
    seqs = [ev["seq"] for ev in events] if checkpoints else []  # ascending (the log's order)
    folded, state, done = {}, None, 0
    for seq in sorted(set(checkpoints)):
        end = bisect_left(seqs, seq)
        if end == len(seqs) or seqs[end] != seq:
            continue
        state = aggregate_fold(engine, events[done:end + 1], state)
        done = end + 1
        folded[seq] = state_text(state)
    state = aggregate_fold(engine, events[done:], state)
    seated, finished = set(), False
    for ev in events:
        if ev["type"] in PLATFORM_EVENTS:
            if ev["type"] == SEAT_TAKEN and ev["payload"].get("user_id"):
                seated.add(ev["payload"]["user_id"])
            finished = finished or ev["type"] == FINISHED
    return Fold(None if state is None else canonical(state), events[-1]["seq"] if events else 0, folded, finished, seated)


_ANY_TIME = datetime(2000, 1, 1, tzinfo=timezone.utc)


def match_rebuild(match: Match, snapshot_seqs=(), rows=None) -> MatchRebuild:
    """Fold every event from scratch and derive each projection of ``match`` (and the fold at each
    of ``snapshot_seqs``, the stored snapshots', in the same pass). ``rows``: see
    ``fold_from_scratch``."""
    mid = str(match.pk)
    try:
        engine = selectors.engine_of(match)
        fold = fold_from_scratch(match, engine, snapshot_seqs, rows)
        if fold.state is None:
            return MatchRebuild(mid, 0, None, None, error="the match has no events")
        state = fold.state
        summary = summary_values(engine, state, fold.seq)
        # The last event's time only matters to a running clock (its due time): read it only then.
        at, last_type = store.event_last(match) if deadline_values(engine, state, fold.seq, _ANY_TIME) else (None, None)
        deadline = deadline_values(engine, state, fold.seq, at, last_type) if at is not None else None
    except Exception as exc:  # an unknown engine or an evolve bug: report it, don't crash the run
        return MatchRebuild(mid, 0, None, None, error=f"{type(exc).__name__}: {exc}")
    return MatchRebuild(
        match_id=mid, seq=fold.seq, at=at, state=state, summary=summary,
        players=sorted({s["user_id"] for s in summary["seats"] if s and s.get("user_id")}),
        deadline=deadline,
        records=records_delta(state, [{"type": FINISHED}]) if fold.finished else [],
        folded=fold.folded, seated=fold.seated,
    )


def snapshots_folded(match: Match, seqs) -> dict[int, Any]:
    """The from-scratch fold at each of ``seqs`` (one pass over the log)."""
    wanted = {s for s in seqs if 1 <= s <= match.head_seq}
    if not wanted:
        return {}
    folded = fold_from_scratch(match, selectors.engine_of(match), wanted).folded
    return {seq: json_decode(text) for seq, text in folded.items()}


def records_stored(user_ids=None) -> dict:
    """{(user_id, game): {"played", "won"}} as stored (of ``user_ids``, or everyone's)."""
    query = _records_query(user_ids)
    return _records_from_rows(sql.run(*query, fetch="all")) if query else {}


def _records_query(user_ids=None) -> tuple[str, list] | None:
    query, params = f"SELECT user_id, game, played, won FROM {PlayerRecord._meta.db_table}", []
    if user_ids is not None:
        params = sorted(user_ids)
        if not params:
            return None
        query += f" WHERE user_id IN ({', '.join(['%s'] * len(params))})"
    return query, params


def _records_from_rows(rows) -> dict:
    return {(user_id, game): {"played": played, "won": won} for user_id, game, played, won in rows}


def match_differences(match: Match, rebuilt: MatchRebuild, stored: "Stored") -> list[Difference]:
    mid = str(match.pk)
    if rebuilt.error:
        return [Difference(mid, "stream", "fold", "-", f"error: {rebuilt.error}", fixable=False)]
    out = []
    if match.head_seq != rebuilt.seq:
        out.append(Difference(mid, "stream", "head_seq", match.head_seq, rebuilt.seq, fixable=False))
    out += compare_summary(mid, stored.summary, stored.players, rebuilt)
    out += compare_deadline(mid, stored.deadline, rebuilt.deadline)
    snapshots = stored.snapshots
    if snapshots:
        out += compare_snapshots(mid, snapshots, rebuilt.folded, rebuilt.seq)
    return out


def _fix_match(match: Match, rebuilt: MatchRebuild, diffs: list[Difference]) -> int:
    projections = {d.projection for d in diffs if d.fixable}
    if "summary" in projections:
        summary_write(match, rebuilt.summary, rebuilt.at or store.event_last_at(match))
    if "deadline" in projections:
        deadline_write(match, rebuilt.deadline)
    if "snapshot" in projections:
        bad = {d.key for d in diffs if d.projection == "snapshot"}
        folded = snapshots_folded(match, bad)
        for seq in bad:
            if seq in folded:
                store.snapshot_save(match, seq, folded[seq])
            else:
                Snapshot.objects.filter(match=match, seq=seq).delete()
    return sum(1 for d in diffs if d.fixable)


def _fix_records(rebuilt: dict, diffs: list[Difference]) -> int:
    for user_id, game in {d.key for d in diffs}:
        totals = rebuilt.get((user_id, game))
        if totals is None:
            PlayerRecord.objects.filter(user_id=user_id, game=game).delete()
        else:
            PlayerRecord.objects.update_or_create(user_id=user_id, game=game, defaults=totals)
    return len(diffs)


def _seated_users(match_ids) -> set:
    if not match_ids:
        return set()
    payloads = MatchEvent.objects.filter(match_id__in=list(match_ids), type=SEAT_TAKEN).values_list("payload", flat=True)
    return {p.get("user_id") for p in payloads if isinstance(p, dict) and p.get("user_id")}


def _scope_read(user_ids, fix: bool) -> tuple[list, dict | None]:
    """(ids of every finished match any of ``user_ids`` took a seat in, their stored records; None
    with ``fix``, which reads them in the transaction that repairs them). The matches are found by
    the store's partial indexes on those two event types, never a scan of the whole log; both reads
    travel in one round trip on PostgreSQL."""
    matches = store.matches_with_query(SEAT_TAKEN, user_ids, FINISHED)
    records = None if fix else _records_query(user_ids)
    rows = sql.fetch_many([q for q in (matches, records) if q])
    found = store.matches_from_rows(rows.pop(0)) if matches else set()
    stored = None if fix else (_records_from_rows(rows.pop(0)) if records else {})
    return sorted(found, key=str), stored


class Stored(NamedTuple):
    """A match's projections as stored: {summary fields} or None, its players, {seq, seats,
    due_at} or None, {seq: state} of its snapshots."""

    summary: dict | None
    players: list
    deadline: dict | None
    snapshots: dict


def _read(pk, fix: bool, snapshot: bool = False) -> tuple[Match, Stored, list]:
    """The match row with its summary and clock rows, its players, its snapshots and its log, all
    as of one moment: one round trip on PostgreSQL (``sql.fetch_many``). With ``snapshot`` (a check
    on PostgreSQL in a transaction of its own) they are read from one REPEATABLE READ, READ ONLY
    snapshot: every command commits its events and projections together, so any snapshot is a
    consistent one, and writers are not held up. Otherwise the match row is locked for the
    transaction (a fix rewrites what differs under it; SQLite's IMMEDIATE transaction is its lock).
    Returns the match, its stored projections and the rows of its log."""
    try:
        mid = pk if isinstance(pk, uuid.UUID) else uuid.UUID(str(pk))
    except ValueError:
        raise MatchNotFound("no such match")
    db = sql.database()
    through = MatchSummary.players.through._meta
    lock = db.features.has_select_for_update and not snapshot
    statements = [
        ("SELECT m.game, m.engine_version, m.seed, m.head_seq, s.match_id, s.status, s.phase, s.seq, s.seats,"
         " s.awaiting, s.winners, d.match_id, d.seq, d.seats, d.due_at FROM eventstore_match m"
         f" LEFT JOIN {MatchSummary._meta.db_table} s ON s.match_id = m.id"
         f" LEFT JOIN {MatchDeadline._meta.db_table} d ON d.match_id = m.id"
         " WHERE m.id = %s" + (" FOR UPDATE OF m" if lock else ""),
         [sql.uuid_param(mid, db)]),
        (f"SELECT {through.get_field('user').column} FROM {through.db_table}"
         f" WHERE {through.get_field('matchsummary').column} = %s", [sql.uuid_param(mid, db)]),
        store.snapshots_query(mid),
        store.events_query(mid),
    ]
    if snapshot:
        # The first statement of the transaction (psycopg sends its BEGIN just before); read-only, the
        # transaction takes no transaction id and its commit writes nothing.
        statements.insert(0, ("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", []))
    found, players, snapshots, events = sql.fetch_many(statements, db=db)[-4:]
    if not found:
        raise MatchNotFound("no such match")
    game, version, seed, head, has_summary, status, phase, seq, seats, awaiting, winners, has_clock, *clock = found[0]
    match = Match.from_db(db.alias, ("id", "game", "engine_version", "seed", "head_seq"), (mid, game, version, seed, head))
    summary = None if has_summary is None else {
        "status": status, "phase": phase, "seq": seq, "seats": sql.json_value(seats),
        "awaiting": sql.json_value(awaiting), "winners": sql.json_value(winners)}
    deadline = None if has_clock is None else {
        "seq": clock[0], "seats": sql.json_value(clock[1]), "due_at": sql.datetime_value(clock[2], db)}
    stored = Stored(summary, [user_id for (user_id,) in players], deadline, store.snapshots_from_rows(snapshots))
    return match, stored, events


def _match_check(pk, fix: bool, report: Report) -> MatchRebuild:
    db = sql.database()
    # Inside a caller's transaction the check takes the row lock instead: a transaction's
    # isolation level is set before its first statement, and which that was is the caller's.
    snapshot = not fix and db.vendor == "postgresql" and not db.in_atomic_block
    with transaction.atomic():
        match, stored, rows = _read(pk, fix, snapshot)
        rebuilt = match_rebuild(match, stored.snapshots, rows)
        diffs = match_differences(match, rebuilt, stored)
        if fix and diffs:
            report.fixed += _fix_match(match, rebuilt, diffs)
    report.matches += 1
    report.differences += diffs
    return rebuilt


def check(match_id=None, *, fix: bool = False) -> Report:
    """Compare every projection (of one match, or all) with its rebuild; with ``fix``, rewrite
    what differs (each match under its row lock). Returns the differences found (before fixing)."""
    report = Report()
    contributions: dict[str, list] = {}
    failed = []  # matches that do not fold: their players' records cannot be recounted
    ids = [match_id] if match_id is not None else list(Match.objects.order_by("created_at", "pk").values_list("pk", flat=True))
    seated = set()
    for pk in ids:
        rebuilt = _match_check(pk, fix, report)
        contributions[rebuilt.match_id] = rebuilt.records
        seated |= rebuilt.seated
        if rebuilt.error:
            failed.append(pk)

    # Player records: recount MatchFinished across every match of each user in scope.
    if match_id is None:
        scope = None
    else:
        only = next(iter(contributions.values()))
        scope = (_seated_users(failed) if failed else seated) | {u for u, _, _ in only}
        others, stored_records = _scope_read(scope, fix)
        for pk in others:
            if str(pk) not in contributions:
                other = match_rebuild(Match.objects.get(pk=pk))
                contributions[str(pk)] = other.records
                if other.error:
                    failed.append(pk)
    rebuilt_records = records_totals(c for records in contributions.values() for c in records)
    if scope is not None:
        rebuilt_records = {k: v for k, v in rebuilt_records.items() if k[0] in scope}
    # A match that does not fold is already reported; recounting without it would report (and
    # --fix would "repair") its players' records wrongly, so those players are left alone.
    unverifiable = _seated_users(failed)
    with transaction.atomic() if fix else nullcontext():
        if fix or scope is None:
            stored_records = records_stored(scope)
        record_diffs = [d for d in compare_records(stored_records, rebuilt_records, scope) if d.key[0] not in unverifiable]
        if fix and record_diffs:
            report.fixed += _fix_records(rebuilt_records, record_diffs)
    report.differences += record_diffs
    if match_id is None:
        for checker in _checkers:
            diffs, fixed = checker(fix)
            report.differences += diffs
            report.fixed += fixed
    return report
