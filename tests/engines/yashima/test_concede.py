"""A master whose player resigns from a game of three sides or more leaves the game as if killed
(``concede.py``, the engine's ``concede`` hook; docs/games/yashima.md, "Resigning"): whatever waited
on them moves on, the turn passes, and the last side left in the game wins."""

import pytest

from games.engines.yashima import ENGINE, concede
from games.kernel import SYSTEM, RuleViolation, Rng, fold

from .helpers import P, attack, defs, pl, prompt, scene

A, FRONT, FAR, OTHER = "0,0", "0,-1", "3,-3", "-3,3"


def concedes(s, seat) -> list:
    """``seat`` resigns, then the SYSTEM steps it leads to are taken (as the platform's worker does)."""
    events = concede.concede(s.state, seat, s.rng())
    s.events.extend(events)
    s.state = fold(ENGINE, events, s.state)
    while s.status.awaiting == [SYSTEM]:
        events = events + s.when(SYSTEM, "proceed")
    return events


def three(*, phase="battle", **kw):
    return scene(pl(pos=A, hand=["plain"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=["block"]),
                 pl(master="kenta", pos=FAR), phase=phase, **kw)


def test_the_log_folds_to_the_same_state():
    # given a three-master battle; when the turn player resigns
    s = three()
    concedes(s, 0)
    # then the whole log, folded from the start, is the state the concession left
    assert fold(ENGINE, s.events) == s.state


# rules: Yashima core, "Restoration and Winning the Game" (killed: "remove your miniature from the board. You are out of the game")
def test_a_conceding_master_leaves_the_board_as_if_killed():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FRONT, statuses={"BURN": 1}),
              pl(master="kenta", pos=FAR))
    burn = s.state["supply"]["BURN"]
    events = concedes(s, 1)
    assert P(s, 1)["dead"] and P(s, 1)["pos"] is None and P(s, 1)["st"] == {}
    assert s.state["supply"]["BURN"] == burn + 1  # the status went back to the supply
    assert "MasterConceded" in [e["type"] for e in events]
    assert concede.out_of_play(s.state, 1) and not concede.out_of_play(s.state, 0)
    # and the history adds nothing to the platform's "bob resigns and leaves the game": one clear line
    assert [ENGINE.describe(e, None, ["ann", "bob", "cy"]) for e in events if e["type"] in ("MasterConceded", "MasterMoved")] == ["", ""]
    # and the others play on: it is still seat 0's turn
    assert not s.status.finished and s.status.awaiting == [0]


# rules: Yashima core, "Battle Phase" (play proceeds to the left) and "Restoration" (a master out of the game takes no turns)
def test_the_turn_of_a_conceding_master_passes_to_the_left():
    s = three()
    concedes(s, 0)
    assert s.state["turn"]["seat"] == 1 and s.status.awaiting == [1]
    assert s.state["pool"] == {"move": 1, "attack": 1}  # the tokens stay in the pool for the others


# rules: Yashima core, "Battle Phase" (the next master to the left skips a master out of the game)
def test_a_conceded_master_is_skipped_in_the_turn_order():
    s = three()
    concedes(s, 1)
    assert s.status.awaiting == [0]
    s.when(0, "take_token", token="move")
    s.when(0, "end_turn")
    assert s.state["turn"]["seat"] == 2


# rules: Fairytale "Attack Action Breakdown" 2.2 (each targeted master may defend): a master out of the game is asked nothing
def test_a_defense_awaiting_the_conceding_master_is_dropped():
    s = three()
    attack(s, 0, "plain")
    assert prompt(s)["seat"] == 1
    concedes(s, 1)
    assert P(s, 1)["discard"] == [] and defs(P(s, 1)["hand"]) == ["block"]  # nothing lost, nothing played
    assert s.status.awaiting == [0] and 1 not in ENGINE.status(s.state).awaiting


# rules: Yashima core, "Destiny Step" (twice as many tokens in the action pool as there are players in the game)
def test_destiny_is_revealed_without_the_conceding_master():
    s = three(phase="destiny")
    s.when(0, "choose_token", token="attack")
    s.when(1, "choose_token", token="attack")
    assert s.status.awaiting == [2]
    concedes(s, 2)
    assert s.state["phase"] != "destiny"
    pool = next(e for e in s.events if e["type"] == "DestinyRevealed")["payload"]["pool"]
    assert pool == {"move": 1, "attack": 3}  # 2 masters: one default token each, plus their own choices


# rules: Yashima core, "Destiny Step" (a master who leaves the game takes their chosen token with them)
def test_a_chosen_destiny_token_leaves_with_its_master():
    s = three(phase="destiny")
    s.when(0, "choose_token", token="attack")
    concedes(s, 0)
    assert "0" not in s.state["destiny"] and s.status.awaiting == [1, 2]
    s.when(1, "choose_token", token="move")
    s.when(2, "choose_token", token="move")
    pool = next(e for e in s.events if e["type"] == "DestinyRevealed")["payload"]["pool"]
    assert pool == {"move": 3, "attack": 1}


