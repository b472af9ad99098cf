"""Five and six masters: setup around all the relic board's slots, team games of 3 against 3 and of
three teams of two, and what each of six seats may see (docs/games/yashima.md, "Five and six masters")."""

import json

import pytest

from games.engines.yashima import ENGINE, hexgrid as hx
from games.engines.yashima.content import BOARDS, KAMI, MASTERS
from games.kernel import Rng, RuleViolation, fold

from .helpers import P, attack, pl, scene
from .test_setup_content_views import Game

SIX_PICKS = [("akiko", "tortoise"), ("rosamu", "tiger"), ("kenta", "akkorokamui"), ("hikaru", "foo_dog"),
             ("lu_bu", "phoenix"), ("mulan", "dragon")]
A, FRONT = "0,0", "0,-1"
FAR = ["3,-3", "-3,3", "3,0", "-3,0"]


def set_up(seats, options=None):
    return Game(fold(ENGINE, ENGINE.setup(options or {}, seats, Rng(b"six", "setup"))))


def pick_and_place_boards(g, seats):
    for seat in range(seats):
        g.do(seat, "pick", master=SIX_PICKS[seat][0], kami=SIX_PICKS[seat][1])
    for seat in range(seats):
        board = sorted(BOARDS)[seat]
        g.do(seat, "choose_board", board=board, side="a")
        slot = ENGINE.legal_commands(g.state, seat)[0]["args"]["slot"]
        g.do(seat, "place_board", slot=slot, rotation=0)


def place_miniatures(g, seats):
    order = []
    for _ in range(seats):
        seat = ENGINE.status(g.state).awaiting[0]
        order.append(seat)
        g.do(seat, "place_miniature", **ENGINE.legal_commands(g.state, seat)[0]["args"])
    return order


# rules: Yashima core, "Setting up the Game" note ("If you have more than one set of Yashima, or expansions, more
# players can be added!") and 1 (each player chooses a master and a kami)
def test_the_core_and_fairytale_boxes_seat_six_masters_with_their_own_master_kami_and_board():
    assert ENGINE.max_seats == 6 and len(MASTERS) >= 6 and len(KAMI) >= 6 and len(BOARDS) >= 6
    for seats in (5, 6):
        ENGINE.validate_options({}, seats)
    with pytest.raises(RuleViolation) as refused:
        ENGINE.validate_options({}, 7)
    assert refused.value.code == "bad_seats"


# rules: Yashima core, "Setting up the Game" 1 (picks from the oldest player to the left) with six masters
def test_six_seats_pick_six_distinct_masters_and_all_six_kami():
    # given a six-seat match whose first five seats have picked
    g = set_up(6)
    for seat in range(5):
        g.do(seat, "pick", master=SIX_PICKS[seat][0], kami=SIX_PICKS[seat][1])
    # when the sixth seat picks, then only the last kami and the three masters still free are offered
    picks = ENGINE.legal_commands(g.state, 5)
    assert {c["args"]["kami"] for c in picks} == {"dragon"}
    assert {c["args"]["master"] for c in picks} == set(MASTERS) - {m for m, _ in SIX_PICKS[:5]}


# rules: Yashima core, "Setting up the Game" 4 (boards adjacent to the relic board and the previous board; the
# relic board has six slots)
@pytest.mark.parametrize("seats", [5, 6])
def test_five_and_six_boards_go_round_the_relic_board_each_next_to_the_previous(seats):
    # given a match of five or six seats
    g = set_up(seats)
    # when every seat places a board where the rules allow
    pick_and_place_boards(g, seats)
    # then the boards fill consecutive slots, each touching the relic board and the board before it
    slots = [b["slot"] for b in g.state["boards"]]
    assert len(set(slots)) == seats
    assert all(hx.slots_adjacent(a, b) for a, b in zip(slots, slots[1:]))
    relic = hx.hexagon(hx.BOARD_RADIUS)
    for b in g.state["boards"]:
        assert any(hx.distance(c, r) == 1 for c in b["cells"] for r in relic)
    assert len({c for b in g.state["boards"] for c in b["cells"]}) == 19 * seats  # no two boards overlap


# rules: Yashima core, "Setting up the Game" 4 (the sixth board takes the last slot, next to the fifth and the first)
def test_the_sixth_board_has_only_the_last_slot_left():
    # given six seats whose first five boards are down
    g = set_up(6)
    for seat in range(6):
        g.do(seat, "pick", master=SIX_PICKS[seat][0], kami=SIX_PICKS[seat][1])
    for seat in range(5):
        g.do(seat, "choose_board", board=sorted(BOARDS)[seat], side="b")
        g.do(seat, "place_board", slot=seat, rotation=seat)
    # when the sixth seat chooses a board, then the seventh board of the two boxes is still free to choose
    assert {c["args"]["board"] for c in ENGINE.legal_commands(g.state, 5)} == set(sorted(BOARDS)[5:])
    g.do(5, "choose_board", board=sorted(BOARDS)[6], side="a")
    # and only slot 6 (index 5) is left to place it
    assert {c["args"]["slot"] for c in ENGINE.legal_commands(g.state, 5)} == {5}


