"""Equipment and items bought in the Adventure Phase work in the Exploration Phase: one catalogue of
blacksmith and market cards (``content/equipment.json``, ``content/items.json``) for both phases,
each card with its Exploration stats or effect."""

from games.engines.harakiri import ENGINE, content, rules
from games.engines.harakiri.adventure import content as adventure

from .helpers import arena, doc, open_rows, scenario


def _turn(who, spec, enemies=None, **kw):
    return scenario(doc(arena(open_rows()), {who: {"ap": 4, **spec}}, enemies, activate=f"char:{who}", **kw))


def _items(*ids):
    return [{"id": i, "uses": content.ITEMS[i].get("uses")} for i in ids]


def test_every_adventure_card_has_its_exploration_stats_in_one_catalogue():
    # rules: Harakiri, "Exploration Phase Setup", step 10: "Place already acquired items and equipment into the
    # character's supply"; step 12: "Gather the attack dice corresponding to the type of weapon you have equipped"
    for card_id, card in adventure.BLACKSMITH.items():
        stats = content.WEAPONS.get(card_id) if card["slot"] == "weapon" else content.ARMORS.get(card_id)
        assert stats == {k: v for k, v in card.items() if k != "slot"}, card_id
    assert {c["level"] for c in adventure.BLACKSMITH.values()} == {1, 2, 3}
    for klass in ("ronin", "ninja", "monk", "samurai"):  # every class's deck has weapons and an armor per level
        for level in (1, 2, 3):
            slots = {c["slot"] for c in adventure.BLACKSMITH.values() if (c["class"], c["level"]) == (klass, level)}
            assert slots == {"weapon", "armor"}, (klass, level)
    assert adventure.MARKET == content.ITEMS  # the market cards are the Exploration Phase's items
    assert all(card["effect"]["kind"] for card in content.ITEMS.values())
    # "A character's armor can never be more than 4" (Reborn Strength)
    assert max(a["armor"] for a in content.ARMORS.values()) == 4


def test_a_level_2_weapon_attacks_with_its_own_dice():
    # rules: Harakiri, "Attack": "Prepare the dice pool based on the type of attack you will be using, fast or strong"
    # (Akira's Nodachi, level 2: strong attack red, red and the test die)
    tesso = {"t": {"type": "tesso", "color": "red", "at": "3,2"}}  # defense 0, armor 2, health 6
    s = _turn("akira", {"sq": "2,2", "weapons": ["ronin_katana", "ronin_nodachi"], "equipped": "ronin_nodachi"},
              tesso, forced=[5, 5, 3])
    events = s.when(0, "attack", target="t", mode="strong")
    rolled = next(e for e in events if e["type"] == "AttackRolled")["payload"]["attack"]
    assert rolled["weapon"] == "ronin_nodachi" and [d["die"] for d in rolled["dice"]] == ["red", "red", "test"]
    assert s.state["enemies"]["t"]["health"] == 6 - (3 + 3 - 2)
    # the level 1 katana with the same faces: green 2 + red 3
    s = _turn("akira", {"sq": "2,2"}, tesso, forced=[5, 5, 3])
    s.when(0, "attack", target="t", mode="strong")
    assert s.state["enemies"]["t"]["health"] == 6 - (2 + 3 - 2)


