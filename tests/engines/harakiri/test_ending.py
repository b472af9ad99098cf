"""Ending the Exploration Phase: victory (resurrection, level increase), failure, party votes."""

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM, Rng

from .helpers import arena, doc, find, open_rows, scenario


def _bridge(characters, forced, **kw):
    chars = {"akira": {"sq": "30,3"}, "hattori": {"sq": "30,4"}, "hikaru": {"sq": "31,4"}, "tomoe": {"sq": "31,3"}}
    for c, spec in characters.items():
        chars[c] = {**chars[c], **spec}
    d = {"scenario": "act1_burning_village", "reveal": ["bridge"], "characters": chars,
         "enemies": {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "38,1", "health": 1}},
         "activate": "char:tomoe", "forced": forced}
    d.update(kw)
    return scenario(d)


def test_defeating_the_objective_enemy_wins_with_resurrection_and_level_increase():
    # rules: Harakiri, "Victory", "Defeated Characters" (resurrection Spirit test) and "Level
    # Increase"
    s = _bridge({"tomoe": {"sq": "37,2", "ap": 4}, "akira": {"defeated": True, "sq": None, "health": 0}},
                forced=[6, 6, 1])  # yumi fast: orange 2, test critical; Akira's resurrection roll: 1
    s.when(0, "attack", target="hunter", mode="fast")
    st = s.state
    assert st["phase"] == "aftermath"
    assert st["characters"]["tomoe"]["boss_heads"] == 1  # the objective's head goes to the supply
    assert not st["characters"]["akira"]["defeated"] and st["characters"]["akira"]["health"] == 11
    # failed test (1 + spirit 0 < level 1), but Akira's only point is his initial dexterity
    assert st["characters"]["akira"]["attrs"]["dexterity"] == 1
    for _ in range(20):
        p = s.state["pending"]
        if not p:
            break
        assert p["kind"] in ("level_attribute", "level_skill")
        s.when(0, "choose", option=0)
    st = s.state
    assert st["result"] == "victory" and s.status.finished and s.status.winners == [0]
    assert all(ch["level"] == 2 for ch in st["characters"].values())
    assert st["characters"]["akira"]["max_health"] == 12 and st["characters"]["akira"]["health"] == 12
    assert all(len(ch["skills"]) == 2 for ch in st["characters"].values())
    assert all(len(ch["ki"]["supply"]) == 2 for ch in st["characters"].values())
    party = [e for e in s.events if e["type"] == "PhaseEnded"][0]["payload"]["party"]
    assert party["akira"]["level"] == 2  # hand-over to the next chapter
    again = ENGINE.setup({"party": party}, 1, Rng(b"next", "chapter"))
    assert again[0]["payload"]["state"]["characters"]["akira"]["level"] == 2


def test_failed_resurrection_loses_a_chosen_attribute_point():
    # rules: Harakiri, "Defeated Characters": lose an attribute point of the player's choice
    s = _bridge({"tomoe": {"sq": "37,2", "ap": 4},
                 "akira": {"defeated": True, "sq": None, "health": 0, "level": 2,
                           "attrs": {"power": 1, "knowledge": 1}}},
                forced=[6, 6, 1])
    s.when(0, "attack", target="hunter", mode="fast")
    p = s.state["pending"]
    assert p["kind"] == "lose_attribute" and p["by"] == s.state["control"]["akira"]
    # the initial dexterity point cannot be lost
    assert p["options"] == [{"attribute": "power"}, {"attribute": "knowledge"}]
    s.when(0, "choose", option=1)
    assert s.state["characters"]["akira"]["attrs"] == {"power": 1, "dexterity": 1, "spirit": 0, "knowledge": 0}


def test_all_characters_defeated_is_a_failure():
    # rules: Harakiri, "Ending the Exploration Phase": all characters defeated
    chars = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    chars["tomoe"] = {"sq": "1,0", "health": 1}
    s = scenario(doc(arena(open_rows()), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3],
                     options={"failure_procedure": False}))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    assert s.state["result"] == "failure" and s.status.finished and s.status.winners == []


