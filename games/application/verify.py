"""Re-verify stored match logs against engine versions (``manage.py verify_logs``).

Every match is checked three ways:

- **re-fold under its own version**: the engine version it was played under (the version recorded
  on the match; events read through that engine's upcasters) must still fold its log ("broken" if
  not, with the seq);
- **re-fold under the current engine** (through the current engine's upcasters, which is how an
  upcast old match is read after a deploy): every recorded event must still apply ("rejected"),
  and lead to the same state as under its own version ("different", at the first seq where the
  two states part);
- **re-decision by the current engine**: every recorded command (kept with its command row: kind,
  type, args, seat) is decided again by ``decisions.outcome``, the write path's own function, on
  the state the log had reached just before it, with the same randomness (the match seed and the
  command's position in the log). The current engine must accept it ("rejected" if not, at the
  command's first seq, with the engine's reason) and decide the very events the log holds
  ("different" if not, at the first event that differs). SYSTEM and worker commands, bots' moves
  and the lobby's commands (whose ``start`` runs the engine's setup) are re-decided alike.

A match reports the earliest of its findings (a re-fold finding first when both are at one seq).
Logs from before commands were kept with their rows (and events copied in by the staff log
import, which have no command) can be checked by re-fold only: each check counts how many of its
events no kept command accounts for.
"""

import json
from dataclasses import dataclass, field

from games.eventstore import store
from games.eventstore.models import Match
from games.kernel import SYSTEM, RuleViolation, canonical, registry
from games.kernel.canonical import first_difference, normalise

from . import decisions as D
from .errors import PlatformError
from .lobby import aggregate_evolve

SAME, DIFFERENT, REJECTED, BROKEN, UNKNOWN_GAME = "same", "different", "rejected", "broken", "unknown_game"
REFOLD, REDECISION = "re-fold", "re-decision"


@dataclass
class MatchCheck:
    match_id: str
    game: str
    recorded_version: str
    current_version: str
    outcome: str
    seq: int | None = None  # where it parted or failed
    detail: str = ""
    found_by: str | None = None  # REFOLD or REDECISION
    events: int = 0
    commands_redecided: int = 0
    events_refold_only: int = 0  # events no kept command accounts for

    @property
    def ok(self) -> bool:
        return self.outcome == SAME

    @property
    def refold_only(self) -> bool:
        """Nothing in the log could be decided again (recorded before commands were kept)."""
        return self.events > 0 and self.events_refold_only == self.events

    @property
    def partly_refold_only(self) -> bool:
        return 0 < self.events_refold_only < self.events

    def line(self) -> str:
        versions = f"v{self.recorded_version}" + (f" -> v{self.current_version}" if self.current_version != self.recorded_version else "")
        where = f" at seq {self.seq}" if self.seq is not None else ""
        how = f" ({self.found_by})" if self.found_by else ""
        coverage = ""
        if self.refold_only:
            coverage = " [re-fold only: no command kept]"
        elif self.partly_refold_only:
            coverage = f" [{self.events_refold_only} of {self.events} events re-fold only]"
        return (f"{self.match_id} {self.game} {versions}: {self.outcome}{where}{how}"
                f"{': ' + self.detail if self.detail else ''}{coverage}")


@dataclass
class Report:
    checks: list[MatchCheck] = field(default_factory=list)

    @property
    def problems(self) -> list[MatchCheck]:
        return [c for c in self.checks if not c.ok]

    @property
    def refold_only(self) -> list[MatchCheck]:
        return [c for c in self.checks if c.refold_only]

    @property
    def partly_refold_only(self) -> list[MatchCheck]:
        return [c for c in self.checks if c.partly_refold_only]


@dataclass
class _Finding:
    outcome: str
    seq: int | None
    detail: str
    found_by: str


def _fold_steps(engine, events):
    """Yield (seq, state) after each event; raises on the first event the engine cannot apply."""
    state = None
    for ev in events:
        state = aggregate_evolve(engine, state, ev)
        yield ev["seq"], state


def _failing_seq(engine, events) -> int | None:
    state = None
    for ev in events:
        try:
            state = aggregate_evolve(engine, state, ev)
        except Exception:  # noqa: BLE001
            return ev["seq"]
    return None


def _short(text: str) -> str:
    return text if len(text) <= 300 else text[:297] + "..."


def _who(command: store.StoredCommand) -> str:
    seat = command.seat
    if seat == SYSTEM:
        return "the system"
    if isinstance(seat, int):
        return f"seat {seat}" + (" (a worker)" if (command.actor or {}).get("kind") == "worker" else "")
    return "the lobby"


def _as_request(command: store.StoredCommand) -> D.Request:
    body = command.body
    return D.Request(body.kind, body.type, body.args or {}, command.seat)


def _event_text(ev: dict) -> str:
    return json.dumps({"type": ev["type"], "v": ev.get("v", 1), "payload": ev.get("payload")}, sort_keys=True, default=str)


