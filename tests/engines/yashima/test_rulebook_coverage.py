"""Rulebook passages that had no scenario test of their own (the coverage audit, docs/games/yashima.md
"Tests"): each test cites the passage it checks, as given / when / then."""

from games.engines.yashima import ENGINE, ops, queries
from games.engines.yashima import hexgrid as hx
from games.engines.yashima.state import Sim
from games.kernel import SYSTEM, Rng, fold

from .helpers import P, attack, card, defs, hid, pl, prompt, scene, types

A, FRONT = "0,0", "0,-1"


def use_effect(s, seat=0):
    pr = prompt(s)
    assert pr["kind"] == "optional_effect", pr
    s.when(seat, "use_effect", effect=pr["cmds"][0]["args"]["effect"])


def rosamu(pos=FRONT, **kw):
    return pl(master="rosamu", kami="dragon", pos=pos, facing=3, **kw)


# rules: Yashima core, "Game Components" ((12) Burn, (8) Blind, (6) Rancor, (6) Spirit status tokens) and Yashima
# Fairytale, "Game Components" ((8) SHOCK, (6) WIND, (6) CHI; additional player tokens (2) BURN, (2) FROST, (4) PLAGUE,
# (2) PLANT/SEED, (2) RANCOR), with core "Status Tokens" ("When you run out of tokens for a status, you cannot use replacements")
def test_status_supplies_are_the_tokens_in_the_two_boxes():
    # given a fresh match
    state = fold(ENGINE, ENGINE.setup({}, 2, Rng(b"coverage", "setup")))
    # then the supply of each status is the tokens both boxes hold (SARU: Mitsuo's one token, Icy Peaks)
    assert state["supply"] == {"BURN": 12 + 2, "BLIND": 8, "RANCOR": 6 + 2, "SPIRIT": 6, "SHOCK": 8, "WIND": 6,
                               "CHI": 6, "FROST": 2, "PLAGUE": 4, "PLANT": 2, "SARU": 1}


# rules: Yashima core, "The Karmic Cycle" ("cards in your karma pool cannot be used for attacks, defense, or other
# abilities (except for FATE)")
def test_karma_pool_cards_neither_attack_nor_defend():
    # given a 7 ATK card in the attacker's karma pool and a BLOCK card in the defender's
    s = scene(pl(pos=A, hand=["plain"], karma=["seven"]), rosamu(hand=["plain"], karma=["block"]))
    # then only the hand card can attack
    assert {c["args"]["card"] for c in s.legal(0) if c["type"] == "attack"} == {hid(s, 0, "plain")}
    # when it attacks, then the defender is not offered the BLOCK lying in the karma pool: it must LOSE
    attack(s, 0, "plain")
    assert prompt(s)["kind"] == "lose" and prompt(s)["seat"] == 1
    assert "defend" not in types(s.legal(1))
    assert defs(P(s, 1)["karma"]) == ["block"]


# rules: Yashima core, "Status Tokens" ("When you remove a status, return the token to its owner") and glossary
# OWNER ("The owner of a status is the player who generated the effect that gave that status")
def test_a_status_belongs_to_whoever_gave_it_and_its_token_goes_back_when_removed():
    # given seat 0's attack that BLINDs each hit master and then PURIFYs a target
    s = scene(pl(pos=A, hand=["fx"]), rosamu(),
              custom={"fx": card("fx", atk=2, attack=[{"k": "BLIND"}, {"k": "PURIFY"}])})
    attack(s, 0, "fx")
    # when the BLIND is placed, then it is seat 0's and one token has left the supply
    use_effect(s)
    assert P(s, 1)["st"] == {"BLIND": [0]} and s.state["supply"]["BLIND"] == 7
    # when it is removed, then the token is back in the supply
    use_effect(s)
    assert P(s, 1)["st"] == {} and s.state["supply"]["BLIND"] == 8