def test_kami_mode_last_survivor_fails_the_chapter():
    # rules: Harakiri, "Activate Kami Mode Ability": the only remaining character in Kami Mode
    chars = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    chars["tomoe"] = {"sq": "37,2", "ap": 4, "health": 2, "kami_mode": {"kami": "inari", "turns_done": 0, "round": 1}}
    s = _bridge(chars, forced=[6, 3], options={"failure_procedure": False})  # 2 + 1 + Inari 4 - 4 = 3
    s.when(0, "attack", target="hunter", mode="fast")
    assert s.state["result"] == "failure"


def test_party_vote_majority_with_the_leader_breaking_ties():
    # decision (docs): with party_vote every seat votes; majority wins, the leader breaks ties
    d = doc(arena(open_rows()), {}, seats=2, options={"party_vote": True, "leader": 1},
            oracle={"deck": ["oracle_g1"]}, initiative=["char:akira", "char:hattori", "char:hikaru", "char:tomoe"])
    s = scenario(d)
    s.when(SYSTEM, "draw_oracle")
    assert s.state["pending"]["kind"] == "initiative_swap" and sorted(s.status.awaiting) == [0, 1]
    opts = s.state["pending"]["options"]
    s.when(0, "choose", option=opts.index({"swap": ["akira", "hattori"]}))
    assert s.status.awaiting == [1]
    assert s.rejects(0, "choose", option=0).code == "not_your_turn"
    s.when(1, "choose", option=0)  # 1 vote each: the leader's (seat 1: no swap) wins
    assert s.state["initiative"]["queue"][:2] == ["char:akira", "char:hattori"]


def test_without_vote_the_leader_decides():
    d = doc(arena(open_rows()), {}, seats=3, oracle={"deck": ["oracle_g1"]})
    s = scenario(d)
    s.when(SYSTEM, "draw_oracle")
    assert s.status.awaiting == [0]


def _all_down(extra=None, **kw):
    chars = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    chars["tomoe"] = {"sq": "1,0", "health": 1}
    for c, spec in (extra or {}).items():
        chars[c] = {**chars[c], **spec}
    return scenario(doc(arena(open_rows(), events={"green": [], "red": []}), chars,
                        {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                        activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3, 6, 6, 6, 6], **kw))


def shopping_done(s):
    """Each character's Market and Blacksmith actions (Failure, step 2) end without a purchase."""
    while s.state["pending"] and s.state["pending"]["kind"] in ("market", "blacksmith"):
        p = s.state["pending"]
        s.when(p["by"], "choose", option=p["options"].index({"done": True}))


def test_failure_procedure_resets_zones_and_places_characters_near_the_last_defeat():
    # rules: Harakiri, "Failure": steps 1 (defeated characters), 4 (reset active zones, no
    # heads there any more), 5 (characters adjacent to the last defeat), 6 (a new round)
    s = _all_down()
    s.when(SYSTEM, "activate_enemy", enemy="k")
    shopping_done(s)
    st = s.state
    assert st["failures"] == 1 and st["phase"] == "oracle" and st["result"] is None
    assert all(not ch["defeated"] and ch["health"] == ch["max_health"] for ch in st["characters"].values())
    # Tomoe fell on 1,0: everybody goes to the closest free squares
    assert {ch["sq"] for ch in st["characters"].values()} == {"0,0", "2,0", "0,1", "1,1"}
    assert "k" not in st["enemies"]  # the arena's setup has no enemies to respawn
    assert st["malice"] == 0 and st["round"] == 2 and s.status.awaiting == [SYSTEM]


def test_failure_places_characters_adjacent_on_the_same_height_level():
    # rules: Harakiri, "Failure", step 5: "Place all four characters adjacent to the square where the
    # last character was defeated"; "Height Levels": "Squares that are at different heights are not
    # considered to be adjacent". Tomoe falls on 1,0 (level 0); x 2+ is level 1, so 2,0 and 2,1 are
    # not adjacent: three go to the adjacent 0,0, 0,1, 1,1, the fourth to the nearest level-0 square
    chars = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    chars["tomoe"] = {"sq": "1,0", "health": 1}
    heights = ["0011111111"] * 10
    s = scenario(doc(arena(open_rows(), heights=heights), chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}},
                     activate="color:red", oracle={"color": "green"}, forced=[1, 6, 6, 3, 6, 6, 6, 6]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    shopping_done(s)
    st = s.state
    assert st["failures"] == 1
    assert {ch["sq"] for ch in st["characters"].values()} == {"0,0", "0,1", "1,1", "0,2"}


