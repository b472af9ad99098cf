"""Summoning attacks, retaliation and paid attacks."""

from games.engines.yokai import ENGINE

from .helpers import ap, grid, lp, mon, scene, types


def onibi_vs_momonji(orientation="vertical", extra=(), chakra=10):
    """Seat 0 summons Onibi (fire, on wood: no ability) on 1,0 next to an enemy Momonji on 1,1
    (earth on wood: no ability)."""
    s = scene(
        monsters=[mon("1,1", "momonji", 1, lp=5), *extra],
        hands={"0": [{"card": "onibi", "id": "o"}]},
        chakra=chakra,
    )
    s.when(0, "summon", card="o", terrain="1,0", orientation=orientation)
    return s


# rules: Yokai Battle, "Summoned monsters' attack and retaliation" ("A monster summoned next to one or more enemy monsters must pick one of them and attack it")
def test_summoned_next_to_enemies_must_attack():
    # given enemies orthogonally next to 1,0 (1,1 and 0,0) and one diagonal (0,1)
    s = onibi_vs_momonji(extra=[mon("0,0", "kodama", 1), mon("0,1", "kodama", 1), mon("2,1", "kodama", 0)])
    # then the summoner must choose one of the orthogonal enemies and nothing else
    assert s.status.phase == "choice" and s.status.awaiting == [0]
    assert sorted(c["args"]["defender"] for c in s.legal(0)) == ["0,0", "1,1"]
    assert all(c == {"type": "attack", "args": {"attacker": "1,0", "defender": c["args"]["defender"]}} for c in s.legal(0))
    assert s.rejects(0, "end_turn").code == "must_attack"
    assert s.rejects(0, "attack", attacker="1,0", defender="0,1").code == "illegal_target"
    assert s.rejects(0, "attack", attacker="1,0", defender="2,1").code == "illegal_target"


# rules: Yokai Battle, "Summoned monsters' attack and retaliation" ("The attacked monster immediately retaliates. Both monsters receive damage points corresponding with the attack points (APs) indicated on the sides of the cards that touch")
def test_attack_and_immediate_retaliation_on_touching_sides():
    s = onibi_vs_momonji()
    onibi_lp = lp(s, "1,0")
    # when Onibi attacks Momonji (Onibi's right side touches Momonji's left side)
    events = s.when(0, "attack", attacker="1,0", defender="1,1")
    # then both take the APs of the touching sides, and the summoning attack was free
    assert lp(s, "1,1") == 5 - ap("onibi", "right")
    assert lp(s, "1,0") == onibi_lp - ap("momonji", "left")
    assert "Fought" in types(events) and s.state["chakra"][0] == 10 - 3
    assert s.status.phase == "combat"
    # and the history names both monsters and says whose LP is whose
    fought = next(e for e in events if e["type"] == "Fought")
    assert ENGINE.describe(fought, 1, ["Miko", "Kenji"]) == (
        f"Miko's Onibi on (1,0) summons and attacks Kenji's Momonji on (1,1): deals {ap('onibi', 'right')}, "
        f"takes {ap('momonji', 'left')}; Onibi is left with {lp(s, '1,0')} LP, Momonji with {lp(s, '1,1')}")


# rules: Yokai Battle, "Summoning of monster cards" ("placed ... either horizontally or vertically in order to direct its most powerful attack against its target")
def test_orientation_decides_which_side_faces():
    s = onibi_vs_momonji("horizontal")
    s.when(0, "attack", attacker="1,0", defender="1,1")
    # horizontal = a quarter turn clockwise: the printed top now faces east
    assert lp(s, "1,1") == 5 - ap("onibi", "top")


# rules: Yokai Battle, "Summoned monsters' attack and retaliation" ("Only two monsters can enter a duel. All other monsters can't participate in it")
def test_only_two_monsters_duel():
    s = onibi_vs_momonji(extra=[mon("0,0", "kodama", 1, lp=3), mon("2,1", "kodama", 0, lp=3), mon("0,1", "kodama", 0, lp=3)])
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert lp(s, "0,0") == 3 and lp(s, "2,1") == 3 and lp(s, "0,1") == 3


# rules: Yokai Battle, "Summoned monsters' attack and retaliation" (no enemy next to it: no summoning attack)
def test_no_attack_without_adjacent_enemy():
    s = scene(monsters=[mon("0,1", "kodama", 1)], hands={"0": [{"card": "onibi", "id": "o"}]})
    s.when(0, "summon", card="o", terrain="1,0", orientation="vertical")  # 0,1 is diagonal
    assert s.status.phase == "combat" and lp(s, "0,1") == 3 + 1  # Kodama on wood: untouched


