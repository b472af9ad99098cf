"""Interact with a City: the blacksmith and the market."""

from games.engines.harakiri.adventure.engine import ENGINE

from .helpers import activation, advance, of_type


def shop_types(s):
    return sorted({c["type"] for c in s.legal(0)})


def test_blacksmith_sells_one_card_of_the_characters_class_and_level():
    # rules: Harakiri, "Blacksmith": The active character may purchase 1 card from their blacksmith deck by paying the cost
    s = activation("akira", characters={"akira": {"coins": 30}})  # Osaka has a blacksmith
    s.when(0, "blacksmith")
    buys = sorted(c["args"]["card"] for c in s.legal(0) if c["type"] == "buy")
    assert buys == ["ronin_tanto"]  # level 1 ronin cards not owned (katana and robe are)
    s.when(0, "buy", card="ronin_tanto")
    assert s.state["characters"]["akira"]["weapons"] == ["ronin_katana", "ronin_tanto"]
    assert s.state["characters"]["akira"]["coins"] == 22 and s.state["characters"]["akira"]["equipped"] == "ronin_katana"
    assert not [c for c in s.legal(0) if c["type"] == "buy"]  # 1 card per interaction
    assert s.state["characters"]["akira"]["ap"] == 2


def test_a_higher_level_deck_offers_its_cards_and_new_armor_replaces_the_old():
    # rules: Harakiri, "Blacksmith": if a character acquires a new piece of armor, they must sell their previous armor
    s = activation("akira", characters={"akira": {"coins": 25, "blacksmith_level": 2}})
    s.when(0, "blacksmith")
    s.when(0, "buy", card="ronin_lamellar")
    ch = s.state["characters"]["akira"]
    assert ch["armor"] == "ronin_lamellar" and ch["armor_value"] == 3 and ch["coins"] == 25 - 20 + 5


def test_at_most_two_weapons():
    # rules: Harakiri, "Blacksmith": Each character may have a maximum of 2 weapons (1 equipped, and 1 unequipped)
    s = activation("akira", characters={"akira": {"coins": 40, "blacksmith_level": 2, "weapons": ["ronin_katana", "ronin_tanto"]}})
    s.when(0, "blacksmith")
    assert sorted(c["args"]["card"] for c in s.legal(0) if c["type"] == "buy") == ["ronin_lamellar"]
    s.when(0, "sell", card="ronin_tanto")
    assert s.state["characters"]["akira"]["coins"] == 44  # half of 8
    assert "ronin_nodachi" in [c["args"]["card"] for c in s.legal(0) if c["type"] == "buy"]


def test_repair_costs_10_coins():
    # rules: Harakiri, "Blacksmith": the active character may spend 10 coins to repair all of their equipped resistance
    s = activation("akira", characters={"akira": {"coins": 10, "armor_value": 0}})
    s.when(0, "blacksmith")
    s.when(0, "repair")
    assert s.state["characters"]["akira"]["armor_value"] == 2 and s.state["characters"]["akira"]["coins"] == 0
    s = activation("akira", characters={"akira": {"coins": 9, "armor_value": 0}})
    s.when(0, "blacksmith")
    assert not [c for c in s.legal(0) if c["type"] == "repair"]


def test_the_port_service_spends_an_action_point():
    # rules: Harakiri, "Interact with a City": blacksmith, market, inn, or port. Choose 1 of the services in the location, spend 1 action point and resolve the corresponding effect
    s = activation("akira", characters={"akira": {"health": 5}})  # Osaka has a port
    s.when(0, "port")
    assert (s.state["characters"]["akira"]["ap"], s.state["characters"]["akira"]["health"]) == (2, 5)
    s = activation("akira", characters={"akira": {"location": "kyoto"}})  # Kyoto has none
    assert not [c for c in s.legal(0) if c["type"] == "port"]
    s = activation("akira", cities={"captured": ["osaka"], "razed": []})
    assert not [c for c in s.legal(0) if c["type"] == "port"]


