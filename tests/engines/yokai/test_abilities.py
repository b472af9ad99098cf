"""Monster abilities, each on favourable terrain, unfavourable terrain and cancelled by an enemy Daki.

# rules: Yokai Battle, "How to read a monster ability" ("Reminder: abilities can only be used if the
# monster is summoned on a favorable terrain") and "List of abilities" ("The ability area of effect
# is like a cross matrix. Effects cannot be applied diagonally").
"""

import pytest

from games.engines.yokai import ENGINE

from .helpers import ap, card_lp, grid, lp, mon, scene, types


def choose_targets(s, seat):
    return sorted(c["args"]["target"] for c in s.legal(seat) if c["type"] == "choose_target")


# -- Fire ---------------------------------------------------------------------------------------

def onibi_scene(terrain, daki=False):
    board = grid("wood", r0c0=terrain, r2c0="earth")
    monsters = [mon("0,2", "kodama", 1, lp=3), mon("1,1", "kodama", 1, lp=3)]
    monsters.append(mon("2,0", "daki" if daki else "kodama", 1, lp=3))
    s = scene(board=board, monsters=monsters, hands={"0": [{"card": "onibi", "id": "o"}]})
    s.when(0, "summon", card="o", terrain="0,0", orientation="vertical")
    return s


# rules: Yokai Battle, "Fire ability" ("When summoned, decrease the LP of an enemy monster by 1. Its effect is restricted to a distance of 2 terrain cards")
def test_fire_summon_burn_on_favourable_terrain():
    s = onibi_scene("fire")
    # then seat 0 chooses an enemy within 2 squares in a cross (1,1 is diagonal: out of reach)
    assert s.status.awaiting == [0] and s.status.phase == "choice"
    assert choose_targets(s, 0) == ["0,2", "2,0"]
    assert s.rejects(0, "choose_target", target="1,1").code == "illegal_target"
    assert s.rejects(0, "end_turn").code == "choice_pending"
    s.when(0, "choose_target", target="0,2")
    assert lp(s, "0,2") == 2 and lp(s, "2,0") == 3 and lp(s, "1,1") == 3
    assert s.status.phase == "combat"


# rules: Yokai Battle, "Fire ability": the history names the burned monster and the one that burned it
def test_fire_burn_is_told_with_both_monsters():
    # given Miko's Onibi summoned on fire next to Kenji's Kodama on (0,2)
    s = onibi_scene("fire")
    # when Miko burns it
    events = s.when(0, "choose_target", target="0,2")
    burned = next(e for e in events if e["type"] == "LifeChanged")
    # then the sentence says whose monsters they are
    assert ENGINE.describe(burned, 1, ["Miko", "Kenji"]) == (
        "Kenji's Kodama on (0,2) is burned by Miko's Onibi on (0,0): 2 LP left")


# rules: Yokai Battle, "Fire ability" (an enemy brought to 0 LP goes to the discard pile)
def test_fire_summon_burn_can_kill():
    s = scene(board=grid("fire"), monsters=[mon("0,2", "gaki", 1, lp=1)], hands={"0": [{"card": "onibi", "id": "o"}]})
    s.when(0, "summon", card="o", terrain="0,0", orientation="vertical")
    s.when(0, "choose_target", target="0,2")
    assert "0,2" not in s.state["monsters"] and s.state["players"][1]["discard"] == ["gaki"]


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" ("Its ability cannot be used") for "Fire ability"
def test_fire_summon_burn_on_unfavourable_terrain():
    s = onibi_scene("wood")
    assert s.status.phase == "combat" and s.state["pending"] == []
    assert (lp(s, "0,2"), lp(s, "2,0")) == (3, 3)


# rules: Yokai Battle, "Earth ability" ("prohibit the use of the ability of every enemy monster ... distance of 2") for "Fire ability"
def test_fire_summon_burn_cancelled_by_daki():
    s = onibi_scene("fire", daki=True)
    assert s.status.phase == "combat" and lp(s, "0,2") == 3


def akuro_scene(terrain, daki=False):
    board = grid("fire", r1c1=terrain, r1c2="earth")
    monsters = [
        mon("1,1", "akuro_jin_no_hi", 1, lp=1),
        mon("1,0", "kodama", 0, lp=3),
        mon("0,1", "kodama", 0, lp=3),
        mon("0,0", "kodama", 0, lp=3),
        mon("1,2", "daki" if daki else "kodama", 0, lp=8),
    ]
    s = scene(board=board, monsters=monsters)
    s.when(0, "attack", attacker="1,0", defender="1,1")
    return s


