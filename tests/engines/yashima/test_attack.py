"""The tournament "Attack Action Breakdown", defenses and damage."""

from .helpers import P, attack, card, defs, hid, lose_from_deck, pl, prompt, scene, types

# Seat 0 at 0,0 facing 0 ("up": 0,-1 is the space in front); seat 1 right in front, facing back.
A = "0,0"
FRONT = "0,-1"


def duel(hand0=("plain",), hand1=(), deck0=None, deck1=None, **kw):
    return scene(pl(pos=A, hand=hand0, deck=deck0), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=hand1, deck=deck1), **kw)


# rules: Yashima Fairytale, "Yashima Attack Action Breakdown" 1.1 (remove attack token) and 1.3 (reveal and USE)
def test_attack_takes_token_and_card_is_used_to_the_bottom():
    s = duel(hand1=())
    attack(s, 0, "plain")
    assert s.state["pool"]["attack"] == 0
    # no defense cards in hand: the damage is lost at once, one card at a time (seat 1 only has its deck)
    assert prompt(s) is None or prompt(s)["kind"] == "lose"
    lose_from_deck(s, 1, 0)
    assert P(s, 0)["deck"][-1]["d"] == "plain" and P(s, 0)["aside"] == []
    assert len(P(s, 0)["hand"]) == 0


# rules: Yashima Fairytale, "Yashima Attack Action Breakdown" 1.1.1 (no attack token, no attack)
def test_no_attack_token_no_attack():
    s = duel(pool={"move": 1, "attack": 0})
    assert "attack" not in types(s.legal(0))
    assert s.rejects(0, "attack", card=hid(s, 0, "plain"), facing=0).code == "unknown_command"


# rules: Yashima Fairytale, "Yashima Attack Action Breakdown" 1.2 (rotate to any of six facings) and "TARGET"
def test_rotation_chooses_the_pattern_direction():
    s = duel()
    ev = attack(s, 0, "plain", facing=3)
    decl = next(e for e in ev if e["type"] == "AttackDeclared")
    assert decl["payload"]["cells"] == ["0,1"] and decl["payload"]["targets"] == []
    assert P(s, 0)["facing"] == 3


# rules: Yashima core, "Attack Action" (attacks may target nobody, simply to perform the card's effects)
def test_attack_without_targets_still_resolves_effects():
    s = scene(pl(pos=A, hand=["drawer"]), pl(master="rosamu", kami="dragon", pos="3,-3"),
              custom={"drawer": card("drawer", attack=[{"k": "DRAW", "n": 1}])})
    attack(s, 0, "drawer")
    assert prompt(s)["kind"] == "optional_effect"
    s.when(0, "use_effect", effect="DRAW")
    assert defs(P(s, 0)["hand"]) == ["plain"]


# rules: Yashima core, "Attack Action" (each targeted master may respond with one defense card, in turn order)
def test_defense_prompt_lists_defense_cards_and_no_defense():
    s = duel(hand1=["block", "plain"])
    attack(s, 0, "plain")
    assert s.status.awaiting == [1]
    cmds = s.legal(1)
    assert {"type": "defend", "args": {"card": hid(s, 1, "block")}} in cmds
    assert {"type": "no_defense", "args": {}} in cmds
    assert all(c["args"].get("card") != hid(s, 1, "plain") for c in cmds)
    assert s.legal(0) == []


# rules: Yashima core, "Glossary" BLOCK ("USE this card, prevent 3 damage")
def test_block_prevents_three_and_uses_the_card():
    s = duel(hand1=["block"])
    attack(s, 0, "plain")  # 4 ATK
    s.when(1, "defend", card=hid(s, 1, "block"))
    # 4 - 3 = 1 damage, lost at once (an empty hand leaves only the deck: one choice resolves alone)
    assert defs(P(s, 1)["discard"]) == ["plain"]
    assert len(P(s, 1)["deck"]) == 10 and P(s, 1)["deck"][-1]["d"] == "block"


