"""Provisional Adventure Phase content: every file validates, and keeps the rulebook's figures."""

import json

import jsonschema
import pytest

from games.engines.harakiri.adventure import board, content
from games.engines.harakiri.adventure.book import strings_under
from games.kernel.canonical import dicts_in


def test_every_adventure_content_file_validates_against_the_schema():
    for name in content.FILES:
        document = json.loads((content.ROOT / f"{name}.json").read_text())
        content.validate(document)
        assert document["provisional"] is True


def test_the_schema_refuses_a_route_that_is_neither_road_nor_path():
    bad = json.loads((content.ROOT / "map.json").read_text())
    bad["routes"][0]["kind"] = "river"
    with pytest.raises(jsonschema.ValidationError):
        content.validate(bad)


def test_the_schema_refuses_an_unknown_effect():
    bad = json.loads((content.ROOT / "travel_events.json").read_text())
    bad["cards"][0]["green"]["effects"] = [{"do": "teleport"}]
    with pytest.raises(jsonschema.ValidationError):
        content.validate(bad)


def test_map_has_four_clan_territories_in_their_places():
    # rules: Harakiri, "Map Board Setup": Dragon northwest red, Mountain northeast green, Sakura center purple, Firefly south orange
    t = content.MAP["territories"]
    assert (t["dragon"]["position"], t["dragon"]["color"]) == ("northwest", "red")
    assert (t["mountain"]["position"], t["mountain"]["color"]) == ("northeast", "green")
    assert (t["sakura"]["position"], t["sakura"]["color"]) == ("center", "purple")
    assert (t["firefly"]["position"], t["firefly"]["color"]) == ("south", "orange")
    assert {loc["territory"] for loc in content.MAP["locations"].values()} == set(t)


def test_map_has_roads_paths_all_four_services_ports_on_seas_sanctuaries_and_special_locations():
    # rules: Harakiri, "Interact with a City": blacksmith, market, inn, or port
    kinds = {r["kind"] for r in content.MAP["routes"]}
    assert kinds == {"road", "path"}
    services = {s for loc in content.MAP["locations"] for s in board.services(loc)}
    assert services == {"blacksmith", "market", "inn", "port"}
    for port in board.ports():
        assert board.sea_of(port) in content.MAP["seas"]
    for sea in content.MAP["seas"]:
        assert len(board.ports(sea)) >= 2, sea
    kinds = {loc["kind"] for loc in content.MAP["locations"].values()}
    assert {"city", "sanctuary", "special"} <= kinds
    buildings = {loc.get("building") for loc in content.MAP["locations"].values()}
    assert {"shrine", "temple"} <= buildings
    assert all(board.exists(r["a"]) and board.exists(r["b"]) for r in content.MAP["routes"])


def test_rulebook_places_sit_where_the_examples_need_them():
    # rules: Harakiri, "Travel by Sea" example: the Amatsumikaboshi temple, south of Ise, is 7 locations away by land
    assert board.distance("hikone", "amatsumikaboshi_temple") == 7
    assert board.route_kind("hikone", "nagoya") and board.sea_of("nagoya") == board.sea_of("ise")
    assert board.route_kind("ise", "amatsumikaboshi_temple")
    # rules: Harakiri, "Activate Enemies" example: 1 location away, in either Iga or Amaterasu's shrine
    assert set(board.neighbours("nara")) >= {"iga", "amaterasu_shrine"}


def test_act1_keeps_the_rulebook_starting_figures():
    # rules: Harakiri, "Character's Setup": 11 ... Akira, 9 ... Hattori, 8 ... Hikaru, 10 ... Tomoe
    act = content.ACT1
    assert {c: v["first_chapter_health"] for c, v in act["characters"].items()} == {"akira": 11, "hattori": 9, "hikaru": 8, "tomoe": 10}
    assert {c: v["attribute"] for c, v in act["starting"].items()} == {"akira": "dexterity", "hattori": "dexterity", "hikaru": "spirit", "tomoe": "power"}
    assert {c: v["skill"] for c, v in act["starting"].items()} == {"akira": "sixth_sense", "hattori": "roll", "hikaru": "healing", "tomoe": "military_discipline"}
    assert {c: v["armor"] for c, v in act["starting"].items()} == {"akira": "ronin_robe", "hattori": "shinobi_armor", "hikaru": "celestial_armor", "tomoe": "ceremonial_armor"}
    assert act["special_items"] == ["jirobo_omamori"] and content.MARKET["jirobo_omamori"]["name"] == "Jirōbō's omamori"
    assert act["influence_failure"] == 12
    assert sorted(act["initial_kami"]) == ["amaterasu", "amatsumara", "amatsumikaboshi", "dosojin", "hachiman", "inari", "izanami", "susanoo"]


