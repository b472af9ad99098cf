"""Property tests of Berger round robins (complete: everyone meets everyone exactly once) and of
single-elimination brackets (seeded, byes to the best seeds up to a power of two, one champion)."""

from collections import Counter
from itertools import combinations

from hypothesis import given, settings, strategies as st

from games.tournaments import elimination, roundrobin
from games.tournaments.records import Settings
from games.tournaments.standings import ELIMINATION
from tests.tournaments.helpers import play_out, standings_of


@settings(deadline=None)
@given(st.integers(2, 24))
def test_berger_round_robin_is_complete_everyone_meets_everyone_exactly_once(n):
    players = [f"p{i}" for i in range(n)]
    schedule = roundrobin.schedule(players)
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    meetings = Counter()
    for games in schedule:
        seated = [p for g in games for p in g]
        assert sorted(seated) == sorted(players)  # everyone once per round (a game or the bye)
        meetings.update(frozenset(g) for g in games if len(g) == 2)
    assert meetings == Counter({frozenset(pair): 1 for pair in combinations(players, 2)})
    byes = Counter(g[0] for games in schedule for g in games if len(g) == 1)
    assert byes == (Counter(players) if n % 2 else Counter())


@settings(deadline=None)
@given(st.integers(2, 24))
def test_berger_seat_order_is_balanced(n):
    players = [f"p{i}" for i in range(n)]
    firsts, seconds = Counter(), Counter()
    for games in roundrobin.schedule(players):
        for g in games:
            if len(g) == 2:
                firsts[g[0]] += 1
                seconds[g[1]] += 1
    # an even field: half sit first once more than second, half the reverse; an odd field: all level
    balance = Counter(firsts[p] - seconds[p] for p in players)
    assert balance == (Counter({0: n}) if n % 2 else Counter({1: n // 2, -1: n // 2}))


def test_berger_tables_for_six_match_the_published_table():
    players = ["1", "2", "3", "4", "5", "6"]
    assert roundrobin.schedule(players) == [
        [("1", "6"), ("2", "5"), ("3", "4")],
        [("6", "4"), ("5", "3"), ("1", "2")],
        [("2", "6"), ("3", "1"), ("4", "5")],
        [("6", "5"), ("1", "4"), ("2", "3")],
        [("3", "6"), ("4", "2"), ("5", "1")],
    ]


@settings(deadline=None)
@given(st.integers(1, 7))
def test_bracket_order_puts_seed_pairs_summing_to_size_plus_one_and_top_seeds_apart(power):
    size = 2 ** power
    order = elimination.bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2]))
    # seeds 1..2^k sit in different blocks of size / 2^k: they cannot meet before the last k rounds
    for k in range(1, power + 1):
        block = size // 2 ** k
        blocks = {i // block for i, s in enumerate(order) if s <= 2 ** k}
        assert len(blocks) == 2 ** k


@settings(deadline=None)
@given(st.integers(2, 70))
def test_first_round_gives_the_byes_to_the_best_seeds_up_to_a_power_of_two(n):
    seeds = [f"s{i + 1}" for i in range(n)]
    tables = elimination.pair_slots(elimination.first_slots(seeds))
    size = elimination.bracket_size(n)
    assert size >= n > size // 2
    byes = [t[0] for t in tables if len(t) == 1]
    assert sorted(byes, key=seeds.index) == seeds[: size - n]
    assert sorted(e for t in tables for e in t) == sorted(seeds)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10_000), st.booleans())
def test_single_elimination_runs_to_one_champion_and_every_other_entrant_loses_once(n, seed, teams):
    settings_ = Settings(format="single_elimination", table_size=4 if teams else 2, teams=teams, draw_key="s")
    log, state = play_out(settings_, n, seed, draw_rate=0.2)
    assert len(state.rounds) == elimination.rounds_needed(n)
    seeds = list(state.rounds[0].seeds)
    assert seeds == list(state.order)
    losses = Counter()
    alive = set(seeds)
    for rnd in state.rounds:
        assert rnd.stage == ELIMINATION
        seated = [e for t in rnd.tables.values() for e in t.entrant_ids]
        assert set(seated) == alive  # only survivors play, each once
        for table in rnd.tables.values():
            result = rnd.result_of(table)
            first = [e for e, p in result.places.items() if p == 1]
            winner = min(first, key=seeds.index)  # a shared first place: the better seed goes through
            for e in table.entrant_ids:
                if e != winner:
                    losses[e] += 1
                    alive.discard(e)
    assert len(alive) == 1
    assert all(losses[e] == 1 for e in seeds if e not in alive)
    top = standings_of(settings_, log)[0]
    assert top.entrant_id == next(iter(alive))


def test_a_dropped_entrant_leaves_a_walkover_in_the_bracket():
    settings_ = Settings(format="single_elimination", draw_key="s")
    log, state = play_out(settings_, 4, seed=3, drops={1: ["e00"]}, draw_rate=0)
    assert all("e00" not in t.entrant_ids for r in state.rounds[1:] for t in r.tables.values())
    assert len(state.rounds) == 2
