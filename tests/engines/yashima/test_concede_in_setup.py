"""A master whose player resigns during the setup (docs/games/yashima.md, "Resigning" and rules decision
23): the setup goes on with the others, in order, never waiting on them; they are dealt nothing, a
miniature they placed leaves the board, what else they placed stays; the last side left wins."""

from games.engines.yashima import ENGINE, concede
from games.kernel import SYSTEM, Command, Rng, fold

PICKS = [("akiko", "tiger"), ("rosamu", "dragon"), ("kenta", "phoenix"), ("hikaru", "tortoise"),
         ("lu_bu", "akkorokamui"), ("mulan", "foo_dog")]
BOARDS = ["core_1", "core_2", "core_3", "core_4", "fairytale_1", "fairytale_2"]


class Table:
    """A match from its setup; every event is kept, so the whole log can be folded again."""

    def __init__(self, seats, options=None):
        self.log = ENGINE.setup(options or {}, seats, Rng(b"setup", "table"))
        self.state = fold(ENGINE, self.log)
        self.n = 0

    def _take(self, events):
        self.log += events
        self.state = fold(ENGINE, events, self.state)
        return events

    def _system_steps(self):
        while ENGINE.status(self.state).awaiting == [SYSTEM]:
            self.n += 1
            self._take(ENGINE.decide(self.state, Command("proceed", {}, SYSTEM), Rng(b"seed", f"c{self.n}")))

    def do(self, seat, typ, **args):
        self.n += 1
        self._take(ENGINE.decide(self.state, Command(typ, args, seat), Rng(b"seed", f"c{self.n}")))
        self._system_steps()

    def resigns(self, seat, *, then_system=True):
        """``seat``'s master leaves the game (the engine's concede, as the platform asks it)."""
        self.n += 1
        events = self._take(ENGINE.concede(self.state, seat, Rng(b"seed", f"c{self.n}")))
        if then_system:
            self._system_steps()
        return events

    @property
    def awaiting(self):
        return ENGINE.status(self.state).awaiting

    @property
    def step(self):
        return self.state["setup"]["step"]

    def player(self, seat):
        return self.state["players"][seat]

    def pick(self, seat):
        self.do(seat, "pick", master=PICKS[seat][0], kami=PICKS[seat][1])

    def board(self, seat):
        self.do(seat, "choose_board", board=BOARDS[seat], side="a")
        self.do(seat, "place_board", **ENGINE.legal_commands(self.state, seat)[0]["args"])

    def picked_and_boards_placed(self):
        """Every master picks and places a board, in seat order: the miniatures step comes next."""
        seats = range(len(self.state["players"]))
        for seat in seats:
            self.pick(seat)
        for seat in seats:
            self.board(seat)
        return self

    def play_setup_out(self):
        """Every awaited master takes their first legal setup command until the first destiny step:
        the (setup step, seat) of each command, in the order they were awaited."""
        turns = []
        while self.state["phase"] == "setup":
            assert len(self.awaiting) == 1 and self.awaiting[0] != SYSTEM, self.awaiting
            seat = self.awaiting[0]
            cmd = ENGINE.legal_commands(self.state, seat)[0]
            turns.append((cmd["type"], seat))
            self.do(seat, cmd["type"], **cmd["args"])
        return turns


def board_of(t, seat):
    return next((b for b in t.state["boards"] if b["seat"] == seat), None)


# rules: Yashima core, "Game Objective" ("The last one standing claims victory!")
def test_two_masters_the_other_wins_at_once():
    # given a two-master match in its first setup step
    t = Table(2)
    t.pick(0)
    # when seat 1 resigns before picking
    events = t.resigns(1)
    # then seat 0 is the last master in the game and wins at once
    assert [e["type"] for e in events][:1] == ["MasterConceded"]
    assert t.state["phase"] == "over" and t.state["result"] == {"winners": [0], "reason": "last_standing"}
    assert ENGINE.status(t.state).finished and ENGINE.status(t.state).winners == [0]


