"""EXERTs resolved one at a time: an imprinted card an EXERT uncovers resolves before the next EXERT
(and before whatever the EXERTs pay for or are compared in)."""

import pytest

from .helpers import P, attack, card, defs, hid, pl, prompt, scene

A = "0,0"
# an imprinted card with no imprint effect: revealed, set aside, returned to the bottom of the deck
IMP = {"imp": card("imp", karma=5, atk=1, torn={"effects": []})}
IMPRINTED = {"d": "imp", "im": True}


def pl_(**kw):
    kw.setdefault("pos", A)
    return pl(**kw)


def order(events, *kinds):
    """The events of interest, in order: 'exert:<card>', 'imprint', 'move' (a master moved or turned)."""
    out = []
    for e in events:
        p = e["payload"]
        if e["type"] == "CardMoved" and p["zone"] == "deck" and p["to"] == "discard":
            out.append("exert:" + p["card"]["d"])
        elif e["type"] == "CardRevealed" and p.get("why") == "imprint":
            out.append("imprint")
        elif e["type"] == "MasterMoved":
            out.append("move")
    return [x for x in out if x.split(":")[0] in kinds]


# rules: Yashima core, "Locked In Combat" ("you must EXERT for each master you move away from") and
# glossary "Multiple Effects" ("when an effect causes another to trigger, the original effect is
# 'paused' and the newest effect triggered resolves first"); IMPRINT ("first trigger its effect")
def test_leaving_two_opponents_pays_two_exerts_past_an_imprint():
    s = scene(pl_(deck=["plain", IMPRINTED, "mid", "low", "low"]),
              pl_(master="rosamu", kami="dragon", pos="0,-1"), pl_(master="hikaru", pos="1,-1"), custom=IMP)
    s.when(0, "move_action")
    ev = s.when(0, "step", to="-1,1")
    assert defs(P(s, 0)["discard"]) == ["plain", "mid"]
    assert defs(P(s, 0)["deck"]) == ["low", "low", "imp"] and P(s, 0)["pos"] == "-1,1"
    assert order(ev, "exert", "imprint", "move") == ["exert:plain", "imprint", "exert:mid", "move"]


# rules: Yashima core, DODGE ("this is a 'move', and will therefore cause combat movement rules to
# apply, possibly causing you to EXERT twice"); "Multiple Effects" (newest first)
def test_dodge_out_of_combat_pays_both_exerts_and_the_imprint_resolves_first():
    s = scene(pl_(hand=["seven"]), pl_(master="rosamu", kami="dragon", pos="0,-1", facing=3, hand=["dodge"],
                                          deck=["plain", IMPRINTED, "mid", "low", "low"]), custom=IMP)
    attack(s, 0, "seven")
    ev = s.when(1, "defend", card=hid(s, 1, "dodge"))
    assert prompt(s)["kind"] == "dodge"
    ev += s.when(1, "dodge_to", to="-1,-1")
    assert defs(P(s, 1)["discard"]) == ["dodge", "plain", "mid"]
    assert order(ev, "exert", "imprint") == ["exert:plain", "imprint", "exert:mid"]
    assert P(s, 1)["pos"] == "-1,-1"


# rules: Yashima core, CLASH ("The karma values being compared are the cards that the attacker and you
# exerted as a part of this effect"); "Multiple Effects" (newest first); Lu Bu's passive (provisional
# content, docs/games/yashima.md: a master who defends against him EXERTs)
def test_clash_against_lu_bu_compares_the_card_beneath_an_uncovered_imprint():
    s = scene(pl_(master="lu_bu", hand=["seven"], deck=["low"] * 5),
              pl_(master="rosamu", kami="dragon", pos="0,-1", facing=3, hand=["clash"],
                  deck=["plain", IMPRINTED, "high", "plain", "plain"]), custom=IMP)
    attack(s, 0, "seven")
    s.when(1, "defend", card=hid(s, 1, "clash"))
    assert defs(P(s, 1)["discard"])[:3] == ["plain", "clash", "high"]
    assert defs(P(s, 0)["discard"])[:1] == ["low"]
    assert P(s, 1)["deck"][-1]["d"] == "imp"
    assert len(P(s, 1)["hand"]) == 0 and defs(P(s, 1)["deck"])[:2] == ["plain", "plain"]  # no damage taken (7 > 1)


