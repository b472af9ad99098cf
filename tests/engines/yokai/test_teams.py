"""Team play: "When players play as a team, their monsters' ability can be both applied to players
and monsters from the same team." Seats 0+2 play against 1+3."""

from .helpers import grid, lp, mon, scene

ROWS4 = (3, 4, 4, 4)


def team_scene(monsters, board=None, **kw):
    return scene(seats=4, teams=True, board=board or grid("wood", ROWS4), monsters=monsters, **kw)


# rules: Yokai Battle, "Ability caption" ("their monsters' ability can be both applied to players and monsters from the same team") with "Water ability"
def test_water_helps_team_mates():
    board = grid("wood", ROWS4, r1c1="water")
    s = team_scene([mon("1,0", "kodama", 2, lp=3), mon("1,3", "kodama", 2, lp=3), mon("1,2", "gaki", 1, lp=2)],
                   board=board, hands={"0": [{"card": "kappa", "id": "k"}]})
    s.when(0, "summon", card="k", terrain="1,1", orientation="vertical")
    assert lp(s, "1,0") == 4  # team-mate's monster healed
    s.when(0, "attack", attacker="1,1", defender="1,2")  # the enemy next to it must be fought
    board = grid("wood", ROWS4, r1c1="water")
    s = team_scene([mon("1,1", "kosamebo", 0, lp=6), mon("1,3", "kodama", 2, lp=3)], board=board)
    s.when(0, "transfer_lp", source="1,1", target="1,3", amount=3)
    assert lp(s, "1,3") == 6


# rules: Yokai Battle, "Ability caption" (team-mates are allies: not attacked, not targeted by fire)
def test_team_mates_are_not_enemies():
    board = grid("wood", ROWS4, r1c1="fire")
    s = team_scene([mon("1,2", "kodama", 2), mon("1,3", "kodama", 3), mon("3,1", "kodama", 1)],
                   board=board, hands={"0": [{"card": "onibi", "id": "o"}]})
    s.when(0, "summon", card="o", terrain="1,1", orientation="vertical")
    assert sorted(c["args"]["target"] for c in s.legal(0)) == ["1,3", "3,1"]
    s.when(0, "choose_target", target="1,3")
    assert s.rejects(0, "attack", attacker="1,1", defender="1,2").code == "illegal_target"


# rules: Yokai Battle, "Earth ability" ("every enemy monster") in team play: a team-mate's Daki does not cancel
def test_daki_cancels_only_the_other_team():
    board = grid("fire", ROWS4, r3c1="earth")
    hand = {"0": [{"card": "onibi", "id": "o"}]}
    s = team_scene([mon("3,1", "daki", 2), mon("1,3", "gaki", 1)], board=board, hands=hand)
    s.when(0, "summon", card="o", terrain="1,1", orientation="vertical")
    assert s.status.phase == "choice"
    s = team_scene([mon("3,1", "daki", 3), mon("1,3", "gaki", 1)], board=board, hands=hand)
    s.when(0, "summon", card="o", terrain="1,1", orientation="vertical")
    assert s.status.phase == "combat"


# rules: Yokai Battle, "Wood ability" ("prohibit an opposing player from drawing cards") in team play
def test_wood_no_draw_targets_the_other_team():
    s = team_scene([mon("1,1", "kodama", 1, lp=1), mon("1,0", "kodama", 0, lp=3)])
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert sorted(c["args"]["target"] for c in s.legal(1)) == [0, 2]
    s.when(1, "choose_target", target=2)
    assert s.state["players"][2]["no_draw"] == "next"


# rules: Yokai Battle, "Metal ability" ("every enemy monster") in team play: a team-mate's Hannya does not bar you
def test_metal_ward_spares_team_mates():
    board = grid("wood", ROWS4, r0c0="metal", r3c3="metal")
    hand = {"0": [{"card": "gaki", "id": "g"}]}
    s = team_scene([mon("0,0", "hannya", 2)], board=board, hands=hand)
    s.when(0, "summon", card="g", terrain="3,3", orientation="vertical")
    s = team_scene([mon("0,0", "hannya", 1)], board=board, hands=hand)
    assert s.rejects(0, "summon", card="g", terrain="3,3", orientation="vertical").code == "terrain_warded"
