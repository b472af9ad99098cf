"""Tournament benchmark (no database): the time to pair one Swiss round and to recompute standings.

For each field size and table shape it plays a simulated Swiss (results drawn from a fixed-seed RNG)
through the pure records, and times: pairing round 1, pairing a late round (after ``late_round - 1``
rounds of results, when score groups are many and rematches must be avoided), and rebuilding the
standings from the whole record log (fold + standings). Wall-clock seconds (``*_s``) and, since the
machine may be shared, this process's CPU seconds (``*_cpu_s``). Printed figures, never asserted.
"""

from __future__ import annotations

import random
import time

from games.tournaments import rounds, standings
from games.tournaments.records import Registered, Result, Settings, Started
from games.tournaments.state import apply, fold

SIZES = (64, 256, 1000)
SHAPES = (2, 4)
GOALS_S = {256: 1.0, 1000: 5.0}


def _places(rng: random.Random, entrants: tuple[str, ...]) -> dict:
    if len(entrants) == 2 and rng.random() < 0.1:
        return {e: 1 for e in entrants}
    order = list(entrants)
    rng.shuffle(order)
    return {e: i + 1 for i, e in enumerate(order)}


def bench_swiss(n: int, table_size: int, late_round: int, seed: int = 0) -> dict:
    rng = random.Random(f"bench-tournament-{n}-{table_size}-{seed}")
    settings = Settings(format="swiss", table_size=table_size, rounds=late_round, draw_key=f"bench-{seed}")
    ids = [f"e{i:04d}" for i in range(n)]
    log = [Registered(e, e) for e in ids] + [Started(tuple(ids))]
    state = fold(log)
    timings, cpu = {}, {}
    for round_no in range(1, late_round + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        paired = rounds.next_pairing(settings, state)
        timings[round_no], cpu[round_no] = time.perf_counter() - t0, time.process_time() - c0
        apply(state, paired)
        log.append(paired)
        for table in paired.tables:
            if not table.is_bye:
                result = Result(round_no, table.table, _places(rng, table.entrant_ids))
                apply(state, result)
                log.append(result)
    t0, c0 = time.perf_counter(), time.process_time()
    rebuilt = standings.compute(settings, fold(log))
    standings_s, standings_cpu = time.perf_counter() - t0, time.process_time() - c0
    assert len(rebuilt) == n
    return {
        "entrants": n,
        "table_size": table_size,
        "pair_round_1_s": round(timings[1], 4),
        f"pair_round_{late_round}_s": round(timings[late_round], 4),
        "pair_slowest_round_s": round(max(timings.values()), 4),
        "pair_slowest_round_cpu_s": round(max(cpu.values()), 4),
        "records": len(log),
        "rebuild_standings_s": round(standings_s, 4),
        "rebuild_standings_cpu_s": round(standings_cpu, 4),
        "goal_s": GOALS_S.get(n),
    }


def run(sizes=SIZES, shapes=SHAPES, late_round: int = 6) -> dict:
    runs = [bench_swiss(n, shape, late_round) for n in sizes for shape in shapes]
    return {"benchmark": "tournament", "late_round": late_round, "runs": runs,
            "goals": {str(n): f"pair one round in under {s} s" for n, s in GOALS_S.items()}}