# rules: Yashima core, DASH ("move up to your speed") and "Locked In Combat"; "Multiple Effects" (newest first)
def test_dash_away_from_two_opponents_pays_two_exerts_past_an_imprint():
    s = scene(pl_(hand=["dash"], deck=["plain", IMPRINTED, "mid", "low", "low"]),
              pl_(master="rosamu", kami="dragon", pos="0,-1", facing=3), pl_(master="hikaru", pos="1,-1"),
              pl_(master="kenta", pos="-3,3", facing=0), custom=IMP)
    to = "-2,2"
    ev = s.when(0, "dash", card=hid(s, 0, "dash"), to=to)
    assert P(s, 0)["pos"] == to
    assert order(ev, "exert", "imprint")[:3] == ["exert:plain", "imprint", "exert:mid"]


# rules: Fairytale, "Quick Effect" (Akiko's Scorching Aura, EXERT cost, provisional content);
# Yashima core "Multiple Effects" (newest first) and IMPRINT (revealed on top: first trigger its effect)
def test_quick_ability_exert_cost_waits_for_an_imprint_on_top():
    s = scene(pl_(deck=[IMPRINTED, "plain", "low"]), pl_(master="rosamu", kami="dragon", pos="0,-1"), custom=IMP)
    ev = s.when(0, "quick", src="avatar:0")
    assert defs(P(s, 0)["discard"]) == ["plain"]
    assert order(ev, "exert", "imprint") == ["imprint", "exert:plain"]
    assert P(s, 1)["st"].get("BURN")


# rules: Yashima Fairytale, "Terrain" SLICK ("If you would end a move on or relocate to slick terrain, you
# must relocate to an adjacent unoccupied legal space"); Yashima core, "Terrain" DEADLY ("Masters must
# EXERT to enter deadly terrain"); "Multiple Effects" (newest first) and IMPRINT (revealed on top: first
# trigger its effect)
def test_slick_relocation_into_deadly_terrain_exerts_the_card_beneath_an_imprint_on_top():
    s = scene(pl_(deck=[IMPRINTED, "plain", "mid", "low"]), pl_(master="rosamu", kami="dragon", pos="3,-3"),
              terrain={"0,1": "slick", "1,1": "deadly"}, custom=IMP)
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    s.when(0, "end_move", facing=3)
    assert prompt(s)["kind"] == "forced_relocation"
    ev = s.when(0, "relocate_to", to="1,1")
    assert order(ev, "exert", "imprint", "move") == ["imprint", "exert:plain", "move"]
    assert P(s, 0)["pos"] == "1,1" and defs(P(s, 0)["discard"]) == ["plain"]
    assert defs(P(s, 0)["deck"]) == ["mid", "low", "imp"]


# rules: Yashima Fairytale, "Terrain" SLICK and FROST ("A space with FROST status is deadly terrain in
# addition to its other types"); Yashima core, "Terrain" DEADLY; "Multiple Effects" (newest first: the
# imprint the first EXERT uncovers resolves before the chain goes on, and the next EXERT takes the card beneath)
def test_relocation_chain_through_deadly_slick_pays_each_exert_past_the_imprint_it_uncovers():
    s = scene(pl_(deck=["plain", IMPRINTED, "mid", "low"]), pl_(master="rosamu", kami="dragon", pos="3,-3"),
              terrain={"0,1": "slick", "1,1": "slick", "2,1": "deadly"}, space_statuses={"1,1": {"FROST": 1}},
              custom=IMP)
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    s.when(0, "end_move", facing=3)
    ev = s.when(0, "relocate_to", to="1,1")
    assert order(ev, "exert", "imprint", "move") == ["exert:plain", "imprint", "move"]
    assert prompt(s)["kind"] == "forced_relocation" and "0,1" not in {c["args"]["to"] for c in s.legal(0)}
    ev = s.when(0, "relocate_to", to="2,1")
    assert order(ev, "exert", "imprint", "move") == ["exert:mid", "move"]
    assert P(s, 0)["pos"] == "2,1" and defs(P(s, 0)["discard"]) == ["plain", "mid"]
    assert defs(P(s, 0)["deck"]) == ["low", "imp"]