# rules: Yokai Battle, "Fire ability" ("When killed, decrease the LP of an enemy monster by 1. Its effect is restricted to a distance of 1 terrain card")
def test_fire_death_burn_on_favourable_terrain():
    s = akuro_scene("fire")
    # then Akuro-Jin no Hi died and its owner (not the active player) picks an adjacent enemy
    assert "1,1" not in s.state["monsters"] and s.state["players"][1]["discard"] == ["akuro_jin_no_hi"]
    assert s.status.awaiting == [1] and s.legal(0) == []
    assert choose_targets(s, 1) == ["0,1", "1,0", "1,2"]
    s.when(1, "choose_target", target="0,1")
    assert lp(s, "0,1") == 2 and lp(s, "0,0") == 3
    assert s.status.awaiting == [0]


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" for "Fire ability" (when killed)
def test_fire_death_burn_on_unfavourable_terrain():
    s = akuro_scene("wood")
    assert "1,1" not in s.state["monsters"] and s.state["pending"] == [] and s.status.awaiting == [0]


# rules: Yokai Battle, "Earth ability" for "Fire ability" (when killed)
def test_fire_death_burn_cancelled_by_daki():
    s = akuro_scene("fire", daki=True)
    assert "1,1" not in s.state["monsters"] and s.state["pending"] == []


# -- Water --------------------------------------------------------------------------------------

def kappa_scene(terrain, daki=False):
    board = grid("wood", r0c0=terrain, r2c0="earth")
    monsters = [
        mon("0,1", "kodama", 0, lp=3),
        mon("1,0", "kodama", 0, lp=10),
        mon("1,1", "kodama", 0, lp=3),
        mon("2,0", "daki" if daki else "gaki", 1, lp=2),
        mon("0,2", "kodama", 0, lp=3),
    ]
    s = scene(board=board, monsters=monsters, hands={"0": [{"card": "kappa", "id": "k"}]})
    s.summoning = s.when(0, "summon", card="k", terrain="0,0", orientation="vertical")
    return s


# rules: Yokai Battle, "Water ability" ("When summoned, increase every ally monster's LPs by 1. Its effect is restricted to a distance of 1 terrain card")
def test_water_summon_heal_on_favourable_terrain():
    s = kappa_scene("water")
    assert lp(s, "0,1") == 4          # adjacent ally
    assert lp(s, "1,0") == 10         # never above 10
    assert lp(s, "1,1") == 3          # diagonal
    assert lp(s, "0,2") == 3          # distance 2
    assert lp(s, "2,0") == 2          # enemy
    assert lp(s, "0,0") == card_lp("kappa") + 1


# rules: Yokai Battle, "Water ability" (when summoned): the history names the healed ally and the healer
def test_water_summon_heal_is_told_with_both_monsters():
    # given Miko's Kodama on (0,1), next to where her Kappa is summoned on water
    # when the Kappa is summoned, then the history says which monster healed which
    healed = next(e for e in kappa_scene("water").summoning
                  if e["type"] == "LifeChanged" and e["payload"]["at"] == "0,1")
    assert ENGINE.describe(healed, 1, ["Miko", "Kenji"]) == (
        "Miko's Kodama on (0,1) is healed by Miko's Kappa on (0,0): 4 LP left")


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" for "Water ability" (when summoned)
def test_water_summon_heal_on_unfavourable_terrain():
    s = kappa_scene("fire")
    assert lp(s, "0,1") == 3


# rules: Yokai Battle, "Earth ability" for "Water ability" (when summoned)
def test_water_summon_heal_cancelled_by_daki():
    s = kappa_scene("water", daki=True)
    assert lp(s, "0,1") == 3


def kosamebo_scene(terrain, daki=False, **kw):
    board = grid("wood", r0c0=terrain, r2c0="earth")
    monsters = [
        mon("0,0", "kosamebo", 0, lp=6),
        mon("0,2", "kodama", 0, lp=3),
        mon("1,1", "kodama", 0, lp=3),
        mon("2,0", "daki" if daki else "gaki", 1, lp=2),
    ]
    return scene(board=board, monsters=monsters, **kw)


def transfers(s, seat=0):
    return [c["args"] for c in s.legal(seat) if c["type"] == "transfer_lp"]


