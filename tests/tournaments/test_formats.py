"""Whole tournaments of every format and table shape, played through the pure records with random
results and drops: rounds, byes, drops, top cuts, determinism and the log's JSON round trip."""

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from games.tournaments import pods, rounds
from games.tournaments.records import Settings, record_from_dict, record_to_dict
from games.tournaments.standings import ELIMINATION
from tests.tournaments.helpers import play_out, standings_of

SHAPES = [
    pytest.param(dict(format="swiss", table_size=2), id="swiss-2p"),
    pytest.param(dict(format="swiss", table_size=3), id="swiss-pods3"),
    pytest.param(dict(format="swiss", table_size=4), id="swiss-pods4"),
    pytest.param(dict(format="swiss", table_size=4, pod_scoring="shared_win"), id="swiss-pods4-shared"),
    pytest.param(dict(format="swiss", table_size=4, teams=True), id="swiss-teams"),
    pytest.param(dict(format="round_robin", table_size=2), id="rr-2p"),
    pytest.param(dict(format="round_robin", table_size=4, teams=True), id="rr-teams"),
    pytest.param(dict(format="single_elimination", table_size=2), id="se-2p"),
    pytest.param(dict(format="single_elimination", table_size=4, teams=True), id="se-teams"),
    pytest.param(dict(format="swiss_top_cut", table_size=2, top_cut=4), id="cut4"),
    pytest.param(dict(format="swiss_top_cut", table_size=2, top_cut=8, rounds=4), id="cut8"),
]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("n", [5, 9, 12])
def test_every_format_plays_to_the_end_with_a_drop_and_is_deterministic(shape, n):
    s = Settings(draw_key="published", **shape)
    drops = {1: ["e01"]}
    log, state = play_out(s, n, seed=n, drops=drops)
    again, _ = play_out(s, n, seed=n, drops=drops)
    assert log == again
    assert state.rounds, "at least one round"
    for rnd in state.rounds[1:]:  # dropped after round 1: never paired again
        assert all("e01" not in t.entrant_ids for t in rnd.tables.values())
    table = standings_of(s, log)
    assert sorted(row.entrant_id for row in table) == sorted(state.entrants)
    assert [row.rank for row in table] == list(range(1, n + 1))
    dropped = next(row for row in table if row.entrant_id == "e01")
    assert dropped.dropped and dropped.played >= 1  # keeps the round-1 result
    assert rounds.next_pairing(s, state) is None


@pytest.mark.parametrize("shape", SHAPES)
def test_the_log_survives_a_json_round_trip_and_rebuilds_the_same_standings(shape):
    s = Settings(draw_key="published", **shape)
    log, _ = play_out(s, 10, seed=7, drops={2: ["e03"]})
    restored = [record_from_dict(record_to_dict(r)) for r in log]
    assert restored == log
    assert standings_of(s, restored) == standings_of(s, log)
    assert Settings.from_dict(s.to_dict()) == s


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 30), st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_swiss_rounds_seat_everyone_active_once_with_valid_tables_and_at_most_one_bye_each(n, seed, size):
    s = Settings(format="swiss", table_size=size, rounds=4, draw_key="x")
    _, state = play_out(s, n, seed)
    assert len(state.rounds) == 4
    byes = Counter()
    for rnd in state.rounds:
        seated = [e for t in rnd.tables.values() for e in t.entrant_ids]
        assert sorted(seated) == sorted(state.order)
        if size == 2:
            assert all(len(t.entrant_ids) == 2 or t.is_bye for t in rnd.tables.values())
        else:
            assert sorted(len(t.entrant_ids) for t in rnd.tables.values()) == sorted(pods.table_sizes(n, size))
        byes.update(t.entrant_ids[0] for t in rnd.tables.values() if t.is_bye)
    if size == 2 and n >= 4:  # 4 rounds, at least 4 entrants: nobody needs a second bye
        assert max(byes.values(), default=0) <= 1
    if size > 2:
        assert not byes or n == 1


@pytest.mark.parametrize("cut", [4, 8])
def test_the_top_cut_takes_the_best_of_the_swiss_and_ranks_them_first(cut):
    s = Settings(format="swiss_top_cut", top_cut=cut, rounds=4, draw_key="cut")
    log, state = play_out(s, 16, seed=cut, drops={4: ["e00"]})
    swiss_log = log[: next(i for i, r in enumerate(log) if getattr(r, "stage", None) == ELIMINATION)]
    swiss_rank = [row.entrant_id for row in standings_of(s, swiss_log) if not row.dropped]
    bracket = [r for r in state.rounds if r.stage == ELIMINATION]
    assert len(bracket) == {4: 2, 8: 3}[cut]
    assert list(bracket[0].seeds) == swiss_rank[:cut]
    final = standings_of(s, log)
    assert {row.entrant_id for row in final[:cut]} == set(swiss_rank[:cut])
    assert len(bracket[-1].tables) == 1


def test_a_round_robin_drop_turns_the_dropped_entrants_games_into_byes():
    s = Settings(format="round_robin", draw_key="rr")
    log, state = play_out(s, 6, seed=1, drops={2: ["e05"]})
    assert len(state.rounds) == 5
    later_byes = [t for r in state.rounds[2:] for t in r.tables.values() if t.is_bye]
    assert len(later_byes) == 3  # one opponent of e05 in each of rounds 3-5