# rules: Yashima core, "Glossary" HIT ("If all damage from the attack is prevented, you are not hit")
def test_all_damage_prevented_is_not_a_hit():
    s = duel(hand0=["blinder"], hand1=["block"], custom={"blinder": card("blinder", atk=3, attack=[{"k": "BLIND"}])})
    attack(s, 0, "blinder")
    s.when(1, "defend", card=hid(s, 1, "block"))
    assert "BLIND" not in P(s, 1)["st"]
    assert s.status.awaiting == [0] and "end_turn" in types(s.legal(0))


# rules: Yashima core, "Example Two Player Game" round 4 (Pounce: CLASH not higher, only 4 damage prevented)
def test_clash_not_higher_prevents_four():
    s = duel(hand0=["seven"], hand1=["clash"], deck0=["high"] + ["plain"] * 5, deck1=["mid"] + ["plain"] * 9)
    attack(s, 0, "seven")
    s.when(1, "defend", card=hid(s, 1, "clash"))
    # defender exerted mid (4), attacker exerted high (7): 7 ATK - 4 = 3 damage
    assert defs(P(s, 0)["discard"]) == ["high"]
    assert "clash" in defs(P(s, 1)["discard"]) and "mid" in defs(P(s, 1)["discard"])
    for _ in range(3):
        lose_from_deck(s, 1)
    assert len(P(s, 1)["deck"]) == 6


# rules: Yashima core, "Glossary" CLASH ("If your card has higher karma than the attacker's, prevent all damage")
def test_clash_higher_prevents_all():
    s = duel(hand0=["seven"], hand1=["clash"], deck0=["low"] + ["plain"] * 5, deck1=["high"] + ["plain"] * 9)
    attack(s, 0, "seven")
    s.when(1, "defend", card=hid(s, 1, "clash"))
    assert prompt(s) is None and len(P(s, 1)["deck"]) == 9


# rules: Yashima core, "Glossary" CLASH ("If the attacking master is EXHAUSTED, their karma value is treated as zero")
def test_clash_against_exhausted_attacker():
    s = duel(hand0=["seven"], hand1=["clash"], deck0=[], deck1=["low"] + ["plain"] * 9)
    attack(s, 0, "seven")
    s.when(1, "defend", card=hid(s, 1, "clash"))
    assert prompt(s) is None and len(P(s, 1)["deck"]) == 9


# rules: Yashima core, "Glossary" DEFENSE EFFECT ("If you are EXHAUSTED, you may not play a defense effect that requires you to EXERT")
def test_exhausted_defender_cannot_clash_or_dodge():
    s = duel(hand1=["clash", "dodge", "block"], deck1=[])
    attack(s, 0, "plain")
    offered = {c["args"].get("card") for c in s.legal(1)}
    assert hid(s, 1, "block") in offered and hid(s, 1, "clash") not in offered and hid(s, 1, "dodge") not in offered


# rules: Yashima core, "Glossary" DODGE (LOSE, EXERT, move one space; out of the pattern prevents all; combat movement applies)
def test_dodge_out_of_the_pattern():
    s = duel(hand1=["dodge"])
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "dodge"))
    assert prompt(s)["kind"] == "dodge"
    # 0,-2 is not adjacent to seat 0: leaving costs one more EXERT (locked in combat)
    s.when(1, "dodge_to", to="0,-2")
    assert P(s, 1)["pos"] == "0,-2"
    assert defs(P(s, 1)["discard"]).count("plain") == 2 and "dodge" in defs(P(s, 1)["discard"])
    assert prompt(s) is None and len(P(s, 1)["deck"]) == 8


# rules: Yashima core, "Glossary" DODGE ("If you move to a space not targeted, prevent all damage")
def test_dodge_inside_the_pattern_does_not_prevent():
    s = scene(pl(pos=A, hand=["wide"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=["dodge"]),
              custom={"wide": card("wide", atk=2, pattern="arc")})
    attack(s, 0, "wide")
    s.when(1, "defend", card=hid(s, 1, "dodge"))
    s.when(1, "dodge_to", to="1,-1")  # still in the arc (and adjacent: no extra EXERT)
    assert P(s, 1)["pos"] == "1,-1"
    assert len(P(s, 1)["deck"]) == 10 - 1 - 2  # the dodge EXERT, then the full 2 damage


# rules: Yashima core, "Glossary" RIPOSTE ("LOSE this card, prevent 2 damage and deal 3 damage to the attacker")
def test_riposte():
    s = duel(hand1=["riposte"])
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "riposte"))
    # attacker: 3 lost, then the attack card is USEd back under the deck; defender: 4 - 2 = 2
    assert len(P(s, 0)["deck"]) == 10 - 3 + 1 and len(P(s, 0)["discard"]) == 3
    assert len(P(s, 1)["deck"]) == 8 and defs(P(s, 1)["discard"]) == ["riposte", "plain", "plain"]


