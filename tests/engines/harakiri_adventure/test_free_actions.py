"""Free actions: use an item, share (including sharing information and Jirōbō's omamori)."""

from games.engines.harakiri.adventure import describe, queries

from .helpers import activation, advance


def test_hattori_shares_information_and_tomoe_gives_holy_water_mid_travel():
    # rules: Harakiri, "Share" example: Hattori, during his travel action, passes by Tomoe's location and performs a share action ... Tomoe can also place a token of her clan ... Tomoe gives Hattori the item "Holy Water"
    missions = {"1": {"status": "active", "token": None, "starter": "hattori", "clan_tokens": {"hattori": ["kyoto"]}}}
    s = activation("hattori", missions=missions, characters={"hattori": {"location": "kyoto"},
                                                             "tomoe": {"location": "nara", "items": ["jirobo_omamori", "holy_water"]}})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="nara")
    assert {"type": "share_information", "args": {"mission": 1, "character": "tomoe"}} in s.legal(0)
    s.when(0, "share_information", mission=1, character="tomoe")
    assert s.state["missions"]["1"]["clan_tokens"]["tomoe"] == ["nara", "kyoto"]  # where the card places them
    s.when(0, "give", **{"from": "tomoe"}, to="hattori", what="holy_water", amount=1)
    assert "holy_water" in s.state["characters"]["hattori"]["items"]
    assert s.state["characters"]["hattori"]["ap"] == 2  # free actions


def test_share_exchanges_coins_items_and_weapons_at_the_same_location():
    # rules: Harakiri, "Share": An active character that shares a location with another character may exchange coins, heads, items, equipment
    s = activation("hikaru", characters={"hikaru": {"coins": 3, "items": ["jirobo_omamori", "rice_ball"]}})  # Hattori is in Hikone too
    s.when(0, "give", **{"from": "hikaru"}, to="hattori", what="coins", amount=2)
    s.when(0, "give", **{"from": "hikaru"}, to="hattori", what="rice_ball", amount=1)
    assert s.state["characters"]["hattori"]["coins"] == 2 and "rice_ball" in s.state["characters"]["hattori"]["items"]
    assert not [c for c in s.legal(0) if c["type"] == "give" and c["args"]["to"] == "tomoe"]  # Tomoe is in Nara


def test_personal_missions_are_never_shared():
    # rules: Harakiri, "Personal Missions": This type of mission's information cannot be shared using the free "Share" action
    s = activation("hikaru")
    assert not [c for c in s.legal(0) if c["type"] in ("share_information", "omamori")]


def test_jirobos_omamori_shares_one_active_mission_once_per_phase_from_anywhere():
    # rules: Harakiri, "Share": "Jirōbō's Omamori", that allows them, once per Adventure Phase, to share information on (only) one active mission ... Once used, all Omamoris remain unavailable
    missions = {"1": {"status": "active", "token": None, "starter": "akira", "clan_tokens": {"akira": ["kyoto"]}}}
    s = activation("akira", missions=missions)
    assert {"type": "omamori", "args": {"mission": 1, "character": "tomoe"}} in s.legal(0)
    s.when(0, "omamori", mission=1, character="tomoe")
    assert s.state["missions"]["1"]["clan_tokens"]["tomoe"] == ["nara", "kyoto"] and s.state["omamori_used"]
    assert not [c for c in s.legal(0) if c["type"] == "omamori"]


def test_using_a_consumable_returns_it_to_the_market_deck():
    # rules: Harakiri, "Free Actions": If the item is of the "consumable" type, return it to the market deck and shuffle it after use
    s = activation("akira", characters={"akira": {"health": 5, "items": ["jirobo_omamori", "healing_potion"]}})
    s.when(0, "use_item", item="healing_potion")
    advance(s)
    assert s.state["characters"]["akira"]["health"] == 8 and "healing_potion" in s.state["decks"]["market"]
    assert s.state["characters"]["akira"]["items"] == ["jirobo_omamori"] and s.state["characters"]["akira"]["ap"] == 3


def test_an_item_with_uses_loses_a_token_each_use():
    # rules: Harakiri, "Free Actions": If the item has the keyword "uses X", when obtained, place X tokens on it. Each time it is used, remove 1 token
    s = activation("akira", characters={"akira": {"health": 5, "items": ["bandages"]}})
    s.when(0, "use_item", item="bandages")
    advance(s)
    assert s.state["characters"]["akira"]["item_uses"] == {"bandages": 1} and s.state["characters"]["akira"]["health"] == 6
    s.when(0, "use_item", item="bandages")
    advance(s)
    assert "bandages" not in s.state["characters"]["akira"]["items"]


def test_an_item_needs_its_knowledge_requirement_to_be_used():
    # rules: Harakiri, "Free Actions": Use the effect of an item in the character's supply if the active character meets its knowledge requirement
    s = activation("akira", characters={"akira": {"items": ["ginseng_tea"]}})  # knowledge 1 needed, Akira has 0
    assert not [c for c in s.legal(0) if c["type"] == "use_item"]


def test_a_permanent_combat_item_adds_to_combat_tests():
    s = activation("akira", characters={"akira": {"items": ["war_fan"], "attributes": {"knowledge": 1}, "kami": "inari"}})
    assert queries.combat_modifier(s.state, "akira") == 1