# rules: Yashima core, "Setting up the Game" 5-7 (miniatures in the opposite order of the boards; karma pool and hand)
@pytest.mark.parametrize("seats", [5, 6])
def test_miniatures_go_down_last_board_first_then_every_master_is_dealt(seats):
    # given five or six boards placed in seat order
    g = set_up(seats)
    pick_and_place_boards(g, seats)
    # when the miniatures are placed
    order = place_miniatures(g, seats)
    # then the last to place a board placed first, each on their own board, and every master was dealt
    assert order == list(reversed(range(seats)))
    state = g.state
    assert state["phase"] == "destiny" and state["round"] == 1
    assert ENGINE.status(state).awaiting == list(range(seats))  # destiny: all seats at once
    for seat, p in enumerate(state["players"]):
        board = next(b for b in state["boards"] if b["seat"] == seat)
        assert p["pos"] in board["cells"]
        front = MASTERS[p["master"]]["avatar"]["front"]
        assert len(p["karma"]) == front["karma"] and len(p["hand"]) == front["hand"]
        assert len(p["deck"]) + len(p["karma"]) + len(p["hand"]) == KAMI[p["kami"]]["deck_size"] + 10


# rules: Yashima core, "1. Destiny Step" (one default token per master, plus each master's secret one): twelve
# tokens for six masters, the two boxes' twelve action tokens
def test_six_masters_fill_the_pool_with_twelve_tokens():
    s = scene(*[pl(master=m, kami=k, pos=([A, FRONT] + FAR)[i]) for i, (m, k) in enumerate(SIX_PICKS)], phase="destiny")
    for seat in range(6):
        s.when(seat, "choose_token", token="attack")
    assert s.state["pool"] == {"move": 3, "attack": 9}


# rules: Yashima core, "Playing a Team Game" ("make sure teams have the same number of players ... players of the
# same team sit across from each other, not adjacent to each other")
@pytest.mark.parametrize("options, seats, teams", [
    ({"teams": True}, 4, [[0, 2], [1, 3]]),
    ({"teams": True, "team_size": 2}, 4, [[0, 2], [1, 3]]),
    ({"teams": True}, 6, [[0, 2, 4], [1, 3, 5]]),
    ({"teams": True, "team_size": 3}, 6, [[0, 2, 4], [1, 3, 5]]),
    ({"teams": True, "team_size": 2}, 6, [[0, 3], [1, 4], [2, 5]]),
    ({}, 5, [[0], [1], [2], [3], [4]]),
    ({}, 6, [[0], [1], [2], [3], [4], [5]]),
])
def test_team_mates_are_never_side_by_side(options, seats, teams):
    # given a table's options, when it is set up
    state = fold(ENGINE, ENGINE.setup(options, seats, Rng(b"teams", "setup")))
    # then the teams are the expected ones, of one size, and no two team-mates sit next to each other
    assert ENGINE.teams(options, seats) == teams
    assert ENGINE.sides(state, seats) == teams
    assert len({len(t) for t in teams}) == 1
    for seat in range(seats):
        assert state["teams"][seat] != state["teams"][(seat + 1) % seats]


# rules: Yashima core, "Playing a Team Game" (teams of the same size, team-mates never adjacent; 5 seats: no teams)
@pytest.mark.parametrize("options, seats, message", [
    ({"teams": True}, 5, "team games need teams of the same size: 4 seats (2 against 2) or 6 seats (teams of 3 or 2)"),
    ({"teams": True}, 3, "team games need teams of the same size: 4 seats (2 against 2) or 6 seats (teams of 3 or 2)"),
    ({"teams": True}, 2, "team games need teams of the same size: 4 seats (2 against 2) or 6 seats (teams of 3 or 2)"),
    ({"teams": True, "team_size": 3}, 4, "4 seats cannot make teams of 3: teams of 2 need 4 or 6 seats, teams of 3 need 6"),
    ({"teams": True, "team_size": 2}, 5, "5 seats cannot make teams of 2: teams of 2 need 4 or 6 seats, teams of 3 need 6"),
    ({"team_size": 3}, 6, "team_size needs teams: true"),
    ({"teams": False, "team_size": 2}, 4, "team_size needs teams: true"),
    ({"teams": True, "team_size": 6}, 6, "team_size must be 2 or 3"),
    ({"teams": True, "team_size": 1}, 6, "team_size must be 2 or 3"),
    ({"teams": True, "team_size": True}, 6, "team_size must be 2 or 3"),
    ({"teams": True, "team_size": "3"}, 6, "team_size must be 2 or 3"),
    ({"teams": True, "team_size": 3.0}, 6, "team_size must be 2 or 3"),
])
def test_team_options_that_cannot_seat_the_table_are_refused(options, seats, message):
    with pytest.raises(RuleViolation) as refused:
        ENGINE.validate_options(options, seats)
    assert (refused.value.code, refused.value.message) == ("bad_options", message)
    with pytest.raises(RuleViolation):
        ENGINE.setup(options, seats, Rng(b"teams", "setup"))