# rules: Yashima core, "Status Tokens" ("If the status doesn't state how or when it can be removed, then it will remain
# in play until removed by a separate effect")
def test_a_status_without_removal_text_stays_across_rounds():
    # given Rosamu with SPIRIT (its text says nothing of removal) and a low initiative card
    s = scene(rosamu(pos=A, deck=["low"] + ["plain"] * 5, statuses={"SPIRIT": 1}),
              pl(master="akiko", kami="tiger", pos="3,-3", deck=["high"] + ["plain"] * 5), phase="initiative")
    # when initiative is revealed and the whole round is played out
    s.when(SYSTEM, "proceed")
    for _ in range(4):
        seat = s.state["turn"]["seat"]
        s.when(seat, "take_token", token=next(t for t in ("move", "attack") if s.state["pool"][t]))
        s.when(seat, "end_turn")
    # then the next round has begun and SPIRIT is still there
    assert s.state["phase"] == "destiny" and s.state["round"] == 2
    assert P(s, 0)["st"] == {"SPIRIT": [0]}


# rules: Yashima core, "Round Overview" ("Gameplay consists of rounds. Rounds are split into two phases: the destiny
# phase and the battle phase") and "Destiny Phase" (destiny, reconcile and initiative steps)
def test_a_round_is_a_destiny_phase_then_a_battle_phase():
    # given the start of a round
    s = scene(pl(pos=A, deck=["high"] + ["plain"] * 9), rosamu(pos="3,-3", deck=["low"] + ["plain"] * 9), phase="destiny")
    # when both masters choose a token, then the reconcile step follows
    s.when(0, "choose_token", token="move")
    s.when(1, "choose_token", token="attack")
    assert s.state["phase"] == "reconcile"
    # when both end the reconcile step, then initiative is revealed and the battle phase begins
    s.when(0, "end_reconcile")
    s.when(1, "end_reconcile")
    assert s.state["phase"] == "battle" and s.state["turn"]["seat"] == s.state["last_init"] == 0
    assert s.state["pool"] == {"move": 2, "attack": 2}


# rules: Yashima core, "Attack Action" ("Unless otherwise noted, you cannot play a defense card in response to an
# effect, whether it is an effect that resolves after an attack or from a karma ability") and glossary DEFENSE EFFECT
def test_no_defense_against_a_karma_ability():
    # given Akiko holding a BLOCK card, in reach of Rosamu's Overwhelming Insight
    s = scene(pl(master="rosamu", kami="dragon", pos=A, spread=2, karma=["mid", "low", "low", "low"]),
              pl(master="akiko", kami="tiger", pos="0,-3", facing=3, hand=["block"]))
    # when Rosamu plays it, then Akiko is asked only what to LOSE
    s.when(0, "ability", src="page:5")
    assert prompt(s)["kind"] == "lose" and prompt(s)["seat"] == 1
    assert "defend" not in types(s.legal(1))


def test_no_defense_against_an_attack_effect():
    # given an attack that targets nobody and then deals 2 damage to a master within 3
    s = scene(pl(pos=A, hand=["fx"]), rosamu(pos="0,-3", hand=["block", "plain"]),
              custom={"fx": card("fx", atk=5, pattern="none", attack=[{"k": "DAMAGE", "n": 2, "target": {"range": 3}}])})
    attack(s, 0, "fx")
    # when the effect is used, then the target is asked what to LOSE, never to defend
    use_effect(s)
    assert prompt(s)["kind"] == "lose" and "defend" not in types(s.legal(1))