# rules: Yashima Fairytale, "Glossary" BARRIER ("LOSE this card to prevent 1 damage for each card in your karma pool")
def test_barrier():
    s = duel(hand1=["barrier"])
    P(s, 1)["karma"] = [{"id": "k1", "d": "plain", "o": 1}, {"id": "k2", "d": "plain", "o": 1}]
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "barrier"))
    lose_from_deck(s, 1, 2)
    assert prompt(s) is None and len(P(s, 1)["deck"]) == 8


# rules: Yashima Fairytale, "Akkorokamui" defense OCCUPY (project definition: LOSE, prevent 2, the attacker EXERTs)
def test_occupy():
    s = duel(hand1=["occupy"])
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "occupy"))
    assert defs(P(s, 0)["discard"]) == ["plain"]
    assert len(P(s, 1)["deck"]) == 8


# rules: Yashima Fairytale, "Foo Dog" defense SPIRIT SHIELD (project definition: USE, prevent 2, HEAL 1)
def test_spirit_shield():
    s = duel(hand1=["shield"], deck1=["plain"] * 5)
    P(s, 1)["discard"] = [{"id": "x1", "d": "low", "o": 1}]
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "shield"))
    assert defs(P(s, 1)["deck"])[-2:] == ["shield", "low"]
    assert defs(P(s, 1)["discard"]) == ["plain", "plain"]  # 4 - 2 = 2 damage


# rules: Yashima Fairytale, "Bruce Lee" COUNTER (project definition: USE, prevent 2, gain CHI) and CHI (+1 ATK each, spent on the next attack)
def test_counter_gives_chi():
    s = scene(pl(pos=A, hand=["plain"]), pl(master="bruce_lee", kami="dragon", pos=FRONT, facing=3, hand=["counter"]))
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "counter"))
    assert P(s, 1)["st"] == {"CHI": [1]}
    assert defs(P(s, 1)["deck"])[-1] == "counter" and len(P(s, 1)["discard"]) == 2


# rules: Yashima Fairytale, "Bruce Lee" CHI status (project definition: up to 3; all spent on your next attack, +1 ATK each)
def test_chi_is_spent_on_the_next_attack():
    s = scene(pl(master="bruce_lee", pos="0,1", hand=["plain"], statuses={"CHI": 2}), pl(master="rosamu", kami="dragon", pos="0,-1", facing=3))
    ev = attack(s, 0, "plain")
    assert next(e for e in ev if e["type"] == "AttackDeclared")["payload"]["targets"] == []
    assert P(s, 0)["st"] == {}
    s = scene(pl(master="bruce_lee", pos="0,1", hand=["far"], statuses={"CHI": 2}), pl(master="rosamu", kami="dragon", pos="0,-1", facing=3),
              custom={"far": card("far", atk=1, pattern="ranged")})
    ev = attack(s, 0, "far")
    assert next(e for e in ev if e["type"] == "AttackDeclared")["payload"]["targets"] == [{"seat": 1, "atk": 3}]


# rules: Yashima core, "Glossary" SWIFT ("This attack cannot be responded to")
def test_swift_gets_no_defense():
    s = duel(hand0=["swift"], hand1=["block"], custom={"swift": card("swift", attack=[{"k": "SWIFT"}])})
    attack(s, 0, "swift")
    assert prompt(s)["kind"] == "lose"


