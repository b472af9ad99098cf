"""DESTROY and DISCARD as card effects, each exactly as the glossaries word them."""

import pytest

from games.engines.yashima import queries
from games.kernel import RuleViolation

from .helpers import P, card, defs, hid, pl, prompt, scene

A = "0,0"
CUSTOM = {
    "fate_discard": card("fate_discard", karma=6, atk=1, fate=[{"k": "DISCARD", "n": 2}]),
    "fate_destroy": card("fate_destroy", karma=6, atk=1, fate=[{"k": "DESTROY", "target": {"range": 3}}]),
}
BLADE = "tome:kenta:0:back"  # Kenta's Rusted Blade (EQUIP)
CROWN = "tome:akiko:2:front"  # Akiko's Ember Crown (EQUIP)


# rules: Yashima core glossary, DISCARD ("Place cards from your hand into your discard pile in any order
# you choose. Unlike LOSE, you cannot DISCARD from your battle deck")
def test_discard_puts_hand_cards_in_the_chosen_order():
    s = scene(pl(pos=A, deck=["fate_discard", "plain", "plain"], hand=["low", "mid", "high"]),
              pl(master="rosamu", kami="dragon", pos="3,-3"), custom=CUSTOM)
    s.when(0, "focus")
    assert prompt(s)["kind"] == "discard" and prompt(s)["info"] == {"remaining": 2}
    assert {c["args"]["card"] for c in s.legal(0)} == {hid(s, 0, d) for d in ("low", "mid", "high")}
    s.when(0, "discard_card", card=hid(s, 0, "high"))
    s.when(0, "discard_card", card=hid(s, 0, "low"))
    assert defs(P(s, 0)["discard"]) == ["high", "low"] and defs(P(s, 0)["hand"]) == ["mid"]
    assert defs(P(s, 0)["deck"]) == ["plain", "plain"]


# rules: Yashima core glossary, DISCARD ("you cannot DISCARD from your battle deck")
def test_discard_never_takes_from_the_deck():
    s = scene(pl(pos=A, deck=["fate_discard", "plain", "plain"], hand=["low"]),
              pl(master="rosamu", kami="dragon", pos="3,-3"), custom=CUSTOM)
    s.when(0, "focus")  # one card in hand: discarded alone, the second DISCARD has nothing to take
    assert defs(P(s, 0)["discard"]) == ["low"] and P(s, 0)["hand"] == []
    assert defs(P(s, 0)["deck"]) == ["plain", "plain"]
    with pytest.raises(RuleViolation):
        s.when(0, "discard_card", card=P(s, 0)["deck"][0]["id"])


# rules: Yashima core glossary, DESTROY ("When you DESTROY equipment, return it to its owner's tome. See
# Returning Cards"), Fairytale "DESTROY: Return card to its owner's tome"
def test_destroy_returns_equipment_to_its_owners_tome():
    s = scene(pl(pos=A, deck=["fate_destroy", "plain", "plain"]),
              pl(master="kenta", pos="0,-2", equip=[BLADE]),
              pl(master="akiko", kami="dragon", pos="0,-5", equip=[CROWN]), custom=CUSTOM)  # out of range
    assert P(s, 1)["tome"]["out"] == [0]
    s.when(0, "focus")
    assert P(s, 1)["equip"] == [] and P(s, 1)["tome"]["out"] == []
    assert defs(P(s, 2)["equip"]) == [CROWN]
    assert queries.equip_bonus(s.state, 1, "atk") == 0


# rules: Yashima core glossary, DESTROY (the choice of equipment among those the effect reaches)
def test_destroy_lets_the_player_choose_among_equipment_in_range():
    s = scene(pl(pos=A, deck=["fate_destroy", "plain", "plain"]),
              pl(master="kenta", pos="0,-2", equip=[BLADE]),
              pl(master="akiko", kami="dragon", pos="2,0", equip=[CROWN]), custom=CUSTOM)
    s.when(0, "focus")
    assert prompt(s)["kind"] == "destroy"
    assert sorted(c["args"]["master"] for c in s.legal(0)) == [1, 2]
    s.when(0, "destroy_equipment", master=2, card=P(s, 2)["equip"][0]["id"])
    assert P(s, 2)["equip"] == [] and defs(P(s, 1)["equip"]) == [BLADE]


# rules: the "every glossary keyword, each exactly as written": the provisional pack uses both
def test_the_pack_uses_destroy_and_discard():
    used = {it["k"] for m in queries.MASTERS.values() for tc in m["tome"] for f in tc["faces"].values()
            for it in f.get("effects", [])}
    assert {"DESTROY", "DISCARD"} <= used