# rules: Yashima core, "Terrain" SOLID ("Masters cannot enter, be forced to enter, nor end their turn on solid terrain")
def test_a_fury_relocation_never_forces_a_master_onto_solid_terrain():
    # given a master in front of a FURY attack, every free space around it solid but two
    around = sorted(c for c in hx.neighbours(FRONT) if c != A)
    s = scene(pl(pos=A, hand=["fx"]), rosamu(deck=["plain"] * 10), terrain={c: "solid" for c in around[2:]},
              custom={"fx": card("fx", atk=2, attack=[{"k": "FURY"}])})
    attack(s, 0, "fx")
    use_effect(s)
    # then the relocation is offered onto the two spaces that are not solid
    assert {c["args"]["to"] for c in s.legal(0) if c["type"] == "relocate_master"} == set(around[:2])


# rules: Yashima core, "Terrain" SOLID ("Solid terrain can have status") and glossary BLAZE ("up to 2 unoccupied targeted
# spaces") and UNOCCUPIED ("A space that doesn't contain a master")
def test_blaze_can_burn_a_solid_space_but_not_an_occupied_one():
    # given a BLAZE attack whose arc covers a solid space, a plain space and the target's space
    s = scene(pl(pos=A, hand=["fx"]), rosamu(), terrain={"-1,0": "solid"},
              custom={"fx": card("fx", atk=2, pattern="arc", attack=[{"k": "BLAZE"}])})
    attack(s, 0, "fx")
    use_effect(s)
    # then the hit master burns and the unoccupied spaces are offered, the solid one included
    assert P(s, 1)["st"] == {"BURN": [0]}
    assert {c["args"]["cell"] for c in s.legal(0) if c["type"] == "choose_space"} == {"-1,0", "1,-1"}
    s.when(0, "choose_space", cell="-1,0")
    assert s.state["spst"]["-1,0"] == {"BURN": [0]}


# rules: Yashima core, "Glossary" ACTION ("All other actions and effects must be fully resolved before beginning a new
# action") and "Battle Phase" ("you cannot do both at the same time - you must finish one before you start the other")
def test_no_tome_action_in_the_middle_of_a_move():
    s = scene(pl(pos=A), rosamu(pos="3,-3"))
    # when the move action has begun, then only its steps and its end are offered
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    assert set(types(s.legal(0))) == {"step", "end_move"}
    assert s.rejects(0, "focus").code == "unknown_command"
    # when it ends, then the tome action is open again
    s.when(0, "end_move", facing=0)
    assert "focus" in types(s.legal(0))


# rules: Yashima core, "Glossary" CHAIN ("Note: FATE - CHAIN cards only CHAIN when they enter your karma pool, and
# therefore don't trigger Rosamu's avatar ability")
def test_a_fate_chain_card_does_not_trigger_rosamus_follow_up():
    fate_chain = card("fate_chain", karma=7, atk=2, fate=[{"k": "CHAIN"}])
    # given Rosamu with a FATE - CHAIN card on top of his deck and a karma 7 card under it
    s = scene(pl(master="rosamu", kami="dragon", pos=A, deck=["fate_chain", "seven", "plain"], hand=["high"]),
              pl(master="akiko", kami="tiger", pos=FRONT, facing=3), custom={"fate_chain": fate_chain})
    # when he FOCUSes, then the card CHAINs as it enters the karma pool (the karma 7 card is drawn)
    s.when(0, "focus")
    assert defs(P(s, 0)["karma"]) == ["fate_chain"] and sorted(defs(P(s, 0)["hand"])) == ["high", "seven"]
    # but no follow-up attack is offered
    assert prompt(s) is None and "chain_attack" not in types(s.legal(0))
    # and when he attacks with such a card, it does not CHAIN either
    s2 = scene(pl(master="rosamu", kami="dragon", pos=A, hand=["fate_chain", "seven"]),
               pl(master="akiko", kami="tiger", pos=FRONT, facing=3), custom={"fate_chain": fate_chain})
    attack(s2, 0, "fate_chain")
    assert prompt(s2) is None and "chain_attack" not in types(s2.legal(0))


