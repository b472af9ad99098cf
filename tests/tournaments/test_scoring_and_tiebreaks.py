"""Example tests of the scoring and tiebreak arithmetic, worked by hand."""

import hashlib
from fractions import Fraction as F

import pytest

from games.tournaments import scoring, standings
from games.tournaments.records import (
    Paired,
    Registered,
    Result,
    Settings,
    Started,
    Table,
    TournamentError,
)
from games.tournaments.state import fold


def _log(ids, games):
    """``games``: one list per round of (a, b, outcome) with outcome 'a', 'b' or 'draw'."""
    log = [Registered(e, e) for e in ids] + [Started(tuple(ids))]
    for r, round_games in enumerate(games, start=1):
        log.append(Paired(r, "swiss", tuple(Table(t, (a, b)) for t, (a, b, _) in enumerate(round_games, start=1))))
        for t, (a, b, outcome) in enumerate(round_games, start=1):
            places = {a: 1, b: 1} if outcome == "draw" else {a: 1, b: 2} if outcome == "a" else {a: 2, b: 1}
            log.append(Result(r, t, places))
    return log


def _rows(settings, log):
    return {row.entrant_id: row for row in standings.compute(settings, fold(log))}


def test_two_player_tables_score_three_one_zero():
    s = Settings()
    assert scoring.table_points(s, {"a": 1, "b": 2}) == {"a": 3, "b": 0}
    assert scoring.table_points(s, {"a": 1, "b": 1}) == {"a": 1, "b": 1}


def test_placement_points_run_from_three_to_zero_and_ties_share_the_average():
    s = Settings(table_size=4)
    assert scoring.table_points(s, {"a": 1, "b": 2, "c": 3, "d": 4}) == {"a": 3, "b": 2, "c": 1, "d": 0}
    assert scoring.table_points(s, {"a": 1, "b": 2, "c": 2, "d": 4}) == {"a": 3, "b": F(3, 2), "c": F(3, 2), "d": 0}
    assert scoring.table_points(s, {"a": 1, "b": 2, "c": 3}) == {"a": 3, "b": F(3, 2), "c": 0}
    team = Settings(table_size=4, teams=True)
    assert scoring.table_points(team, {"a": 1, "b": 2}) == {"a": 3, "b": 0}


# docs/tournaments.md, "Scoring": a draw (nobody won, every entrant shares first) is worth 1, a third
# of a win, at every kind of table; before, a full draw at a pod or a 2v2 table under placement paid
# 1.5 while a 2-player draw paid 1, even inside one pod event (which seats 2-player tables too)
@pytest.mark.parametrize("shape, table", [
    (Settings(), "ab"),
    (Settings(table_size=4, teams=True), "ab"),
    (Settings(table_size=4, teams=True, pod_scoring="shared_win"), "ab"),
    (Settings(table_size=3), "ab"),
    (Settings(table_size=3), "abc"),
    (Settings(table_size=4), "abcd"),
    (Settings(table_size=3, pod_scoring="shared_win"), "abc"),
    (Settings(table_size=4, pod_scoring="shared_win"), "abcd"),
], ids=["2 players", "2v2 placement", "2v2 shared win", "2-table of a pod event", "3-pod", "4-pod",
        "3-pod shared win", "4-pod shared win"])
def test_a_draw_is_worth_one_point_at_every_kind_of_table(shape, table):
    # given a table where nobody won
    places = {e: 1 for e in table}
    # when it is scored
    points = scoring.table_points(shape, places)
    # then everyone takes the draw's 1 point, a third of a win
    assert points == {e: 1 for e in table}


def test_sharing_first_place_with_a_loser_at_the_table_is_worth_more_than_a_draw():
    # given placement pods where some, not all, share first place
    three, four = Settings(table_size=3), Settings(table_size=4)
    # then the winners share the average of the places they cover, above a draw's 1
    assert scoring.table_points(three, {"a": 1, "b": 1, "c": 3}) == {"a": F(9, 4), "b": F(9, 4), "c": 0}
    assert scoring.table_points(four, {"a": 1, "b": 1, "c": 1, "d": 4}) == {"a": 2, "b": 2, "c": 2, "d": 0}
    assert scoring.table_points(four, {"a": 1, "b": 1, "c": 3, "d": 3}) == {"a": F(5, 2), "b": F(5, 2),
                                                                             "c": F(1, 2), "d": F(1, 2)}


def test_shared_win_gives_three_to_a_sole_winner_and_one_each_to_shared_winners():
    s = Settings(table_size=4, pod_scoring="shared_win")
    assert scoring.table_points(s, {"a": 1, "b": 2, "c": 2, "d": 4}) == {"a": 3, "b": 0, "c": 0, "d": 0}
    assert scoring.table_points(s, {"a": 1, "b": 1, "c": 3, "d": 4}) == {"a": 1, "b": 1, "c": 0, "d": 0}