def test_armor_is_exchanged_or_handed_over_and_another_class_armor_is_carried_not_worn():
    # rules: Harakiri, "Share": may exchange coins, heads, items, equipment ... even if a character does not fulfill the requisites for using an item or piece of equipment (for not being the required class ...) those items can still be part of the character's supply
    s = activation("hattori", characters={"hattori": {"armor_value": 1}})  # Hikaru is in Hikone too
    s.when(0, "give", **{"from": "hattori"}, to="hikaru", what="armor", amount=1)
    chars = s.state["characters"]
    assert (chars["hikaru"]["armor"], chars["hikaru"]["armor_value"]) == ("shinobi_armor", 1)
    assert (chars["hattori"]["armor"], chars["hattori"]["armor_value"]) == ("celestial_armor", 2)
    assert queries.armor_value(s.state, "hikaru") == 0  # a ninja's armor on the monk: carried, not worn
    s.when(0, "give", **{"from": "hikaru"}, to="hattori", what="armor", amount=1)  # and back again
    assert s.state["characters"]["hattori"]["armor"] == "shinobi_armor"
    s = activation("hattori", characters={"hikaru": {"armor": None, "armor_value": 0}})
    s.when(0, "give", **{"from": "hattori"}, to="hikaru", what="armor", amount=1)
    assert (s.state["characters"]["hattori"]["armor"], s.state["characters"]["hattori"]["armor_value"]) == (None, 0)
    assert not [c for c in s.legal(0) if c["type"] == "give" and c["args"]["from"] == "hattori" and c["args"]["what"] == "armor"]


def test_hits_on_a_character_carrying_another_class_armor_are_not_reduced():
    # rules: Harakiri, "Hits and Damage": If a character receives hits, reduce them by the value of the equipped armor
    queue = [{"effects": [{"do": "hits", "amount": 3}], "ctx": {"character": "hikaru", "source": "influence"}}]
    s = activation("akira", characters={"hikaru": {"armor": "shinobi_armor", "armor_value": 2}}, queue=queue)
    advance(s)
    assert s.state["characters"]["hikaru"]["health"] == 5


def test_a_shared_item_keeps_its_uses_tokens_and_a_character_keeps_a_weapon_of_its_class():
    # rules: Harakiri, "Share": "exchange coins, heads, items, equipment"; "Free Actions": "If the item has the keyword
    # "uses X", when obtained, place X tokens on it" (a shared item is not obtained anew: its tokens stay on it)
    s = activation("hikaru", characters={"hikaru": {"items": ["jirobo_omamori", "bandages"], "item_uses": {"bandages": 1}}})
    s.when(0, "give", **{"from": "hikaru"}, to="hattori", what="bandages", amount=1)
    assert s.state["characters"]["hattori"]["item_uses"] == {"bandages": 1} and s.state["characters"]["hikaru"]["item_uses"] == {}
    # the Exploration Phase has no attack without a weapon: Hikaru's only weapon of his class stays with him
    gifts = [c["args"]["what"] for c in s.legal(0) if c["type"] == "give" and c["args"]["from"] == "hikaru"]
    assert "monk_bo" not in gifts
    s = activation("hikaru", characters={"hikaru": {"weapons": ["monk_bo", "monk_prayer_beads"]}})
    gifts = [c["args"]["what"] for c in s.legal(0) if c["type"] == "give" and c["args"]["from"] == "hikaru"]
    assert {"monk_bo", "monk_prayer_beads"} <= set(gifts)


def test_swap_weapon_only_equips_a_weapon_of_the_characters_class():
    # rules: Harakiri, "Swap Weapon": "Exchange your equipped weapon for your unequipped weapon"; "Share": a character
    # who is not "the required class" carries a piece of equipment in its supply without using it
    s = activation("akira", characters={"akira": {"weapons": ["ronin_katana", "samurai_yumi"]}})
    assert not [c for c in s.legal(0) if c["type"] == "swap_weapon"]
    s = activation("akira", characters={"akira": {"weapons": ["ronin_katana", "ronin_tanto"]}})
    s.when(0, "swap_weapon")
    assert s.state["characters"]["akira"]["equipped"] == "ronin_tanto"


def test_share_exchanges_boss_heads_like_heads():
    # rules: Harakiri, "Share": An active character that shares a location with another character may exchange coins, heads, items, equipment (a boss head is a head token)
    # given Hikaru with 2 boss heads and a head, Hattori in Hikone too and Tomoe in Nara
    s = activation("hikaru", characters={"hikaru": {"heads": 1, "boss_heads": 2}})
    gifts = [c["args"] for c in s.legal(0) if c["type"] == "give" and c["args"]["what"] == "boss_heads"]
    assert gifts == [{"from": "hikaru", "to": "hattori", "what": "boss_heads", "amount": n} for n in (1, 2)]
    # when Hikaru gives Hattori both boss heads (a free action)
    events = s.when(0, "give", **{"from": "hikaru"}, to="hattori", what="boss_heads", amount=2)
    # then they change hands, and only them
    hikaru, hattori = s.state["characters"]["hikaru"], s.state["characters"]["hattori"]
    assert (hikaru["boss_heads"], hattori["boss_heads"], hikaru["heads"], hattori["heads"]) == (0, 2, 1, 0)
    assert hikaru["ap"] == 3
    given = next(e for e in events if e["type"] == "Given")
    assert given["payload"] == {"character": "hikaru", "to": "hattori", "what": "boss_heads", "amount": 2}
    assert describe.describe(given, 0, ()) == "Hikaru gives 2 boss heads to Hattori"
    # and Hattori may give one back (an exchange goes both ways); more than he has is refused
    assert {"from": "hattori", "to": "hikaru", "what": "boss_heads", "amount": 1} in [c["args"] for c in s.legal(0)]
    assert s.rejects(0, "give", **{"from": "hattori"}, to="hikaru", what="boss_heads", amount=3).code == "bad_args"
