"""Property tests of Swiss pods (3 or 4 entrants a table): valid sizes (smaller tables, not byes),
everyone seated once, repeat opponents kept to the minimum, grouped by score, deterministic."""

from collections import Counter
from itertools import combinations

from hypothesis import given, settings, strategies as st

from games.tournaments import pods, swiss
from tests.tournaments.helpers import candidates


@st.composite
def pod_fields(draw, max_n=20):
    size = draw(st.sampled_from([3, 4]))
    n = draw(st.integers(min_value=1, max_value=max_n))
    points = sorted(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), reverse=True)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chance = draw(st.sampled_from([0.0, 0.15, 0.4]))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(pairs), max_size=len(pairs)))
    return size, candidates(points, [0] * n, [p for p, f in zip(pairs, flags) if f < chance])


def _repeats(tables, met):
    return sum(met[a].get(b, 0) for t in tables for a, b in combinations(t, 2))


@settings(deadline=None)
@given(st.integers(1, 2000), st.sampled_from([3, 4]))
def test_table_sizes_are_as_even_as_possible_larger_first_and_never_a_bye_beyond_a_field_of_one(n, size):
    sizes = pods.table_sizes(n, size)
    assert sum(sizes) == n
    assert len(sizes) == -(-n // size)
    assert sizes == sorted(sizes, reverse=True)
    assert max(sizes) - min(sizes) <= 1
    assert max(sizes) <= size
    assert min(sizes) >= (1 if n == 1 else 2)
    if n >= (size - 1) ** 2:  # from there every table seats size or size - 1
        assert min(sizes) >= size - 1


@settings(deadline=None)
@given(pod_fields())
def test_everyone_is_seated_exactly_once_at_tables_of_the_planned_sizes(case):
    size, field = case
    tables = pods.pair(field, size).tables
    assert sorted(e for t in tables for e in t) == sorted(c.entrant_id for c in field)
    assert sorted(len(t) for t in tables) == sorted(pods.table_sizes(len(field), size))


@settings(max_examples=60, deadline=None)
@given(pod_fields(max_n=8))
def test_repeat_opponents_are_kept_to_the_brute_force_minimum(case):
    size, field = case
    met = {c.entrant_id: c.met for c in field}
    sizes = pods.table_sizes(len(field), size)
    best = min(_repeats(split, met) for split in _partitions([c.entrant_id for c in field], sizes))
    assert _repeats(pods.pair(field, size).tables, met) == best


@settings(max_examples=40, deadline=None)
@given(pod_fields(max_n=40))
def test_larger_fields_end_where_no_single_swap_lowers_repeats_and_never_worse_than_the_slices(case):
    size, field = case
    met = {c.entrant_id: c.met for c in field}
    tables = [list(t) for t in pods.pair(field, size).tables]
    order = [c.entrant_id for c in field]
    slices, start = [], 0
    for s in pods.table_sizes(len(field), size):
        slices.append(order[start:start + s])
        start += s
    assert _repeats(tables, met) <= _repeats(slices, met)
    for a, b in combinations(range(len(tables)), 2):
        for x in range(len(tables[a])):
            for y in range(len(tables[b])):
                ta, tb = list(tables[a]), list(tables[b])
                ta[x], tb[y] = tb[y], ta[x]
                assert _repeats([ta, tb], met) >= _repeats([tables[a], tables[b]], met)


@settings(deadline=None)
@given(pod_fields())
def test_without_history_tables_are_consecutive_slices_of_the_standings(case):
    size, field = case
    field = [swiss.Candidate(c.entrant_id, c.points) for c in field]
    tables = pods.pair(field, size).tables
    order = [c.entrant_id for c in field]
    assert [e for t in tables for e in t] == order


@settings(deadline=None)
@given(pod_fields())
def test_pod_pairing_is_deterministic(case):
    size, field = case
    copy = [swiss.Candidate(c.entrant_id, c.points, c.byes, Counter(c.met)) for c in field]
    assert pods.pair(field, size) == pods.pair(copy, size)


def test_a_four_player_event_of_ten_plays_four_three_three():
    assert pods.table_sizes(10, 4) == [4, 3, 3]
    assert pods.table_sizes(5, 4) == [3, 2]
    assert pods.table_sizes(4, 3) == [2, 2]
    assert pods.table_sizes(1, 4) == [1]


def test_repeats_are_broken_up_by_swapping_with_a_far_table():
    # 8 entrants, all equal; c0-c1-c2-c3 all met each other: the slice table would hold 6 repeats.
    met = [(a, b) for a, b in combinations(range(4), 2)]
    field = candidates([0] * 8, [0] * 8, met)
    tables = pods.pair(field, 4).tables
    assert _repeats(tables, {c.entrant_id: c.met for c in field}) == 2  # 4 old foes over 2 tables: at best 1 pair each


def _partitions(ids, sizes):
    """Every way to seat ``ids`` at tables of ``sizes`` (tables of equal size counted in each order)."""
    def place(k, tables):
        if k == len(ids):
            yield [tuple(t) for t in tables]
            return
        for t, size in zip(tables, sizes):
            if len(t) < size:
                t.append(ids[k])
                yield from place(k + 1, tables)
                t.pop()

    yield from place(0, [[] for _ in sizes])