# rules: Yashima core, "Setting up the Game" 1, 4 and 5 (picks and boards in seat order, miniatures in the opposite
# order of the boards): a master who left the game is passed over at every step
def test_three_masters_the_one_who_resigns_on_their_own_pick_is_passed_over_at_every_step():
    # given a three-master match, awaiting seat 0's pick
    t = Table(3)
    assert t.awaiting == [0]
    # when seat 0 resigns
    t.resigns(0)
    # then the setup goes on at once with seat 1, and then with seat 2 only, at every step
    assert t.awaiting == [1] and not t.state["phase"] == "over"
    assert t.play_setup_out() == [("pick", 1), ("pick", 2), ("choose_board", 1), ("place_board", 1),
                                  ("choose_board", 2), ("place_board", 2), ("place_miniature", 2),
                                  ("place_miniature", 1)]
    # and seat 0 has no master, no board, no miniature and no cards
    left = t.player(0)
    assert left["dead"] and left["master"] is None and left["pos"] is None and board_of(t, 0) is None
    assert all(left[zone] == [] for zone in ("deck", "hand", "karma", "discard"))


# rules: Yashima core, "Setting up the Game" 6-7 (each master's karma pool and hand) and "Destiny Step" (the pool holds
# tokens for the players in the game): a master who left is dealt nothing and takes no part in the first round
def test_the_masters_left_are_dealt_and_the_first_destiny_step_counts_only_them():
    # given a three-master match, seat 2 resigns while seat 0 picks
    t = Table(3)
    t.resigns(2)
    assert t.awaiting == [0]
    # when the setup is played out
    t.play_setup_out()
    # then seats 0 and 1 are dealt their battle decks, karma pools and hands, seat 2 nothing
    for seat in (0, 1):
        assert t.player(seat)["hand"] and t.player(seat)["karma"] and t.player(seat)["deck"]
    assert t.player(2)["hand"] == t.player(2)["deck"] == t.player(2)["karma"] == []
    # and the first destiny step awaits the two masters left
    assert t.state["phase"] == "destiny" and t.state["round"] == 1 and t.awaiting == [0, 1]
    t.do(0, "choose_token", token="move")
    t.do(1, "choose_token", token="attack")
    assert t.state["phase"] == "reconcile" and t.state["pool"] == {"move": 2, "attack": 2}


# rules: Yashima core, "Setting up the Game" 1 (each player chooses a master and a kami) and "Restoration and Winning
# the Game" (a master out of the game takes their things with them): a pick already made stays with the seat
def test_a_master_who_picked_keeps_their_pick_and_the_others_choose_among_the_rest():
    # given a three-master match in which seat 0 picked Akiko and the tiger
    t = Table(3)
    t.pick(0)
    # when seat 0 resigns while seat 1 picks
    t.resigns(0)
    # then seat 1 is still awaited, and neither Akiko nor the tiger is offered again
    assert t.awaiting == [1] and t.player(0)["master"] == "akiko"
    picks = ENGINE.legal_commands(t.state, 1)
    assert picks and all(c["args"]["master"] != "akiko" and c["args"]["kami"] != "tiger" for c in picks)


# rules: Yashima core, "Setting up the Game" 4 ("The next player must place their board adjacent to the previous
# player's board as well as the relic board"): a board chosen but not placed goes back to the box
def test_a_board_chosen_but_not_placed_goes_back_and_the_next_master_places_theirs():
    # given a three-master match where seat 0 placed a board and seat 1 chose one
    t = Table(3)
    for seat in range(3):
        t.pick(seat)
    t.board(0)
    t.do(1, "choose_board", board="core_2", side="b")
    assert t.state["setup"]["choice"] == ["core_2", "b"]
    # when seat 1 resigns before placing it
    t.resigns(1)
    # then seat 2 chooses next, the board seat 1 chose is offered again, and seat 2's board goes next to seat 0's
    assert t.awaiting == [2] and t.state["setup"]["choice"] is None
    assert {"type": "choose_board", "args": {"board": "core_2", "side": "b"}} in ENGINE.legal_commands(t.state, 2)
    t.board(2)
    assert [b["seat"] for b in t.state["boards"]] == [0, 2]
    assert t.step == "mini" and t.awaiting == [2]