def test_a_permanent_items_bonus_applies_while_its_knowledge_requirement_is_met():
    # rules: Harakiri, "Use an Item": "Permanent items do not require action points to be used, and their effect can
    # only be applied once each time that their requirements are fulfilled" (War Fan: knowledge 1, +1 to attacks)
    tesso = {"t": {"type": "tesso", "color": "red", "at": "3,2"}}
    s = _turn("akira", {"sq": "2,2", "items": _items("jirobo_omamori", "war_fan"), "attrs": {"knowledge": 1}},
              tesso, forced=[5, 5, 3])
    assert not [c for c in s.legal(0) if c["type"] == "use_item"]  # nothing to use: it applies by itself
    s.when(0, "attack", target="t", mode="strong")
    assert s.state["enemies"]["t"]["health"] == 6 - (2 + 3 + 1 - 2)
    s = _turn("akira", {"sq": "2,2", "items": _items("war_fan")}, tesso, forced=[5, 5, 3])  # knowledge 0
    s.when(0, "attack", target="t", mode="strong")
    assert s.state["enemies"]["t"]["health"] == 6 - (2 + 3 - 2)
    # Dragon Scale (knowledge 3): +1 armor while wearing an armor of the character's class
    s = _turn("tomoe", {"items": _items("dragon_scale"), "attrs": {"knowledge": 3}})
    assert rules.char_armor(s.state, "tomoe") == content.ARMORS["ceremonial_armor"]["armor"] + 1
    s = _turn("tomoe", {"items": _items("dragon_scale"), "attrs": {"knowledge": 3}, "armor_card": None, "armor": 0})
    assert rules.char_armor(s.state, "tomoe") == 0


def test_a_consumable_goes_back_into_the_market_deck_which_is_shuffled():
    # rules: Harakiri, "Use an Item": "If the item has the tag "consumable", discard it after use by returning it to
    # the market deck, which is then shuffled" (Smoke Bomb: blind an adjacent minion; not on a servant: "Conditions
    # cannot be imposed on Servants, Wanderers, Chosens, or Resistors")
    enemies = {"k": {"type": "kachi", "color": "red", "at": "3,2"},
               "u": {"kind": "servant", "type": "undertaker", "at": "1,2"}}
    s = _turn("hattori", {"sq": "2,2", "items": _items("jirobo_omamori", "smoke_bomb"), "attrs": {"knowledge": 1}},
              enemies, options={"market": ["rice_ball", "war_fan"]})
    uses = [c["args"] for c in s.legal(0) if c["type"] == "use_item"]
    assert uses == [{"slot": 1, "target": "k"}]
    s.when(0, "use_item", slot=1, target="k")
    st = s.state
    assert st["enemies"]["k"]["conditions"]["blinded"] == 1 and st["characters"]["hattori"]["ap"] == 3
    assert [i["id"] for i in st["characters"]["hattori"]["items"]] == ["jirobo_omamori"]
    assert sorted(st["market"]) == ["rice_ball", "smoke_bomb", "war_fan"]
    assert ENGINE.view_for(st, 0)["market"] == 3  # the deck's order stays hidden


def test_movement_karma_and_once_per_phase_items():
    # rules: Harakiri, "Use an Item": "Some items or skills may modify other actions when used ... the "use an item"
    # action can be performed during the action that is being modified" (Straw Sandals: +1 movement point)
    s = _turn("akira", {"sq": "2,2", "items": _items("straw_sandals", "spirit_incense"), "attrs": {"knowledge": 2}})
    assert [c["args"] for c in s.legal(0) if c["type"] == "use_item"] == [{"slot": 1}]  # not before moving
    s.when(0, "use_item", slot=1)  # Spirit Incense: 2 karma
    assert s.state["characters"]["akira"]["karma"] == 2
    s.when(0, "move")
    mp = s.state["turn"]["mp"]
    s.when(0, "use_item", slot=0)
    assert s.state["turn"]["mp"] == mp + 1 and s.state["characters"]["akira"]["ap"] == 4 - 1 - 1 - 1
    # Blessed Charm (permanent): "Once per Exploration Phase, gain a blessed token", no action point
    s = _turn("tomoe", {"items": _items("blessed_charm")})
    ap = s.state["characters"]["tomoe"]["ap"]
    s.when(0, "use_item", slot=0)
    tomoe = s.state["characters"]["tomoe"]
    assert tomoe["conditions"]["blessed"] == 1 and tomoe["ap"] == ap and tomoe["items_spent"] == ["blessed_charm"]
    assert [i["id"] for i in tomoe["items"]] == ["blessed_charm"]
    tomoe_next_round = {**s.state, "characters": {**s.state["characters"], "tomoe": {**tomoe, "items_used": []}}}
    assert not [c for c in ENGINE.legal_commands(tomoe_next_round, 0) if c["type"] == "use_item"]