def test_market_reveals_3_cards_buys_any_number_and_shuffles_the_rest_back():
    # rules: Harakiri, "Market": Reveal 3 cards from the top of the market deck. The active character may buy any number ... Shuffle any unbought cards back
    # rules: Harakiri, "Market": Characters may buy and keep market items in their supply even if they do not meet their knowledge requirement (the war fan needs knowledge 1; Akira has none)
    s = activation("akira", characters={"akira": {"coins": 20}}, decks={"market": ["rice_ball", "healing_potion", "war_fan", "bandages"]})
    assert s.state["characters"]["akira"]["attributes"]["knowledge"] == 0
    s.when(0, "market")
    assert s.state["flow"]["shop"]["revealed"] == ["rice_ball", "healing_potion", "war_fan"]
    s.when(0, "buy", card="rice_ball")
    s.when(0, "buy", card="war_fan")
    assert s.state["characters"]["akira"]["items"] == ["jirobo_omamori", "rice_ball", "war_fan"]
    assert s.state["characters"]["akira"]["coins"] == 2
    events = s.when(0, "leave")
    assert sorted(s.state["decks"]["market"]) == ["bandages", "healing_potion"]
    assert "market_order" not in ENGINE.redact_event(events[-1], 0)["payload"]


def test_market_sells_items_for_half_and_heads_for_10_and_boss_heads_for_30():
    # rules: Harakiri, "Market": sell items in their supply, gaining half their cost in coins rounded down ... 10 coins per head sold, and 30 coins per boss head
    s = activation("akira", characters={"akira": {"items": ["jirobo_omamori", "bandages"], "heads": 2, "boss_heads": 1}})
    s.when(0, "market")
    assert {"type": "sell", "args": {"card": "jirobo_omamori"}} not in s.legal(0)  # a special item
    s.when(0, "sell", card="bandages")
    s.when(0, "sell_heads")
    assert s.state["characters"]["akira"]["coins"] == 4 + 20 + 30


def test_heads_are_sold_before_or_after_the_market_action_without_its_action_point():
    # rules: Harakiri, "Market": At any point before, during, or after this action, the active character may sell heads and boss heads in their supply, gaining 10 coins per head sold, and 30 coins per boss head sold
    s = activation("akira", ap=0, characters={"akira": {"heads": 1, "boss_heads": 1}})  # Osaka: a market
    events = s.when(0, "sell_heads")
    assert of_type(events, "HeadsSold") == [{"character": "akira", "heads": 1, "boss_heads": 1, "coins": 40}]
    assert not of_type(events, "ActionPointsSpent") and s.state["characters"]["akira"]["coins"] == 40
    assert not [c for c in s.legal(0) if c["type"] == "sell_heads"]  # nothing left to sell
    s = activation("akira", characters={"akira": {"heads": 1, "location": "tsu"}})  # Tsu: blacksmith and inn
    assert not [c for c in s.legal(0) if c["type"] == "sell_heads"]
    s = activation("akira", characters={"akira": {"heads": 1}}, cities={"captured": ["osaka"], "razed": []})
    assert not [c for c in s.legal(0) if c["type"] == "sell_heads"]  # no city service in a captured city
    s = activation("akira", characters={"akira": {"heads": 1}})
    s.when(0, "travel", group=[])
    assert not [c for c in s.legal(0) if c["type"] == "sell_heads"]  # not in the middle of a travel action


def test_item_limits_2_permanent_and_5_market_items():
    # rules: Harakiri, "Item Limit and Special Items": a maximum of 2 permanent items, and a maximum of 5 market items total
    s = activation("akira", characters={"akira": {"coins": 50, "items": ["jirobo_omamori", "war_fan", "travel_papers"]}},
                   decks={"market": ["iron_tessen", "rice_ball"]})
    s.when(0, "market")
    assert [c["args"]["card"] for c in s.legal(0) if c["type"] == "buy"] == ["rice_ball"]


