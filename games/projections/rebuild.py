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
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games.application import selectors
from games.application.lobby import FINISHED, SEAT_TAKEN, aggregate_evolve
from games.eventstore import store
from games.eventstore.models import Match, MatchEvent, Snapshot
from games.kernel import canonical

from .models import MatchDeadline, MatchSummary, PlayerRecord
from .updaters import deadline_values, deadline_write, records_delta, summary_values, summary_write

MISSING = "<missing>"

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
    folded: dict = field(default_factory=dict)  # {seq: normalised state} at the stored snapshots' seqs


# -- pure comparisons -------------------------------------------------------------------------


def _show(value) -> str:
    if value is MISSING:
        return MISSING
    if hasattr(value, "isoformat"):
        return value.isoformat()
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 300 else text[:297] + "..."


def normalise(value):
    """JSON round trip: what a JSONField would store (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def first_difference(stored, rebuilt, path: str = "state"):
    """(path, stored, rebuilt) of the first place two JSON values differ, or None if equal."""
    if isinstance(stored, dict) and isinstance(rebuilt, dict):
        for key in sorted(set(stored) | set(rebuilt), key=str):
            sub = f"{path}.{key}"
            if key not in stored:
                return sub, MISSING, rebuilt[key]
            if key not in rebuilt:
                return sub, stored[key], MISSING
            found = first_difference(stored[key], rebuilt[key], sub)
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(rebuilt, list):
        for i, (a, b) in enumerate(zip(stored, rebuilt)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(stored) != len(rebuilt):
            return f"{path}.length", len(stored), len(rebuilt)
        return None
    if stored != rebuilt or type(stored) is not type(rebuilt):
        return path, stored, rebuilt
    return None


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


def compare_snapshots(match_id: str, stored: dict[int, Any], folded: dict[int, Any], head: int) -> list[Difference]:
    """``stored`` and ``folded``: {seq: state}. A snapshot past the head cannot be checked."""
    out = []
    for seq in sorted(stored):
        if seq > head or seq not in folded:
            out.append(Difference(match_id, "snapshot", f"seq={seq}", "present", f"no event {seq} (head {head})", key=seq))
            continue
        found = first_difference(normalise(stored[seq]), normalise(folded[seq]))
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


def fold_from_scratch(match: Match, engine, checkpoints=()) -> tuple[dict | None, dict[int, Any], bool]:
    """One pass over the whole log: (the canonical fold, {seq: normalised state} at each of
    ``checkpoints``, whether a MatchFinished was seen). No snapshot, no cache."""
    wanted = set(checkpoints)
    state, folded, finished = None, {}, False
    for ev in store.events_for_fold(match, engine_upcasters=engine.upcasters):
        state = aggregate_evolve(engine, state, ev)
        finished = finished or ev["type"] == FINISHED
        if ev["seq"] in wanted:
            folded[ev["seq"]] = normalise(state)
    return (None if state is None else canonical(state)), folded, finished


def _snapshot_seqs(match: Match) -> list[int]:
    return list(Snapshot.objects.filter(match=match, engine_version=match.engine_version).values_list("seq", flat=True))


def match_rebuild(match: Match) -> MatchRebuild:
    """Fold every event from scratch and derive each projection of ``match`` (and the fold at each
    stored snapshot's seq, in the same pass)."""
    last = MatchEvent.objects.filter(match=match).order_by("-seq").values("seq", "at").first()
    if last is None:
        return MatchRebuild(str(match.pk), 0, None, None, error="the match has no events")
    try:
        engine = selectors.engine_of(match)
        state, folded, finished = fold_from_scratch(match, engine, _snapshot_seqs(match))
        summary = summary_values(engine, state, last["seq"])
        deadline = deadline_values(engine, state, last["seq"], last["at"])
    except Exception as exc:  # an unknown engine or an evolve bug: report it, don't crash the run
        return MatchRebuild(str(match.pk), last["seq"], last["at"], None, error=f"{type(exc).__name__}: {exc}")
    return MatchRebuild(
        match_id=str(match.pk), seq=last["seq"], at=last["at"], state=state, summary=summary,
        players=sorted({s["user_id"] for s in summary["seats"] if s and s.get("user_id")}),
        deadline=deadline,
        records=records_delta(state, [{"type": FINISHED}]) if finished else [],
        folded=folded,
    )


def snapshots_folded(match: Match, seqs) -> dict[int, Any]:
    """The from-scratch fold at each of ``seqs`` (one pass over the log)."""
    wanted = {s for s in seqs if 1 <= s <= match.head_seq}
    if not wanted:
        return {}
    return fold_from_scratch(match, selectors.engine_of(match), wanted)[1]


def records_stored(user_ids=None) -> dict:
    rows = PlayerRecord.objects.all()
    if user_ids is not None:
        rows = rows.filter(user_id__in=list(user_ids))
    return {(r.user_id, r.game): {"played": r.played, "won": r.won} for r in rows}


def _summary_stored(match: Match):
    row = MatchSummary.objects.filter(match=match).first()
    if row is None:
        return None, []
    return row.as_dict(), list(row.players.values_list("pk", flat=True))


def _deadline_stored(match: Match):
    row = MatchDeadline.objects.filter(match=match).first()
    return None if row is None else {"seq": row.seq, "seats": row.seats, "due_at": row.due_at}


def match_differences(match: Match, rebuilt: MatchRebuild) -> list[Difference]:
    mid = str(match.pk)
    if rebuilt.error:
        return [Difference(mid, "stream", "fold", "-", f"error: {rebuilt.error}", fixable=False)]
    out = []
    if match.head_seq != rebuilt.seq:
        out.append(Difference(mid, "stream", "head_seq", match.head_seq, rebuilt.seq, fixable=False))
    stored_summary, stored_players = _summary_stored(match)
    out += compare_summary(mid, stored_summary, stored_players, rebuilt)
    out += compare_deadline(mid, _deadline_stored(match), rebuilt.deadline)
    snaps = {s.seq: s.state for s in Snapshot.objects.filter(match=match, engine_version=match.engine_version)}
    if snaps:
        folded = rebuilt.folded if set(snaps) <= set(rebuilt.folded) else snapshots_folded(match, snaps)
        out += compare_snapshots(mid, snaps, folded, rebuilt.seq)
    return out


def _fix_match(match: Match, rebuilt: MatchRebuild, diffs: list[Difference]) -> int:
    projections = {d.projection for d in diffs if d.fixable}
    if "summary" in projections:
        summary_write(match, rebuilt.summary, rebuilt.at)
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


def _users_matches(user_ids) -> list:
    """Ids of every finished match any of ``user_ids`` took a seat in."""
    seated = set(
        MatchEvent.objects.filter(type=SEAT_TAKEN, payload__user_id__in=list(user_ids)).values_list("match_id", flat=True)
    )
    finished = set(MatchEvent.objects.filter(type=FINISHED, match_id__in=seated).values_list("match_id", flat=True))
    return sorted(finished, key=str)


def check(match_id=None, *, fix: bool = False) -> Report:
    """Compare every projection (of one match, or all) with its rebuild; with ``fix``, rewrite
    what differs (each match under its row lock). Returns the differences found (before fixing)."""
    report = Report()
    contributions: dict[str, list] = {}
    failed = []  # matches that do not fold: their players' records cannot be recounted
    if match_id is not None:
        ids = [selectors.match_get(match_id).pk]
    else:
        ids = list(Match.objects.order_by("created_at", "pk").values_list("pk", flat=True))
    for pk in ids:
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=pk)
            rebuilt = match_rebuild(match)
            diffs = match_differences(match, rebuilt)
            if fix and diffs:
                report.fixed += _fix_match(match, rebuilt, diffs)
        report.matches += 1
        report.differences += diffs
        contributions[str(pk)] = rebuilt.records
        if rebuilt.error:
            failed.append(pk)

    # Player records: recount MatchFinished across every match of each user in scope.
    if match_id is None:
        scope = None
    else:
        only = contributions[str(ids[0])]
        scope = _seated_users(ids) | {u for u, _, _ in only}
        for pk in _users_matches(scope):
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
    with transaction.atomic():
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