def test_failure_respawns_the_zone_setup_enemies_without_heads():
    # rules: Harakiri, "Failure", steps 4 and 7
    chars = {c: {"defeated": True, "sq": None, "health": 0} for c in ("akira", "hattori", "hikaru")}
    chars["tomoe"] = {"sq": "6,2", "health": 1}
    s = scenario({"scenario": "act1_burning_village", "characters": chars, "activate": "color:red",
                  "oracle": {"color": "green"}, "forced": [1, 6, 6, 3] + [6] * 8,
                  "enemies": {"gate_kachi_red": {"type": "kachi", "color": "red", "at": "5,1", "health": 1}}})
    s.when(SYSTEM, "activate_enemy", enemy="gate_kachi_red")
    shopping_done(s)
    st = s.state
    assert st["failures"] == 1
    assert st["enemies"]["gate_kachi_red"]["health"] == 4 and st["enemies"]["gate_kachi_red"]["no_heads"]
    assert st["enemies"]["gate_kachi_blue"]["sq"] == "6,3"
    assert st["resistors"]["villager"]["tokens"] == 2


def _shop(s, who, kind):
    """Answer ``done`` for every other character's shop until ``who``'s ``kind`` action is asked."""
    for _ in range(20):
        p = s.state["pending"]
        if p["kind"] == kind and f"{who}:" in p["prompt"]:
            return p
        s.when(p["by"], "choose", option=p["options"].index({"done": True}))
    raise AssertionError(f"{who} was never asked for the {kind} action")


def _pick(s, option):
    p = s.state["pending"]
    s.when(p["by"], "choose", option=p["options"].index(option))


MARKET = ["bandages", "fire_powder", "ginseng_tea", "healing_potion", "rice_ball", "war_fan"]


def test_failure_market_reveals_three_cards_of_the_campaigns_market_deck():
    # rules: Harakiri, "Failure", step 2: "Each character may perform a Market action and a Blacksmith action"
    # rules: Harakiri, "Interact with a City" (Market): "Reveal 3 cards from the top of the market deck ... buy any
    # number of the revealed cards ... sell items in their supply, gaining half their cost in coins rounded down ...
    # 10 coins per head sold, and 30 coins per boss head sold ... Shuffle any unbought cards back into the market deck."
    s = _all_down({"tomoe": {"coins": 15, "heads": 1, "items": [{"id": "jirobo_omamori", "uses": None},
                                                                   {"id": "spirit_incense", "uses": None}]}},
                  options={"market": MARKET})
    assert s.state["market"] == MARKET  # the Adventure Phase's market deck (scenario shuffles keep the order)
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = _shop(s, "tomoe", "market")
    revealed = MARKET[:3]
    assert s.state["work"][0]["revealed"] == revealed and s.state["market"] == MARKET[3:]
    assert [o for o in p["options"] if "buy" in o] == [{"buy": "bandages"}, {"buy": "fire_powder"}, {"buy": "ginseng_tea"}]
    assert {"sell": "spirit_incense"} in p["options"] and {"sell": "jirobo_omamori"} not in p["options"]
    _pick(s, {"sell_heads": True})
    _pick(s, {"sell": "spirit_incense"})  # cost 12: 6 coins; the card goes to the bottom of the deck
    tomoe = s.state["characters"]["tomoe"]
    assert tomoe["coins"] == 15 + 10 + 6 and tomoe["heads"] == 0
    assert s.state["market"] == [*MARKET[3:], "spirit_incense"]
    _pick(s, {"buy": "ginseng_tea"})  # "Uses: 2": its tokens come with it
    tomoe = s.state["characters"]["tomoe"]
    assert tomoe["coins"] == 31 - 10 and tomoe["items"][-1] == {"id": "ginseng_tea", "uses": 2}
    assert s.state["pending"]["options"][:2] == [{"buy": "bandages"}, {"buy": "fire_powder"}]
    _pick(s, {"done": True})  # the two unbought cards are shuffled back
    assert sorted(s.state["market"]) == sorted([*MARKET[:2], *MARKET[3:], "spirit_incense"])
    assert ENGINE.view_for(s.state, 0)["market"] == 6  # the deck's order never leaves the engine
    decks = [ENGINE.redact_event(e, 0)["payload"]["deck"] for e in s.events if e["type"] == "MarketDeckSet"]
    assert decks and all(isinstance(n, int) for n in decks)