@pytest.mark.parametrize("places", [{"a": 1, "b": 3}, {"a": 0, "b": 1}, {"a": 1}, {"a": 1, "b": 2, "c": 3}])
def test_places_must_be_competition_ranks_of_exactly_the_tables_entrants(places):
    with pytest.raises(TournamentError):
        scoring.validate_places(("a", "b"), places)


def test_buchholz_cut1_and_sonneborn_berger_worked_example():
    # R1: A beats B, C draws D.  R2: A draws C, B beats D.  R3: A beats D, B beats C.
    # Points: A 7, B 6, C 2, D 1.
    log = _log("ABCD", [[("A", "B", "a"), ("C", "D", "draw")],
                        [("A", "C", "draw"), ("B", "D", "a")],
                        [("A", "D", "a"), ("B", "C", "a")]])
    rows = _rows(Settings(draw_key="s"), log)
    assert {e: rows[e].points for e in "ABCD"} == {"A": 7, "B": 6, "C": 2, "D": 1}
    # Buchholz cut-1: opponents' points less the lowest. A: 6+2+1-1; B: 7+1+2-1; C: 1+7+6-1; D: 2+6+7-2
    assert {e: rows[e].tiebreaks["buchholz_cut1"] for e in "ABCD"} == {"A": 8, "B": 9, "C": 13, "D": 13}
    # Sonneborn-Berger: beaten opponents' points + half of drawn opponents'.
    # A: 6 + 2/2 + 1 = 8; B: 1 + 2 = 3; C: 1/2 + 7/2 = 4; D: 2/2 = 1
    assert {e: rows[e].tiebreaks["sonneborn_berger"] for e in "ABCD"} == {"A": 8, "B": 3, "C": 4, "D": 1}
    assert [rows[e].rank for e in "ABCD"] == [1, 2, 3, 4]


def test_head_to_head_orders_entrants_tied_on_points_by_their_games_with_each_other():
    # R1: A beats B, C beats D.  R2: B beats C, D beats A.  R3: A beats C, B beats D.  A 6, B 6, C 3, D 3.
    log = _log("ABCD", [[("A", "B", "a"), ("C", "D", "a")],
                        [("B", "C", "a"), ("D", "A", "a")],
                        [("A", "C", "a"), ("B", "D", "a")]])
    rows = _rows(Settings(draw_key="s", tiebreaks=("head_to_head",)), log)
    assert rows["A"].tiebreaks["head_to_head"] == 3 and rows["B"].tiebreaks["head_to_head"] == 0
    assert rows["C"].tiebreaks["head_to_head"] == 3 and rows["D"].tiebreaks["head_to_head"] == 0
    assert [rows[e].rank for e in "ABCD"] == [1, 2, 3, 4]


def test_opponents_match_win_percentage_is_floored_at_one_third():
    log = [Registered(e, e) for e in "WXYZ"] + [Started(tuple("WXYZ")),
                                                 Paired(1, "swiss", (Table(1, tuple("WXYZ")),)),
                                                 Result(1, 1, {"W": 1, "X": 2, "Y": 3, "Z": 4})]
    rows = _rows(Settings(table_size=4, draw_key="s"), log)
    # match-win %: W 3/3, X 2/3, Y 1/3, Z 0 -> floored to 1/3
    assert rows["W"].tiebreaks["omw"] == pytest.approx(4 / 9, abs=1e-4)  # (2/3 + 1/3 + 1/3) / 3
    assert rows["Z"].tiebreaks["omw"] == pytest.approx(2 / 3, abs=1e-4)  # (1 + 2/3 + 1/3) / 3
    assert standings.compute(Settings(table_size=4, draw_key="s"), fold(log))[0].tiebreaks["omw"] == F(4, 9)


def test_a_bye_adds_its_points_but_is_no_opponent():
    log = [Registered(e, e) for e in "ABC"] + [Started(tuple("ABC")),
                                                Paired(1, "swiss", (Table(1, ("A", "B")), Table(2, ("C",)))),
                                                Result(1, 1, {"A": 1, "B": 2})]
    rows = _rows(Settings(draw_key="s"), log)
    assert rows["C"].points == 3 and rows["C"].played == 1
    assert rows["C"].tiebreaks["buchholz_cut1"] == 0 and rows["C"].tiebreaks["sonneborn_berger"] == 0


def test_the_last_tiebreak_is_a_draw_from_the_tournament_seed():
    ids = [f"e{i}" for i in range(12)]
    log = [Registered(e, e) for e in ids] + [Started(tuple(ids))]
    for seed in ("alpha", "beta"):
        order = [row.entrant_id for row in standings.compute(Settings(draw_key=seed), fold(log))]
        expected = sorted(ids, key=lambda e: hashlib.sha256(f"{seed}:{e}".encode()).hexdigest())
        assert order == expected