# rules: Yashima core, "Restoration and Winning the Game" (killed: "you remove your miniature from the board. You are
# out of the game"); "Setting up the Game" 4 (the boards make up the table): what the master placed on the table stays
def test_a_master_who_placed_their_miniature_leaves_the_board_and_their_terrain_board_stays():
    # given a three-master match in the miniatures step: seat 2 (the last board) placed first, seat 1 is awaited
    t = Table(3).picked_and_boards_placed()
    t.do(2, "place_miniature", **ENGINE.legal_commands(t.state, 2)[0]["args"])
    cell = t.player(2)["pos"]
    assert cell is not None and t.awaiting == [1]
    # when seat 2 resigns
    events = t.resigns(2)
    # then their miniature leaves the board (the space is free again), their terrain board stays, and seat 1 goes on
    assert t.player(2)["pos"] is None and t.player(2)["dead"]
    assert {"type": "MasterMoved", "payload": {"seat": 2, "pos": None, "facing": t.player(2)["facing"], "from": cell}} \
        in [{"type": e["type"], "payload": e["payload"]} for e in events]
    assert board_of(t, 2) is not None and t.state["cells"][cell] == "blank"
    assert t.awaiting == [1]
    assert t.play_setup_out() == [("place_miniature", 1), ("place_miniature", 0)]
    assert t.state["phase"] == "destiny" and t.player(2)["hand"] == []


# rules: Yashima core, "Setting up the Game" 5 (miniatures in the opposite order of the boards): a master awaited for
# their miniature who leaves is passed over; a miniature never placed has no board to leave
def test_a_master_awaited_for_their_miniature_is_passed_over():
    # given a three-master match awaiting seat 2's miniature (the last board placed)
    t = Table(3).picked_and_boards_placed()
    assert t.awaiting == [2]
    # when seat 2 resigns
    events = t.resigns(2)
    # then no miniature of theirs moves, and seat 1 places next
    assert "MasterMoved" not in [e["type"] for e in events]
    assert t.awaiting == [1]


# rules: Yashima core, "Setting up the Game" 6-7 (the deal ends the setup): a master who leaves once every miniature
# is placed, before the deal, is dealt nothing
def test_a_master_who_leaves_before_the_deal_is_dealt_nothing():
    # given a three-master match whose last miniature is placed, the deal not yet taken
    t = Table(3).picked_and_boards_placed()
    for seat in (2, 1):
        t.do(seat, "place_miniature", **ENGINE.legal_commands(t.state, seat)[0]["args"])
    t.n += 1
    t._take(ENGINE.decide(t.state, Command("place_miniature", ENGINE.legal_commands(t.state, 0)[0]["args"], 0),
                          Rng(b"seed", f"c{t.n}")))
    assert t.awaiting == [SYSTEM] and t.step == "done"
    # when seat 1 resigns, then the platform deals
    t.resigns(1)
    # then seats 0 and 2 have their cards, seat 1 none, and the first destiny step awaits seats 0 and 2
    assert t.player(1)["deck"] == t.player(1)["hand"] == [] and t.player(1)["pos"] is None
    assert t.player(0)["hand"] and t.player(2)["hand"]
    assert t.state["phase"] == "destiny" and t.awaiting == [0, 2]