def test_no_blacksmith_where_there_is_none():
    s = activation("akira", characters={"akira": {"location": "nara", "coins": 30}})  # Nara: market and inn
    assert "blacksmith" not in shop_types(s) and "market" in shop_types(s)


def test_a_gained_object_is_drawn_from_the_market_deck_and_respects_the_item_limit():
    # rules: Harakiri, "Combat Tests" (Gain Objects): When an effect indicates to gain or draw an object, draw them randomly from the market deck
    queue = [{"effects": [{"do": "gain_item"}], "ctx": {"character": "akira", "source": "travel_event"}}]
    s = activation("akira", queue=queue, decks={"market": ["rice_ball", "war_fan"]})
    advance(s, answers=[1])
    assert s.state["characters"]["akira"]["items"] == ["jirobo_omamori", "war_fan"] and s.state["decks"]["market"] == ["rice_ball"]
    # rules: Harakiri, "Item Limit and Special Items": If this limit is exceeded outside of an interaction in a city ... return them to the market
    full = ["jirobo_omamori", "rice_ball", "bandages", "holy_water", "healing_potion", "fire_powder"]
    s = activation("akira", queue=queue, decks={"market": ["war_fan"]}, characters={"akira": {"items": full}})
    advance(s)
    assert len(s.legal(0)) == 6 and s.status.awaiting == [0]  # any of the 6 market items may go back
    labels = [o["label"] for o in ENGINE.view_for(s.state, 0)["choice"]["options"]]
    s.when(0, "choose", option=labels.index("Return Rice Ball to the market"))
    events = advance(s)
    assert of_type(events, "ItemDiscarded")[0]["item"] == "rice_ball"
    assert "market_order" not in ENGINE.redact_event(next(e for e in events if e["type"] == "ItemDiscarded"), 0)["payload"]
    assert "rice_ball" not in s.state["characters"]["akira"]["items"] and s.state["decks"]["market"] == ["rice_ball"]


def test_over_two_permanent_items_one_permanent_item_must_go():
    queue = [{"effects": [{"do": "gain_item"}], "ctx": {"character": "akira", "source": "travel_event"}}]
    s = activation("akira", queue=queue, decks={"market": ["war_fan"]},
                   characters={"akira": {"items": ["jirobo_omamori", "travel_papers", "blessed_charm", "rice_ball"]}})
    advance(s)
    labels = [o["label"] for o in ENGINE.view_for(s.state, 0)["choice"]["options"]]
    assert labels == ["Return Blessed Charm to the market", "Return Travel Papers to the market", "Return War Fan to the market"]


def test_the_blacksmith_buys_back_anything_but_the_last_weapon_of_the_class():
    # rules: Harakiri, "Blacksmith": "The active character may sell equipment in their supply, gaining half the cost
    # rounded down"; a character keeps a weapon of its class (docs/games/harakiri-adventure.md, "Equipment between
    # the phases")
    s = activation("akira", characters={"akira": {"weapons": ["ronin_katana", "samurai_yumi"]}})
    s.when(0, "blacksmith")
    sells = sorted(c["args"]["card"] for c in s.legal(0) if c["type"] == "sell")
    assert sells == ["ronin_robe", "samurai_yumi"]
    s.when(0, "sell", card="ronin_robe")
    assert (s.state["characters"]["akira"]["armor"], s.state["characters"]["akira"]["coins"]) == (None, 5)


def test_the_blacksmith_deck_does_not_hold_a_card_another_character_carries():
    # rules: Harakiri, "Blacksmith": The active character may purchase 1 card from their blacksmith deck ... returning the equipment to their blacksmith deck
    # Akira's tanto was shared with Tomoe ("those items can still be part of the character's supply"): it is not in his deck
    s = activation("akira", characters={"akira": {"coins": 30},
                                        "tomoe": {"weapons": ["samurai_naginata", "ronin_tanto"]}})
    s.when(0, "blacksmith")
    assert not [c for c in s.legal(0) if c["type"] == "buy"]  # level 1 ronin: katana and robe his, tanto Tomoe's