def test_failure_market_counts_every_carried_item_against_the_limits():
    # rules: Harakiri, "Equipment and Item Limits": "a maximum of 2 permanent items with a maximum of 5 items in
    # total in their supply ... Items with the special keyword do not count"
    full = [{"id": i, "uses": None} for i in ("jirobo_omamori", "war_fan", "travel_papers", "rice_ball", "holy_water")]
    s = _all_down({"tomoe": {"coins": 99, "items": full}},
                  options={"market": ["iron_tessen", "healing_potion", "straw_sandals"]})
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = _shop(s, "tomoe", "market")
    buys = [o["buy"] for o in p["options"] if "buy" in o]
    assert buys == ["healing_potion", "straw_sandals"]  # a third permanent item is not offered
    _pick(s, {"buy": "healing_potion"})  # 5 market items (the omamori is special)
    assert not [o for o in s.state["pending"]["options"] if "buy" in o]


def test_failure_blacksmith_buys_one_card_of_the_level_sells_for_half_and_repairs_for_10_coins():
    # rules: Harakiri, "Failure", step 2; "Interact with a City" (Blacksmith): "purchase 1 card from their blacksmith
    # deck ... sell equipment in their supply, gaining half the cost rounded down ... spend 10 coins to repair all of
    # their equipped resistance"; "if a character acquires a new piece of armor, they must sell their previous armor"
    # rules: Harakiri, "Exploration Phase Setup", step 8: "the blacksmith cards of each class up to its current level"
    s = _all_down({"tomoe": {"coins": 30, "level": 2, "max_health": 11}, "hattori": {"coins": 12, "armor": 0}})
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = _shop(s, "hattori", "blacksmith")
    assert {"repair": True} in p["options"] and {"buy": "ninja_shadow_garb"} not in p["options"]  # a level 2 card
    assert {"sell": "shinobi_armor"} in p["options"] and {"sell": "ninja_kodachi"} not in p["options"]
    _pick(s, {"repair": True})
    hattori = s.state["characters"]["hattori"]
    assert (hattori["armor"], hattori["coins"]) == (1, 2)  # Shinobi Armor's 1, for 10 coins
    _pick(s, {"done": True})
    p = _shop(s, "tomoe", "blacksmith")
    buys = {o["buy"] for o in p["options"] if "buy" in o}
    assert buys == {"samurai_naginata", "samurai_daikyu", "samurai_dou"}  # levels 1-2 of her class, not owned
    assert {"sell": "samurai_yumi"} not in p["options"]  # her only weapon: she keeps a weapon to attack with
    _pick(s, {"buy": "samurai_dou"})  # 20 coins; the Ceremonial Armor is sold for 5
    tomoe = s.state["characters"]["tomoe"]
    assert (tomoe["armor_card"], tomoe["armor"], tomoe["coins"]) == ("samurai_dou", 3, 30 + 5 - 20)
    assert not [o for o in s.state["pending"]["options"] if "buy" in o]  # one card per Blacksmith action
    _pick(s, {"done": True})
    assert s.state["phase"] == "oracle"


def test_master_blacksmith_is_not_used_in_the_failure_procedure():
    # rules: Harakiri, "Character Skills, Kami Skills, and Enemy Skills": "Remember that during the Exploration Phase,
    # the first Kami skill cannot be used, except for Izanami's"; Master Blacksmith is Amatsumara's level 1 skill, so
    # the failure's Blacksmith action repairs for the Adventure Phase's 10 coins ("spend 10 coins to repair all of
    # their equipped resistance")
    s = _all_down({"hikaru": {"kami": "amatsumara", "affinity": 1, "armor": 0, "coins": 0}})
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = _shop(s, "hikaru", "blacksmith")
    assert {"repair": True} not in p["options"]  # no coins, no repair
    _pick(s, {"done": True})
    s = _all_down({"hikaru": {"kami": "amatsumara", "affinity": 1, "armor": 0, "coins": 10}})
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = _shop(s, "hikaru", "blacksmith")
    assert "repair the armor (10 coins)" in p["prompt"]
    _pick(s, {"repair": True})
    assert (s.state["characters"]["hikaru"]["armor"], s.state["characters"]["hikaru"]["coins"]) == (2, 0)