# rules: Yashima core, "Glossary" DEFENSE EFFECT ("This effect is only for yourself, and not for other masters being
# targeted by the same attack")
def test_a_defense_protects_only_the_master_who_plays_it():
    # given a 4 ATK attack on two masters, the first of whom BLOCKs
    s = scene(pl(pos=A, hand=["wide"]), pl(master="rosamu", kami="dragon", pos="-1,0", facing=2, hand=["block"]),
              pl(master="kenta", pos=FRONT, facing=3, hand=["plain"]), custom={"wide": card("wide", atk=4, pattern="arc")})
    attack(s, 0, "wide")
    s.when(1, "defend", card=hid(s, 1, "block"))
    # then the other target takes the whole attack
    while prompt(s) and prompt(s)["kind"] == "lose":
        s.when(prompt(s)["seat"], "lose_card", zone="deck")
    assert len(P(s, 1)["discard"]) == 1 and len(P(s, 2)["discard"]) == 4


# rules: Yashima core, "Glossary" EXPLODE ("There must be the specified status on a space to remove and perform this effect")
def test_explode_needs_the_status_on_a_space():
    # given an EXPLODE (BURN) attack while BURN lies only on a master, on no space
    s = scene(pl(pos=A, hand=["fx"]), rosamu(pos="0,-2", statuses={"BURN": 1}),
              custom={"fx": card("fx", atk=2, pattern="none", attack=[{"k": "EXPLODE", "status": "BURN"}])})
    # when the attack resolves, then the effect is not even offered and nobody takes damage
    attack(s, 0, "fx")
    assert prompt(s) is None
    assert P(s, 1)["discard"] == [] and P(s, 1)["st"] == {"BURN": [1]}


# rules: Yashima core, "Glossary" HIT ("If damage only comes from a separate effect, even those generated by the same
# attack, you are not considered hit by the attack")
def test_damage_from_the_cards_effect_is_not_a_hit():
    # given an attack that is BLOCKed, whose effects then deal 2 damage and BLIND each hit master
    s = scene(pl(pos=A, hand=["fx"]), rosamu(hand=["block"]),
              custom={"fx": card("fx", atk=2, attack=[{"k": "DAMAGE", "n": 2, "target": {"range": 1}}, {"k": "BLIND"}])})
    attack(s, 0, "fx")
    s.when(1, "defend", card=hid(s, 1, "block"))
    # when the damage effect is used
    use_effect(s)
    # then the target loses 2 but was not hit: BLIND has no one to blind
    assert len(P(s, 1)["discard"]) == 2 and P(s, 1)["st"] == {} and prompt(s) is None


# rules: Yashima Fairytale, "Other Concepts" ENDURE ("Losing this card from your hand or karma pool will not trigger this effect")
def test_endure_does_not_trigger_when_lost_from_the_hand():
    # given a defender holding an ENDURE card
    s = scene(pl(pos=A, hand=["plain"]), rosamu(hand=["endure_draw"]))
    attack(s, 0, "plain")
    # when it LOSEs that card from its hand
    s.when(1, "lose_card", zone="hand", card=hid(s, 1, "endure_draw"))
    # then no ENDURE effect is offered; the rest of the damage comes from the deck
    assert prompt(s) is None
    assert P(s, 1)["hand"] == [] and defs(P(s, 1)["discard"]) == ["endure_draw", "plain", "plain", "plain"]


# rules: Yashima Fairytale, "Other Concepts" ICONS ("These icons do not necessarily mean that a status token is placed";
# the example is BLEED)
def test_bleed_places_no_status_token():
    s = scene(pl(master="mulan", pos=A, hand=["mulan_02"]), rosamu())
    supply = dict(s.state["supply"])
    attack(s, 0, "mulan_02")
    use_effect(s)
    assert P(s, 1)["deck"][-1]["d"] == "mulan_02"
    assert P(s, 1)["st"] == {} and s.state["spst"] == {} and s.state["supply"] == supply


