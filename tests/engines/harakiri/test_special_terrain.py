"""Special (blue) terrain declared per scenario zone (docs/games/harakiri.md, "Special terrain")."""

import pytest

from games.engines.harakiri import ENGINE, content, grid, rules
from games.kernel import RuleViolation

from .helpers import arena, doc, open_rows, run_system, scenario

# rules: Harakiri, "Special Terrain (blue)": "The rules for special terrain are specific to each
# Exploration Phase and are laid out in the campaign book."


def special_arena(rule, rows=None, heights=None):
    scen = arena(rows or open_rows(), heights=heights)
    if rule is not None:
        scen["zones"]["arena"]["special"] = rule
    return scen


def test_a_character_ending_its_activation_on_special_terrain_suffers_the_zone_rule():
    rows = open_rows()
    rows[2] = "..s......."
    rule = {"name": "Embers", "end_turn": {"damage": 2, "condition": "bleeding", "who": "characters"}}
    s = scenario(doc(special_arena(rule, rows), {"akira": {"sq": "2,2", "ap": 4, "health": 11}},
                     activate="char:akira"))
    s.when(0, "end_activation")
    akira = s.state["characters"]["akira"]
    assert akira["health"] == 9 and akira["conditions"]["bleeding"] == 1
    # standing next to it does nothing
    s2 = scenario(doc(special_arena(rule, rows), {"akira": {"sq": "3,2", "ap": 4, "health": 11}},
                      activate="char:akira"))
    s2.when(0, "end_activation")
    assert s2.state["characters"]["akira"]["health"] == 11


def test_enemies_suffer_it_at_the_end_of_their_activation_and_who_filters():
    rows = ["s" * 10 for _ in range(10)]  # wherever the kappa ends, it stands on special terrain
    enemies = {"k": {"type": "kappa", "color": "red", "at": "5,5", "health": 5}}
    for who, expected in (("enemies", 4), ("all", 4), ("characters", 5)):
        rule = {"name": "Holy ground", "end_turn": {"damage": 1, "who": who}}
        s = scenario(doc(special_arena(rule, rows), {}, enemies, activate="color:red", forced=[1, 1, 1, 1, 1, 1]))
        for _ in range(5):  # the party settles the kappa's ties (target, square)
            run_system(s)
            if s.state["pending"]:
                s.when(0, "choose", option=0)
        assert s.state["turn"]["kind"] == "character"  # the kappa's activation is over
        assert s.state["enemies"]["k"]["health"] == expected, who


def test_healing_ground_heals_up_to_the_maximum():
    rows = open_rows()
    rows[2] = "..s......."
    rule = {"name": "Sacred spring", "end_turn": {"heal": 2}}
    s = scenario(doc(special_arena(rule, rows), {"akira": {"sq": "2,2", "ap": 4, "health": 10}},
                     activate="char:akira"))
    s.when(0, "end_activation")
    assert s.state["characters"]["akira"]["health"] == 11  # maximum 11 at level 1


def test_extra_movement_cost_to_move_out_of_special_terrain():
    rows = open_rows()
    rows[2] = "..s......."
    rule = {"name": "Deep mud", "move_cost": 2}
    s = scenario(doc(special_arena(rule, rows), {"akira": {"sq": "2,2"}}))
    mover = rules.mover_for(s.state, "akira")
    assert grid.step_cost(s.state, "2,2", "3,2", mover, set()) == 3
    assert grid.step_cost(s.state, "1,2", "2,2", mover, set()) == 1  # entering costs as usual
    assert grid.step_cost(s.state, "2,2", "3,2", {"flying": True}, set()) == 1  # flying ignores it
    # the character's movement options shrink accordingly (3 movement points + dexterity 1)
    reach = grid.reachable(s.state, "2,2", 4, mover, set())
    assert "3,2" in reach and reach["3,2"][0] == 3 and "5,2" not in reach


def test_special_terrain_may_block_line_of_sight_but_not_between_heights():
    rows = open_rows()
    rows[2] = "..s......."
    s = scenario(doc(special_arena({"name": "Smoke", "blocks_los": True}, rows), {}))
    assert not rules.los(s.state, "0,2", "4,2", "party")
    open_air = scenario(doc(special_arena({"name": "Embers", "end_turn": {"damage": 1}}, rows), {}))
    assert rules.los(open_air.state, "0,2", "4,2", "party")
    heights = ["0000000000"] * 2 + ["1100000000"] + ["0000000000"] * 7
    high = scenario(doc(special_arena({"name": "Smoke", "blocks_los": True}, rows, heights), {}))
    assert rules.los(high.state, "0,2", "4,2", "party")


def test_special_squares_of_a_zone_without_a_rule_are_regular_terrain():
    rows = open_rows()
    rows[2] = "..s......."
    s = scenario(doc(special_arena(None, rows), {"akira": {"sq": "2,2", "ap": 4, "health": 11}},
                     activate="char:akira"))
    assert grid.step_cost(s.state, "2,2", "3,2", rules.mover_for(s.state, "akira"), set()) == 1
    assert rules.los(s.state, "0,2", "4,2", "party")
    s.when(0, "end_activation")
    assert s.state["characters"]["akira"]["health"] == 11


def test_a_malformed_special_rule_is_refused():
    with pytest.raises(RuleViolation) as err:
        ENGINE.scenario(doc(special_arena({"name": "Lava", "end_turn": {"damage": "lots"}}), {}))
    assert err.value.code == "bad_scenario"
    with pytest.raises(RuleViolation):
        ENGINE.scenario(doc(special_arena({"name": "Lava", "teleport": True}), {}))


def test_the_act1_gate_has_burning_thatch():
    gate = content.SCENARIOS["act1_burning_village"]["zones"]["gate"]
    assert gate["special"]["end_turn"] == {"damage": 1, "who": "all"} and gate["special"]["blocks_los"]
    s = scenario({"characters": {"akira": {"sq": "3,0", "ap": 4, "health": 11}}, "activate": "char:akira"})
    assert s.state["squares"]["3,0"]["t"] == "special"
    s.when(0, "end_activation")
    assert s.state["characters"]["akira"]["health"] == 10
    view = ENGINE.view_for(s.state, 0)
    assert view["zones_info"]["gate"]["special"]["name"] == "Burning thatch"


def test_a_seat_view_reads_the_same_special_rule():
    # the grid functions work on a view too (clients and bots plan moves from what they see)
    rows = open_rows()
    rows[2] = "..s......."
    s = scenario(doc(special_arena({"name": "Deep mud", "move_cost": 2}, rows), {}))
    view = ENGINE.view_for(s.state, 0)
    assert grid.special_rule(view, "2,2") == grid.special_rule(s.state, "2,2") == {"name": "Deep mud", "move_cost": 2}
    assert grid.step_cost(view, "2,2", "3,2", {}, set()) == 3