# rules: Yashima core, "Glossary" AMBUSH (+1 ATK and SWIFT against each target that faces opposite to your master)
def test_ambush_against_a_target_facing_away():
    s = scene(pl(pos=A, hand=["amb"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=0, hand=["block"]),
              custom={"amb": card("amb", atk=2, attack=[{"k": "AMBUSH"}])})
    ev = attack(s, 0, "amb")
    decl = next(e for e in ev if e["type"] == "AttackDeclared")["payload"]
    assert decl["targets"] == [{"seat": 1, "atk": 3}]
    assert prompt(s)["kind"] == "lose"  # SWIFT against this target: no defense offered


def test_ambush_normal_against_a_target_facing_the_attacker():
    s = scene(pl(pos=A, hand=["amb"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=["block"]),
              custom={"amb": card("amb", atk=2, attack=[{"k": "AMBUSH"}])})
    ev = attack(s, 0, "amb")
    assert next(e for e in ev if e["type"] == "AttackDeclared")["payload"]["targets"] == [{"seat": 1, "atk": 2}]
    assert prompt(s)["kind"] == "defense"


# rules: Yashima core, "Glossary" COMBO ("+1 ATK for each card in your hand"; the attack itself does not count)
def test_combo():
    s = duel(hand0=["combo", "plain", "plain"], custom={"combo": card("combo", atk=1, attack=[{"k": "COMBO"}])})
    ev = attack(s, 0, "combo")
    assert next(e for e in ev if e["type"] == "AttackDeclared")["payload"]["targets"][0]["atk"] == 3


# rules: Yashima core, "Glossary" PATIENCE (+2 ATK if you did not rotate during this attack)
def test_patience():
    custom = {"pat": card("pat", atk=1, pattern="whirl", attack=[{"k": "PATIENCE"}])}
    s = duel(hand0=["pat"], custom=custom)
    ev = attack(s, 0, "pat", facing=0)
    assert next(e for e in ev if e["type"] == "AttackDeclared")["payload"]["targets"][0]["atk"] == 3
    s = duel(hand0=["pat"], custom=custom)
    ev = attack(s, 0, "pat", facing=1)
    assert next(e for e in ev if e["type"] == "AttackDeclared")["payload"]["targets"][0]["atk"] == 1


# rules: Yashima core, "Glossary" KINDLE (+3 ATK against targets with BURN status; others a normal attack)
def test_kindle_only_against_burning_targets():
    s = scene(pl(pos=A, hand=["kin"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, statuses={"BURN": 1}),
              pl(master="kenta", kami="tiger", pos="1,-1", facing=3),
              custom={"kin": card("kin", atk=2, pattern="arc", attack=[{"k": "KINDLE"}])})
    ev = attack(s, 0, "kin")
    targets = next(e for e in ev if e["type"] == "AttackDeclared")["payload"]["targets"]
    assert targets == [{"seat": 1, "atk": 5}, {"seat": 2, "atk": 2}]


# rules: Yashima core, "Playing a Team Game" (you can damage your team-mates) and "TARGET" (self where the pattern says so)
def test_patterns_target_team_mates_and_self():
    s = scene(pl(pos=A, hand=["aura"]), pl(master="rosamu", kami="dragon", pos="3,-3"), pl(master="kenta", pos=FRONT),
              pl(master="hikaru", kami="phoenix", pos="3,0"), teams=[0, 1, 0, 1],
              custom={"aura": card("aura", atk=1, pattern="aura")})
    ev = attack(s, 0, "aura")
    assert [t["seat"] for t in next(e for e in ev if e["type"] == "AttackDeclared")["payload"]["targets"]] == [0, 2]


# rules: Yashima core, "The Circle of Life" LOSE (one card at a time, from the top of the deck or the hand, the loser choosing)
def test_lose_one_card_at_a_time_loser_chooses():
    s = duel(hand1=["low", "mid"])
    attack(s, 0, "plain")
    cmds = s.legal(1)
    assert {"type": "lose_card", "args": {"zone": "deck"}} in cmds
    assert {"type": "lose_card", "args": {"zone": "hand", "card": hid(s, 1, "low")}} in cmds
    s.when(1, "lose_card", zone="hand", card=hid(s, 1, "low"))
    assert prompt(s)["info"]["remaining"] == 3
    lose_from_deck(s, 1, 3)
    assert defs(P(s, 1)["discard"]) == ["low", "plain", "plain", "plain"]


# rules: Yashima Fairytale, "Glossary" ICEBREAKER (losing it from the deck prevents all further loss; it cannot be healed)
# rules: Yashima Fairytale, "Glossary" ICEBREAKER ("If a card with ICEBREAKER is on top of your discard pile when an
# effect would cause you to HEAL, you don't instead")
def test_icebreaker_stops_the_loss_and_cannot_be_healed():
    s = duel(deck1=["plain", "icebreaker"] + ["plain"] * 8)
    attack(s, 0, "plain")
    lose_from_deck(s, 1, 2)
    assert prompt(s) is None and len(P(s, 1)["deck"]) == 8
    from games.engines.yashima import ops
    from games.engines.yashima.state import Sim
    from games.kernel import Rng
    sim = Sim(s.state, Rng(b"t", "t"))
    assert ops.heal(sim, 1) is False and sim.events == []


# rules: Yashima Fairytale, "Glossary" ENDURE (triggers when you LOSE this card from your battle deck; optional)
def test_endure_triggers_on_loss_from_deck():
    s = duel(deck1=["endure_draw"] + ["plain"] * 9)
    attack(s, 0, "plain")
    lose_from_deck(s, 1)
    assert prompt(s)["kind"] == "optional_effect" and prompt(s)["seat"] == 1
    s.when(1, "use_effect", effect="DRAW")
    assert len(P(s, 1)["hand"]) == 1
    lose_from_deck(s, 1, 3)
    assert prompt(s) is None


# rules: Yashima Fairytale, "Yashima Attack Action Breakdown" (effects resolve top to bottom after damage, optional)
def test_effects_are_optional_and_in_order():
    custom = {"two": card("two", atk=1, attack=[{"k": "DRAW", "n": 1}, {"k": "STATUS_SELF", "status": "SPIRIT"}])}
    s = duel(hand0=["two"], custom=custom)
    attack(s, 0, "two")
    lose_from_deck(s, 1)
    assert prompt(s)["cmds"][0]["args"]["effect"] == "DRAW"
    s.when(0, "skip_effect", effect="DRAW")
    assert prompt(s)["cmds"][0]["args"]["effect"] == "STATUS_SELF"
    s.when(0, "use_effect", effect="STATUS_SELF")
    assert P(s, 0)["st"] == {"SPIRIT": [0]} and P(s, 0)["hand"] == []


# rules: Yashima Fairytale, "Lu Bu" ("crush anyone who tries to defend"; project ability: defenders EXERT)
def test_lu_bu_defenders_exert():
    s = scene(pl(master="lu_bu", pos=A, hand=["plain"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=["block"]))
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "block"))
    assert defs(P(s, 1)["discard"])[0] == "plain"


# rules: Yashima core, glossary DEFENSE EFFECT ("If you are EXHAUSTED, you may not play a defense effect that
# requires you to EXERT"), CLASH ("attacker and you EXERT") and DODGE ("LOSE this card and EXERT to move one
# space"); Lu Bu's passive (provisional content: a master who defends against him EXERTs, before the defense
# resolves): with one card in the deck that EXERT leaves nothing for CLASH's or DODGE's own, so only BLOCK is offered
def test_against_lu_bu_a_defense_needing_an_exert_needs_a_second_card():
    s = scene(pl(master="lu_bu", pos=A, hand=["plain"]),
              pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["low"], hand=["clash", "dodge", "block"]))
    attack(s, 0, "plain")
    assert {c["args"].get("card") for c in s.legal(1)} == {hid(s, 1, "block"), None}
    s = scene(pl(master="lu_bu", pos=A, hand=["plain"]),
              pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["low", "low"], hand=["clash", "dodge", "block"]))
    attack(s, 0, "plain")
    assert len(s.legal(1)) == 4


