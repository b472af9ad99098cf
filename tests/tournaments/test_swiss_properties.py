"""Property tests of 2-entrant Swiss pairing (players or 2v2 teams): everyone seated once, no avoidable
rematch, at most one bye each and to the lowest eligible, score groups and floaters, determinism."""

from collections import Counter
from fractions import Fraction

import networkx as nx
from hypothesis import given, settings, strategies as st

from games.tournaments import swiss
from tests.tournaments.helpers import candidates, min_rematches


@st.composite
def fields(draw, max_n=14, dense=False):
    n = draw(st.integers(min_value=1, max_value=max_n))
    points = sorted(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), reverse=True)
    byes = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chance = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8] if dense else [0.0, 0.1, 0.3]))
    flags = draw(st.lists(st.floats(0, 1), min_size=len(pairs), max_size=len(pairs)))
    met = [p for p, f in zip(pairs, flags) if f < chance]
    return candidates(points, byes, met)


def _seated(result):
    return [e for t in result.tables for e in t] + ([result.bye] if result.bye else [])


@settings(deadline=None)
@given(fields())
def test_everyone_is_seated_exactly_once_at_two_entrant_tables(field):
    result = swiss.pair(field)
    assert sorted(_seated(result)) == sorted(c.entrant_id for c in field)
    assert all(len(t) == 2 for t in result.tables)


@settings(deadline=None)
@given(fields())
def test_the_bye_goes_to_the_lowest_ranked_entrant_with_the_fewest_byes(field):
    result = swiss.pair(field)
    if len(field) % 2 == 0:
        assert result.bye is None
        return
    fewest = min(c.byes for c in field)
    eligible = [c.entrant_id for c in field if c.byes == fewest]  # field is already best first
    assert result.bye == eligible[-1]
    if fewest == 0:  # nobody has a second bye while someone has none
        assert next(c for c in field if c.entrant_id == result.bye).byes == 0


@settings(deadline=None)
@given(fields(dense=True))
def test_no_avoidable_rematch_small_fields_against_brute_force(field):
    result = swiss.pair(field)
    met = {c.entrant_id: c.met for c in field}
    rematches = sum(1 for a, b in result.tables if met[a].get(b))
    paired = [e for t in result.tables for e in t]
    assert rematches == min_rematches(paired, met)


@settings(max_examples=40, deadline=None)
@given(fields(max_n=48, dense=True))
def test_no_avoidable_rematch_larger_fields_against_a_maximum_matching(field):
    result = swiss.pair(field)
    met = {c.entrant_id: c.met for c in field}
    paired = [e for t in result.tables for e in t]
    fresh = nx.Graph()
    fresh.add_nodes_from(paired)
    fresh.add_edges_from((a, b) for i, a in enumerate(paired) for b in paired[i + 1:] if not met[a].get(b))
    avoidable = len(paired) // 2 - len(nx.max_weight_matching(fresh, maxcardinality=True))
    assert sum(1 for a, b in result.tables if met[a].get(b)) == avoidable


@settings(deadline=None)
@given(st.lists(st.integers(0, 5), min_size=2, max_size=30))
def test_without_history_floaters_cross_each_score_boundary_only_when_the_count_above_is_odd(points):
    points = sorted(points, reverse=True)
    if len(points) % 2:
        points.append(min(points) - 1)  # keep an even field: no bye
    field = candidates(points, [0] * len(points), [])
    score = {c.entrant_id: c.points for c in field}
    result = swiss.pair(field)
    groups = sorted(set(points), reverse=True)
    group = {e: groups.index(s) for e, s in score.items()}
    crossings = sum((group[a] - group[b]) ** 2 for a, b in result.tables)
    odd_boundaries = sum(1 for k in range(len(groups) - 1) if sum(1 for p in points if p >= groups[k]) % 2)
    assert crossings == odd_boundaries


@settings(deadline=None)
@given(fields(max_n=20, dense=True))
def test_pairing_is_deterministic(field):
    assert swiss.pair(field) == swiss.pair([swiss.Candidate(c.entrant_id, c.points, c.byes, Counter(c.met), c.firsts)
                                            for c in field])


def test_round_one_pairs_the_top_half_against_the_bottom_half():
    field = candidates([0] * 8, [0] * 8, [])
    assert swiss.pair(field).tables == [("c0", "c4"), ("c1", "c5"), ("c2", "c6"), ("c3", "c7")]


def test_the_better_ranked_sits_first_unless_it_has_sat_first_more_often():
    a, b = (swiss.Candidate("a", Fraction(3), 0, Counter(), 2), swiss.Candidate("b", Fraction(3), 0, Counter(), 1))
    assert swiss.pair([a, b]).tables == [("b", "a")]
    a = swiss.Candidate("a", Fraction(3), 0, Counter(), 1)
    assert swiss.pair([a, b]).tables == [("a", "b")]


def test_a_rematch_is_taken_only_when_no_pairing_avoids_it():
    # c0 met c1 and c2; c3 met c1 and c2: the only rematch-free pairing is c0-c3, c1-c2.
    field = candidates([3, 3, 0, 0], [0] * 4, [(0, 1), (0, 2), (3, 1), (3, 2)])
    assert sorted(swiss.pair(field).tables) == [("c0", "c3"), ("c1", "c2")]
    # everyone met everyone: one rematch per table, still a full pairing
    field = candidates([0, 0], [0, 0], [(0, 1)])
    assert swiss.pair(field).tables == [("c0", "c1")]


def test_the_bottom_block_that_cannot_avoid_a_rematch_reopens_the_block_above():
    # c6 and c7 are alone on 0 points and met already: one of them must float up instead.
    field = candidates([3, 3, 3, 3, 3, 3, 0, 0], [0] * 8, [(6, 7)])
    tables = swiss.pair(field).tables
    assert ("c6", "c7") not in tables and len(tables) == 4
    groups = {f"c{i}": (0 if i < 6 else 1) for i in range(8)}
    assert sum(1 for a, b in tables if groups[a] != groups[b]) == 2  # two floats, the fewest possible
