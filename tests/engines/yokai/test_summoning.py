"""Summoning monsters, and the terrain bonuses and penalties."""

import pytest

from .helpers import card_lp, cost, grid, mon, scene


def hand(*keys):
    return [{"card": k, "id": f"c{i}"} for i, k in enumerate(keys)]


# rules: Yokai Battle, "Summoning of monster cards" ("players must first pay the cost of summoning in chakra points")
def test_summoning_pays_its_cost():
    # given 10 CP and Onibi in hand
    s = scene(hands={"0": hand("onibi")})
    # when Onibi is summoned
    s.when(0, "summon", card="c0", terrain="2,2", orientation="vertical")
    # then its cost is paid, the card left the hand and stands on the terrain, owned by seat 0
    assert s.state["chakra"][0] == 10 - cost("onibi")
    assert s.state["players"][0]["hand"] == []
    m = s.state["monsters"]["2,2"]
    assert (m["card"], m["owner"], m["orientation"]) == ("onibi", 0, "vertical")


# rules: Yokai Battle, "Summoning of monster cards" (the cost must be payable)
def test_summon_refused_without_enough_chakra():
    s = scene(hands={"0": hand("onibi", "kodama")}, chakra=cost("onibi") - 1)
    assert s.rejects(0, "summon", card="c0", terrain="0,0", orientation="vertical").code == "not_enough_chakra"
    assert {c["args"]["card"] for c in s.legal(0) if c["type"] == "summon"} == {"c1"}


# rules: Yokai Battle, "Combat phase" ("No more than 2 monsters can be summoned per combat phase")
def test_at_most_two_summons_per_combat_phase():
    s = scene(hands={"0": hand("kodama", "kodama", "gaki")})
    s.when(0, "summon", card="c0", terrain="0,0", orientation="vertical")
    s.when(0, "summon", card="c1", terrain="0,2", orientation="horizontal")
    assert s.rejects(0, "summon", card="c2", terrain="2,2", orientation="vertical").code == "summon_limit"
    assert not any(c["type"] == "summon" for c in s.legal(0))


# rules: Yokai Battle, "Combat phase" ("Only one monster can be summoned per terrain card")
def test_one_monster_per_terrain():
    s = scene(monsters=[mon("1,1", "kodama", 1)], hands={"0": hand("gaki")})
    assert s.rejects(0, "summon", card="c0", terrain="1,1", orientation="vertical").code == "terrain_occupied"
    spots = {c["args"]["terrain"] for c in s.legal(0) if c["type"] == "summon"}
    assert "1,1" not in spots and len(spots) == 8
    # both orientations are offered for every free terrain
    assert len([c for c in s.legal(0) if c["type"] == "summon"]) == 16


# rules: Yokai Battle, "Summoning of monster cards" (horizontally or vertically; a card from your hand onto a terrain card)
@pytest.mark.parametrize(
    "args, code",
    [
        ({"card": "nope", "terrain": "0,0", "orientation": "vertical"}, "card_not_in_hand"),
        ({"card": "c0", "terrain": "0,0", "orientation": "diagonal"}, "bad_args"),
        ({"card": "c0", "terrain": "3,0", "orientation": "vertical"}, "bad_args"),
        ({"card": "c0", "terrain": "0,0"}, "bad_args"),
    ],
)
def test_summon_arguments_checked(args, code):
    s = scene(hands={"0": hand("gaki"), "1": [{"card": "gaki", "id": "theirs"}]})
    assert s.rejects(0, "summon", **args).code == code
    assert s.rejects(0, "summon", card="theirs", terrain="0,0", orientation="vertical").code == "card_not_in_hand"


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" (favourable +1 LP, unfavourable -1 LP; 3-4 players: 2 LPs)
@pytest.mark.parametrize("seats, modifier", [(2, 1), (3, 2), (4, 2)])
def test_terrain_modifies_total_lp(seats, modifier):
    rows = (3, 3, 3) if seats == 2 else (3, 4, 4)
    # given Onibi (fire) in hand, a fire terrain and a wood terrain
    s = scene(seats=seats, board=grid("wood", rows, r0c0="fire"), hands={"0": hand("onibi", "onibi")})
    # when summoned on each
    s.when(0, "summon", card="c0", terrain="0,0", orientation="vertical")
    s.when(0, "summon", card="c1", terrain="2,2", orientation="vertical")
    # then the total LPs carry the bonus / the penalty
    assert s.state["monsters"]["0,0"]["lp"] == card_lp("onibi") + modifier
    assert s.state["monsters"]["2,2"]["lp"] == card_lp("onibi") - modifier


# rules: Yokai Battle, "How to read a monster card" ("A monster cannot have more than 10 LPs")
def test_total_lp_never_above_10():
    assert card_lp("gashadokuro") + 2 > 10
    s = scene(seats=3, board=grid("metal", (3, 4, 4)), hands={"0": hand("gashadokuro")})
    s.when(0, "summon", card="c0", terrain="1,1", orientation="vertical")
    assert s.state["monsters"]["1,1"]["lp"] == 10


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" ("Only colorless monsters are not affected ... Their LPs do not change")
@pytest.mark.parametrize("seats", [2, 4])
def test_colorless_lp_unchanged(seats):
    rows = (3, 3, 3) if seats == 2 else (3, 4, 4, 4)
    s = scene(seats=seats, board=grid("fire", rows, r0c0="metal"), hands={"0": hand("katakirauwa", "gaki")})
    s.when(0, "summon", card="c0", terrain="0,0", orientation="vertical")
    s.when(0, "summon", card="c1", terrain="2,2", orientation="vertical")
    assert s.state["monsters"]["0,0"]["lp"] == card_lp("katakirauwa")
    assert s.state["monsters"]["2,2"]["lp"] == card_lp("gaki")


# rules: Yokai Battle, "Summoning of monster cards" (only the player whose turn it is summons)
def test_summon_only_on_your_turn():
    s = scene(hands={"1": hand("gaki")})
    assert s.rejects(1, "summon", card="c0", terrain="0,0", orientation="vertical").code == "not_your_turn"
    assert s.rejects(None, "end_turn").code == "not_your_turn"
