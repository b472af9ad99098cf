"""Tournament records and settings: the append-only log a tournament is folded from (PURE: no Django).

Every decision about a tournament is one record: an entrant registered or withdrew, the field was
seeded, a round was paired, a table's result came in, an entrant was dropped, a player reported a
table's match, a judge upheld or overrode a result. Standings are a fold of that list (``state.fold`` then ``standings.compute``),
so the Django side stores the records as rows and can always rebuild.

Each record is a frozen dataclass with ``to_dict``/``record_from_dict`` so it can be stored as JSON.
Entrant ids are strings (the database's ids, stringified).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from fractions import Fraction

FORMATS = ("swiss", "round_robin", "single_elimination", "swiss_top_cut")
# a format in a sentence (refusals read by people: "a round robin is played at 2-entrant tables")
FORMAT_WORDS = {"swiss": "a Swiss", "round_robin": "a round robin", "single_elimination": "a single elimination",
                "swiss_top_cut": "a Swiss with top cut"}
# formats whose number of rounds follows from the field alone: a ``rounds`` setting cannot apply
ROUNDS_FIXED_BY_FIELD = ("round_robin", "single_elimination")
POD_SCORING = ("placement", "shared_win")
TIEBREAKS = ("buchholz_cut1", "sonneborn_berger", "head_to_head", "omw", "seed_draw")
RESULT_BY = ("play", "time", "judge")

# Fair play (docs/tournaments.md, "Fair play"): spectators of a running match are at least a minute
# behind, whatever the organizer sets (the "at least 60 s" is a floor); the turns are the
# organizer's choice, one by default.
MIN_SPECTATOR_DELAY_SECONDS = 60
MAX_SPECTATOR_DELAY_SECONDS = 3600
MAX_SPECTATOR_DELAY_TURNS = 10

# 2-entrant tables (2 players or two 2v2 teams) score win 3 / draw 1 / loss 0; a draw is 1 at every table.
WIN_POINTS = 3
DRAW_POINTS = 1


class TournamentError(Exception):
    """A record, setting or request that breaks the tournament's rules: ``code`` is stable, ``message`` human."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_spectator_delay(seconds, turns) -> None:
    """The fair-play delay an organizer may set: ``MIN``-``MAX_SPECTATOR_DELAY_SECONDS`` seconds and
    0-``MAX_SPECTATOR_DELAY_TURNS`` turns (``invalid_spectator_delay`` otherwise)."""
    if not (_is_int(seconds) and MIN_SPECTATOR_DELAY_SECONDS <= seconds <= MAX_SPECTATOR_DELAY_SECONDS
            and _is_int(turns) and 0 <= turns <= MAX_SPECTATOR_DELAY_TURNS):
        raise TournamentError("invalid_spectator_delay",
                              f"spectators are {MIN_SPECTATOR_DELAY_SECONDS}-{MAX_SPECTATOR_DELAY_SECONDS} seconds "
                              f"and 0-{MAX_SPECTATOR_DELAY_TURNS} turns behind a running match")


