"""The game's own steps are SYSTEM steps: a seat's command stops where its decision's consequences end,
so the platform records dealing, the destiny reveal, initiative, the next turn and restoration under
its worker, not under whichever seat happened to complete the previous decision."""

from games.engines.yashima import ENGINE
from games.kernel import SYSTEM, Command, Rng, fold
from games.kernel.scenario import Scenario

from .helpers import CUSTOM, pl

A = "0,0"


def raw(*players, **kw):
    """A scenario that does NOT take SYSTEM steps by itself (unlike helpers.scene)."""
    doc = {"map": {"radius": 5}, "players": list(players), "custom_cards": dict(CUSTOM), "terrain": {}}
    doc.update(kw)
    return Scenario(ENGINE, doc)


def kinds(events):
    return [e["type"] for e in events]


def proceed(s):
    assert s.status.awaiting == [SYSTEM] and s.legal(0) == [] and s.legal(1) == []
    assert s.rejects(0, "end_turn").code == "not_your_turn"
    return s.when(SYSTEM, "proceed")


# rules: Yashima core, "1. Destiny Step" (the tokens are revealed once every player has chosen)
def test_the_destiny_reveal_is_a_system_step():
    s = raw(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), phase="destiny")
    s.when(0, "choose_token", token="attack")
    last = s.when(1, "choose_token", token="move")
    assert "DestinyRevealed" not in kinds(last) and s.state["phase"] == "destiny"
    ev = proceed(s)
    assert "DestinyRevealed" in kinds(ev) and s.state["phase"] == "reconcile"


# rules: Yashima core, "3. Initiative Step" (after reconcile every master reveals for initiative)
def test_initiative_after_the_last_reconcile_is_a_system_step():
    s = raw(pl(pos=A, deck=["high"] + ["plain"] * 9), pl(master="rosamu", kami="dragon", pos="3,-3"), phase="reconcile")
    s.when(0, "end_reconcile")
    last = s.when(1, "end_reconcile")
    assert "InitiativeRevealed" not in kinds(last)
    ev = proceed(s)
    assert kinds(ev).count("InitiativeRevealed") >= 2 and "InitiativeWon" in kinds(ev)
    assert s.state["phase"] == "battle" and s.state["turn"]["seat"] == 0 and s.status.awaiting == [0]


# rules: Yashima core, "Battle Phase" (turns pass to the left; a PLAGUE card on top of the discard pile at the start of a turn)
def test_the_next_masters_turn_begins_in_a_system_step():
    s = raw(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3", discard=["plague"], statuses={"PLAGUE": 1}),
            pool={"move": 1, "attack": 1}, token="move")
    mine = s.when(0, "end_turn")
    assert s.state["turn"]["seat"] == 0 and "Note" not in kinds(mine)
    ev = proceed(s)
    assert s.state["turn"]["seat"] == 1 and s.status.awaiting == [1]
    # seat 1's start-of-turn PLAGUE belongs to the system's step, not to seat 0's end_turn
    assert {"type": "Note", "v": 1, "payload": {"turn": 1, "round": 1}} in ev
    assert [c["d"] for c in s.state["players"][1]["karma"]] == ["plague"]


# rules: Yashima core, "End of Round: Restoration" (each master waiting to restore, in seat order)
def test_each_masters_restoration_starts_in_a_system_step():
    s = raw(pl(pos=A, pending=True, statuses={"BURN": 1}), pl(master="rosamu", kami="dragon", pos="3,-3", pending=True),
            pl(master="kenta", kami="tiger", pos="-3,3"), pl(master="hikaru", kami="phoenix", pos="3,0"),
            pool={"move": 0, "attack": 0}, token="move", turn=2, seen=[2])
    s.when(2, "end_turn")
    proceed(s)  # the round ends; seat 0 restores first and is asked about its status
    assert s.state["phase"] == "restoration" and s.status.awaiting == [0]
    assert s.state["players"][0]["restored"] is False and s.state["players"][1]["restored"] is False
    mine = s.when(0, "restore_keep_statuses")
    assert s.state["players"][0]["restored"] is True
    assert s.state["players"][1]["restored"] is False and not any(e["payload"].get("seat") == 1 for e in mine)
    proceed(s)
    assert s.state["players"][1]["restored"] is True


# rules: Yashima core, "Setting up the Game" (decks are shuffled and hands drawn once every miniature is placed)
def test_dealing_after_setup_is_a_system_step():
    state = fold(ENGINE, ENGINE.setup({}, 2, Rng(b"s", "setup")))
    n = 0
    while ENGINE.status(state).awaiting != [SYSTEM]:
        seat = ENGINE.status(state).awaiting[0]
        cmd = ENGINE.legal_commands(state, seat)[0]
        evs = ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(b"s", f"{n}"))
        assert "DeckShuffled" not in kinds(evs)
        state = fold(ENGINE, evs, state)
        n += 1
    assert state["phase"] == "setup" and all(not p["hand"] for p in state["players"])
    evs = ENGINE.decide(state, Command("proceed", {}, SYSTEM), Rng(b"s", "deal"))
    state = fold(ENGINE, evs, state)
    assert kinds(evs).count("DeckShuffled") == 2 and state["phase"] == "destiny"
    assert all(p["hand"] for p in state["players"])