def test_second_failure_lets_the_party_read_the_success_section():
    # rules: Harakiri, "Failure", step 8
    s = _all_down()
    from games.engines.harakiri.state import apply
    from games.kernel import event

    s.state = apply(s.state, event("FailureRecovered", {"failures": 1, "next_round": 1}))
    s.state["phase"] = "activation"
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = s.state["pending"]
    assert p["kind"] == "second_failure" and p["by"] == "party"
    s.when(0, "choose", option=p["options"].index({"success": True}))
    while s.state["pending"]:
        s.when(0, "choose", option=0)
    assert s.state["result"] == "victory" and s.status.winners == [0]
    # the hand-over says why the success section was read: not "objective achieved"
    ended = [e for e in s.events if e["type"] == "PhaseEnded"]
    assert [e["payload"]["reason"] for e in ended] == ["success section chosen after a second failure"]


def test_objective_by_interaction_point():
    # rules: Harakiri, "Ending the Exploration Phase": the objective specified by the chapter
    scen = arena(open_rows(), points=[{"id": "altar", "at": "3,2", "action": {"type": "objective"}}],
                 objective={"type": "interact", "text": "Reach the altar"})
    s = scenario(doc(scen, {"akira": {"sq": "2,2", "ap": 4}}, activate="char:akira"))
    s.when(0, "interact", point="altar")
    assert s.state["result"] == "victory" and s.status.finished and s.status.winners == [0]


def test_objective_defeat_all():
    scen = arena(open_rows(), objective={"type": "defeat_all"})
    s = scenario(doc(scen, {"akira": {"sq": "2,2", "ap": 4}}, {"k": {"type": "kachi", "color": "red", "at": "3,2",
                                                                     "health": 1}},
                     activate="char:akira", forced=[6, 6, 3], seats=2))
    s.when(0, "attack", target="k", mode="strong")
    assert s.state["result"] == "victory" and s.status.winners == [0, 1]


def test_malice_failure_resets_the_zone_the_characters_stand_in():
    # rules: Harakiri, "Failure", step 4: "reset all active zones by: respawning enemies, tokens, Malice
    # markers, and events ... a zone without miniatures is not considered active" - the characters'
    # miniatures keep their zone active although its enemies were all defeated, so its kachi returns
    scen = arena(open_rows(), events={"green": [], "red": []})
    scen["zones"]["arena"]["enemies"] = [{"ref": "k", "kind": "minion", "type": "kachi", "color": "red", "at": "5,5"}]
    s = scenario(doc(scen, malice=5, oracle={"deck": ["oracle_g1"]}))
    assert not s.state["enemies"]
    s.when(SYSTEM, "draw_oracle")  # no event left: malice 6, a failure
    shopping_done(s)
    st = s.state
    assert st["failures"] == 1 and st["malice"] == 0
    assert st["enemies"]["k"]["sq"] == "5,5" and st["enemies"]["k"]["no_heads"]
    assert st["zones"]["arena"]["events"] == {"green": [], "red": []}


def test_an_enemy_spawned_in_a_reset_zone_after_a_failure_gives_no_head():
    # rules: Harakiri, "Failure", step 7: "no enemy heads can be acquired in zones that were already
    # active. They can only be acquired in newly discovered zones from this point onward" - a kachi an
    # event spawns in the reset arena after the failure gives none, like the respawned setup enemies
    events = {"green": [{"id": "t_g1", "name": "Omen", "effects": [{"type": "malice", "amount": 1}]}],
              "red": [{"id": "t_r1", "name": "Ambush", "effects": [
                  {"type": "spawn", "enemy": "kachi", "kind": "minion", "color": "green", "spawn": "blue"}]}]}
    scen = arena(open_rows(), events=events, spawns={"blue": "5,5"})
    s = scenario(doc(scen, malice=5, oracle={"deck": ["oracle_g1", "oracle_r1"]}))
    s.when(SYSTEM, "draw_oracle")  # the green event: malice 6, a failure
    shopping_done(s)
    assert s.state["failures"] == 1 and s.state["malice"] == 0
    s.when(SYSTEM, "draw_oracle")  # the red event spawns a kachi at the blue spawn point
    kachi = s.state["enemies"]["kachi_green_1"]
    assert kachi["sq"] == "5,5" and kachi["no_heads"]