@dataclass(frozen=True)
class Settings:
    """A tournament's format and its provisional scoring choices (see docs/tournaments.md).

    ``table_size`` is seats per table as in the API contract. With ``teams`` a 2v2 team registers as one
    entrant, so a table of 4 seats holds 2 entrants; otherwise a table holds ``table_size`` entrants.
    """

    format: str = "swiss"
    table_size: int = 2
    teams: bool = False
    rounds: int | None = None
    top_cut: int | None = None
    pod_scoring: str = "placement"
    bye_points: int = WIN_POINTS
    tiebreaks: tuple[str, ...] | None = None
    draw_key: str = ""  # the last tie-break draws from it (standings.seed_draw)

    def __post_init__(self):
        if self.format not in FORMATS:
            raise TournamentError("invalid_format", f"format must be one of {', '.join(FORMATS)}")
        if not _is_int(self.table_size) or self.table_size not in (2, 3, 4):
            raise TournamentError("invalid_table_size", "table_size must be 2, 3 or 4")
        if self.teams and self.table_size != 4:
            raise TournamentError("invalid_table_size", "a team event plays 2v2: table_size must be 4")
        if self.pod_scoring not in POD_SCORING:
            raise TournamentError("invalid_pod_scoring", f"pod_scoring must be one of {', '.join(POD_SCORING)}")
        if self.rounds is not None and (not _is_int(self.rounds) or self.rounds < 1):
            raise TournamentError("invalid_rounds", "rounds must be a positive integer")
        if self.format == "swiss_top_cut":
            if not _is_int(self.top_cut) or self.top_cut not in (4, 8):
                raise TournamentError("invalid_top_cut", "a Swiss with top cut needs top_cut 4 or 8")
        elif self.top_cut is not None:
            raise TournamentError("invalid_top_cut", "top_cut belongs to the swiss_top_cut format only")
        if self.format in ("single_elimination", "swiss_top_cut", "round_robin") and self.entrants_per_table != 2:
            raise TournamentError("invalid_table_size",
                                  f"{FORMAT_WORDS[self.format]} is played at 2-entrant tables (2 players or 2v2 teams)")
        if not _is_int(self.bye_points) or self.bye_points < 0:
            raise TournamentError("invalid_bye_points", "bye_points must be a non-negative integer")
        if self.tiebreaks is not None:
            object.__setattr__(self, "tiebreaks", tuple(self.tiebreaks))
            unknown = [t for t in self.tiebreaks if t not in TIEBREAKS]
            if unknown:
                raise TournamentError("invalid_tiebreaks", f"unknown tiebreaks: {', '.join(unknown)}")
            if len(set(self.tiebreaks)) != len(self.tiebreaks):
                raise TournamentError("invalid_tiebreaks", "each tiebreak is listed once")

    @property
    def entrants_per_table(self) -> int:
        return 2 if self.teams else self.table_size

    @property
    def is_pods(self) -> bool:
        return self.entrants_per_table > 2

    @property
    def tiebreak_order(self) -> tuple[str, ...]:
        """The configured tiebreaks, or the defaults: Buchholz cut-1, Sonneborn-Berger, head-to-head for
        2-entrant tables; opponents' match-win % for pods. The seeded draw always comes last."""
        chosen = self.tiebreaks
        if chosen is None:
            chosen = ("omw",) if self.is_pods else ("buchholz_cut1", "sonneborn_berger", "head_to_head")
        return tuple(t for t in chosen if t != "seed_draw") + ("seed_draw",)

    def to_dict(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["tiebreaks"] = list(self.tiebreaks) if self.tiebreaks is not None else None
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Settings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise TournamentError("invalid_settings", f"unknown settings: {', '.join(unknown)}")
        return cls(**data)


# -- records ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Registered:
    entrant_id: str
    name: str
    user_ids: tuple = ()
    kind = "registered"


@dataclass(frozen=True)
class Withdrawn:
    """Before the start: the entrant leaves the field entirely."""

    entrant_id: str
    kind = "withdrawn"


@dataclass(frozen=True)
class Started:
    """The field is closed; ``order`` is the seeding (by rating, best first) used for Swiss order and brackets."""

    order: tuple[str, ...]
    kind = "started"


@dataclass(frozen=True)
class Table:
    table: int
    entrant_ids: tuple[str, ...]

    @property
    def is_bye(self) -> bool:
        return len(self.entrant_ids) == 1


@dataclass(frozen=True)
class Paired:
    """One round's tables, numbered from 1. A one-entrant table is a bye. ``seeds`` is the bracket seeding
    (best first) in the first round of an elimination stage, empty otherwise."""

    round: int
    stage: str
    tables: tuple[Table, ...]
    seeds: tuple[str, ...] = ()
    kind = "paired"


@dataclass(frozen=True)
class Result:
    """A table's outcome as places (1 = first; equal places share). ``by``: play, time or judge."""

    round: int
    table: int
    places: dict = field(default_factory=dict)
    by: str = "play"
    kind = "result"


@dataclass(frozen=True)
class Dropped:
    """After the start: the entrant is not paired again and keeps every result so far."""

    entrant_id: str
    reason: str = ""
    kind = "dropped"


@dataclass(frozen=True)
class Reported:
    """A player at a table filed a report (a dispute) about its match, pinned to ``seq`` of the match's
    log. It stays open until a judge's ``Adjudicated`` or ``Overridden`` names its ``report_id``."""

    round: int
    table: int
    report_id: int
    entrant_id: str
    seq: int
    kind = "reported"


# in what capacity a judge ruled (``role`` of a decision): staff, or the tournament's own organizer;
# empty in decisions recorded before organizers judged (all staff's)
JUDGE_ROLES = ("staff", "organizer")


@dataclass(frozen=True)
class Adjudicated:
    """A judge reviewed a table's result and upheld it (resolving the report ``report_id``, if any)."""

    round: int
    table: int
    judge: str
    reason: str = ""
    report_id: int | None = None
    role: str = ""
    kind = "adjudicated"


@dataclass(frozen=True)
class Overridden:
    """A judge replaced a table's result, with a written reason (resolving the report ``report_id``, if any)."""

    round: int
    table: int
    places: dict
    judge: str
    reason: str
    report_id: int | None = None
    role: str = ""
    kind = "overridden"


@dataclass(frozen=True)
class ClockPaused:
    """An organizer stopped the clock of the round being played: its time limit does not run until the
    matching ``ClockResumed`` (the rows' timestamps measure the pause)."""

    round: int
    reason: str = ""
    kind = "clock_paused"


@dataclass(frozen=True)
class ClockResumed:
    """An organizer restarted the paused clock of the round being played."""

    round: int
    kind = "clock_resumed"


@dataclass(frozen=True)
class SpectatorDelaySet:
    """An organizer changed how far behind spectators watch the tournament's running matches (fair
    play); it applies at once, to running matches too."""

    seconds: int
    turns: int
    kind = "spectator_delay_set"


# what an organizer may change before the start (``settings_changed``): the rest (format, table shape,
# match options, scoring) is what the entrants signed up for, and stays as created
EDITABLE_SETTINGS = ("name", "starts_at", "round_minutes", "max_entrants", "rated", "rounds")
TOO_FEW_ENTRANTS = "too_few_entrants"  # the reason of a start time cleared by the start sweep


@dataclass(frozen=True)
class SettingsChanged:
    """Before the start: an organizer changed some of the ``EDITABLE_SETTINGS`` (``changes``: setting ->
    its new value as JSON; ``starts_at`` an ISO 8601 time in UTC, or null when cleared). The start
    sweep also records one (``starts_at`` cleared, ``reason: too_few_entrants``) when the start time
    passes with fewer than two entrants."""

    changes: dict
    reason: str = ""
    kind = "settings_changed"


@dataclass(frozen=True)
class Cancelled:
    """Before the start: an organizer cancelled the tournament. Nothing is recorded after it."""

    reason: str = ""
    kind = "cancelled"


RECORD_TYPES = {cls.kind: cls for cls in (Registered, Withdrawn, Started, Paired, Result, Dropped, Reported, Adjudicated,
                                          Overridden, ClockPaused, ClockResumed, SpectatorDelaySet, SettingsChanged,
                                          Cancelled)}


def record_to_dict(record) -> dict:
    out = {"kind": record.kind}
    for f in fields(record):
        value = getattr(record, f.name)
        if f.name == "tables":
            value = [{"table": t.table, "entrant_ids": list(t.entrant_ids)} for t in value]
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, dict):
            value = {str(k): v for k, v in value.items()}
        out[f.name] = value
    return out


def record_from_dict(data: dict):
    data = dict(data)
    cls = RECORD_TYPES.get(data.pop("kind", None))
    if cls is None:
        raise TournamentError("invalid_record", "unknown record kind")
    names = {f.name for f in fields(cls)}
    if set(data) - names:
        raise TournamentError("invalid_record", f"unknown fields for {cls.kind}: {sorted(set(data) - names)}")
    if "tables" in data:
        data["tables"] = tuple(Table(int(t["table"]), tuple(str(e) for e in t["entrant_ids"])) for t in data["tables"])
    for key in ("order", "seeds", "user_ids"):
        if key in data:
            data[key] = tuple(data[key])
    if "places" in data:
        data["places"] = {str(k): int(v) for k, v in data["places"].items()}
    return cls(**data)


def as_number(value: Fraction) -> int | float:
    """Points and tiebreaks are exact fractions inside; JSON gets an int when whole, else a float."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else round(float(value), 4)
