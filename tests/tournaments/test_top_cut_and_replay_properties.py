"""Property tests (hypothesis) of the Swiss with a top cut, and of the determinism of whole runs of
every bracket format: the cut seeds exactly the best of the Swiss standings still in the event, its
bracket is a valid single elimination with byes to the best seeds, it produces one champion who ranks
first above the rest of the cut, who rank above everyone else; and a whole round robin, elimination or
top cut is a pure function of its log: folding any prefix of the log and asking for the next pairing
gives back the very round that was recorded, and the same seeds give the same log."""

from collections import Counter

from hypothesis import given, settings, strategies as st

from games.tournaments import elimination, rounds
from games.tournaments.records import Paired, Settings
from games.tournaments.standings import ELIMINATION, advancing
from games.tournaments.state import fold
from tests.tournaments.helpers import play_out, standings_of


@st.composite
def top_cut_events(draw):
    cut = draw(st.sampled_from([4, 8]))
    n = draw(st.integers(2, 24))
    swiss = draw(st.integers(1, 4))
    teams = draw(st.booleans())
    drops = {}  # entrants leaving during the Swiss rounds (after a round is paired), never all of them
    for index in draw(st.lists(st.integers(0, n - 1), max_size=max(0, n - 2), unique=True)):
        drops.setdefault(draw(st.integers(1, swiss)), []).append(f"e{index:02d}")
    return Settings(format="swiss_top_cut", table_size=4 if teams else 2, teams=teams, rounds=swiss, top_cut=cut,
                    draw_key="cut"), n, drops, draw(st.integers(0, 10_000))


@settings(max_examples=60, deadline=None)
@given(top_cut_events())
def test_the_top_cut_seeds_the_best_active_swiss_entrants_into_a_valid_bracket_with_one_champion(event):
    s, n, drops, seed = event
    log, state = play_out(s, n, seed, drops=drops, draw_rate=0.2)
    dropped = {e for out in drops.values() for e in out}
    swiss = [r for r in state.rounds if r.stage != ELIMINATION]
    bracket = [r for r in state.rounds if r.stage == ELIMINATION]
    assert len(swiss) == s.rounds

    # the cut: the Swiss standings after the last Swiss round, dropped entrants left out, best first
    cut_at = next(i for i, r in enumerate(log) if isinstance(r, Paired) and r.stage == ELIMINATION) if bracket else len(log)
    ranked = [row.entrant_id for row in standings_of(s, log[:cut_at]) if not row.dropped]
    seeds = ranked[: s.top_cut]
    if len(seeds) < 2:  # nobody to play a bracket with: the event ends after the Swiss
        assert not bracket and rounds.next_pairing(s, state) is None
        return
    assert list(bracket[0].seeds) == seeds and not dropped & set(seeds)

    # a valid bracket: P slots in the standard order, byes to the best seeds, then winners only
    assert len(bracket) == elimination.rounds_needed(len(seeds))
    first = [t.entrant_ids for t in bracket[0].tables.values()]
    assert first == [t for t in elimination.pair_slots(elimination.first_slots(seeds))]
    byes = [t[0] for t in first if len(t) == 1]
    assert byes == seeds[: elimination.bracket_size(len(seeds)) - len(seeds)]
    seed_index = {e: i for i, e in enumerate(seeds)}
    alive = list(seeds)
    for rnd in bracket:
        seated = sorted(e for t in rnd.tables.values() for e in t.entrant_ids)
        assert seated == sorted(alive)  # every survivor once, nobody else
        alive = [advancing(rnd.result_of(t).places, seed_index) for t in rnd.tables.values()]
    assert len(alive) == 1 and len(bracket[-1].tables) == 1

    # the champion first, the rest of the cut next, everyone else after
    final = [row.entrant_id for row in standings_of(s, log)]
    assert final[0] == alive[0]
    assert set(final[: len(seeds)]) == set(seeds)
    assert sorted(final) == sorted(state.entrants) and rounds.next_pairing(s, state) is None


@st.composite
def bracket_events(draw):
    fmt = draw(st.sampled_from(["round_robin", "single_elimination", "swiss_top_cut"]))
    teams = draw(st.booleans())
    n = draw(st.integers(2, 14))
    fields = dict(format=fmt, table_size=4 if teams else 2, teams=teams, draw_key=draw(st.sampled_from(["a", "b"])))
    if fmt == "swiss_top_cut":
        fields.update(rounds=draw(st.integers(1, 3)), top_cut=draw(st.sampled_from([4, 8])))
    drops = {}
    for index in draw(st.lists(st.integers(0, n - 1), max_size=max(0, n - 2), unique=True)):
        drops.setdefault(draw(st.integers(1, 3)), []).append(f"e{index:02d}")
    return Settings(**fields), n, drops, draw(st.integers(0, 10_000))


@settings(max_examples=60, deadline=None)
@given(bracket_events())
def test_a_whole_run_is_a_pure_function_of_its_log_and_seeds(event):
    s, n, drops, seed = event
    log, state = play_out(s, n, seed, drops=drops, draw_rate=0.2)
    again, _ = play_out(s, n, seed, drops=drops, draw_rate=0.2)
    assert again == log  # the same seeds and results: the same run, record for record
    for i, record in enumerate(log):
        if isinstance(record, Paired):  # replaying the log up to a round pairs that very round again
            assert rounds.next_pairing(s, fold(log[:i])) == record
    assert rounds.next_pairing(s, fold(log)) is None  # and the replayed log is over, too
    if s.format == "round_robin":  # complete: every pair of entrants met at most once, all once without drops
        met = Counter(frozenset(t.entrant_ids) for r in state.rounds for t in r.tables.values() if len(t.entrant_ids) == 2)
        assert set(met.values()) <= {1}
        if not drops:
            assert len(met) == n * (n - 1) // 2
