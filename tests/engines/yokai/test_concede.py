"""A player who resigns from a game of three sides or more leaves it and the others play on
(``actions.concede``; docs/games/yokai.md, "Resigning")."""

import pytest

from games.engines.yokai import ENGINE
from games.engines.yokai import bot
from games.engines.yokai import rules as R
from games.kernel import SYSTEM, RuleViolation, Rng, fold

from .helpers import grid, mon, scene

ROWS3 = (3, 4, 4)


def three(**kw):
    kw.setdefault("board", grid(rows=ROWS3))
    return scene(seats=3, **kw)


def concedes(s, seat) -> list:
    events = ENGINE.concede(s.state, seat, Rng(b"unused", "concede"))
    s.events.extend(events)
    s.state = fold(ENGINE, events, s.state)
    return events


def test_the_log_folds_to_the_same_state():
    s = three(monsters=[mon("0,0", "kodama", 1, lp=3)])
    concedes(s, 1)
    assert fold(ENGINE, s.events) == s.state


# rules: Yokai Battle, "Game mode" (2 or 3 players: every man for himself) and "How to win" (conquest needs 5 of
# your monsters on the board): a player who leaves takes their monsters off the board, and nothing of theirs triggers
def test_a_departing_players_monsters_leave_the_board_for_their_pile():
    s = three(monsters=[mon("0,0", "kodama", 1, lp=3), mon("1,1", "akuro_jin_no_hi", 1, lp=1), mon("2,2", "gaki", 0, lp=3)])
    events = concedes(s, 1)
    assert sorted(s.state["monsters"]) == ["2,2"]
    assert sorted(s.state["players"][1]["discard"]) == ["akuro_jin_no_hi", "kodama"]
    assert [e["type"] for e in events] == ["PlayerConceded"]  # no "when killed" ability, no pending choice
    assert s.state["out"] == [1] and ENGINE.out_of_play(s.state, 1) and not ENGINE.out_of_play(s.state, 0)
    assert ENGINE.describe(events[0], None, ["ann", "bob", "cy"]) == "bob leaves the game: 2 monsters leave the board"
    assert s.status.awaiting == [0] and not s.status.finished


# rules: Yokai Battle, "Player's turn order" (turns go clockwise): the turn of a player who left passes to the next
def test_the_turn_of_a_departing_player_passes_on_and_they_are_skipped_after():
    s = three(turn=1)
    events = concedes(s, 1)
    assert [e["type"] for e in events] == ["PlayerConceded", "TurnEnded", "TurnStarted"]
    assert s.status.awaiting == [2] and s.state["players"][1]["hand"] == []  # nothing drawn for them
    # seat 2 ends the turn: the round goes round to seat 0, then seat 0 hands on to seat 2, not 1
    rnd = s.state["round"]
    s.when(2, "end_turn")
    assert s.state["turn"] == 0 and s.state["round"] == rnd + 1
    s.when(0, "end_turn")
    assert s.state["turn"] == 2 and s.state["round"] == rnd + 1


# rules: Yokai Battle, "Course of a round" (the round ends when the last player in clockwise order has played)
def test_a_round_still_ends_when_the_first_seat_has_left():
    s = three(turn=2)
    concedes(s, 0)
    rnd = s.state["round"]
    s.when(2, "end_turn")
    assert s.state["turn"] == 1 and s.state["round"] == rnd + 1


# rules: Yokai Battle, monster abilities ("When summoned, ... the freshly summoned monster attacks"): a choice the leaving
# player still had to make is dropped; one that targeted only their monsters has nothing left to choose and is skipped
def test_what_waits_on_a_departing_player_is_dropped():
    s = three(monsters=[mon("1,1", "kodama", 2, lp=3)], hands={"0": [{"card": "gaki", "id": "g"}]})
    s.when(0, "summon", card="g", terrain="1,0", orientation="vertical")
    assert s.state["pending"] and s.status.awaiting == [0]  # the summoning attack on seat 2's monster
    concedes(s, 2)
    assert s.state["pending"] == [] and s.status.awaiting == [0]


# rules: Yokai Battle, "How to win" ("Have the opposing players draw a card when their deck is empty"): only the
# players still in the game share the win
def test_a_player_who_left_does_not_share_a_deck_out_win():
    s = three(decks={"0": [], "1": ["gaki"], "2": ["gaki"]}, turn=1)
    concedes(s, 1)
    s.when(2, "end_turn")
    s.when(0, "end_turn")
    assert s.status.finished and s.status.winners == [2]


# rules: Yokai Battle, "Game mode" (every man for himself): the last player left in the game wins
def test_the_last_player_left_wins():
    s = three()
    concedes(s, 1)
    assert not s.status.finished
    events = concedes(s, 0)
    assert s.status.finished and s.status.winners == [2] and s.state["result"]["reason"] == "last_standing"
    assert ENGINE.describe(events[-1], None, ["ann", "bob", "cy"]) == "cy wins: every other player has left the game"


# rules: Yokai Battle, wood ability ("When killed, the opposing player cannot draw"): only a player still in the game
def test_a_departed_player_is_no_longer_an_opponent_to_choose():
    s = three(monsters=[mon("0,0", "kodama", 1, lp=3)])
    concedes(s, 2)
    assert R.pending_options(s.state, {"kind": "block_draw", "seat": 0}) == [1]


def test_a_player_who_left_cannot_leave_again():
    s = three()
    concedes(s, 1)
    with pytest.raises(RuleViolation) as again:
        ENGINE.concede(s.state, 1, Rng(b"unused", "again"))
    assert again.value.code == "already_out"


# rules: Yokai Battle, "How to win" (conquest) and the project's time limit (docs/games/yokai.md, "Time limit"): a side
# with nobody left in the game is not scored, so the two players left level with each other draw
def test_a_player_who_left_is_not_scored_at_the_time_limit():
    s = three(monsters=[mon("0,0", "kodama", 0, lp=3), mon("2,3", "kodama", 1, lp=3)])
    concedes(s, 2)
    s.when(SYSTEM, "time_limit")
    assert s.status.finished and s.status.winners == []


# rules: Yokai Battle, "Player's turn order": the bot no longer fears a rival who left (it takes no more turns)
def test_the_bot_counts_no_turn_for_a_player_who_left():
    s = three(turn=0)
    concedes(s, 1)
    assert bot._upcoming(s.state, 2) == [0]