def _redecide(match: Match, engine, state, command: store.StoredCommand, recorded: list[dict]) -> _Finding | None:
    """Decide ``command`` again on ``state`` (the fold just before it) and compare with ``recorded``,
    the events the log holds for it."""
    body = command.body
    what = f"the {body.kind} command {body.type!r} of {_who(command)}"
    try:
        decided, _ = D.outcome(match, engine, None if state is None else canonical(state), _as_request(command),
                               D.rng_for(match, command.first_seq - 1))
    except D.EngineFailed as exc:
        return _Finding(REJECTED, command.first_seq, _short(f"{what}: the current engine fails on it: {exc.cause}"), REDECISION)
    except (RuleViolation, PlatformError) as exc:
        code = getattr(exc, "code", type(exc).__name__)
        message = getattr(exc, "message", str(exc))
        return _Finding(REJECTED, command.first_seq, _short(f"{what} is refused by the current engine: {code}: {message}"), REDECISION)
    for offset, (new, old) in enumerate(zip(decided, recorded)):
        if _event_text(new) != _event_text(old):
            found = first_difference(normalise(_event_body(old)), normalise(_event_body(new)), "event")
            where = f" ({found[0]}: the log has {_json(found[1])}, the current engine {_json(found[2])})" if found else ""
            return _Finding(DIFFERENT, command.first_seq + offset, _short(
                f"{what}: the current engine decides {new['type']} where the log has {old['type']}{where}"), REDECISION)
    if len(decided) != len(recorded):
        return _Finding(DIFFERENT, command.first_seq + min(len(decided), len(recorded)), _short(
            f"{what}: the current engine decides {len(decided)} event(s) where the log has {len(recorded)}"), REDECISION)
    return None


def _event_body(ev: dict) -> dict:
    return {"type": ev["type"], "v": ev.get("v", 1), "payload": ev.get("payload")}


def _json(value) -> str:
    return _short(json.dumps(value, sort_keys=True, default=str))


def _check_current(match: Match, check: MatchCheck, recorded, current, events_recorded, events_current) -> list[_Finding]:
    """One pass over the log with the current engine: re-fold each event (compared with the state
    under the recorded version, when that is another engine) and re-decide each kept command on
    the state just before it. Returns the first finding of each kind."""
    commands = {c.first_seq: c for c in store.commands_load(match)}
    kept = {seq for c in commands.values() if c.body is not None for seq in range(c.first_seq, c.last_seq + 1)}
    check.events_refold_only = sum(1 for ev in events_current if ev["seq"] not in kept)
    position = {ev["seq"]: i for i, ev in enumerate(events_current)}
    recorded_steps = _fold_steps(recorded, events_recorded) if recorded is not current else None
    refold = redecision = None
    state = None
    for i, ev in enumerate(events_current):
        command = commands.get(ev["seq"])
        if redecision is None and command is not None and command.body is not None:
            own = [events_current[position[s]] for s in range(command.first_seq, command.last_seq + 1) if s in position]
            redecision = _redecide(match, current, state, command, own)
            check.commands_redecided += 1
        try:
            state = aggregate_evolve(current, state, ev)
        except Exception as exc:  # noqa: BLE001 - any failure to apply is the finding itself
            refold = _Finding(REJECTED, ev["seq"], _short(f"the current engine cannot apply {ev['type']}: {type(exc).__name__}: {exc}"), REFOLD)
            break
        if recorded_steps is not None and refold is None:
            _, theirs = next(recorded_steps)
            if canonical(theirs) != canonical(state):
                found = first_difference(normalise(theirs), normalise(state))
                where = f" ({found[0]}: v{check.recorded_version} has {_json(found[1])}, the current engine {_json(found[2])})" if found else ""
                refold = _Finding(DIFFERENT, ev["seq"], _short(f"the current engine reaches another state{where}"), REFOLD)
        if refold is not None and redecision is not None:
            break
    return [f for f in (refold, redecision) if f is not None]


def match_check(match: Match) -> MatchCheck:
    try:
        current = registry.get(match.game)
        recorded = registry.get(match.game, match.engine_version)
    except Exception as exc:  # noqa: BLE001 - the game is not installed at all
        return MatchCheck(str(match.pk), match.game, match.engine_version, "?", UNKNOWN_GAME, detail=str(exc))
    check = MatchCheck(str(match.pk), match.game, match.engine_version, str(current.version), SAME)
    note = ""
    if str(recorded.version) != str(match.engine_version):
        note = f"v{match.engine_version} is not installed; replayed with v{recorded.version}'s upcasters"
    events_recorded = store.events_for_fold(match, until=match.head_seq, engine_upcasters=recorded.upcasters)
    check.events = len(events_recorded)
    try:
        for _ in _fold_steps(recorded, events_recorded):
            pass
    except Exception as exc:  # noqa: BLE001
        check.outcome, check.detail = BROKEN, _short(f"its own version cannot fold it: {type(exc).__name__}: {exc}")
        check.seq, check.found_by = _failing_seq(recorded, events_recorded), REFOLD
        check.events_refold_only = check.events
        return check
    events_current = events_recorded if current is recorded else store.events_for_fold(
        match, until=match.head_seq, engine_upcasters=current.upcasters)
    findings = _check_current(match, check, recorded, current, events_recorded, events_current)
    if findings:
        first = min(findings, key=lambda f: (f.seq, f.found_by != REFOLD))
        check.outcome, check.seq, check.detail, check.found_by = first.outcome, first.seq, first.detail, first.found_by
    elif note:
        check.detail = note
    return check


def logs_verify(*, game: str | None = None, since=None) -> Report:
    """Check every match (of ``game``, created at or after ``since``), oldest first."""
    matches = Match.objects.order_by("created_at", "pk")
    if game:
        matches = matches.filter(game=game)
    if since is not None:
        matches = matches.filter(created_at__gte=since)
    return Report([match_check(m) for m in matches.iterator()])