# rules: Yokai Battle, "Water ability" ("As long as it is alive, this monster gives you the ability to transfer its LPs to an ally monster of your choosing ... distance of 2 terrain cards" ; "A full transfer of LPs kills the monster")
def test_water_transfer_on_favourable_terrain():
    s = kosamebo_scene("water")
    assert transfers(s) == [{"source": "0,0", "target": "0,2", "amount": a} for a in range(1, 7)]
    s.when(0, "transfer_lp", source="0,0", target="0,2", amount=2)
    assert (lp(s, "0,0"), lp(s, "0,2")) == (4, 5)
    assert s.rejects(0, "transfer_lp", source="0,0", target="1,1", amount=1).code == "illegal_target"
    assert s.rejects(0, "transfer_lp", source="0,0", target="2,0", amount=1).code == "illegal_target"
    assert s.rejects(0, "transfer_lp", source="0,0", target="0,2", amount=0).code == "bad_amount"
    assert s.rejects(0, "transfer_lp", source="0,0", target="0,2", amount=True).code == "bad_args"
    # a full transfer kills the water monster; the history names both monsters
    events = s.when(0, "transfer_lp", source="0,0", target="0,2", amount=4)
    given = next(e for e in events if e["type"] == "LpTransferred")
    assert ENGINE.describe(given, 1, ["Miko", "Kenji"]) == (
        "Miko's Kosamebo on (0,0) gives 4 LP to Kodama on (0,2); Kosamebo is left with 0 LP, Kodama has 9")
    assert "MonsterDied" in types(events) and lp(s, "0,2") == 9
    assert "0,0" not in s.state["monsters"] and s.state["players"][0]["discard"] == ["kosamebo"]


# rules: Yokai Battle, "Water ability" ("A monster cannot have more than 10 LPs" applies to the receiver)
def test_water_transfer_never_above_10():
    s = kosamebo_scene("water")
    s.when(0, "transfer_lp", source="0,0", target="0,2", amount=6)
    s2 = scene(board=grid("water"), monsters=[mon("0,0", "kosamebo", 0, lp=6), mon("0,1", "enko", 0, lp=8)])
    assert [t["amount"] for t in transfers(s2)] == [1, 2]
    assert s2.rejects(0, "transfer_lp", source="0,0", target="0,1", amount=3).code == "bad_amount"


# rules: Yokai Battle, "Water ability" ("Tip: the transfer of LPs is only allowed during a player's turn")
def test_water_transfer_only_during_your_turn():
    s = kosamebo_scene("water", turn=1)
    assert transfers(s, 0) == []
    assert s.rejects(0, "transfer_lp", source="0,0", target="0,2", amount=1).code == "not_your_turn"
    assert s.rejects(1, "transfer_lp", source="0,0", target="0,2", amount=1).code == "not_your_monster"


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" for "Water ability" (as long as it is alive)
def test_water_transfer_on_unfavourable_terrain():
    s = kosamebo_scene("wood")
    assert transfers(s) == []
    assert s.rejects(0, "transfer_lp", source="0,0", target="0,2", amount=1).code == "ability_unavailable"


# rules: Yokai Battle, "Earth ability" for "Water ability" (as long as it is alive)
def test_water_transfer_cancelled_by_daki():
    s = kosamebo_scene("water", daki=True)
    assert transfers(s) == []
    assert s.rejects(0, "transfer_lp", source="0,0", target="0,2", amount=1).code == "ability_unavailable"


# -- Earth --------------------------------------------------------------------------------------

def momonji_scene(terrain, daki=False, turn=0):
    board = grid("fire", r1c1=terrain, r0c1="earth")
    monsters = [mon("1,1", "momonji", 1, lp=5), mon("1,0", "bijin_sama", 0, lp=7)]
    if daki:
        monsters.append(mon("0,1", "daki", 0, lp=8))
    return scene(board=board, monsters=monsters, turn=turn)


