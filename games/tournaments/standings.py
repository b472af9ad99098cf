"""Standings: points, tiebreaks and ranks folded from a tournament's state (PURE).

Order: points, then ``settings.tiebreak_order``; every ordering ends with a draw from the tournament's
seed (sha256 of ``seed:entrant_id``; ``Settings.draw_key``), published at the start, so ranks are total
and reproducible by anyone.

- ``buchholz_cut1``: the sum of every opponent's points, counted once per meeting, less the lowest one.
- ``sonneborn_berger``: for each match, the opponents' points times the match's score fraction
  (1 for a win, 1/k for a first place shared by k, 0 otherwise).
- ``head_to_head``: among entrants still tied on everything before it, the points each earned at
  tables it shared with another member of that tied group.
- ``omw`` (opponents' match-win %): the mean over opponents (once per meeting) of each opponent's
  points / (3 x matches played), each floored at 1/3. Byes count as played for the entrant's own %.
  An entrant with no opponent yet gets the floor, 1/3.

Reports (disputes) do not change a standing until a judge overrides the result; each row lists the
reports on its entrant's tables with their status (open, upheld, overridden).

Byes are not opponents: they add their points to the entrant's total only. Elimination stages rank
above everything else: an entrant of the bracket ranks by elimination wins (byes included), then by
bracket seed; the rest follow in their Swiss order, whose tiebreaks count Swiss rounds only.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from fractions import Fraction

from games.tournaments.records import Settings, as_number
from games.tournaments.scoring import MAX_POINTS, score_fraction, table_points, winners
from games.tournaments.state import State

ELIMINATION = "elimination"
OMW_FLOOR = Fraction(1, 3)


@dataclass(frozen=True)
class Match:
    """One finished table from one entrant's side."""

    round: int
    table: int
    stage: str
    opponents: tuple[str, ...]
    places: dict
    points: Fraction
    by: str

    @property
    def is_bye(self) -> bool:
        return not self.opponents


@dataclass
class History:
    """What the fold knows about one entrant: finished matches and every opponent met (finished or not)."""

    entrant_id: str
    matches: list[Match] = field(default_factory=list)
    met: list[str] = field(default_factory=list)
    byes: int = 0

    def points(self, stages=None) -> Fraction:
        return sum((m.points for m in self.matches if stages is None or m.stage in stages), Fraction(0))


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant_id: str
    name: str
    points: Fraction
    played: int
    tiebreaks: dict
    dropped: bool
    reports: tuple = ()  # the reports on this entrant's tables: ({round, table, status}, ...)

    def to_dict(self) -> dict:
        return {"rank": self.rank, "entrant_id": self.entrant_id, "name": self.name, "points": as_number(self.points),
                "played": self.played, "tiebreaks": {k: as_number(v) for k, v in self.tiebreaks.items()},
                "dropped": self.dropped, "reports": [dict(r) for r in self.reports]}


def seed_draw(draw_key: str, entrant_id: str) -> str:
    """The last tiebreak: a reproducible draw from the tournament's seed, published at the start (lower wins)."""
    return hashlib.sha256(f"{draw_key}:{entrant_id}".encode()).hexdigest()


def histories(settings: Settings, state: State) -> dict[str, History]:
    """Every registered entrant's history, from all paired rounds."""
    out = {e: History(e) for e in state.entrants}
    for rnd in state.rounds:
        for table in rnd.tables.values():
            for entrant in table.entrant_ids:
                out[entrant].met.extend(o for o in table.entrant_ids if o != entrant)
            if table.is_bye:
                out[table.entrant_ids[0]].byes += 1
            result = rnd.result_of(table)
            if result is None:
                continue
            points = table_points(settings, result.places)
            for entrant in table.entrant_ids:
                out[entrant].matches.append(Match(rnd.round, table.table, rnd.stage,
                                                  tuple(o for o in table.entrant_ids if o != entrant),
                                                  result.places, points[entrant], result.by))
    return out


def compute(settings: Settings, state: State) -> list[Standing]:
    hist = histories(settings, state)
    ids = list(state.order) if state.started else list(state.entrants)
    swiss_stages = {r.stage for r in state.rounds if r.stage != ELIMINATION}
    swiss_order, tiebreaks = _swiss_order(settings, hist, ids, swiss_stages)
    order = _with_elimination(state, hist, swiss_order)
    disputes = reports_by_entrant(state)
    return [
        Standing(rank=i + 1, entrant_id=e, name=state.entrants[e].name, points=hist[e].points(),
                 played=len(hist[e].matches), tiebreaks=tiebreaks[e], dropped=e in state.dropped,
                 reports=tuple(disputes.get(e, ())))
        for i, e in enumerate(order)
    ]


