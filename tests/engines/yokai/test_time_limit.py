"""A tournament round's time limit: the SYSTEM-only ``time_limit`` command ends the match by the side
nearest to conquest (docs/games/yokai.md, "Time limit")."""

from games.engines.yokai import ENGINE
from games.kernel import SYSTEM

from .helpers import mon, scene


def ended(s):
    return s.status.finished, s.status.winners, s.state["result"]["reason"]


# rules: Yokai Battle, "How to win" (conquest of 5 terrains: more monsters on the board is nearer to it)
def test_more_monsters_on_the_board_wins():
    s = scene(monsters=[mon("0,0", "kodama", 0, lp=1), mon("0,1", "kodama", 0, lp=1), mon("2,2", "daki", 1, lp=8)])
    events = s.when(SYSTEM, "time_limit")
    assert [e["type"] for e in events] == ["GameWon"]
    assert ended(s) == (True, [0], "time_limit")


# rules: Yokai Battle, "How to win" (equal monster counts: the stronger board, by life points, is ahead)
def test_equal_counts_are_broken_by_life_points():
    s = scene(monsters=[mon("0,0", "kodama", 0, lp=2), mon("2,2", "kodama", 1, lp=3)])
    s.when(SYSTEM, "time_limit")
    assert ended(s) == (True, [1], "time_limit")


# rules: Yokai Battle, "How to win" (nobody nearer to conquest: a draw)
def test_equal_boards_draw():
    s = scene(monsters=[mon("0,0", "kodama", 0, lp=2), mon("2,2", "kodama", 1, lp=2)])
    s.when(SYSTEM, "time_limit")
    assert ended(s) == (True, [], "time_limit")


# rules: Yokai Battle, "2 vs 2" (team-mates' monsters count together and they win together)
def test_team_boards_count_together():
    rows = (3, 4, 4, 4)
    board = [["wood"] * n for n in rows]
    s = scene(seats=4, teams=True, board=board,
              monsters=[mon("0,0", "kodama", 0, lp=1), mon("0,1", "kodama", 2, lp=1), mon("3,3", "daki", 1, lp=9)])
    s.when(SYSTEM, "time_limit")
    assert ended(s) == (True, [0, 2], "time_limit")


# rules: Yokai Battle, "How to win" (the game was not won by conquest: the history says the time ran out)
def test_the_history_tells_a_time_limit_win_and_a_draw_apart_from_conquest():
    s = scene(monsters=[mon("0,0", "kodama", 0, lp=2), mon("2,2", "kodama", 1, lp=3)])
    won = s.when(SYSTEM, "time_limit")[0]
    assert ENGINE.describe(won, 0, ["Miko", "Kenji"]) == "The round's time is up: Kenji wins, nearest to conquest"
    s = scene(monsters=[mon("0,0", "kodama", 0, lp=2), mon("2,2", "kodama", 1, lp=2)])
    drawn = s.when(SYSTEM, "time_limit")[0]
    assert ENGINE.describe(drawn, 0, ["Miko", "Kenji"]) == (
        "The round's time is up with every side equally near to conquest: a draw")


def test_time_limit_is_refused_from_every_human_seat():
    s = scene(monsters=[mon("0,0", "kodama", 0, lp=1)])
    for seat in (0, 1):
        assert s.rejects(seat, "time_limit").code == "system_only"
    assert not s.status.finished
    assert all(c["type"] != "time_limit" for seat in (0, 1) for c in s.legal(seat))


def test_time_limit_takes_no_arguments_and_not_after_the_end():
    s = scene()
    assert s.rejects(SYSTEM, "time_limit", winner=0).code == "bad_args"
    assert s.rejects(SYSTEM, "end_turn").code == "nothing_for_the_system"
    s.when(SYSTEM, "time_limit")
    assert s.rejects(SYSTEM, "time_limit").code == "game_over"