# rules: Yokai Battle, "Earth ability" ("Each time it fights, decrease the APs of an enemy monster by 1")
def test_earth_weaken_on_favourable_terrain():
    # when the Momonji is attacked, the attacker's AP drops by 1 (the cost stays the printed AP)
    s = momonji_scene("earth")
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert lp(s, "1,1") == 5 - (ap("bijin_sama", "right") - 1)
    assert lp(s, "1,0") == 7 - ap("momonji", "left")
    assert s.state["chakra"][0] == 10 - ap("bijin_sama", "right")
    # when the Momonji attacks, the defender's retaliation drops by 1
    s = momonji_scene("earth", turn=1)
    s.when(1, "attack", attacker="1,1", defender="1,0")
    assert lp(s, "1,0") == 7 - ap("momonji", "left")
    assert lp(s, "1,1") == 5 - (ap("bijin_sama", "right") - 1)


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" for "Earth ability" (each time it fights)
def test_earth_weaken_on_unfavourable_terrain():
    s = momonji_scene("fire")
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert lp(s, "1,1") == 5 - ap("bijin_sama", "right")


# rules: Yokai Battle, "Earth ability" (an enemy Daki cancels the Momonji)
def test_earth_weaken_cancelled_by_daki():
    s = momonji_scene("earth", daki=True)
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert lp(s, "1,1") == 5 - ap("bijin_sama", "right")


# rules: Yokai Battle, "Earth ability" ("If several Daki are alive on the board, the special ability of the first Daki summoned supersedes the others' ability")
@pytest.mark.parametrize("first", [0, 1])
def test_first_summoned_daki_prevails(first):
    # given seat 0's Daki on 0,0 and seat 1's Daki on 0,2 (2 squares apart), summoned in order `first`
    dakis = [mon("0,0", "daki", 0), mon("0,2", "daki", 1)]
    if first == 1:
        dakis.reverse()
    board = grid("fire", r0c0="earth", r0c2="earth")
    s = scene(board=board, monsters=dakis, hands={"0": [{"card": "onibi", "id": "o"}]})
    # when seat 0 summons Onibi (fire) within 2 squares of seat 1's Daki only
    s.when(0, "summon", card="o", terrain="2,2", orientation="vertical")
    # then the burn works only if seat 0's Daki came first (it cancels seat 1's Daki)
    if first == 0:
        assert choose_targets(s, 0) == ["0,2"]
    else:
        assert s.state["pending"] == []


# rules: Yokai Battle, "Earth ability" (a Daki on unfavourable terrain has no ability; the effect stops beyond 2 squares; allies are unaffected)
def test_daki_limits():
    hand = {"0": [{"card": "onibi", "id": "o"}]}
    s = scene(board=grid("fire"), monsters=[mon("0,2", "daki", 1)], hands=hand)  # Daki on fire
    s.when(0, "summon", card="o", terrain="2,2", orientation="vertical")
    assert choose_targets(s, 0) == ["0,2"]
    board = grid("fire", (3, 4, 4), r1c0="earth")
    s = scene(seats=3, board=board, monsters=[mon("1,0", "daki", 1), mon("1,1", "gaki", 2)], hands=hand)
    s.when(0, "summon", card="o", terrain="1,3", orientation="vertical")  # 3 squares from the enemy Daki
    assert choose_targets(s, 0) == ["1,1"]
    s = scene(board=grid("fire", r1c0="earth"), monsters=[mon("1,0", "daki", 0), mon("0,2", "gaki", 1)], hands=hand)
    s.when(0, "summon", card="o", terrain="2,2", orientation="vertical")  # own Daki does not cancel
    assert choose_targets(s, 0) == ["0,2"]


# -- Wood ---------------------------------------------------------------------------------------

def kodama_scene(terrain, daki=False):
    board = grid("fire", r1c1=terrain, r0c1="earth")
    monsters = [mon("1,1", "kodama", 1, lp=1), mon("1,0", "kodama", 0, lp=3)]
    if daki:
        monsters.append(mon("0,1", "daki", 0))
    s = scene(board=board, monsters=monsters,
              hands={"0": [{"card": "gaki", "id": "g"}], "1": ["gaki"] * 5},
              decks={"0": ["kappa"] * 10, "1": ["kappa"] * 10})
    s.when(0, "attack", attacker="1,0", defender="1,1")
    return s