def test_a_failure_after_travelling_places_the_party_on_the_table_not_by_a_removed_defeat_square():
    # rules: Harakiri, "Failure", step 5: "Place all four characters adjacent to the square where the last
    # character was defeated". Tomoe falls on 1,0 in the arena; the party travels to the hall, which
    # removes the arena (Zone Setup, Travel); Malice then reaches 6 there. The square of her defeat is
    # no longer on the table, so the party gathers around the first living character (Akira, 28,1) -
    # not on the hall squares nearest the vanished 1,0 - and the procedure clears the last defeat.
    hall = {"name": "Hall", "origin": [20, 0], "rows": ["." * 10] * 3, "enemies": [],
            "start": ["28,1", "29,1", "28,2", "29,2"], "events": {"green": [], "red": []}, "spawns": {},
            "doors": [], "points": [], "resistors": [], "oracle": {"green": 0, "red": 0}}
    scen = arena(open_rows(), events={"green": [], "red": []}, extra_zones={"hall": hall},
                 points=[{"id": "P", "at": "5,5", "action": {"type": "travel", "zone": "hall"}}])
    chars = {"tomoe": {"sq": "1,0", "health": 1}, "akira": {"sq": "5,4", "ap": 3}}
    s = scenario(doc(scen, chars, {"k": {"type": "kachi", "color": "red", "at": "0,0"}}, malice=5,
                     activate="color:red",
                     queue=["color:red", "char:akira", "char:hattori", "char:hikaru", "char:tomoe"],
                     oracle={"color": "green", "deck": ["oracle_g1"]}, forced=[1, 6, 6, 3]))
    s.when(SYSTEM, "activate_enemy", enemy="k")
    assert s.state["characters"]["tomoe"]["defeated"] and s.state["last_defeat_sq"] == "1,0"
    s.when(0, "interact", point="P")  # Akira travels: the arena leaves the table
    while s.state["pending"] and s.state["pending"]["kind"] == "travel_start":
        s.when(0, "choose", option=0)
    assert s.state["characters"]["akira"]["sq"] == "28,1" and "1,0" not in s.state["squares"]
    s.when(SYSTEM, "draw_oracle")  # the hall has no event: malice 6, a failure
    shopping_done(s)
    st = s.state
    assert st["failures"] == 1 and st["last_defeat_sq"] is None
    assert {ch["sq"] for ch in st["characters"].values()} == {"27,0", "28,0", "29,0", "27,1"}
    # and the history says why they are not near Tomoe's defeat
    said = _placements(s.events)
    assert said and all(t.endswith("(failure: the last defeat's zone has left the table, so the party gathers "
                                   "around Akira's square)") for t in said.values()), said


def test_a_ryujin_kami_mode_ends_at_a_failure_and_the_board_attributes_come_back():
    # rules: Harakiri, "Ryujin", Kami Mode: "your power, dexterity, spirit, and knowledge are set to 3 for the
    # rest of the current phase"; "Activate Kami Mode Ability": "until the chapter ends ... When a character's
    # Kami Mode ability is no longer active or the chapter ends, they are immediately defeated"; "Kami Skills":
    # "If a character is defeated, their skills, including Kami Mode, cease to have effect"; "Failure", step 1.
    # A failure ends Akira's Kami Mode: he is defeated, and his resurrection test and the repeated phase use
    # the attributes on his board (spirit 0: die 1 + 0 fails level 2, where a spirit of 3 would pass)
    from games.engines.harakiri import rules

    ryujin = {"kami": "ryujin", "affinity": 6, "level": 2, "attrs": {"power": 1, "spirit": 0},
              "kami_mode": {"kami": "ryujin", "turns_done": 0, "round": 1}}
    scen = arena(open_rows(), events={"green": [], "red": []})
    s = scenario(doc(scen, {"akira": ryujin}, malice=5, oracle={"deck": ["oracle_g1"]}, forced=[1]))
    assert rules.attr(s.state, "akira", "spirit") == 3
    ev = s.when(SYSTEM, "draw_oracle")  # no event left: malice 6, a failure
    assert find(ev, "CharacterDefeated")[0]["who"] == "akira"
    roll = find(ev, "ResurrectionRolled")[0]
    assert roll["who"] == "akira" and roll["total"] == 1 and not roll["passed"]
    shopping_done(s)
    st = s.state
    assert st["failures"] == 1 and st["phase"] == "oracle"
    akira = st["characters"]["akira"]
    assert akira["kami_mode"] is None and not akira["defeated"]
    assert akira["attrs"] == {"power": 0, "dexterity": 1, "spirit": 0, "knowledge": 0}  # the lost point: power
    assert {a: rules.attr(st, "akira", a) for a in akira["attrs"]} == akira["attrs"]
    assert not rules.is_flying(st, "akira")