# rules: Yashima Fairytale, "Yashima Attack Action Breakdown" 1.1.2 (an attack that needs no attack token skips step 1.1)
# rules: Yashima core, "Key Concepts" ("card text supersedes game rules") and "Glossary" EFFECT ("If the text on a card
# contradicts a rule, the card text always takes precedence"): the card's NO_TOKEN overrides "take an attack action"
def test_attack_that_needs_no_token():
    s = duel(hand0=["free", "plain"], pool={"move": 1, "attack": 0}, custom={"free": card("free", atk=1, attack=[{"k": "NO_TOKEN"}])})
    assert {c["args"]["card"] for c in s.legal(0) if c["type"] == "attack"} == {hid(s, 0, "free")}
    attack(s, 0, "free")
    assert s.state["pool"] == {"move": 1, "attack": 0} and s.state["turn"]["token"] is None
    assert "move_action" in types(s.legal(0))


# rules: Yashima core, "Attack Action" ("Each master targeted by an attack may respond with one defensive card from their hand, in turn order")
def test_defenses_in_turn_order():
    s = scene(pl(pos=A, hand=["wide"]), pl(master="rosamu", kami="dragon", pos="-1,0", facing=2, hand=["block"]),
              pl(master="kenta", pos=FRONT, facing=3, hand=["block"]), pl(master="hikaru", kami="phoenix", pos="1,-1", facing=4, hand=["block"]),
              custom={"wide": card("wide", atk=2, pattern="arc")})
    attack(s, 0, "wide")
    order = []
    while prompt(s) and prompt(s)["kind"] == "defense":
        who = prompt(s)["seat"]
        order.append(who)
        s.when(who, "no_defense")
    assert order == [1, 2, 3]