# rules: Yokai Battle, "Wood ability" ("When killed, prohibit an opposing player from drawing cards. Its effect is restricted to the opposing player's next turn")
def test_wood_no_draw_on_favourable_terrain():
    s = kodama_scene("wood")
    assert s.status.awaiting == [1]
    assert s.legal(1) == [{"type": "choose_target", "args": {"target": 0}}]
    assert s.rejects(1, "choose_target", target=1).code == "illegal_target"
    s.when(1, "choose_target", target=0)
    # seat 0 still draws at the end of the current turn (hand 1 -> draw 1 -> refill to 5)
    s.when(0, "end_turn")
    assert len(s.state["players"][0]["hand"]) == 5
    s.when(1, "end_turn")
    # during seat 0's next turn it cannot draw: neither the colorless extra card nor the draw phase
    s.when(0, "summon", card=s.state["players"][0]["hand"][0]["id"], terrain="2,2", orientation="vertical")
    deck_before = len(s.state["players"][0]["deck"])
    events = s.when(0, "end_turn")
    assert "CardsDrawn" not in types(events) and "DrawPrevented" in types(events)
    assert len(s.state["players"][0]["deck"]) == deck_before
    # and the turn after that it draws again
    s.when(1, "end_turn")
    events = s.when(0, "end_turn")
    assert "CardsDrawn" in types(events)


# rules: Yokai Battle, "Wood ability" ("prohibit an opposing player from drawing cards. Its effect is restricted to the opposing player's next turn"): the history names the barred player
def test_wood_no_draw_is_told_as_the_player_it_bars():
    # given seat 1's Kodama (wood, on wood) killed by seat 0's attack
    s = kodama_scene("wood")
    # when seat 1 bars seat 0 from drawing
    events = s.when(1, "choose_target", target=0)
    blocked = next(e for e in events if e["type"] == "DrawBlocked")
    # then the history says which player cannot draw (the target is a seat, not a square)
    assert ENGINE.describe(blocked, 0, ["Miko", "Kenji"]) == (
        "The death of Kenji's monster on (1,1) stops Miko from drawing cards on their next turn")


# rules: Yokai Battle, "Wood ability" (a prevented draw is not a draw from an empty deck)
def test_wood_no_draw_spares_an_empty_deck():
    s = scene(no_draw={"0": "now"}, decks={"0": [], "1": ["gaki"]})
    s.when(0, "end_turn")
    assert not s.status.finished and s.status.awaiting == [1]


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" for "Wood ability" (prohibit drawing)
def test_wood_no_draw_on_unfavourable_terrain():
    s = kodama_scene("fire")
    assert s.state["pending"] == [] and s.status.awaiting == [0]


# rules: Yokai Battle, "Earth ability" for "Wood ability" (prohibit drawing)
def test_wood_no_draw_cancelled_by_daki():
    s = kodama_scene("wood", daki=True)
    assert s.state["pending"] == [] and s.status.awaiting == [0]


def mikari_scene(terrain, daki=False):
    board = grid("fire", r1c1=terrain, r0c1="earth")
    monsters = [
        mon("1,1", "mikari_baba", 1, lp=1),
        mon("1,0", "kodama", 0, lp=3),
        mon("1,2", "bijin_sama", 0, lp=7),
        mon("2,2", "onibi", 0, lp=4),
    ]
    if daki:
        monsters.append(mon("0,1", "daki", 0, lp=8))
    s = scene(board=board, monsters=monsters)
    s.when(0, "attack", attacker="1,0", defender="1,1")
    return s


# rules: Yokai Battle, "Wood ability" ("When killed, decrease the LPs of an enemy monster to 1. Its effect is restricted to a distance of 1 terrain card")
def test_wood_drop_on_favourable_terrain():
    s = mikari_scene("wood")
    assert s.status.awaiting == [1]
    assert choose_targets(s, 1) == ["1,0", "1,2"]
    assert s.rejects(1, "choose_target", target="2,2").code == "illegal_target"
    s.when(1, "choose_target", target="1,2")
    assert lp(s, "1,2") == 1 and lp(s, "2,2") == 4


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" for "Wood ability" (LPs to 1)
def test_wood_drop_on_unfavourable_terrain():
    s = mikari_scene("fire")
    assert s.state["pending"] == [] and lp(s, "1,2") == 7


# rules: Yokai Battle, "Earth ability" for "Wood ability" (LPs to 1)
def test_wood_drop_cancelled_by_daki():
    s = mikari_scene("wood", daki=True)
    assert s.state["pending"] == [] and lp(s, "1,2") == 7


# -- Metal --------------------------------------------------------------------------------------

