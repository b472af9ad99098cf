"""Shared builders for the tournament tests: fields of candidates and whole simulated tournaments."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import lru_cache

from games.tournaments import rounds, standings
from games.tournaments.records import Dropped, Registered, Result, Settings, Started
from games.tournaments.state import apply, fold
from games.tournaments.swiss import Candidate


def register_team(tournament_id, first, second):
    """A 2v2 team entered with both players' consent: ``first`` asks ``second``, who names them back
    (which accepts). Returns the entrant."""
    from games.tournaments import services

    services.tournament_register(tournament_id=tournament_id, user=first, partner=second)
    return services.tournament_register(tournament_id=tournament_id, user=second, partner=first)


def candidates(points, byes, met_pairs) -> list[Candidate]:
    """Candidates c0..c{n-1} in the given order; ``met_pairs`` lists index pairs that met before."""
    met = [Counter() for _ in points]
    for i, j in met_pairs:
        met[i][f"c{j}"] += 1
        met[j][f"c{i}"] += 1
    return [Candidate(f"c{i}", Fraction(p), b, met[i]) for i, (p, b) in enumerate(zip(points, byes))]


def min_rematches(ids: list[str], met: dict[str, Counter]) -> int:
    """Brute force: the fewest rematch tables over every perfect pairing of ``ids`` (small fields)."""
    n = len(ids)

    @lru_cache(maxsize=None)
    def best(mask: int) -> int:
        if mask == (1 << n) - 1:
            return 0
        i = next(k for k in range(n) if not mask >> k & 1)
        out = n
        for j in range(i + 1, n):
            if not mask >> j & 1:
                out = min(out, (1 if met[ids[i]].get(ids[j]) else 0) + best(mask | 1 << i | 1 << j))
        return out

    return best(0)


def play_out(settings: Settings, n: int, seed: int, *, drops: dict | None = None, draw_rate: float = 0.1,
             max_rounds: int = 64):
    """Run a whole tournament through the pure records with random results; ``drops`` maps a round
    number to entrants dropped after it is paired. Returns (log, state)."""
    rng = random.Random(seed)
    ids = [f"e{i:02d}" for i in range(n)]
    log = [Registered(e, e.upper(), (i,)) for i, e in enumerate(ids)] + [Started(tuple(ids))]
    state = fold(log)
    for _ in range(max_rounds):
        paired = rounds.next_pairing(settings, state)
        if paired is None:
            return log, state
        for record in [paired] + [_result(rng, paired.round, t, draw_rate) for t in paired.tables if not t.is_bye]:
            apply(state, record)
            log.append(record)
        for entrant in (drops or {}).get(paired.round, ()):
            record = Dropped(entrant)
            apply(state, record)
            log.append(record)
    raise AssertionError("the tournament did not finish")


def _result(rng: random.Random, round_no: int, table, draw_rate: float) -> Result:
    entrants = list(table.entrant_ids)
    if rng.random() < draw_rate:
        return Result(round_no, table.table, {e: 1 for e in entrants})
    rng.shuffle(entrants)
    return Result(round_no, table.table, {e: i + 1 for i, e in enumerate(entrants)})


def standings_of(settings, log):
    return standings.compute(settings, fold(log))