def test_defense_order_starts_left_of_the_attacker():
    # seat 2 attacks seats 3, 0 and 1 with a pattern written as explicit offsets
    s = scene(pl(pos=A, hand=["block"]), pl(master="rosamu", kami="dragon", pos="-1,0", facing=2, hand=["block"]),
              pl(master="kenta", pos="3,-3", hand=["far"]), pl(master="hikaru", kami="phoenix", pos=FRONT, facing=4, hand=["block"]),
              turn=2, custom={"far": card("far", atk=2, pattern=[[-3, 2], [-3, 3], [-4, 3]])})
    attack(s, 2, "far", facing=0)
    order = []
    while prompt(s) and prompt(s)["kind"] == "defense":
        who = prompt(s)["seat"]
        order.append(who)
        s.when(who, "no_defense")
    assert order == [3, 0, 1]


# rules: Yashima Fairytale, "Yashima Attack Action Breakdown" 1.4.1 ("Resolve any effects that change the attack pattern")
def test_pattern_change_extends_the_targets():
    s = scene(pl(master="lu_bu", pos=A, hand=["lu_bu_01"]), pl(master="rosamu", kami="dragon", pos="0,-4", facing=3))
    ev = attack(s, 0, "lu_bu_01")  # Sky Piercer: lance plus the fourth space ahead
    decl = next(e for e in ev if e["type"] == "AttackDeclared")["payload"]
    assert decl["cells"] == ["0,-1", "0,-2", "0,-3", "0,-4"] and decl["targets"] == [{"seat": 1, "atk": 6}]


# rules: Yashima core, "Glossary" EXHAUSTED ("If an effect would cause you to EXERT, you don't, but still perform all other effects")
def test_exhausted_attacker_ignores_forced_exert():
    s = duel(hand1=["occupy"], deck0=[])
    attack(s, 0, "plain")
    s.when(1, "defend", card=hid(s, 1, "occupy"))
    assert P(s, 0)["discard"] == [] and len(P(s, 1)["deck"]) == 8  # 4 - 2 prevented


# rules: Yashima core, "The Circle of Life" (with an empty deck, damage is lost from the hand)
def test_damage_from_hand_when_the_deck_is_empty():
    s = duel(hand1=["low", "mid", "high"], deck1=[])
    attack(s, 0, "plain")
    assert {c["args"]["zone"] for c in s.legal(1)} == {"hand"}
    s.when(1, "lose_card", zone="hand", card=hid(s, 1, "high"))
    s.when(1, "lose_card", zone="hand", card=hid(s, 1, "low"))
    assert P(s, 1)["pending"] and defs(P(s, 1)["discard"]) == ["high", "low", "mid"]