# rules: Yashima Fairytale, "Status Tokens" FROST ("A master or space cannot have more than one instance of FROST status")
def test_one_frost_per_master_and_per_space():
    s = scene(pl(pos=A, statuses={"FROST": 1}), rosamu(pos="3,-3"), space_statuses={"0,2": {"FROST": 0}}, supply={"FROST": 2})
    sim = Sim(s.state, Rng(b"t", "t"))
    assert not ops.gain_master(sim, 0, "FROST", 1) and not ops.gain_space(sim, "0,2", "FROST", 1)
    assert ops.gain_master(sim, 1, "FROST", 0) and ops.gain_space(sim, "0,3", "FROST", 0)


# rules: Yashima Fairytale, "Yashima Attack Action Breakdown" 1.3.3 ("The attacker must announce any effects that are
# being added to the attack, especially those that are not written on the card itself")
def test_the_declared_attack_announces_each_targets_atk():
    # given a 2 ATK KINDLE attack on two masters, one of them burning, by Kenta (FURY cards +1 is not written on it)
    s = scene(pl(master="kenta", pos=A, hand=["fx"]), pl(master="rosamu", kami="dragon", pos="-1,0", facing=2, statuses={"BURN": 1}),
              pl(master="akiko", pos=FRONT, facing=3), custom={"fx": card("fx", atk=2, pattern="arc", attack=[{"k": "KINDLE"}])})
    events = attack(s, 0, "fx")
    declared = next(e for e in events if e["type"] == "AttackDeclared")
    # then the declaration gives every target the ATK it faces, KINDLE's +3 included
    assert declared["payload"]["targets"] == [{"seat": 1, "atk": 5}, {"seat": 2, "atk": 2}]


# rules: Yashima Fairytale, "Miyamoto Musashi" ("use your unmatched agility to move and attack on the same turn") with
# GUST and WIND (project definition: remove it to move up to 2 spaces, not the move action)
def test_musashi_moves_and_attacks_in_one_turn():
    # given Musashi three spaces from Rosamu
    s = scene(pl(master="musashi", pos=A, hand=["plain"]), rosamu(pos="0,-3"))
    # when he uses Two Heavens (GUST), moves with WIND and then takes the attack action
    s.when(0, "quick", src="avatar:0")
    s.when(0, "wind")
    s.when(0, "step", to=FRONT)
    s.when(0, "step", to="0,-2")
    s.when(0, "end_move", facing=0)
    attack(s, 0, "plain")
    # then Rosamu is hit the same turn
    assert len(P(s, 1)["discard"]) == 4 and s.state["pool"]["attack"] == 0


# rules: Yashima Fairytale, "Glossary" ICEBREAKER ("This card cannot be healed, but may return to your deck upon
# restoration") and core "Restoration" step 4
def test_icebreaker_returns_to_the_deck_on_restoration():
    s = scene(pl(pos=A), rosamu(pos="3,-3", deck=[], hand=[], pending=True, discard=["plain"] * 8 + ["icebreaker"]),
              pl(master="kenta", pos="-3,3"), phase="end_of_round")
    s.when(SYSTEM, "proceed")
    p = P(s, 1)
    assert p["restored"] and p["discard"] == []
    assert "icebreaker" in defs(p["deck"]) + defs(p["hand"]) + defs(p["karma"])


# rules: Yashima core, "Tome Actions" Karma Ability ("These abilities can be found on your tome cards, your avatar card,
# or on cards equipped to your master")
def test_a_karma_ability_of_an_equipped_card():
    # given Kenta with the Heavy Gauntlet equipped (torn half: cost 3, 3 damage to a master within 1)
    s = scene(pl(master="kenta", pos=A, karma=["seven"], equip=["tome:kenta:3:front"]), rosamu(deck=["plain"] * 10))
    src = f"equip:{P(s, 0)['equip'][0]['id']}"
    # then it is offered as the turn's tome action beside the tome's pages
    assert {"type": "ability", "args": {"src": src}} in s.legal(0)
    # when he plays it, then the karma is paid, the damage dealt and the tome action spent
    s.when(0, "ability", src=src)
    assert P(s, 0)["karma"] == [] and len(P(s, 1)["discard"]) == 3
    assert s.state["turn"]["tome"] is True and "focus" not in types(s.legal(0))