def test_the_lobby_form_reads_the_team_options_from_the_schema():
    props = ENGINE.options_schema["properties"]
    assert props["teams"]["type"] == "boolean" and props["teams"]["title"] == "Teams"
    assert props["team_size"]["enum"] == [2, 3] and props["team_size"]["title"] == "Team size"
    assert set(props["team_size"]["x-labels"]) == {"2", "3"}


def six_masters(**kw):
    """Seat 0 at A with a lethal attack; seat 1 in front of it with 3 cards of life; the others far away."""
    players = [pl(pos=A, hand=["seven"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain"] * 3)]
    players += [pl(master=m, kami=k, pos=FAR[i], **kw.pop(f"p{i + 2}", {})) for i, (m, k) in enumerate(SIX_PICKS[2:])]
    return scene(*players, **kw)


# rules: Yashima core, "Playing a Team Game" ("the winning team being the last one with at least one player standing")
def test_three_against_three_the_last_team_standing_wins():
    # given 3 against 3 (seats 0, 2, 4 against 1, 3, 5) where seats 3 and 5 have already restored
    s = six_masters(options={"teams": True}, p3={"restored": True}, p5={"restored": True})
    assert s.state["teams"] == [0, 1, 0, 1, 0, 1]
    # when seat 0 depletes seat 1, the last standing master of the other team, and ends the turn
    attack(s, 0, "seven")
    assert P(s, 1)["pending"] and not s.status.finished
    s.when(0, "end_turn")
    # then the whole team wins, its seats who took no part included
    assert s.status.finished and s.status.winners == [0, 2, 4] and s.state["result"]["reason"] == "last_standing"


# rules: Yashima core, "Playing a Team Game" (a team with one master standing is still in the game)
def test_three_against_three_goes_on_while_one_master_of_each_team_stands():
    s = six_masters(options={"teams": True}, p5={"restored": True})
    attack(s, 0, "seven")
    s.when(0, "end_turn")
    assert not s.status.finished and s.state["turn"]["seat"] == 2  # seat 1 is about to restore: skipped


# rules: Yashima core, "Playing a Team Game" (three teams of two across the table: the last team standing wins)
def test_three_teams_of_two_play_until_one_team_is_left():
    # given three teams of two (0+3, 1+4, 2+5) where seat 4 has restored
    s = six_masters(options={"teams": True, "team_size": 2}, p4={"restored": True})
    assert s.state["teams"] == [0, 1, 2, 0, 1, 2]
    # when seat 0 depletes seat 1, then seat 1's team is out but the game goes on between the other two
    attack(s, 0, "seven")
    s.when(0, "end_turn")
    assert not s.status.finished and s.state["turn"]["seat"] == 2


def test_three_teams_of_two_the_last_team_standing_wins():
    s = six_masters(options={"teams": True, "team_size": 2}, p2={"restored": True}, p4={"restored": True},
                    p5={"restored": True})
    attack(s, 0, "seven")
    s.when(0, "end_turn")
    assert s.status.finished and s.status.winners == [0, 3]


# rules: kernel contract, "Hidden information" (each of six seats sees its own hand only)
def test_six_seats_each_see_only_their_own_hand_and_draw():
    s = scene(*[pl(master=m, kami=k, pos=([A, FRONT] + FAR)[i], hand=["plain", "low"], deck=["mid", "high"])
                for i, (m, k) in enumerate(SIX_PICKS)], phase="reconcile")
    drawn = s.when(5, "draw")
    moved = next(e for e in drawn if e["type"] == "CardMoved")
    for viewer in list(range(6)) + [None]:
        view = ENGINE.view_for(s.state, viewer)
        text = json.dumps(view) + json.dumps([ENGINE.redact_event(e, viewer) for e in drawn])
        for owner in range(6):
            hidden = {c["id"] for c in P(s, owner)["hand"] + P(s, owner)["deck"]}
            if owner == viewer:
                assert "hand" in view["players"][owner]
                continue
            assert "hand" not in view["players"][owner] and view["players"][owner]["hand_count"] == len(P(s, owner)["hand"])
            assert not any(i in text for i in hidden), (viewer, owner)
        payload = ENGINE.redact_event(moved, viewer)["payload"]
        assert ("card" in payload) == (viewer == 5)
