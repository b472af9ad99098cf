"""``python manage.py bench bots``: how well the engines' bots play (never a timed test).

Yashima and Yokai: the bot against the uniformly random player (every legal command equally
likely) over seeded games, both seat orders; per table size the win rate, draws, average length
and the time each bot decision took. Harakiri: an all-bot party through the Exploration Phase,
with the phase success rate and how often each kind of action was used, beside the same party
played by uniformly random seats. Pure engine play, no database.
"""

import statistics
import time

from games.kernel import SYSTEM, Command, Rng, fold

MAX_COMMANDS = 20000


def _random_command(engine, state, seat, rng):
    return rng.choice(engine.legal_commands(state, seat))


def play(engine, seats: int, options: dict, seed: str, policies: dict, clock=None):
    """One seeded game: ``policies[seat](state, seat, rng)`` picks each seat's command (SYSTEM steps
    are the engine's). Returns (final state, commands, {seat: [decision seconds]}, action counts)."""
    state = fold(engine, engine.setup(options, seats, Rng(f"{seed}".encode(), "setup")))
    times: dict = {s: [] for s in range(seats)}
    kinds: dict = {}
    n = 0
    while n < MAX_COMMANDS:
        status = engine.status(state)
        if status.finished:
            break
        seat = status.awaiting[0]
        if seat == SYSTEM:
            command = engine.system_command(state)
        else:
            rng = Rng(f"{seed}".encode(), f"decision:{n}:{seat}")
            t0 = time.perf_counter()
            command = policies[seat](state, seat, rng)
            times[seat].append(time.perf_counter() - t0)
            kinds[command["type"]] = kinds.get(command["type"], 0) + 1
        events = engine.decide(state, Command(command["type"], command["args"], seat),
                               Rng(f"{seed}".encode(), f"move:{n}"))
        state = fold(engine, events, state)
        n += 1
    return state, n, times, kinds


def _timing(samples: list) -> dict:
    if not samples:
        return {"decisions": 0}
    ordered = sorted(samples)
    return {
        "decisions": len(samples),
        "ms_mean": round(statistics.fmean(samples) * 1000, 3),
        "ms_p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 3),
        "ms_max": round(ordered[-1] * 1000, 3),
    }


def versus_random(engine, *, seats: int, options: dict, games: int, rounds_of=None, label: str = "") -> dict:
    """The bot at one side (both team-mates in 2v2), the random player at every other seat; the bot's
    side takes each position in turn (game g: the bot's first seat is g % sides)."""
    teams = engine.teams(options, seats)
    wins = draws = 0
    lengths, rounds, bot_times = [], [], []
    seeds = []
    for g in range(games):
        side = teams[g % len(teams)]
        seed = f"bots-{engine.slug}-{label or seats}-{g}"
        seeds.append(seed)
        policies = {s: (lambda st, se, r: engine.bot_command(st, se, r)) if s in side else
                    (lambda st, se, r: _random_command(engine, st, se, r)) for s in range(seats)}
        state, n, times, _ = play(engine, seats, options, seed, policies)
        winners = engine.status(state).winners
        if not engine.status(state).finished or not winners:
            draws += 1
        elif any(s in winners for s in side):
            wins += 1
        lengths.append(n)
        if rounds_of is not None:
            rounds.append(rounds_of(state))
        for s in side:
            bot_times.extend(times[s])
    decided = games - draws
    out = {
        "seats": seats,
        "options": options,
        "games": games,
        "bot_wins": wins,
        "draws": draws,
        "win_rate": round(wins / games, 4),
        "win_rate_of_decided": round(wins / decided, 4) if decided else None,
        "average_commands": round(statistics.fmean(lengths), 1),
        "bot_decision_time": _timing(bot_times),
        "seeds": f"{seeds[0]} .. {seeds[-1]}",
    }
    if rounds:
        out["average_rounds"] = round(statistics.fmean(rounds), 2)
    return out


def _share(counts: dict) -> dict:
    total = sum(counts.values()) or 1
    return {k: {"count": v, "share": round(v / total, 4)} for k, v in sorted(counts.items(), key=lambda x: -x[1])}