# rules: Yokai Battle, "Attacks & retaliation after summoning" ("Any attack launched after a summoning costs the same number of chakra points as the number of APs used")
def test_paid_attack_costs_its_ap():
    # given seat 0's Bijin Sama on 1,0 next to an enemy on 1,1 and 6 CP
    s = scene(monsters=[mon("1,0", "bijin_sama", 0, lp=7), mon("1,1", "daki", 1, lp=8)], chakra=6)
    assert {"type": "attack", "args": {"attacker": "1,0", "defender": "1,1"}} in s.legal(0)
    # when it attacks / then it pays its right-side AP and both take damage
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert s.state["chakra"][0] == 6 - ap("bijin_sama", "right")
    assert lp(s, "1,1") == 8 - ap("bijin_sama", "right") and lp(s, "1,0") == 7 - ap("daki", "left")


# rules: Yokai Battle, "Attacks & retaliation after summoning" (the cost must be paid)
def test_paid_attack_needs_the_chakra():
    s = scene(monsters=[mon("1,0", "bijin_sama", 0), mon("1,1", "daki", 1)], chakra=ap("bijin_sama", "right") - 1)
    assert s.rejects(0, "attack", attacker="1,0", defender="1,1").code == "not_enough_chakra"
    assert not any(c["type"] == "attack" for c in s.legal(0))


# rules: Yokai Battle, "Attacks & retaliation after summoning" ("A monster can attack repeatedly until it dies. A monster retaliates each time it is attacked") and "Summoning of monster cards" ("If a monster runs out of Life Points (LPs) it must be thrown in the discard pile")
def test_repeated_attacks_until_death_then_discard():
    s = scene(monsters=[mon("1,0", "mikari_baba", 0, lp=5, orientation="horizontal"), mon("1,1", "gaki", 1, lp=2)],
              board=grid("fire"), chakra=10)
    # Mikari Baba horizontal: its top (3) faces east -> costs 3 per attack; Gaki deals 1 back each time
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert lp(s, "1,1") is None  # 2 - 3 -> dead
    assert s.state["players"][1]["discard"] == ["gaki"]
    # Momonji on fire terrain: its earth ability is off, it retaliates with its left side (1)
    s2 = scene(monsters=[mon("1,0", "kodama", 0, lp=3), mon("1,1", "momonji", 1, lp=8)], board=grid("fire"), chakra=10)
    for expected in (2, 1):
        s2.when(0, "attack", attacker="1,0", defender="1,1")
        assert lp(s2, "1,0") == expected
    s2.when(0, "attack", attacker="1,0", defender="1,1")
    assert "1,0" not in s2.state["monsters"] and s2.state["players"][0]["discard"] == ["kodama"]
    assert lp(s2, "1,1") == 8 - 3 * ap("kodama", "right")
    assert s2.state["chakra"][0] == 10 - 3 * ap("kodama", "right")


# rules: Yokai Battle, "Summoned monsters' attack and retaliation" ("The attacking area is like a cross matrix. A target cannot be attacked diagonally")
def test_no_diagonal_or_distant_or_friendly_attacks():
    s = scene(monsters=[mon("1,1", "onikuma", 0), mon("0,0", "daki", 1), mon("1,2", "kodama", 0), mon("2,1", "kodama", 1)])
    assert s.rejects(0, "attack", attacker="1,1", defender="0,0").code == "not_adjacent"
    assert s.rejects(0, "attack", attacker="1,1", defender="1,2").code == "illegal_target"
    assert s.rejects(0, "attack", attacker="2,1", defender="1,1").code == "not_your_monster"
    assert s.rejects(0, "attack", attacker="0,1", defender="1,1").code == "no_monster"
    attacks = [c["args"] for c in s.legal(0) if c["type"] == "attack"]
    assert attacks == [{"attacker": "1,1", "defender": "2,1"}]


# rules: Yokai Battle, "Attacks & retaliation after summoning" ("A player can use any of his monsters to launch further attacks after a summoning attack, even in the same turn")
def test_summoned_monster_attacks_again_for_chakra():
    s = onibi_vs_momonji(chakra=10)
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert s.state["chakra"][0] == 7
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert s.state["chakra"][0] == 7 - ap("onibi", "right")