def test_an_enemy_out_of_its_zone_at_a_failure_goes_back_to_its_setup_square_fresh():
    # rules: Harakiri, "Failure", step 4: "reset all active zones by: respawning enemies ... a zone without
    # miniatures is not considered active, so do not replenish miniatures, tokens, or events in zones that
    # were already inactive"; step 7 (no heads). The annex's kachi followed the party into the arena, where
    # Malice reaches 6; nothing else stands in the annex. The arena is reset to its own setup, so the kachi
    # leaves it and goes back to its annex setup square at full health, without a head; the kappa an event
    # spawned in the annex (no setup square) is not respawned; the annex itself is not reset.
    annex = {"name": "Annex", "origin": [10, 0], "rows": ["....."] * 5, "start": [],
             "enemies": [{"ref": "wolf", "kind": "minion", "type": "kachi", "color": "red", "at": "12,2"},
                         {"ref": "guard", "kind": "minion", "type": "kachi", "color": "blue", "at": "13,3"}],
             "events": {"green": [{"id": "a_g1", "name": "Hush", "effects": []}], "red": []}, "spawns": {},
             "doors": [], "points": [], "resistors": [], "oracle": {"green": 0, "red": 0}}
    scen = arena(open_rows(), events={"green": [], "red": []}, extra_zones={"annex": annex})
    enemies = {"wolf": {"type": "kachi", "color": "red", "at": "5,5", "zone": "annex", "health": 1},
               "stray": {"type": "kappa", "color": "blue", "at": "6,6", "zone": "annex"}}
    s = scenario(doc(scen, enemies=enemies, reveal=["annex"], malice=5, oracle={"deck": ["oracle_g1"]}))
    assert set(s.state["enemies"]) == {"wolf", "stray"}  # the annex's guard was defeated earlier
    s.when(SYSTEM, "draw_oracle")  # the arena has no event left: malice 6, a failure
    shopping_done(s)
    st = s.state
    assert st["failures"] == 1 and set(st["enemies"]) == {"wolf"}
    wolf = st["enemies"]["wolf"]
    assert wolf["sq"] == "12,2" and wolf["zone"] == "annex" and wolf["health"] == wolf["max_health"] > 1
    assert wolf["no_heads"]
    assert not st["zones"]["annex"].get("reset")


def _malice_failure_in_round(rnd, cap):
    """Malice 5, the party in the arena without an event left (the next oracle card is a failure), in
    round ``rnd`` of a match with ``round_cap`` ``cap``."""
    scen = arena(open_rows(), events={"green": [], "red": []})
    return scenario(doc(scen, malice=5, round=rnd, oracle={"deck": ["oracle_g1", "oracle_r1"]},
                        options={"round_cap": cap}))


def test_a_failure_in_the_last_round_of_the_round_limit_ends_the_phase_without_another_round():
    # rules: Harakiri, "Failure", step 6: "Start of a new round" - the match option round_cap ends the phase
    # after its round (decision in docs/games/harakiri.md, "Ending": no round past the limit, so the
    # procedure that only prepares it is not played)
    # given round 3 of a match limited to 3 rounds, Malice 5 and no event left in the arena
    s = _malice_failure_in_round(3, 3)
    # when the oracle card raises Malice to 6: a failure
    ev = s.when(SYSTEM, "draw_oracle")
    # then the phase ends there at the round limit: no Market, no reset, no round 4
    assert s.status.finished and s.state["result"] == "round_cap" and s.status.winners == []
    assert s.state["round"] == 3 and s.state["failures"] == 1 and s.state["pending"] is None
    assert find(ev, "FailureRecovered") == [] and find(ev, "ZoneReset") == [] and find(ev, "MarketRevealed") == []
    [ended] = [e for e in s.events if e["type"] == "PhaseEnded"]
    assert ENGINE.describe(ended, 0, ["alice"]).endswith(
        "(round cap 3 reached: no round is left for the failure procedure)")


