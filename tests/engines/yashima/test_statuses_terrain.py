"""Statuses (limits, supplies, timing) and terrain."""

from games.engines.yashima import queries
from games.engines.yashima.state import Sim
from games.engines.yashima import ops
from games.kernel import SYSTEM, Rng

from .helpers import P, attack, card, defs, hid, pl, prompt, scene, types

A = "0,0"


def initiative(*players, **kw):
    s = scene(*players, phase="initiative", **kw)
    assert s.status.awaiting == [SYSTEM]
    s.when(SYSTEM, "proceed")
    return s


# rules: Yashima core, "Status Tokens" BURN and "Initiative Step" (karma 5+ removes BURN and BLIND; otherwise BURN deals 1)
# rules: Yashima core, "Initiative Step" ("When you meet the conditions for removing a status, you must remove that status")
def test_burn_and_blind_at_initiative():
    s = initiative(pl(pos=A, deck=["low", "plain", "plain"], statuses={"BURN": 1}),
                   pl(master="rosamu", kami="dragon", pos="3,-3", deck=["high", "plain"], statuses={"BURN": 1, "BLIND": 1}))
    assert P(s, 1)["st"] == {}
    assert P(s, 0)["st"] == {"BURN": [0]} and defs(P(s, 0)["discard"]) == ["plain"]
    assert s.state["last_init"] == 1 and s.state["turn"]["seat"] == 1


# rules: Yashima core, "Status Tokens" BURN (a master without BURN entering a burning space takes the BURN from it)
def test_burn_picked_up_from_a_space():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), space_statuses={"0,1": {"BURN": 1}, "0,2": {"BURN": 1}})
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    assert P(s, 0)["st"] == {"BURN": [1]} and "0,1" not in s.state["spst"]
    s.when(0, "step", to="0,2")  # already burning: the space keeps its BURN
    assert P(s, 0)["st"] == {"BURN": [1]} and s.state["spst"]["0,2"] == {"BURN": [1]}


# rules: Yashima core, "Status Tokens" (no more than one BURN per master or space; out of tokens: no status)
def test_status_limits_and_supply():
    s = scene(pl(pos=A, statuses={"BURN": 1}), pl(master="rosamu", kami="dragon", pos="3,-3"), supply={"BLIND": 0})
    sim = Sim(s.state, Rng(b"t", "t"))
    assert not ops.gain_master(sim, 0, "BURN", 1)
    assert not ops.gain_master(sim, 1, "BLIND", 0)
    assert not ops.gain_master(sim, 1, "SARU", 0)  # SARU only goes on spaces
    assert ops.gain_master(sim, 1, "SHOCK", 0) and ops.gain_master(sim, 1, "SHOCK", 0)
    assert not ops.gain_master(sim, 1, "SHOCK", 0)  # SHOCK: at most two (project limit)
    assert ops.gain_master(sim, 1, "CHI", 0) and ops.gain_master(sim, 1, "CHI", 0) and ops.gain_master(sim, 1, "CHI", 0)
    assert not ops.gain_master(sim, 1, "CHI", 0)


# rules: Yashima core, "Status Tokens" ("the owner of the status chooses which order the statuses are placed")
def test_owner_chooses_order_when_supply_is_short():
    s = scene(pl(pos=A, hand=["blinder"]), pl(master="rosamu", kami="dragon", pos="-1,0", facing=2),
              pl(master="kenta", kami="tiger", pos="0,-1", facing=3), supply={"BLIND": 1},
              custom={"blinder": card("blinder", atk=1, pattern="arc", attack=[{"k": "BLIND"}])})
    attack(s, 0, "blinder")
    s.when(0, "use_effect", effect="BLIND")
    assert prompt(s)["kind"] == "place_status"
    s.when(0, "place_status", on="master", who=2)
    assert P(s, 2)["st"] == {"BLIND": [0]} and P(s, 1)["st"] == {} and s.state["supply"]["BLIND"] == 0