# rules: Yashima core, "Playing a Team Game" ("the winning team being the last one with at least one player standing")
def test_two_against_two_the_team_plays_on_with_its_other_master_and_loses_with_its_last():
    # given a 2-against-2 match (seats 0+2 against 1+3) in its setup
    t = Table(4, {"teams": True})
    t.pick(0)
    # when seat 2 resigns
    t.resigns(2)
    # then the team plays on with seat 0, and the setup passes over seat 2
    assert t.state["phase"] == "setup" and t.awaiting == [1]
    t.pick(1)
    assert t.awaiting == [3]
    # when seat 0 resigns too, their team has no master left: seats 1 and 3 win
    t.resigns(0)
    assert t.state["result"] == {"winners": [1, 3], "reason": "last_standing"}


# rules: Yashima core, "Playing a Team Game" (the last team with at least one player standing wins)
def test_three_against_three_a_team_with_one_master_left_still_plays():
    # given a 3-against-3 match (seats 0+2+4 against 1+3+5) in its setup
    t = Table(6, {"teams": True})
    # when seats 0 and 2 resign
    t.resigns(0)
    t.resigns(2)
    # then the setup goes round seats 1, 3, 4 and 5 at every step, and the first destiny step awaits them
    turns = t.play_setup_out()
    assert [seat for typ, seat in turns if typ == "pick"] == [1, 3, 4, 5]
    assert [seat for typ, seat in turns if typ == "place_board"] == [1, 3, 4, 5]
    assert [seat for typ, seat in turns if typ == "place_miniature"] == [5, 4, 3, 1]
    assert t.state["phase"] == "destiny" and t.awaiting == [1, 3, 4, 5]
    # and when seat 4, their last master, resigns, the other team wins
    t.resigns(4)
    assert t.state["result"] == {"winners": [1, 3, 5], "reason": "last_standing"}


# rules: Yashima core, "Playing a Team Game" (teams of the same size; the last team standing wins)
def test_three_teams_of_two_a_team_without_masters_is_out_and_the_other_two_play_on():
    # given three teams of two (0+3, 1+4, 2+5) in the setup, seat 0 picked
    t = Table(6, {"teams": True, "team_size": 2})
    t.pick(0)
    # when both masters of team 1 (seats 0 and 3) resign
    t.resigns(3)
    t.resigns(0)
    # then the two other teams play on: the setup goes round seats 1, 2, 4 and 5
    assert t.state["phase"] == "setup" and t.awaiting == [1]
    turns = t.play_setup_out()
    assert [seat for typ, seat in turns if typ == "choose_board"] == [1, 2, 4, 5]
    assert t.state["phase"] == "destiny" and t.awaiting == [1, 2, 4, 5]


def test_the_whole_log_folds_to_the_state_the_concessions_left():
    # given a four-master match in which masters resign at three setup steps
    t = Table(4)
    t.pick(0)
    t.resigns(1)
    t.pick(2)
    t.pick(3)
    t.board(0)
    t.do(2, "choose_board", board="core_3", side="a")
    t.resigns(2)
    t.board(3)
    # when the setup is played out
    t.play_setup_out()
    # then the log, folded from the start, is the state the match is in
    assert fold(ENGINE, t.log) == t.state
    assert t.state["phase"] == "destiny" and t.awaiting == [0, 3]


# rules: Yashima core, "Restoration and Winning the Game" (the one way out of the game); the setup passes over a master
# who left (rules decision 23): the engine refuses no master still in the game, only one already out
def test_nothing_in_the_setup_keeps_a_master_from_leaving():
    # given a three-master match at each setup step
    t = Table(3)
    seen = set()
    while t.state["phase"] == "setup":
        seen.add(t.step)
        # then every master still in the game may leave now
        assert all(ENGINE.concede_refusal(t.state, seat) is None for seat in range(3))
        seat = t.awaiting[0]
        cmd = ENGINE.legal_commands(t.state, seat)[0]
        t.do(seat, cmd["type"], **cmd["args"])
    assert seen == {"pick", "board", "mini"}
    # and once one has left, they are refused as already out
    t = Table(3)
    t.resigns(1)
    assert ENGINE.concede_refusal(t.state, 1).code == "already_out" and concede.out_of_play(t.state, 1)
