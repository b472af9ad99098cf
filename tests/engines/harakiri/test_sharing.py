"""Interacting with an adjacent character: exchanging weapons and armor (docs/games/harakiri.md,
"Interacting with characters")."""

import pytest

from games.engines.harakiri import ENGINE, combat, rules
from games.engines.harakiri.state import W
from games.kernel import RuleViolation
from games.kernel import Rng

from .helpers import arena, doc, open_rows, scenario


def _turn(who, characters, options=None):
    chars = {who: {"ap": 4}}
    for c, spec in characters.items():
        chars[c] = {**chars.get(c, {}), **spec}
    d = doc(arena(open_rows()), chars, None, activate=f"char:{who}", options=options or {})
    roster = (options or {}).get("characters")
    if roster:  # a mixed party: only its four characters are placed
        d["characters"] = {c: {"sq": f"{i},9", **d["characters"].get(c, {})} for i, c in enumerate(roster)}
    return scenario(d)


def gives(s, seat=0):
    return [c["args"] for c in s.legal(seat) if c["type"] == "give"]


def test_hand_over_a_weapon_another_class_keeps_it_unequipped_in_the_supply():
    # rules: Harakiri, "Interact": "When interacting with another character, both can swap coins,
    # Heads, items, equipment ..."; "Share": "even if a character does not fulfill the requisites for
    # using an item or piece of equipment (for not being the required class ...) those items can
    # still be part of the character's supply."
    s = _turn("tomoe", {"tomoe": {"sq": "2,2", "weapons": ["samurai_yumi", "samurai_naginata"],
                                  "equipped": "samurai_yumi"}, "akira": {"sq": "3,3"}})
    assert {"to": "akira", "weapon": "samurai_yumi"} in gives(s)
    s.when(0, "give", to="akira", weapon="samurai_yumi")
    tomoe, akira = s.state["characters"]["tomoe"], s.state["characters"]["akira"]
    assert tomoe["ap"] == 3  # the interaction costs 1 action point in the Exploration Phase
    assert tomoe["weapons"] == ["samurai_naginata"] and tomoe["equipped"] == "samurai_naginata"
    assert akira["weapons"] == ["ronin_katana", "samurai_yumi"] and akira["equipped"] == "ronin_katana"
    # Akira is no samurai: he carries the Yumi but cannot swap to it
    s2 = _turn("akira", {"akira": {"sq": "3,3", "weapons": ["ronin_katana", "samurai_yumi"]}})
    assert not [c for c in s2.legal(0) if c["type"] == "swap_weapon"]
    assert rules.weapon(s2.state, "akira")["name"] == "Katana"


def test_exchange_weapons_and_take_one_back():
    # rules: Harakiri, "Interact": both characters can swap equipment in one interaction
    s = _turn("akira", {"akira": {"sq": "2,2", "weapons": ["ronin_katana", "ronin_tanto"]},
                        "tomoe": {"sq": "3,2", "weapons": ["samurai_yumi", "samurai_naginata"]}})
    s.when(0, "give", to="tomoe", weapon="ronin_tanto", take="samurai_yumi")
    akira, tomoe = s.state["characters"]["akira"], s.state["characters"]["tomoe"]
    assert akira["weapons"] == ["ronin_katana", "samurai_yumi"] and akira["equipped"] == "ronin_katana"
    assert tomoe["weapons"] == ["samurai_naginata", "ronin_tanto"] and tomoe["equipped"] == "samurai_naginata"
    assert akira["ap"] == 3
    # one-way back: Akira has room? no (2 weapons) -> he can only give or exchange
    assert {"to": "tomoe", "take": "ronin_tanto"} not in gives(s)
    s.when(0, "give", to="tomoe", weapon="samurai_yumi", take="ronin_tanto")
    assert s.state["characters"]["akira"]["weapons"] == ["ronin_katana", "ronin_tanto"]
    assert s.state["characters"]["tomoe"]["weapons"] == ["samurai_naginata", "samurai_yumi"]


def test_giving_the_equipped_weapon_equips_the_received_or_the_other_one():
    # rules: Harakiri, "Equipment and Item Limits": "Each character may have a maximum of 2 weapons
    # (1 equipped, and 1 unequipped)"; Tomoe receives Akira's equipped Katana: he equips his Tanto
    s = _turn("akira", {"akira": {"sq": "2,2", "weapons": ["ronin_katana", "ronin_tanto"], "equipped": "ronin_katana"},
                        "tomoe": {"sq": "3,2"}})
    s.when(0, "give", to="tomoe", weapon="ronin_katana")
    assert s.state["characters"]["akira"]["equipped"] == "ronin_tanto"
    assert s.state["characters"]["tomoe"]["weapons"] == ["samurai_yumi", "ronin_katana"]
    assert s.state["characters"]["tomoe"]["equipped"] == "samurai_yumi"


def test_weapon_transfers_that_leave_nobody_armed_or_break_limits_are_refused():
    # rules: Harakiri, "Equipment and Item Limits" (2 weapons at most); decision: a character always
    # keeps a weapon of its class to equip (attacks are made with the equipped weapon)
    s = _turn("akira", {"akira": {"sq": "2,2"}, "tomoe": {"sq": "3,2"}})
    got = gives(s)
    assert {"to": "tomoe", "weapon": "ronin_katana"} not in got  # Akira would have no weapon
    assert {"to": "tomoe", "take": "samurai_yumi"} not in got  # Tomoe would have no weapon
    assert {"to": "tomoe", "weapon": "ronin_katana", "take": "samurai_yumi"} not in got  # neither can wield
    err = s.rejects(0, "give", to="tomoe", weapon="ronin_katana")
    assert err.code == "illegal_command"
    full = _turn("akira", {"akira": {"sq": "2,2", "weapons": ["ronin_katana", "ronin_tanto"]},
                           "tomoe": {"sq": "3,2", "weapons": ["samurai_yumi", "samurai_naginata"]}})
    assert {"to": "tomoe", "weapon": "ronin_tanto"} not in gives(full)  # Tomoe already holds 2