# rules: Yashima core, "Status Tokens" RANCOR ("On your first turn of a round, if you have RANCOR status, remove RANCOR")
def test_rancor_removed_on_first_turn():
    s = initiative(pl(pos=A, deck=["high", "plain"], statuses={"RANCOR": 1}),
                   pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain"], statuses={"RANCOR": 1}))
    assert P(s, 0)["st"] == {} and P(s, 1)["st"] == {"RANCOR": [1]}
    s.when(0, "take_token", token="move")
    s.when(0, "end_turn")
    assert P(s, 1)["st"] == {}


# rules: Yashima core, "Status Tokens" SPIRIT ("HAND +1 and SPEED +1")
def test_spirit():
    s = scene(pl(pos=A, statuses={"SPIRIT": 1}), pl(master="rosamu", kami="dragon", pos="3,-3"))
    st = queries.stats(s.state, 0)
    assert queries.hand_size(s.state, 0) == st["hand"] + 1 and queries.speed(s.state, 0) == st["speed"] + 1


# rules: Yashima Fairytale, "Lu Bu" SHOCK (project definition: HAND -1 per SHOCK, removed after the reconcile step)
def test_shock_hand_size():
    s = scene(pl(pos=A, statuses={"SHOCK": 2}), pl(master="rosamu", kami="dragon", pos="3,-3"))
    assert queries.hand_size(s.state, 0) == queries.stats(s.state, 0)["hand"] - 2


# rules: Yashima Fairytale, "Status Tokens" SARU ("At the end of every turn, masters adjacent to SARU status ... must turn and face it")
def test_saru_turns_adjacent_masters():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3", facing=0), pl(master="kenta", pos="-3,3"),
              space_statuses={"3,-2": {"SARU": 0}})
    s.when(0, "take_token", token="move")
    s.when(0, "end_turn")
    assert P(s, 1)["facing"] == 3