def harakiri_party(engine, *, games: int, policy: str, failure_procedure: bool = False) -> dict:
    """An Exploration Phase (``act1_burning_village``) played by 1 to 4 seats (game g: g % 4 + 1),
    every seat the bot (``policy`` = "bot") or the uniformly random player ("random"). Without the
    failure procedure the phase ends at its first failure, so a success is the objective reached
    at the first try; with it (the rulebook's default), ``victory_reasons`` tells an objective
    reached after failures from the success section chosen after a second failure."""
    options = {"failure_procedure": failure_procedure}
    reasons: dict = {}
    results, rounds, zones, defeated_enemies, defeated_chars, malice = {}, [], [], [], [], []
    kinds: dict = {}
    times = []
    successes = 0
    seeds = []
    for g in range(games):
        seats = g % 4 + 1
        seed = f"bots-harakiri-{policy}{'-failures' if failure_procedure else ''}-{g}"
        seeds.append(seed)
        if policy == "bot":
            policies = {s: (lambda st, se, r: engine.bot_command(st, se, r)) for s in range(seats)}
        else:
            policies = {s: (lambda st, se, r: _random_command(engine, st, se, r)) for s in range(seats)}
        state, n, t, k = play(engine, seats, options, seed, policies)
        for seat_times in t.values():
            times.extend(seat_times)
        for kind, count in k.items():
            kinds[kind] = kinds.get(kind, 0) + count
        result = state.get("result") or "unfinished"
        results[result] = results.get(result, 0) + 1
        successes += int(result == "victory")
        if result == "victory":
            why = state.get("aftermath_reason") or "objective achieved"
            reasons[why] = reasons.get(why, 0) + 1
        rounds.append(state["round"])
        target = (state.get("objective") or {}).get("enemy")
        zones.append(int(target in state["enemies"] or any(d["id"] == target for d in state["defeated_enemies"])))
        defeated_enemies.append(len(state["defeated_enemies"]))
        defeated_chars.append(len(state.get("defeated_in_phase") or []))
        malice.append(state["malice"])
    return {
        "policy": policy,
        "failure_procedure": failure_procedure,
        "games": games,
        "phase_success_rate": round(successes / games, 4),
        "results": results,
        "victory_reasons": reasons,
        "objective_zone_reached_rate": round(statistics.fmean(zones), 4),
        "average_rounds": round(statistics.fmean(rounds), 2),
        "average_enemies_defeated": round(statistics.fmean(defeated_enemies), 2),
        "average_characters_defeated": round(statistics.fmean(defeated_chars), 2),
        "average_final_malice": round(statistics.fmean(malice), 2),
        "decision_time": _timing(times),
        "actions": _share(kinds),
        "seeds": f"{seeds[0]} .. {seeds[-1]}",
    }


TABLES = {
    "yashima": [(2, {}), (3, {}), (4, {}), (4, {"teams": True})],
    "yokai": [(2, {}), (3, {}), (4, {}), (4, {"teams": True})],
}
YASHIMA_ROUND_CAP = 40  # a safety net: bot games end in 4 to 16 rounds (a capped game is a draw)


def run(registry, *, games: int, only: list | None = None) -> dict:
    """The whole ``bench bots`` report (see the module docstring and docs/performance.md, "Bots")."""
    out = {"benchmark": "bots", "games_per_line": games}
    for slug, tables in TABLES.items():
        if only and slug not in only:
            continue
        engine = registry.get(slug)
        lines = []
        for seats, options in tables:
            opts = dict(options, round_cap=YASHIMA_ROUND_CAP) if slug == "yashima" else dict(options)
            label = f"{seats}{'v2' if options.get('teams') else 'p'}"
            lines.append(versus_random(engine, seats=seats, options=opts, games=games,
                                       rounds_of=lambda st: st["round"], label=label))
        out[slug] = {"opponent": "uniformly random legal commands", "goal_win_rate": 0.9, "tables": lines}
    if not only or "harakiri" in only:
        engine = registry.get("harakiri")
        out["harakiri"] = {
            "scenario": "act1_burning_village",
            "bot_party": harakiri_party(engine, games=games, policy="bot"),
            "random_party": harakiri_party(engine, games=games, policy="random"),
            "bot_party_with_failure_procedure": harakiri_party(engine, games=max(1, games // 2), policy="bot",
                                                               failure_procedure=True),
        }
    return out
