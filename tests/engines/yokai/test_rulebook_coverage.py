"""Rulebook passages that had no scenario test of their own (the coverage audit, docs/games/yokai.md
"Rules decisions"): each test cites the passage it checks, as given / when / then."""

from .helpers import grid, lp, mon, scene

ROWS3 = (3, 4, 4)


def choose_targets(s, seat):
    return sorted(c["args"]["target"] for c in s.legal(seat) if c["type"] == "choose_target")


# rules: Yokai Battle, "Fire ability" ("Tip: the fire-monster target icon allows you to target any of the enemy
# monsters"): with three players, the monsters of either opponent
def test_fire_targets_the_monsters_of_any_opponent():
    # given seat 1's Kodama and seat 2's Kodama within 2 squares of a fire square
    board = grid("wood", ROWS3, r0c0="fire")
    s = scene(seats=3, board=board, monsters=[mon("0,2", "kodama", 1, lp=3), mon("2,0", "kodama", 2, lp=3)],
              hands={"0": [{"card": "onibi", "id": "o"}]})
    # when seat 0 summons its Onibi there
    s.when(0, "summon", card="o", terrain="0,0", orientation="vertical")
    # then it may burn a monster of either opponent
    assert s.status.awaiting == [0] and choose_targets(s, 0) == ["0,2", "2,0"]
    s.when(0, "choose_target", target="2,0")
    assert lp(s, "2,0") == 2 and lp(s, "0,2") == 3


# rules: Yokai Battle, "Wood ability" ("Tip: the opposing-player target icon allows you to target any of them")
def test_wood_bars_any_opponent_from_drawing():
    # given seat 1's Kodama (wood, on wood, 1 LP) next to seat 0's Kodama, three players each on their own
    board = grid("fire", ROWS3, r1c1="wood")
    s = scene(seats=3, board=board, monsters=[mon("1,1", "kodama", 1, lp=1), mon("1,0", "kodama", 0, lp=3)])
    # when seat 0 kills it
    s.when(0, "attack", attacker="1,0", defender="1,1")
    # then seat 1 may bar either opponent from drawing
    assert s.status.awaiting == [1] and choose_targets(s, 1) == [0, 2]
    s.when(1, "choose_target", target=2)
    assert s.state["players"][2]["no_draw"] == "next" and s.state["players"][0]["no_draw"] is None