def reports_by_entrant(state: State) -> dict[str, list[dict]]:
    """Every entrant's disputed tables: one ``{round, table, status}`` per report on a table it sat at
    (whoever filed it), in filing order. A standing that may still change shows it."""
    out: dict[str, list[dict]] = {}
    for report in state.reports():
        table = state.rounds[report.round - 1].tables[report.table]
        for entrant in table.entrant_ids:
            out.setdefault(entrant, []).append({"round": report.round, "table": report.table, "status": report.status})
    return out


def _swiss_order(settings: Settings, hist: dict[str, History], ids: list[str], stages: set[str]):
    points = {e: hist[e].points(stages) for e in ids}
    matches = {e: [m for m in hist[e].matches if m.stage in stages] for e in ids}
    values: dict[str, dict] = {e: {} for e in ids}
    groups = [sorted(ids, key=lambda e: -points[e])]
    groups = _refine(groups, lambda e: -points[e])
    for name in settings.tiebreak_order:
        if name == "head_to_head":
            new_groups = []
            for group in groups:
                members = set(group)
                for e in group:
                    values[e][name] = sum((m.points for m in matches[e] if members.intersection(m.opponents)),
                                          Fraction(0)) if len(group) > 1 else Fraction(0)
                new_groups.extend(_refine([group], lambda e: -values[e][name]))
            groups = new_groups
            continue
        for e in ids:
            values[e][name] = _tiebreak(name, settings, e, matches, points, hist, stages)
        key = (lambda e: values[e]["seed_draw"]) if name == "seed_draw" else (lambda e, n=name: -values[e][n])
        groups = _refine(groups, key)
    for e in ids:
        values[e]["seed_draw"] = int(values[e]["seed_draw"][:8], 16)
    return [e for group in groups for e in group], values


def _refine(groups: list[list[str]], key) -> list[list[str]]:
    """Split each tied group by ``key`` (ascending), keeping groups in order."""
    out = []
    for group in groups:
        ordered = sorted(group, key=key)
        current = [ordered[0]] if ordered else []
        for e in ordered[1:]:
            if key(e) == key(current[-1]):
                current.append(e)
            else:
                out.append(current)
                current = [e]
        if current:
            out.append(current)
    return out


def _tiebreak(name, settings, e, matches, points, hist, stages):
    if name == "seed_draw":
        return seed_draw(settings.draw_key, e)
    faced = [o for m in matches[e] for o in m.opponents]
    if name == "buchholz_cut1":
        scores = sorted(points[o] for o in faced)
        return sum(scores[1:], Fraction(0))
    if name == "sonneborn_berger":
        return sum((score_fraction(m.places, e) * sum((points[o] for o in m.opponents), Fraction(0))
                    for m in matches[e]), Fraction(0))
    if name == "omw":
        if not faced:
            return OMW_FLOOR
        return sum((_match_win(points[o], len(matches[o])) for o in faced), Fraction(0)) / len(faced)
    raise ValueError(name)


def _match_win(points: Fraction, played: int) -> Fraction:
    if played == 0:
        return OMW_FLOOR
    return max(OMW_FLOOR, points / (MAX_POINTS * played))


def _with_elimination(state: State, hist: dict[str, History], swiss_order: list[str]) -> list[str]:
    elimination = [r for r in state.rounds if r.stage == ELIMINATION]
    if not elimination:
        return swiss_order
    seeds = list(elimination[0].seeds)
    seed_index = {e: i for i, e in enumerate(seeds)}
    wins = {e: 0 for e in seeds}
    for rnd in elimination:
        for table in rnd.tables.values():
            result = rnd.result_of(table)
            if result is not None:
                wins[advancing(result.places, seed_index)] += 1
    bracket = sorted(seeds, key=lambda e: (-wins[e], seed_index[e]))
    return bracket + [e for e in swiss_order if e not in seed_index]


def advancing(places: dict, seed_index: dict[str, int]) -> str:
    """Who goes through an elimination table: the sole winner; on a shared first place (a draw, or a
    time-limit draw) the better seed."""
    return min(winners(places), key=lambda e: seed_index[e])