def test_equipment_refusals_not_adjacent_no_action_point_conditions_and_karma():
    # rules: Harakiri, "Interact": "interacting with other adjacent characters"; 1 action point;
    # "(excluding any condition or karma tokens)"
    far = _turn("akira", {"akira": {"sq": "2,2", "weapons": ["ronin_katana", "ronin_tanto"]}, "tomoe": {"sq": "4,2"}})
    assert gives(far) == []
    assert far.rejects(0, "give", to="tomoe", what="armor").code == "illegal_command"
    tired = _turn("akira", {"akira": {"sq": "2,2", "ap": 0, "weapons": ["ronin_katana", "ronin_tanto"]},
                            "tomoe": {"sq": "3,2"}})
    for spend in ("move", "exert", "exert"):  # 3 action points gained at the turn's start, all spent
        tired.when(0, spend)
    assert tired.state["characters"]["akira"]["ap"] == 0
    assert gives(tired) == []
    assert tired.rejects(0, "give", to="tomoe", weapon="ronin_tanto").code == "illegal_command"
    near = _turn("akira", {"akira": {"sq": "2,2", "karma": 2, "conditions": {"bleeding": 1, "blessed": 1}},
                           "tomoe": {"sq": "3,2"}})
    assert all(a.get("what") not in ("karma", "bleeding", "blessed", "conditions") for a in gives(near))
    for what in ("karma", "conditions", "blessed"):
        assert near.rejects(0, "give", to="tomoe", what=what).code == "illegal_command"


def test_exchanged_armor_keeps_its_resistance_and_protects_only_its_class():
    # rules: Harakiri, "Blacksmith": armor cards show a class, "Each item of armor has a maximum
    # resistance value which can be decreased by combats"; "Share": equipment of another class is
    # carried in the supply; "the value of armor can never exceed the base value of the equipped armor"
    s = _turn("akira", {"akira": {"sq": "2,2", "armor": 1}, "hattori": {"sq": "3,2", "armor": 1}})
    assert {"to": "hattori", "what": "armor"} in gives(s)
    s.when(0, "give", to="hattori", what="armor")
    akira, hattori = s.state["characters"]["akira"], s.state["characters"]["hattori"]
    assert (akira["armor_card"], akira["armor"]) == ("shinobi_armor", 1)
    assert (hattori["armor_card"], hattori["armor"]) == ("ronin_robe", 1)  # damaged robe: 1 of 2
    assert akira["ap"] == 3
    # neither can wear the other's armor: no defense, no armor, no repair, no armor loss
    assert rules.char_armor(s.state, "akira") == 0 and rules.char_defense(s.state, "akira") == 0
    assert rules.armor_cap(hattori) == 0
    w = W(s.state, Rng(b"x", "y"))
    combat.reduce_armor(w, "hattori", "test")
    assert w.s["characters"]["hattori"]["armor"] == 1
    # trading back restores each own armor with the resistance it had: nothing repaired
    s.when(0, "give", to="hattori", what="armor")
    akira, hattori = s.state["characters"]["akira"], s.state["characters"]["hattori"]
    assert (akira["armor_card"], akira["armor"]) == ("ronin_robe", 1)
    assert (hattori["armor_card"], hattori["armor"]) == ("shinobi_armor", 1)
    assert rules.char_armor(s.state, "akira") == 1 and rules.char_defense(s.state, "akira") == 1
    assert akira["armor"] <= rules.armor_cap(akira)


def test_the_same_class_uses_what_it_receives():
    # rules: Harakiri, "Share": class requisites; Hanako (ronin) can wield Akira's Katana
    s = _turn("akira", {"akira": {"sq": "2,2", "weapons": ["ronin_katana", "ronin_tanto"]}, "hanako": {"sq": "3,2"}},
              options={"characters": ["akira", "hattori", "hanako", "tomoe"]})
    assert {"to": "hanako", "weapon": "ronin_tanto"} not in gives(s)  # she already holds a Tanto
    assert {"to": "hanako", "weapon": "ronin_tanto", "take": "ronin_tanto"} not in gives(s)  # a no-op
    s.when(0, "give", to="hanako", weapon="ronin_katana")
    hanako = s.state["characters"]["hanako"]
    assert hanako["weapons"] == ["ronin_tanto", "ronin_katana"] and hanako["equipped"] == "ronin_tanto"
    s2 = _turn("hanako", {"hanako": {"sq": "3,2", "weapons": ["ronin_tanto", "ronin_katana"]}},
               options={"characters": ["akira", "hattori", "hanako", "tomoe"]})
    s2.when(0, "swap_weapon")
    assert s2.state["characters"]["hanako"]["equipped"] == "ronin_katana"


def test_hand_over_refuses_an_equipped_weapon_of_another_class():
    # rules: Harakiri, "Share": equipment of another class can be carried, not used
    with pytest.raises(RuleViolation) as err:
        ENGINE.validate_options({"party": {"akira": {"weapons": ["samurai_yumi", "ronin_katana"]}}}, 1)
    assert err.value.code == "bad_options"
    ENGINE.validate_options({"party": {"akira": {"weapons": ["ronin_katana", "samurai_yumi"]}}}, 1)