def test_act1_has_three_chapters_each_with_a_full_preparation_and_its_exploration():
    chapters = content.ACT1["chapters"]
    assert len(chapters) >= 3
    scenarios = {p.stem for p in (content.CONTENT / "scenarios").glob("*.json")}
    for chapter in chapters:
        adventure = chapter["adventure"]
        assert set(adventure["personal_missions"]) == {"akira", "hattori", "hikaru", "tomoe"}
        assert adventure["missions"] and adventure["ending_conditions"] and adventure["final_round"] >= 1
        assert adventure["success"]["text"] and adventure["failure"]["text"]
        assert all(board.exists(loc) for loc in adventure["start"].values())
        assert all(board.exists(e["at"]) for e in adventure["enemies"])
        assert chapter["exploration"]["scenario"] in scenarios


def test_travel_events_have_two_sides_and_letter_or_number_codes():
    # rules: Harakiri, "Travel Events": a green side and a red side ... letter code (A, B or C) ... identified with numbers
    codes = {card["code"] for card in content.TRAVEL_EVENTS.values()}
    assert {"A", "B", "C"} <= codes and any(c.isdigit() for c in codes)
    assert all(card["green"]["title"] and card["red"]["title"] for card in content.TRAVEL_EVENTS.values())


def test_influence_cards_have_low_medium_and_high_effects():
    # rules: Harakiri, "Draw and resolve a Shōgun's influence card": separate effect text for high, medium, and low
    for card in content.INFLUENCE_CARDS.values():
        assert {"low", "medium", "high"} <= set(card) and card["chapters"]


def test_blacksmith_decks_have_levels_1_to_3_for_every_class_and_market_has_levels():
    for klass in ("ronin", "ninja", "monk", "samurai"):
        deck = [content.BLACKSMITH[c] for c in content.blacksmith_deck(klass, 3)]
        for level in (1, 2, 3):
            slots = {c["slot"] for c in deck if c["level"] == level}
            assert slots == {"weapon", "armor"}, (klass, level)
        assert all(c["level"] == 1 for c in map(content.BLACKSMITH.get, content.blacksmith_deck(klass, 1)))
    levels = {c["knowledge"] for c in content.MARKET.values()}
    assert {None, 0, 1, 2, 3} <= levels


def test_level_tables_match_the_character_boards_and_the_skill_appendix():
    # rules: Harakiri, "Level Increase": the health levels depend on the character class (... 10; 11; 13; 15; 18)
    levels = content.LEVELS
    assert levels["health_by_class"]["samurai"] == [10, 11, 13, 15, 18]
    skills = {s["id"]: s for s in json.loads((content.CONTENT / "skills.json").read_text())["skills"]}
    for cid, board_ in content.CHARACTERS.items():
        assert levels["health_by_class"][board_["class"]] == board_["health_by_level"]
        for level, pair in levels["skill_tokens"][cid].items():
            assert all(skills[s]["owner"] == cid and skills[s]["level"] == int(level) for s in pair)


def _effects(value):
    """Every effect object nested anywhere in a content document."""
    return (d for d in dicts_in(value) if "do" in d)