# rules: Yashima Fairytale, "Terrain" SLICK ("relocate to an adjacent unoccupied legal space"); Yashima core,
# "Terrain" DEADLY and "Multiple Effects" (newest first): the imprint on top resolves first and here GROWs a
# PLANT onto the chosen deadly space (solid now); the EXERT is still paid (docs/games/yashima.md, decision 6)
# and the forced relocation goes on to the chain's other spaces
def test_forced_relocation_whose_space_an_imprint_fills_offers_the_other_spaces():
    grow = {"imp": card("imp", karma=5, atk=1, torn={"effects": [{"k": "GROW"}]})}
    s = scene(pl_(deck=[IMPRINTED, "plain", "mid", "low"]), pl_(master="rosamu", kami="dragon", pos="3,-3"),
              terrain={"0,1": "slick", "1,1": "deadly"}, space_statuses={"0,2": {"PLANT": 0}}, custom=grow)
    s.when(0, "move_action")
    s.when(0, "step", to="0,1")
    s.when(0, "end_move", facing=3)
    s.when(0, "relocate_to", to="1,1")
    assert prompt(s)["kind"] == "grow"
    s.when(0, "grow", frm="0,2", to="1,1")
    assert P(s, 0)["pos"] == "0,1" and defs(P(s, 0)["discard"]) == ["plain"]
    assert prompt(s)["kind"] == "forced_relocation"
    dests = {c["args"]["to"] for c in s.legal(0)}
    assert "1,1" not in dests and "0,1" not in dests and "0,2" in dests
    s.when(0, "relocate_to", to="0,2")
    assert P(s, 0)["pos"] == "0,2" and defs(P(s, 0)["discard"]) == ["plain"]


# rules: Yashima core, glossary EXERT ("discard the top card of your deck") and "Multiple Effects"
# (newest first): an EXERT 2 card effect pays every EXERT, past an imprinted card on top (it
# resolves first) and past one the first EXERT uncovers
@pytest.mark.parametrize("deck", [["plain", IMPRINTED, "mid", "low"], [IMPRINTED, "plain", "mid", "low"]])
def test_an_exert_effect_pays_every_exert_past_imprints(deck):
    from .test_keywords import hit_with, use_effect

    s = hit_with([{"k": "EXERT", "n": 2}], attacker=pl_(hand=["fx"], deck=deck), custom=IMP)
    use_effect(s)
    assert [d for d in defs(P(s, 0)["discard"]) if d in ("plain", "mid", "low")] == ["plain", "mid"]
    assert defs(P(s, 0)["deck"])[:2] == ["low", "imp"]


# rules: Yashima core, "Locked In Combat" ("you must EXERT for each master you move away from"), glossary
# EXHAUSTED ("If an effect or movement requires you to EXERT as a cost, you cannot activate that effect or
# perform that movement") and IMPRINT ("If there are no face-down battle cards beneath this card when
# revealed, its effects don't apply, and it instead returns to its owner's tome"): a face-up imprinted card
# pays no EXERT, so one face-down card above it cannot pay for leaving two opponents
def test_an_imprinted_card_does_not_count_towards_an_exert_cost():
    pact = {"d": "tome:akiko:4:front", "im": True}  # Phoenix Pact, nothing face down beneath it
    s = scene(pl_(deck=["plain", pact]), pl_(master="rosamu", kami="dragon", pos="0,-1"),
              pl_(master="hikaru", pos="1,-1"))
    s.when(0, "move_action")
    steps = {c["args"]["to"] for c in s.legal(0) if c["type"] == "step"}
    assert steps == {"1,0", "-1,0"}  # one EXERT each (away from one master); 0,1 and -1,1 would need two
    s.when(0, "step", to="1,0")
    assert defs(P(s, 0)["discard"]) == ["plain"] and P(s, 0)["deck"] == [] and 4 not in P(s, 0)["tome"]["out"]
