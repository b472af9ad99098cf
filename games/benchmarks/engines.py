"""Engine benchmark: pure random legal play (no database), for any registered engine.

Prints moves/s, random games/s and the time ``legal_commands`` takes per decision.
"""

import statistics
import time

from games.kernel import SYSTEM, Command, Rng, fold


def random_game(engine, seats: int, seed: int, options: dict | None = None, max_moves: int = 5000):
    rng = Rng(f"bench-{seed}".encode(), "setup")
    state = fold(engine, engine.setup(options or {}, seats, rng))
    moves, legal_times = 0, []
    while moves < max_moves:
        status = engine.status(state)
        if status.finished:
            break
        seat = status.awaiting[moves % len(status.awaiting)]
        step_rng = Rng(f"bench-{seed}".encode(), f"move-{moves}")
        if seat == SYSTEM:
            choice = engine.system_command(state)
        else:
            t0 = time.perf_counter()
            options_now = engine.legal_commands(state, seat)
            legal_times.append(time.perf_counter() - t0)
            choice = step_rng.choice(options_now)
        events = engine.decide(state, Command(type=choice["type"], args=choice["args"], seat=seat), step_rng)
        state = fold(engine, events, state)
        moves += 1
    return moves, legal_times, engine.status(state).finished


def bench_engine(engine, *, games: int = 50, seats: int | None = None, options: dict | None = None) -> dict:
    seats = seats or max(engine.min_seats, min(2, engine.max_seats))
    total_moves, finished, legal_times = 0, 0, []
    t0 = time.perf_counter()
    for seed in range(games):
        moves, times, done = random_game(engine, seats, seed, options)
        total_moves += moves
        finished += int(done)
        legal_times.extend(times)
    elapsed = time.perf_counter() - t0
    return {
        "engine": engine.slug,
        "seats": seats,
        "games": games,
        "finished_games": finished,
        "moves": total_moves,
        "seconds": round(elapsed, 3),
        "moves_per_s": round(total_moves / elapsed, 1),
        "games_per_s": round(games / elapsed, 3),
        "legal_commands_ms_p50": round(statistics.median(legal_times) * 1000, 4) if legal_times else None,
        "legal_commands_ms_p95": round(_p95(legal_times) * 1000, 4) if legal_times else None,
    }


def _p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
