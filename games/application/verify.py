"""Re-verify stored match logs against engine versions (``manage.py verify_logs``).

Every match is replayed twice from its log: under the engine version it was played with (the
version recorded on the match; events read through that engine's upcasters) and under the current
engine (through the current engine's upcasters, which is how an upcast old match would be read
after a deploy). A match is reported when

- the current engine cannot apply one of its recorded events ("rejected", with the seq), or
- the two replays reach different states ("different", with the first seq where they part),
- or its own version no longer folds it ("broken").

Commands are stored only as their outcome (the events), so "would the current engine still accept
this command" is judged on those events: each must still apply, and lead to the same state.
Matches whose recorded version is the current one are folded once (nothing can differ).
"""

from dataclasses import dataclass, field

from games.eventstore import store
from games.eventstore.models import Match
from games.kernel import canonical, registry

from .lobby import aggregate_evolve

SAME, DIFFERENT, REJECTED, BROKEN, UNKNOWN_GAME = "same", "different", "rejected", "broken", "unknown_game"


@dataclass
class MatchCheck:
    match_id: str
    game: str
    recorded_version: str
    current_version: str
    outcome: str
    seq: int | None = None  # where it parted or failed
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome == SAME

    def line(self) -> str:
        versions = f"v{self.recorded_version}" + (f" -> v{self.current_version}" if self.current_version != self.recorded_version else "")
        where = f" at seq {self.seq}" if self.seq is not None else ""
        return f"{self.match_id} {self.game} {versions}: {self.outcome}{where}{': ' + self.detail if self.detail else ''}"


@dataclass
class Report:
    checks: list[MatchCheck] = field(default_factory=list)

    @property
    def problems(self) -> list[MatchCheck]:
        return [c for c in self.checks if not c.ok]


def _fold_steps(engine, events):
    """Yield (seq, state) after each event; raises on the first event the engine cannot apply."""
    state = None
    for ev in events:
        state = aggregate_evolve(engine, state, ev)
        yield ev["seq"], state


def _first_difference(recorded, current, events_recorded, events_current) -> tuple[str, int | None, str]:
    try:
        steps_current = _fold_steps(current, events_current)
        for (seq, a), (_, b) in zip(_fold_steps(recorded, events_recorded), steps_current):
            if canonical(a) != canonical(b):
                return DIFFERENT, seq, "the current engine reaches another state"
    except Exception as exc:  # noqa: BLE001 - any failure to apply is the finding itself
        return REJECTED, _failing_seq(current, events_current), f"{type(exc).__name__}: {exc}"[:300]
    return SAME, None, ""


def _failing_seq(engine, events) -> int | None:
    state = None
    for ev in events:
        try:
            state = aggregate_evolve(engine, state, ev)
        except Exception:  # noqa: BLE001
            return ev["seq"]
    return None


def match_check(match: Match) -> MatchCheck:
    try:
        current = registry.get(match.game)
        recorded = registry.get(match.game, match.engine_version)
    except Exception as exc:  # noqa: BLE001 - the game is not installed at all
        return MatchCheck(str(match.pk), match.game, match.engine_version, "?", UNKNOWN_GAME, detail=str(exc))
    check = MatchCheck(str(match.pk), match.game, match.engine_version, str(current.version), SAME)
    if str(recorded.version) != str(match.engine_version):
        check.detail = f"v{match.engine_version} is not installed; replayed with v{recorded.version}'s upcasters"
    try:
        events_recorded = store.events_load(match, until=match.head_seq, engine_upcasters=recorded.upcasters)
        for _ in _fold_steps(recorded, events_recorded):
            pass
    except Exception as exc:  # noqa: BLE001
        check.outcome, check.detail = BROKEN, f"its own version cannot fold it: {type(exc).__name__}: {exc}"[:300]
        check.seq = _failing_seq(recorded, store.events_load(match, until=match.head_seq, engine_upcasters=recorded.upcasters))
        return check
    if current is recorded:
        return check
    events_current = store.events_load(match, until=match.head_seq, engine_upcasters=current.upcasters)
    outcome, seq, detail = _first_difference(recorded, current, events_recorded, events_current)
    check.outcome, check.seq = outcome, seq
    check.detail = detail or check.detail
    return check


def logs_verify(*, game: str | None = None, since=None) -> Report:
    """Check every match (of ``game``, created at or after ``since``), oldest first."""
    matches = Match.objects.order_by("created_at", "pk")
    if game:
        matches = matches.filter(game=game)
    if since is not None:
        matches = matches.filter(created_at__gte=since)
    return Report([match_check(m) for m in matches.iterator()])