def stealth_scene(card, terrain, daki=False):
    board = grid("wood", r1c0=terrain, r1c1="earth")
    enemy = mon("1,1", "daki" if daki else "kodama", 1, lp=8)
    s = scene(board=board, monsters=[enemy], hands={"0": [{"card": card, "id": "m"}]}, chakra=20)
    s.when(0, "summon", card="m", terrain="1,0", orientation="vertical")
    return s


# rules: Yokai Battle, "Metal ability" ("When summoned, the monster cannot attack" ; "Tip 1: ... They can't use their immediate attack so enemy monsters can't retaliate, but may choose to spend CP on their turn to attack them (even right after they've been summoned)")
@pytest.mark.parametrize("card", ["nue", "gashadokuro"])
def test_metal_stealth_on_favourable_terrain(card):
    s = stealth_scene(card, "metal")
    assert s.status.phase == "combat" and s.state["monsters"]["1,0"]["stealth"] is True
    assert lp(s, "1,1") == 8 and lp(s, "1,0") == card_lp(card) + 1
    # a paid attack is possible right after the summoning
    assert {"type": "attack", "args": {"attacker": "1,0", "defender": "1,1"}} in s.legal(0)
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert s.state["chakra"][0] == 20 - {"nue": 5, "gashadokuro": 9}[card] - ap(card, "right")
    assert lp(s, "1,1") == 8 - ap(card, "right")


# rules: Yokai Battle, "Metal ability" ("Tip 2: ... summoned ... on an unfavorable terrain, it'll unlock its ability to attack any enemy monster")
@pytest.mark.parametrize("card", ["nue", "gashadokuro"])
def test_metal_stealth_on_unfavourable_terrain(card):
    s = stealth_scene(card, "fire")
    assert s.status.phase == "choice"
    assert s.legal(0) == [{"type": "attack", "args": {"attacker": "1,0", "defender": "1,1"}}]


# rules: Yokai Battle, "Metal ability" ("Tip 2: For instance, if the monster Nue or Gashadokuro is summoned next to a monster that cancels its ability")
@pytest.mark.parametrize("card", ["nue", "gashadokuro"])
def test_metal_stealth_cancelled_by_daki(card):
    s = stealth_scene(card, "metal", daki=True)
    assert s.state["monsters"]["1,0"]["stealth"] is False
    assert s.status.phase == "choice"
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert lp(s, "1,1") == 8 - ap(card, "right")


def hannya_scene(terrain, daki=False, turn=0):
    board = grid("wood", r0c0=terrain, r2c2="metal", r0c2="earth")
    monsters = [mon("0,0", "hannya", 1)]
    if daki:
        monsters.append(mon("0,2", "daki", 0))
    return scene(board=board, monsters=monsters, turn=turn,
                 hands={"0": [{"card": "gaki", "id": "g0"}], "1": [{"card": "gaki", "id": "g1"}]})


def summon_spots(s, seat):
    return {c["args"]["terrain"] for c in s.legal(seat) if c["type"] == "summon"}


# rules: Yokai Battle, "Metal ability" ("As long as it is alive, it prohibits the summoning of every enemy monster. Its effect is restricted to the metal terrain cards")
def test_metal_ward_on_favourable_terrain():
    s = hannya_scene("metal")
    assert "2,2" not in summon_spots(s, 0) and "1,1" in summon_spots(s, 0)
    assert s.rejects(0, "summon", card="g0", terrain="2,2", orientation="vertical").code == "terrain_warded"
    # the Hannya's owner still summons on metal terrain
    s1 = hannya_scene("metal", turn=1)
    assert "2,2" in summon_spots(s1, 1)
    s1.when(1, "summon", card="g1", terrain="2,2", orientation="vertical")


# rules: Yokai Battle, "Bonuses and penalties for summoned monster" for "Metal ability" (prohibit summoning)
def test_metal_ward_on_unfavourable_terrain():
    s = hannya_scene("fire")
    assert "2,2" in summon_spots(s, 0)
    s.when(0, "summon", card="g0", terrain="2,2", orientation="vertical")


# rules: Yokai Battle, "Earth ability" for "Metal ability" (prohibit summoning)
def test_metal_ward_cancelled_by_daki():
    s = hannya_scene("metal", daki=True)
    assert "2,2" in summon_spots(s, 0)
    s.when(0, "summon", card="g0", terrain="2,2", orientation="vertical")


# -- Colorless ----------------------------------------------------------------------------------