def test_a_failure_before_the_last_round_still_starts_the_next_one():
    # rules: Harakiri, "Failure", step 6: "Start of a new round" (round 3 is still within a limit of 3)
    # given round 2 of a match limited to 3 rounds, Malice 5 and no event left in the arena
    s = _malice_failure_in_round(2, 3)
    # when the oracle card raises Malice to 6 and the procedure runs
    s.when(SYSTEM, "draw_oracle")
    shopping_done(s)
    # then round 3 begins
    assert not s.status.finished and s.state["phase"] == "oracle" and s.state["round"] == 3


def test_repeating_the_procedure_after_a_second_failure_in_the_last_round_ends_the_phase():
    # rules: Harakiri, "Failure", step 8: "players may choose to either repeat steps 1 through 7 or read the
    # phase's success section" - repeating needs a new round (step 6), which the round limit does not allow
    # given a first failure already recovered from, in round 2 of a match limited to 2 rounds
    s = _all_down(round=2, options={"round_cap": 2})
    from games.engines.harakiri.state import apply
    from games.kernel import event

    s.state = apply(s.state, event("FailureRecovered", {"failures": 1, "next_round": 2}))
    s.state["phase"] = "activation"
    # when the kachi defeats Tomoe, the last one standing: a second failure
    s.when(SYSTEM, "activate_enemy", enemy="k")
    p = s.state["pending"]
    assert p["kind"] == "second_failure" and "repeating ends the match" in p["prompt"]
    # and the party chooses to repeat the procedure
    s.when(0, "choose", option=p["options"].index({"repeat": True}))
    # then the phase ends at the round limit, without round 3
    assert s.status.finished and s.state["result"] == "round_cap" and s.state["round"] == 2


def _placements(events):
    return {e["payload"]["who"]: ENGINE.describe(e, 0, ["alice"]) for e in events
            if e["type"] == "CreatureMoved" and e["payload"].get("reason", "").startswith("failure:")}


def test_after_a_malice_failure_without_a_defeat_the_placement_says_the_party_gathers_around_a_character():
    # rules: Harakiri, "Failure", step 5: "Place all four characters adjacent to the square where the last
    # character was defeated" - nobody was defeated (Malice reached 6), so the party gathers around the
    # first character on the board (docs/games/harakiri.md, "Ending"), and the history says so
    # given the party standing on the arena's bottom row, Malice 5 and no event left in the arena
    s = scenario(doc(arena(open_rows(), events={"green": [], "red": []}), malice=5,
                     oracle={"deck": ["oracle_g1"]}))
    assert s.state["last_defeat_sq"] is None
    # when the oracle card raises Malice to 6 and the procedure runs
    s.when(SYSTEM, "draw_oracle")
    shopping_done(s)
    # then every placement names the true cause and the square they gather around: Akira's 0,9
    said = _placements(s.events)
    assert set(said) == {"akira", "hattori", "hikaru", "tomoe"}
    assert all(t.endswith("(failure: no character was defeated, so the party gathers around Akira's square)")
               for t in said.values()), said
    assert not any("last defeat" in t for t in said.values())


def test_after_a_defeat_the_placement_still_says_near_the_last_defeat():
    # rules: Harakiri, "Failure", step 5: "Place all four characters adjacent to the square where the last
    # character was defeated"
    # given Tomoe, the last one standing, beside a kachi
    s = _all_down()
    # when the kachi defeats her and the procedure runs
    s.when(SYSTEM, "activate_enemy", enemy="k")
    shopping_done(s)
    # then the placements say they are near the last defeat
    said = _placements(s.events)
    assert said and all(t.endswith("(failure: placed near the last defeat)") for t in said.values()), said