# rules: Yashima core, "Reconcile Step" (all players carry out the destiny phase's steps; the initiative step follows)
def test_reconcile_closes_when_the_last_master_still_reconciling_concedes():
    s = three(phase="reconcile")
    s.when(0, "end_reconcile")
    s.when(1, "end_reconcile")
    concedes(s, 2)
    assert s.state["phase"] in ("battle", "initiative") and "2" not in s.state["recon"]
    revealed = [e["payload"]["seat"] for e in s.events if e["type"] == "InitiativeRevealed"]
    assert set(revealed) == {0, 1}  # (ties reveal again)


# rules: Yashima core, "Initiative Step" (each master reveals the top card): a master out of the game reveals none
def test_a_conceding_master_no_longer_contends_for_the_initiative():
    s = three(phase="initiative")
    concedes(s, 1)
    revealed = [e["payload"]["seat"] for e in s.events if e["type"] == "InitiativeRevealed"]
    assert set(revealed) == {0, 2}
    assert s.state["phase"] == "battle" and s.state["turn"]["seat"] in (0, 2)


# rules: Yashima core, "Restoration and Winning the Game" (the last side with a master in the game wins)
def test_when_one_master_is_left_in_the_game_it_wins():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=None, dead=True, deck=[]), pl(master="kenta", pos=FAR))
    concedes(s, 2)
    assert s.status.finished and s.status.winners == [0] and s.state["result"]["reason"] == "last_standing"


# rules: Yashima core, "Playing a Team Game" (the winning team is the last one with at least one player standing)
def test_a_team_plays_on_while_one_of_its_masters_is_in_the_game():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FAR), pl(master="kenta", pos=OTHER),
              pl(master="hikaru", kami="phoenix", pos="3,0"), pl(master="akiko", kami="dragon", pos="-3,0"),
              pl(master="kenta", kami="tiger", pos="0,3"), teams=[0, 1, 2, 0, 1, 2])
    concedes(s, 2)
    assert not s.status.finished
    concedes(s, 5)  # team 2 has no master left: teams 0 and 1 play on
    assert not s.status.finished
    concedes(s, 1)
    concedes(s, 4)
    assert s.status.finished and s.status.winners == [0, 3]


# rules: Yashima core, "Returning cards" (tome cards to their owner's tome, battle cards to the bottom of the owner's deck)
def test_another_masters_cards_go_back_to_their_owner():
    trap = "tome:mulan:0:front"
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FAR, deck=["plain", {"d": "low", "o": 0, "im": True, "bl": True}]),
              pl(master="mulan", kami="tiger", pos=OTHER, tome_out=[0]), custom={})
    P(s, 1)["deck"].append({"id": "trap", "d": trap, "o": 2, "im": True})
    before = len(P(s, 0)["deck"])
    concedes(s, 1)
    assert defs(P(s, 1)["deck"]) == ["plain"]
    assert len(P(s, 0)["deck"]) == before + 1 and P(s, 0)["deck"][-1]["d"] == "low" and not P(s, 0)["deck"][-1].get("bl")
    assert P(s, 2)["tome"]["out"] == []


def test_a_master_out_of_the_game_cannot_concede():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=None, dead=True, deck=[]), pl(master="kenta", pos=FAR))
    with pytest.raises(RuleViolation) as out:
        concede.concede(s.state, 1, s.rng())
    assert out.value.code == "already_out"


# rules: Yashima core, "Restoration and Winning the Game" (the one way out of the game): the engine says why it would
# refuse, by the rule concede uses (the setup refuses nobody: test_concede_in_setup.py)
def test_the_engine_says_when_a_master_cannot_concede_without_deciding_it():
    # given a three-master game in its setup, and one in its battle phase with a dead master
    setup = fold(ENGINE, ENGINE.setup({}, 3, Rng(b"seed", "setup")))
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=None, dead=True, deck=[]), pl(master="kenta", pos=FAR))
    # when the platform asks whether a master may concede now
    # then a master already out is refused with concede's own code; a master in play is not, in the setup neither
    assert ENGINE.concede_refusal(s.state, 1).code == "already_out"
    assert ENGINE.concede_refusal(s.state, 0) is None
    assert ENGINE.concede_refusal(setup, 0) is None


# rules: Yashima core, "Restoration and Winning the Game" (restoration at the end of the round): a master who leaves
# the game while restoring restores no more, and the next round's destiny step counts only the masters left
def test_a_master_leaving_during_their_restoration_is_not_waited_for():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FAR, deck=[], hand=[], pending=True,
                            discard=["plain"] * 6, statuses={"BURN": 1}),
              pl(master="kenta", pos=OTHER), phase="end_of_round")
    s.when(SYSTEM, "proceed")
    assert prompt(s)["seat"] == 1 and prompt(s)["kind"] == "restore_statuses"
    concedes(s, 1)
    assert s.state["phase"] == "destiny" and s.status.awaiting == [0, 2]
    assert not P(s, 1)["restored"] and P(s, 1)["dead"]


# rules: Fairytale "Attack Action Breakdown" (the attack resolves step by step): an attack whose master leaves the game
# is called off, and the defender is asked nothing more
def test_an_attack_of_the_conceding_master_is_called_off():
    s = three()
    attack(s, 0, "plain")
    assert prompt(s)["seat"] == 1
    concedes(s, 0)
    assert prompt(s) is None and defs(P(s, 1)["hand"]) == ["block"] and P(s, 1)["discard"] == []
    assert s.state["turn"]["seat"] == 1 and s.status.awaiting == [1]