# rules: Yashima Fairytale, "Status Tokens" SARU ("Only unoccupied non-solid spaces can gain SARU status")
def test_saru_only_on_an_unoccupied_space_that_is_not_solid():
    s = scene(pl(pos=A), rosamu(pos="3,-3"), terrain={"0,2": "solid"})
    sim = Sim(s.state, Rng(b"t", "t"))
    assert not ops.gain_space(sim, A, "SARU", 0)  # a master stands there
    assert not ops.gain_space(sim, "0,2", "SARU", 0)  # solid
    assert ops.gain_space(sim, "0,1", "SARU", 0)


# rules: Yashima core, "Move Action" ("You may move your master a number of spaces up to your speed value, or choose not
# to move. In addition, you may rotate your master to face any of the six directions of the hexagon grid")
def test_a_move_goes_up_to_speed_or_nowhere_and_may_turn_the_master():
    s = scene(pl(pos=A), rosamu(pos="3,-3"))
    speed = queries.speed(s.state, 0)
    # when the move action is taken, then the master may stay and only turn, to any of six facings
    s.when(0, "move_action")
    assert sorted(c["args"]["facing"] for c in s.legal(0) if c["type"] == "end_move") == list(range(6))
    # when it steps as far as its speed allows, then no further step is offered
    for i in range(1, speed + 1):
        s.when(0, "step", to=f"0,{i}")
    assert set(types(s.legal(0))) == {"end_move"}
    s.when(0, "end_move", facing=3)
    assert P(s, 0)["pos"] == f"0,{speed}" and P(s, 0)["facing"] == 3
    # and a master that chooses not to move only turns
    s2 = scene(pl(pos=A), rosamu(pos="3,-3"))
    s2.when(0, "move_action")
    s2.when(0, "end_move", facing=2)
    assert P(s2, 0)["pos"] == A and P(s2, 0)["facing"] == 2 and s2.state["pool"]["move"] == 0


# rules: Yashima core, "Status Tokens" BLIND, RANCOR, SPIRIT ("Only masters may have ... status. A master cannot have more
# than one instance of ... status") and Fairytale PLAGUE ("Only masters can have PLAGUE status. A master cannot have more
# than one instance")
def test_master_only_statuses_one_instance_each():
    s = scene(pl(pos=A), rosamu(pos="3,-3"))
    sim = Sim(s.state, Rng(b"t", "t"))
    for name in ("BLIND", "RANCOR", "SPIRIT", "PLAGUE"):
        assert not ops.gain_space(sim, "0,1", name, 0), name
        assert ops.gain_master(sim, 1, name, 0) and not ops.gain_master(sim, 1, name, 0), name
    assert sim.s["players"][1]["st"] == {"BLIND": [0], "RANCOR": [0], "SPIRIT": [0], "PLAGUE": [0]}


# rules: Yashima core, "Terrain" REJUVENATING ("If a master uses their tome action to FOCUS while occupying rejuvenating
# terrain, they may HEAL") over core glossary FOCUS ("... if you are adjacent to an appropriate space"): rules decision 24
def test_focus_next_to_rejuvenating_terrain_does_not_heal():
    # given a master beside a rejuvenating space, with a card to HEAL
    s = scene(pl(pos=A, discard=["low"]), rosamu(pos="3,-3"), terrain={"0,-1": "rejuvenating"})
    # when it takes the FOCUS tome action there, then no HEAL is offered
    s.when(0, "focus")
    assert prompt(s) is None and defs(P(s, 0)["discard"]) == ["low"] and len(P(s, 0)["karma"]) == 1
