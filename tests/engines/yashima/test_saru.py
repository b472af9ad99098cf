"""SARU placement and movement by a master flagged ``places_saru`` (Mitsuo of Icy Peaks is not in the
pack: the tests add a flagged copy of an existing master)."""

import pytest

from games.engines.yashima import ENGINE, hexgrid as hx
from games.engines.yashima.content import MASTERS
from games.kernel import SYSTEM, Command, Rng, fold

from .helpers import P, attack, card, pl, prompt, scene

A, FRONT = "0,0", "0,-1"


@pytest.fixture(autouse=True)
def monkey_master(monkeypatch):
    m = dict(MASTERS["kenta"], id="monkey", name="Monkey Master", places_saru=True)
    monkeypatch.setitem(MASTERS, "monkey", m)


def saru(s):
    return {cell: st["SARU"] for cell, st in s.state["spst"].items() if "SARU" in st}


# rules: Yashima Fairytale, "Status Tokens" SARU ("At the beginning of the game ... Mitsuo chooses a space adjacent
# to himself to gain SARU status")
def test_saru_is_placed_next_to_its_master_when_the_game_begins():
    state = fold(ENGINE, ENGINE.setup({}, 2, Rng(b"saru", "setup")))
    n = 0
    while state["phase"] == "setup":
        st = ENGINE.status(state)
        seat = st.awaiting[0]
        cmds = ENGINE.legal_commands(state, seat)
        if seat == SYSTEM:
            cmd = cmds[0]
        elif cmds[0]["type"] == "pick" and seat == 0:
            cmd = next(c for c in cmds if c["args"]["master"] == "monkey")
        elif cmds[0]["type"] == "choose_space":
            assert seat == 0 and ENGINE.view_for(state, 0)["prompts"]["main"]["kind"] == "saru_place"
            pos = state["players"][0]["pos"]
            assert {c["args"]["cell"] for c in cmds} <= set(hx.neighbours(pos)) and len(cmds) >= 2
            cmd = cmds[-1]
            placed = cmd["args"]["cell"]
        else:
            cmd = cmds[0]
        state = fold(ENGINE, ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(b"saru", f"{n}")), state)
        n += 1
    assert state["phase"] == "destiny" and state["players"][1]["hand"]
    assert state["spst"] == {placed: {"SARU": [0]}} and state["supply"]["SARU"] == 0


# rules: Yashima Fairytale, "Status Tokens" SARU ("whenever SARU status is removed, Mitsuo chooses a space adjacent
# to himself to gain SARU status"); Yashima core, "Glossary" PURIFY
def test_removed_saru_comes_back_next_to_its_master():
    s = scene(pl(pos=A, hand=["purifier"]), pl(master="monkey", kami="dragon", pos="3,-3"),
              space_statuses={FRONT: {"SARU": 1}},
              custom={"purifier": card("purifier", atk=0, attack=[{"k": "PURIFY"}])})
    attack(s, 0, "purifier")
    s.when(0, "use_effect", effect="PURIFY")  # the only status in reach: SARU on the targeted space
    pr = prompt(s)
    assert pr["kind"] == "saru_place" and pr["seat"] == 1 and s.status.awaiting == [1]
    assert {c["args"]["cell"] for c in pr["cmds"]} == set(hx.neighbours("3,-3")) & set(s.state["cells"])
    s.when(1, "choose_space", cell="2,-3")
    assert saru(s) == {"2,-3": [1]}


# rules: Yashima Fairytale, "Status Tokens" SARU ("When Mitsuo takes a move action, he may remove SARU status from its
# current space to have a space up to 4 spaces away gain SARU status")
def test_a_move_action_may_send_saru_up_to_four_spaces_away():
    s = scene(pl(master="monkey", pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), space_statuses={FRONT: {"SARU": 0}})
    s.when(0, "move_action")
    pr = prompt(s)
    assert pr["kind"] == "saru_move"
    cells = {c["args"]["cell"] for c in pr["cmds"] if c["type"] == "choose_space"}
    assert "0,-5" in cells and "0,-6" not in cells and FRONT not in cells
    assert A not in cells and "3,-3" not in cells  # occupied spaces cannot gain SARU
    assert {"type": "done", "args": {}} in pr["cmds"]
    s.when(0, "choose_space", cell="0,-5")
    assert saru(s) == {"0,-5": [0]} and s.state["supply"]["SARU"] == 0
    assert prompt(s)["kind"] == "move"  # moved, not removed: no adjacent placement; now the move itself


def test_saru_may_stay_and_others_get_no_saru_choice():
    s = scene(pl(master="monkey", pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), space_statuses={FRONT: {"SARU": 0}})
    s.when(0, "move_action")
    s.when(0, "done")
    assert saru(s) == {FRONT: [0]} and prompt(s)["kind"] == "move"
    other = scene(pl(pos=A), pl(master="monkey", kami="dragon", pos="3,-3"), space_statuses={FRONT: {"SARU": 1}})
    other.when(0, "move_action")
    assert prompt(other)["kind"] == "move"


# rules: Yashima Fairytale, "Status Tokens" SARU ("masters adjacent to SARU status, excluding Mitsuo, must turn and face it")
def test_the_flagged_master_does_not_turn_to_face_saru():
    s = scene(pl(master="monkey", pos=A, facing=0), pl(master="rosamu", kami="dragon", pos="2,0", facing=0),
              space_statuses={"1,0": {"SARU": 0}})
    s.when(0, "take_token", token="move")
    s.when(0, "end_turn")
    assert P(s, 0)["facing"] == 0 and P(s, 1)["facing"] == hx.direction_to("2,0", "1,0")