# rules: Yashima Fairytale, "Status Tokens" FROST ("During the initiative step, a master with FROST status may pay 4 karma to remove FROST")
def test_frost_pay_four_at_initiative():
    s = scene(pl(pos=A, deck=["high", "plain"], karma=["mid", "low"], statuses={"FROST": 1}),
              pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain"]), phase="initiative")
    s.when(SYSTEM, "proceed")
    assert prompt(s)["kind"] == "frost" and s.status.awaiting == [0]
    s.when(0, "pay_frost")
    assert P(s, 0)["st"] == {} and defs(P(s, 0)["karma"]) == ["low", "high"]


# rules: Yashima Fairytale, "Status Tokens" FROST ("A master with FROST status is EXHAUSTED") and core
# "3. Initiative Step" ("Place the top card of your battle deck face up into your karma pool"; "An
# EXHAUSTED player ... has a karma value of 0"): the card is placed (not an EXERT) but counts 0
def test_frost_exhausted_at_initiative():
    s = initiative(pl(pos=A, deck=["seven", "plain"], statuses={"FROST": 1}),
                   pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain"]))
    assert s.state["last_init"] == 1 and defs(P(s, 0)["karma"]) == ["seven"]


# rules: Yashima core, "3. Initiative Step" ("An EXHAUSTED player (a player with no battle deck
# remaining) has a karma value of 0") and BURN ("if a master with BURN status reveals a karma of 5 or
# higher, they remove BURN status. Otherwise they take 1 damage")
def test_exhausted_master_with_burn_takes_one_damage_at_initiative():
    s = initiative(pl(pos=A, deck=[], hand=["plain", "low"], statuses={"BURN": 1}),
                   pl(master="rosamu", kami="dragon", pos="3,-3", deck=["high", "plain"]))
    assert prompt(s)["kind"] == "lose" and prompt(s)["seat"] == 0
    s.when(0, "lose_card", zone="hand", card=hid(s, 0, "low"))
    assert defs(P(s, 0)["hand"]) == ["plain"] and defs(P(s, 0)["discard"]) == ["low"]
    assert P(s, 0)["st"] == {"BURN": [0]}


# rules: Yashima Fairytale, FROST ("A master with FROST status is EXHAUSTED"), BURN and BLIND ("if a
# master ... reveals a karma of 5 or higher, they remove" it) and core "3. Initiative Step" (an EXHAUSTED
# player has a karma value of 0): a FROSTed master's karma 7 card counts 0, so BURN deals 1 and stays
def test_frosted_master_keeps_burn_and_blind_and_takes_burn_damage():
    s = initiative(pl(pos=A, deck=["seven", "plain", "plain"], statuses={"BURN": 1, "BLIND": 1, "FROST": 1}),
                   pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain"]))
    assert defs(P(s, 0)["karma"]) == ["seven"] and defs(P(s, 0)["discard"]) == ["plain"]
    assert set(P(s, 0)["st"]) == {"BURN", "BLIND", "FROST"}
    assert s.state["last_init"] == 1


# rules: Yashima Fairytale, "Status Tokens" PLAGUE (start of turn: a PLAGUE card on top of your discard goes to karma; PLAGUE masters take 1)
def test_plague():
    s = initiative(pl(pos=A, deck=["high", "plain"], discard=["plague"], statuses={"PLAGUE": 1}),
                   pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain", "plain"], statuses={"PLAGUE": 1}))
    assert "plague" in defs(P(s, 0)["karma"])
    assert len(P(s, 1)["discard"]) == 1 and len(P(s, 0)["discard"]) == 1


# rules: Yashima core, "Terrain" ARDUOUS (two speed to enter; one or fewer left: cannot)
def test_arduous():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,1": "arduous", "0,-1": "arduous"})
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    assert prompt(s)["info"]["speed_left"] == 1
    assert {"type": "step", "args": {"to": "0,2"}} in s.legal(0)
    s.when(0, "step", to="0,2")
    assert not [c for c in s.legal(0) if c["type"] == "step"]


# rules: Yashima core, "Terrain" DEADLY (EXERT to enter; unable to EXERT: cannot enter)
def test_deadly():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,1": "deadly"})
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    assert len(P(s, 0)["discard"]) == 1
    s = scene(pl(pos=A, deck=[]), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,1": "deadly"})
    s.when(0, "move_action")
    assert {"type": "step", "args": {"to": "0,1"}} not in s.legal(0)


# rules: Yashima core, "Terrain" ROAD (the first road entered is free, even with no movement left)
def test_road():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,3": "road", "0,4": "road"})
    s.when(0, "move_action")
    for cell in ("0,1", "0,2"):
        s.when(0, "step", to=cell)
    s.when(0, "step", to="0,3")  # speed 3: two spent; the first road costs nothing
    assert prompt(s)["info"]["speed_left"] == 1
    s.when(0, "step", to="0,4")  # the second road costs 1
    assert prompt(s)["info"]["speed_left"] == 0


def test_road_with_no_movement_left():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,4": "road"})
    s.when(0, "move_action")
    for cell in ("0,1", "0,2", "0,3"):
        s.when(0, "step", to=cell)
    assert [c["args"]["to"] for c in s.legal(0) if c["type"] == "step"] == ["0,4"]


# rules: Yashima core, "Terrain" ROAD ("The first road terrain a master enters during their move action costs no
# speed"): DASH (a quick effect) and WIND are not the move action, so a road costs them speed like any space
def test_road_is_free_only_during_the_move_action():
    s = scene(pl(pos=A, hand=["dash"]), pl(master="rosamu", kami="dragon", pos="0,-5", facing=3), terrain={"0,-1": "road"})
    assert not [c for c in s.legal(0) if c["type"] == "dash"]  # speed 3 reaches 0,-3, two spaces short of 0,-5
    s = scene(pl(master="musashi", pos=A, statuses={"WIND": 1}), pl(master="rosamu", kami="dragon", pos="3,-3"),
              terrain={"0,1": "road"})
    s.when(0, "wind")
    s.when(0, "step", to="0,1")
    assert prompt(s)["info"]["speed_left"] == 1


# rules: Yashima core, "Terrain" SOLID (cannot enter) and "Move Action" (no moving through other masters)
def test_solid_and_masters_block():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="0,1"), terrain={"1,-1": "solid", "-1,0": "relic"})
    s.when(0, "move_action")
    steps = {c["args"]["to"] for c in s.legal(0) if c["type"] == "step"}
    assert steps == {"0,-1", "1,0", "-1,1"}


# rules: Yashima core, "Terrain" RELIC (FOCUS adjacent: turn any master's tome up to two pages)
def test_relic_focus_turns_any_tome():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,-1": "relic"})
    s.when(0, "focus")
    assert prompt(s)["kind"] == "relic"
    assert {"type": "relic_turn", "args": {"master": 1, "delta": 2}} in s.legal(0)
    assert {"type": "relic_turn", "args": {"master": 1, "delta": -1}} not in s.legal(0)
    s.when(0, "relic_turn", master=1, delta=2)
    assert P(s, 1)["tome"]["spread"] == 2 and len(P(s, 0)["karma"]) == 1


# rules: Yashima Fairytale, "Terrain" ("any FOCUS performed outside of a specific focus tome action will NOT cause terrain effects")
def test_focus_effect_does_not_trigger_terrain():
    s = scene(pl(master="mulan", pos=A, spread=4, karma=["low"]), pl(master="rosamu", kami="dragon", pos="3,-3"),
              terrain={"0,-1": "relic", "0,0": "rejuvenating"})
    s.when(0, "ability", src="page:9")  # Focus Breath: FOCUS 1
    assert prompt(s) is None and len(P(s, 0)["karma"]) == 1


# rules: Yashima core, "Terrain" REJUVENATING (FOCUS while occupying it: you may HEAL)
def test_rejuvenating():
    s = scene(pl(pos=A, discard=["low"]), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,0": "rejuvenating"})
    s.when(0, "focus")
    assert types(s.legal(0)) == ["no_rejuvenate", "rejuvenate"]
    s.when(0, "rejuvenate")
    assert P(s, 0)["discard"] == [] and P(s, 0)["deck"][-1]["d"] == "low"


# rules: Yashima Fairytale, "Terrain" SLICK (ending a move on it: relocate to an adjacent unoccupied legal space)
def test_slick():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,1": "slick"})
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    s.when(0, "end_move", facing=0)
    assert prompt(s)["kind"] == "forced_relocation"
    assert "0,1" not in {c["args"]["to"] for c in s.legal(0)}
    s.when(0, "relocate_to", to="1,1")
    assert P(s, 0)["pos"] == "1,1"


# rules: Yashima Fairytale, "Terrain" SPLICE POINT (relocate next to any other splice point)
def test_splice_point():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), terrain={"0,1": "splice_point", "-3,3": "splice_point"})
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    s.when(0, "end_move", facing=0)
    dests = {c["args"]["to"] for c in s.legal(0)}
    assert dests == {"-3,2", "-2,2", "-2,3", "-3,4", "-4,4", "-4,3"}
    s.when(0, "relocate_to", to="-2,2")
    assert P(s, 0)["pos"] == "-2,2"


# rules: Yashima core, "Locked In Combat" (EXERT for each opposing master you move away from; moving around is free)
def test_locked_in_combat():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="0,-1"), pl(master="kenta", pos="1,-1"))
    s.when(0, "move_action")
    s.when(0, "step", to="-1,0")  # around 0,-1 (still adjacent) but away from 1,-1: one EXERT
    assert len(P(s, 0)["discard"]) == 1
    s.when(0, "step", to="-1,1")  # away from 0,-1, the only master still adjacent
    assert len(P(s, 0)["discard"]) == 2