def test_every_place_an_effect_names_is_on_the_map_and_captures_name_cities():
    documents = [content.ACT1, list(content.TRAVEL_EVENTS.values()), list(content.INFLUENCE_CARDS.values()), content.MARKET]
    for effect in (e for d in documents for e in _effects(d)):
        if effect["do"] in ("capture", "raze"):
            assert board.is_city(effect["location"]), effect
        if effect["do"] == "discover":
            assert board.exists(effect["location"]), effect
        if effect["do"] == "spawn":
            spec = effect["enemy"]
            assert spec["at"] == "here" or board.exists(spec["at"]), effect
            assert spec["target"] is None or spec["target"].get("character") in ("active", "akira", "hattori", "hikaru", "tomoe") \
                or board.exists(spec["target"].get("location")), effect
    for chapter in content.ACT1["chapters"]:
        adventure = chapter["adventure"]
        places = [m["token"] for m in adventure["missions"] if m["token"]] + [t["at"] for m in adventure["missions"] for t in m["clan_tokens"]]
        places += [p["token"] for p in adventure["personal_missions"].values()] + [s["location"] for s in adventure["special_locations"]]
        assert all(board.exists(p) for p in places), chapter["number"]
        assert all(board.LOCATIONS[s["location"]]["kind"] == "special" for s in adventure["special_locations"])


def test_mission_tokens_kami_traits_and_missions_named_by_effects_exist():
    # rules: Harakiri, "Map Board Setup" step 8: some missions may not be available from the start of the phase
    granted = set(content.SKILL_TRAITS.values()) | {c["trait"] for c in content.MARKET.values() if c.get("trait")}
    kami = {k for k in content.KAMI}
    documents = [content.ACT1, list(content.TRAVEL_EVENTS.values()), list(content.INFLUENCE_CARDS.values())]
    for effect in (e for d in documents for e in _effects(d)):
        for token in (effect.get("token"), (effect.get("has") or {}).get("token")):
            assert token is None or token in content.TOKENS, effect
        trait = effect.get("trait") or (effect.get("has") or {}).get("trait")
        assert trait is None or trait in granted, effect  # a trait a test names can be had
        if effect["do"] == "unlock_kami":
            assert effect["kami"] in kami and effect["kami"] not in content.ACT1["initial_kami"], effect
        for option in effect.get("options", []):
            assert set(option.get("requires", {})) <= {"coins", "token", "trait"}
            assert option.get("requires", {}).get("trait") in granted | {None}
    assert set(content.SKILL_TRAITS) <= {s for pairs in content.LEVELS["skill_tokens"].values() for pair in pairs.values() for s in pair}
    for chapter in content.ACT1["chapters"]:
        adventure = chapter["adventure"]
        numbers = {m["number"] for m in adventure["missions"]}
        named = [e["mission"] for e in _effects(adventure) if e["do"] in ("place_mission", "complete_mission", "fail_mission")]
        assert set(named) <= numbers, chapter["number"]
        for mission in adventure["missions"]:
            if mission.get("available") is False:  # placed later by one of the chapter's effects
                assert mission["number"] in named and mission["token"], (chapter["number"], mission["number"])
            ats = [t["at"] for t in mission["clan_tokens"]]
            assert len(ats) == len(set(ats)), mission["number"]  # one token per location and mission
            assert mission["clan_tokens"] == [] or any(t.get("completes") for t in mission["clan_tokens"]) \
                or "completed_by" in mission, mission["number"]
            for condition in mission.get("fails_when", []):
                assert condition["when"] != "city_captured" or board.is_city(condition["location"])
                assert condition["when"] != "round_end" or condition["round"] <= adventure["final_round"]
        for ending in adventure["ending_conditions"]:
            assert ending["when"] not in ("mission_completed", "mission_failed") or ending["mission"] in numbers


def test_every_mark_the_content_records_or_reads_is_named_and_recorded_somewhere():
    # rules: Harakiri, "Campaign Sheet": The campaign book contains a campaign sheet to keep track of marks
    from games.engines.harakiri.content import SCENARIOS

    # mark effects, requirements, sheet_marks
    recorded = strings_under([content.ACT1, list(content.TRAVEL_EVENTS.values()), list(content.INFLUENCE_CARDS.values())],
                             "mark")
    read = strings_under([s.get("adventure_consequences", []) for s in SCENARIOS.values()], "mark")
    assert recorded and set(content.ACT1["marks"]) == recorded  # every mark has a name for the pages
    assert read <= recorded  # a mark that is read is one the content can record