def double_scene(terrain, daki=False):
    board = grid("fire", r1c0=terrain, r1c1="earth")
    enemy = mon("1,1", "daki" if daki else "gaki", 1, lp=8)
    s = scene(board=board, monsters=[enemy], hands={"0": [{"card": "katakirauwa", "id": "k"}]})
    s.when(0, "summon", card="k", terrain="1,0", orientation="vertical")
    s.when(0, "attack", attacker="1,0", defender="1,1")
    return s


# rules: Yokai Battle, "Colorless ability" ("When summoned, multiply its APs by 2") and "Only colorless monsters ... can use their ability everywhere"
@pytest.mark.parametrize("terrain", ["metal", "water", "earth"])
def test_colorless_double_everywhere(terrain):
    s = double_scene(terrain)
    assert s.state["monsters"]["1,0"]["doubled"] is True
    assert lp(s, "1,1") == 8 - 2 * ap("katakirauwa", "right")
    # later paid attacks use (and cost) the doubled APs
    s.when(0, "attack", attacker="1,0", defender="1,1")
    assert s.state["chakra"][0] == 10 - 3 - 2 * ap("katakirauwa", "right")


# rules: Yokai Battle, "Earth ability" for "Colorless ability" (APs multiplied)
def test_colorless_double_cancelled_by_daki():
    s = double_scene("metal", daki=True)
    assert s.state["monsters"]["1,0"]["doubled"] is False
    assert lp(s, "1,1") == 8 - ap("katakirauwa", "right")


def draw_scene(terrain, daki=False, **kw):
    board = grid("fire", r0c0=terrain, r2c0="earth")
    monsters = [mon("2,0", "daki" if daki else "kodama", 1)]
    return scene(board=board, monsters=monsters, hands={"0": [{"card": "gaki", "id": "g"}]},
                 decks={"0": kw.pop("deck", ["kappa", "onibi"]), "1": ["gaki"]}, **kw)


# rules: Yokai Battle, "Colorless ability" ("When summoned, this allows its player to draw one extra card from his deck")
@pytest.mark.parametrize("terrain", ["fire", "metal"])
def test_colorless_draw_everywhere(terrain):
    s = draw_scene(terrain)
    events = s.when(0, "summon", card="g", terrain="0,0", orientation="vertical")
    drawn = [e["payload"] for e in events if e["type"] == "CardsDrawn"]
    assert [(d["reason"], d["count"]) for d in drawn] == [("colorless_draw", 1)]
    assert [c["card"] for c in s.state["players"][0]["hand"]] == ["kappa"]


# rules: Yokai Battle, "Colorless ability" ("Tip: this ability cannot be used by players who have been prohibited from drawing cards on their turn")
def test_colorless_draw_prevented_by_wood():
    s = draw_scene("fire", no_draw={"0": "now"})
    s.when(0, "summon", card="g", terrain="0,0", orientation="vertical")
    assert s.state["players"][0]["hand"] == []


# rules: Yokai Battle, "Colorless ability" (an extra card is allowed, not forced: an empty deck is not drawn from)
def test_colorless_draw_with_empty_deck():
    s = draw_scene("fire", deck=[])
    s.when(0, "summon", card="g", terrain="0,0", orientation="vertical")
    assert not s.status.finished and s.state["players"][0]["hand"] == []


# rules: Yokai Battle, "Earth ability" for "Colorless ability" (draw an extra card)
def test_colorless_draw_cancelled_by_daki():
    s = draw_scene("fire", daki=True)
    s.when(0, "summon", card="g", terrain="0,0", orientation="vertical")
    assert s.state["players"][0]["hand"] == []


# rules: Yokai Battle, "Wood ability" ("restricted to the opposing player's next turn"): a player barred this turn and barred again is barred next turn too
def test_wood_no_draw_twice_bars_this_and_next_turn():
    s = scene(board=grid("wood"), monsters=[mon("1,1", "kodama", 1, lp=1), mon("1,0", "kodama", 0, lp=3)],
              no_draw={"0": "now"}, decks={"0": ["gaki"] * 10, "1": ["gaki"] * 10})
    s.when(0, "attack", attacker="1,0", defender="1,1")
    s.when(1, "choose_target", target=0)
    assert s.state["players"][0]["no_draw"] == "both"
    for _ in range(2):
        events = s.when(0, "end_turn")
        assert "CardsDrawn" not in types(events)
        s.when(1, "end_turn")
    assert "CardsDrawn" in types(s.when(0, "end_turn"))