# rules: Yashima core, "Locked In Combat" ("You may still move around them")
def test_moving_around_an_opponent_is_free():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="0,-1"))
    s.when(0, "move_action")
    s.when(0, "step", to="1,-1")
    s.when(0, "step", to="1,-2")
    assert P(s, 0)["discard"] == [] and P(s, 0)["pos"] == "1,-2"


def test_locked_in_combat_two_masters_and_team_mates():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="0,-1"), pl(master="kenta", pos="1,-1"), pl(master="hikaru", pos="-1,0"),
              teams=[0, 1, 1, 0])
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")  # leaves two opponents (the team-mate at -1,0 does not count)
    assert len(P(s, 0)["discard"]) == 2


def test_exhausted_cannot_leave_combat():
    s = scene(pl(pos=A, deck=[], hand=["plain"]), pl(master="rosamu", kami="dragon", pos="0,-1"))
    s.when(0, "move_action")
    assert {c["args"]["to"] for c in s.legal(0) if c["type"] == "step"} == {"1,-1", "-1,0"}


def test_shock_removed_after_reconcile():
    s = scene(pl(pos=A, hand=[], statuses={"SHOCK": 1}), pl(master="rosamu", kami="dragon", pos="3,-3"), phase="reconcile")
    while "draw" in types(s.legal(0)):
        s.when(0, "draw")
    assert len(P(s, 0)["hand"]) == queries.stats(s.state, 0)["hand"] - 1
    s.when(0, "end_reconcile")
    assert P(s, 0)["st"] == {} and s.state["supply"]["SHOCK"] == 8
