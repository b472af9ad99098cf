"""Setup from a campaign sheet, the sheet handed on at the end, and captured / razed city expiry."""

import copy

import jsonschema
import pytest

from games.engines.harakiri.adventure.content import MARKET, chapter
from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM, RuleViolation
from games.kernel.scenario import Scenario

from .helpers import activation, advance, doc, of_type


def finished_chapter_1():
    """Chapter 1 won: Tomoe resolves her clan token of mission 1 ("The burning village") in Kyoto."""
    missions = {"1": {"status": "active", "token": None, "starter": "tomoe", "clan_tokens": {"tomoe": ["kyoto"]}}}
    s = activation("tomoe", missions=missions, travel_removed=["te_2"],
                   characters={"tomoe": {"location": "kyoto", "coins": 7, "karma": 2, "heads": 1, "tokens": ["villagers_testimony"],
                                         "items": ["jirobo_omamori", "rice_ball"]}})
    s.when(0, "interact_clan", mission=1)
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    return s, of_type(events, "AdventureFinished")[0]["sheet"]


def test_the_finished_phase_hands_on_the_party_and_the_sheet():
    # rules: Harakiri, "Ending the Adventure Phase": save the character progress into each character case
    s, sheet = finished_chapter_1()
    tomoe = sheet["characters"]["tomoe"]
    assert (tomoe["coins"], tomoe["karma"], tomoe["heads"], tomoe["items"]) == (12, 2, 1, ["jirobo_omamori", "rice_ball"])
    assert tomoe["health"] == 10 and tomoe["equipped"] == "samurai_naginata"
    assert "iga_saved" in sheet["marks"] and "ch1_unseen" in sheet["marks"]  # mission 1's and chapter 1's success
    assert sheet["travel_removed"] == ["te_2"] and sheet["travel_added"] == ["1"]  # mission 1 added event 1


def test_a_chapter_set_up_from_the_sheet_carries_the_party_exactly():
    # rules: Harakiri, "Character's Setup": Place a cube on the Kami affinity track, in the space recorded on the campaign sheet ... attribute scores recorded on the campaign sheet
    _, sheet = finished_chapter_1()
    options = {"chapter": 2, "sheet": sheet}
    jsonschema.validate(options, ENGINE.options_schema)
    ENGINE.validate_options(options, 1)
    s = Scenario(ENGINE, {"options": options, "seats": 1})
    for cid, carried in sheet["characters"].items():
        assert {k: s.state["characters"][cid][k] for k in carried} == carried
    assert s.status.phase == "shogun" and s.status.awaiting == [SYSTEM]  # weapons are already chosen
    assert "te_1" in s.state["decks"]["travel"] and "te_2" not in s.state["decks"]["travel"]
    assert s.state["marks"] == sheet["marks"]


def test_the_market_follows_the_lowest_and_highest_knowledge():
    # rules: Harakiri, "Map Board Setup" step 6: Find the lowest and highest knowledge of any character
    _, sheet = finished_chapter_1()
    sheet["characters"]["hikaru"]["attributes"]["knowledge"] = 2
    s = Scenario(ENGINE, {"options": {"chapter": 2, "sheet": sheet}, "seats": 1})
    assert {MARKET[c]["knowledge"] or 0 for c in s.state["decks"]["market"]} == {0, 1, 2}


def test_a_lowest_knowledge_of_1_leaves_out_the_cards_with_no_requirement():
    # rules: Harakiri, "Map Board Setup" step 6: if the lowest knowledge is 1 and highest is 3, take all the market cards of level 1-3, excluding the cards with no knowledge requirement
    _, sheet = finished_chapter_1()
    for cid, knowledge in (("akira", 1), ("hattori", 2), ("hikaru", 3), ("tomoe", 1)):
        sheet["characters"][cid]["attributes"]["knowledge"] = knowledge
    s = Scenario(ENGINE, {"options": {"chapter": 2, "sheet": sheet}, "seats": 1})
    deck = s.state["decks"]["market"]
    assert {MARKET[c]["knowledge"] for c in deck} == {1, 2, 3}
    assert sorted(deck) == sorted(c for c, card in MARKET.items() if card["knowledge"] in (1, 2, 3))
    assert "rice_ball" not in deck and "healing_potion" not in deck  # no requirement (null) and 0


def test_the_market_deck_leaves_out_the_cards_kept_in_the_characters_supplies():
    # rules: Harakiri, "Map Board Setup" step 6: Find the market cards (excluding special cards) with levels within this range and shuffle them
    # (a card in a character's supply is not there to gather: "Characters may buy and keep market items in their supply")
    _, sheet = finished_chapter_1()
    assert "rice_ball" in sheet["characters"]["tomoe"]["items"]  # no requirement: in the range of a lowest knowledge 0
    s = Scenario(ENGINE, {"options": {"chapter": 2, "sheet": sheet}, "seats": 1})
    deck = s.state["decks"]["market"]
    assert "rice_ball" not in deck and "healing_potion" in deck
    assert len(deck) == len(set(deck))


def test_a_sheet_naming_what_does_not_exist_is_refused():
    _, sheet = finished_chapter_1()
    bad = copy.deepcopy(sheet)
    bad["characters"]["tomoe"]["weapons"] = ["no_such_blade"]
    bad["characters"]["tomoe"]["equipped"] = "no_such_blade"
    with pytest.raises(RuleViolation) as refused:
        ENGINE.validate_options({"chapter": 2, "sheet": bad}, 1)
    assert refused.value.code == "bad_options" and "no_such_blade is not a weapon" in refused.value.message
    carried = copy.deepcopy(sheet)  # another class's weapon, shared during a phase, comes back as it was
    carried["characters"]["tomoe"]["weapons"] = ["ronin_katana"]
    carried["characters"]["tomoe"]["equipped"] = "ronin_katana"
    ENGINE.validate_options({"chapter": 2, "sheet": carried}, 1)
    bad = copy.deepcopy(sheet)
    bad["cities"] = [{"location": "iga", "status": "razed", "chapter": 1}]
    with pytest.raises(RuleViolation):
        ENGINE.validate_options({"chapter": 2, "sheet": bad}, 1)
    bad = copy.deepcopy(sheet)
    bad["characters"]["akira"]["level"] = 9
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"sheet": bad}, ENGINE.options_schema)


def test_razed_and_captured_cities_from_the_sheet_are_placed():
    # rules: Harakiri, "Map Board Setup" step 10: Place razed/captured city tokens on the locations indicated by the campaign sheet
    _, sheet = finished_chapter_1()
    sheet["cities"] = [{"location": "kyoto", "status": "razed", "chapter": 1}, {"location": "osaka", "status": "captured", "chapter": 2}]
    s = Scenario(ENGINE, {"options": {"chapter": 2, "sheet": sheet}, "seats": 1})
    assert s.state["cities"] == {"captured": ["osaka"], "razed": ["kyoto"]}


def test_city_tokens_are_discarded_at_the_end_of_the_following_chapter():
    # rules: Harakiri, "Captured and Razed Cities" example: Kyoto was razed during chapter 5. At the end of the Adventure Phase of chapter 6, discard Kyoto's razed city token
    log = [{"location": "kyoto", "status": "razed", "chapter": 1}, {"location": "osaka", "status": "captured", "chapter": 2}]
    s = Scenario(ENGINE, doc(chapter=2, round=2, influence=11, city_log=log, cities={"captured": ["osaka"], "razed": ["kyoto"]}))
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    assert of_type(events, "CityTokensDiscarded") == [{"locations": ["kyoto"]}]
    assert s.state["cities"] == {"captured": ["osaka"], "razed": []}
    assert of_type(events, "AdventureFinished")[0]["sheet"]["cities"] == [log[1]]


def test_a_city_captured_now_is_recorded_for_the_sheet():
    # rules: Harakiri, "Captured and Razed Cities": When a location is razed or captured, also record it on the campaign sheet
    queue = [{"effects": [{"do": "raze", "location": "nara"}], "ctx": {"character": None, "source": "influence"}}]
    s = activation("akira", chapter=2, queue=queue)
    advance(s)
    assert s.state["city_log"] == [{"location": "nara", "status": "razed", "chapter": 2}]


def _finish(s):
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    return of_type(events, "AdventureFinished")[0]["sheet"]


def _from_sheet(chapter, sheet, **state):
    return Scenario(ENGINE, {"options": {"chapter": chapter, "sheet": sheet}, "seats": 1, "state": state})


def _moves_from_nara(chapter, sheet) -> list[str]:
    s = _from_sheet(chapter, sheet, round=1, characters={"akira": {"location": "nara", "ap": 3, "activated": True}},
                    flow={"stage": "activation", "sub": None, "active": "akira"})
    s.when(0, "travel", group=[])
    return [c["args"]["to"] for c in s.legal(0) if c["type"] == "move"]


def test_the_kyoto_razing_example():
    # rules: Harakiri, "Captured and Razed Cities" example: Kyoto was razed during chapter 5. At the end of the Adventure Phase of chapter 6, discard Kyoto's razed city token. Characters will be able to move to or through it again from chapter 7 onwards.
    queue = [{"effects": [{"do": "raze", "location": "kyoto"}], "ctx": {"character": None, "source": "influence"}}]
    _, sheet = finished_chapter_1()
    sheet = _finish(_from_sheet(1, sheet, round=2, influence=11, queue=queue))  # razed during this chapter
    assert sheet["cities"] == [{"location": "kyoto", "status": "razed", "chapter": 1}]
    assert "kyoto" not in _moves_from_nara(2, sheet)  # the following chapter: not entered, nor gone through
    sheet = _finish(_from_sheet(2, sheet, round=2, influence=11))  # the end of its Adventure Phase discards it
    assert sheet["cities"] == []
    assert "kyoto" in _moves_from_nara(3, sheet)  # open again from the chapter after


def test_the_finished_phase_hands_on_the_market_deck_and_the_uses_tokens_left():
    # rules: Harakiri, "Exploration Phase Setup": "if you just completed an Adventure Phase, leave the market deck ...
    # in the play area"; "Free Actions": "If the item has the keyword "uses X", when obtained, place X tokens on it.
    # Each time it is used, remove 1 token"
    missions = {"1": {"status": "active", "token": None, "starter": "tomoe", "clan_tokens": {"tomoe": ["kyoto"]}}}
    s = activation("tomoe", missions=missions, decks={"market": ["war_fan", "rice_ball"]},
                   characters={"tomoe": {"location": "kyoto", "health": 5, "items": ["jirobo_omamori", "bandages"],
                                         "tokens": ["villagers_testimony"]}})
    s.when(0, "use_item", item="bandages")
    advance(s)
    s.when(0, "interact_clan", mission=1)
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    finished = of_type(events, "AdventureFinished")[0]
    assert finished["market"] == ["rice_ball", "war_fan"]  # its cards, never its order
    assert finished["sheet"]["characters"]["tomoe"]["item_uses"] == {"bandages": 1}
    assert finished["sheet"]["characters"]["akira"]["item_uses"] == {}
    s = Scenario(ENGINE, {"options": {"chapter": 2, "sheet": finished["sheet"]}})
    assert s.state["characters"]["tomoe"]["item_uses"] == {"bandages": 1}


def test_the_chapters_preparation_resolves_the_campaign_sheets_marks_before_round_1():
    # rules: Harakiri, "Ending the Adventure Phase": the adventure and Exploration Phase preparation sections of a chapter may specify consequences for meeting certain ending conditions, and succeeding or failing certain missions
    # rules: Harakiri, "Campaign Sheet": The campaign book contains a campaign sheet to keep track of marks
    _, sheet = finished_chapter_1()
    rules = {r["mark"]: r["text"] for r in chapter(1, 2)["adventure"]["sheet_marks"]}
    for marks, influence, karma in ((["ch1_exposed"], 4, 0), (["ch1_unseen"], 3, 1), ([], 3, 0)):
        s = Scenario(ENGINE, {"options": {"chapter": 2, "sheet": {**sheet, "marks": marks}}, "seats": 1})
        events = advance(s)
        assert of_type(events, "SheetMarksRead") == [{"marks": [{"mark": m, "text": rules[m]} for m in marks]}]
        assert ENGINE.view_for(s.state, 0)["sheet_marks_applied"] == [{"mark": m, "text": rules[m]} for m in marks]
        assert s.state["round"] == 1 and s.state["influence"] == influence
        assert s.state["characters"]["akira"]["karma"] == sheet["characters"]["akira"]["karma"] + karma
    # chapter 3 after Nara fell in chapter 2: Nara starts captured (and is recorded for the sheet)
    s = Scenario(ENGINE, {"options": {"chapter": 3, "sheet": {**sheet, "marks": ["nara_fallen"]}}, "seats": 1})
    advance(s)
    assert "nara" in s.state["cities"]["captured"] and {"location": "nara", "status": "captured", "chapter": 3} in s.state["city_log"]


def test_a_mark_is_a_condition_of_the_whole_party_decided_once():
    # rules: Harakiri, "Travel Events": Numbered events are added, or removed, from the travel events deck when directed by missions, decisions, or marks
    effect = {"do": "if", "has": {"mark": "iga_saved"}, "then": [{"do": "influence", "amount": 1}, {"do": "add_travel_events", "codes": ["2"]}],
              "else": [{"do": "influence", "amount": -1}]}
    for marks, influence, codes in ((["iga_saved"], 3, ["2", "A"]), ([], 1, ["A"])):
        queue = [{"effects": [effect], "ctx": {"character": None, "source": "trigger"}}]
        s = activation("akira", queue=queue, marks=marks)
        advance(s)
        assert s.state["influence"] == influence and s.state["travel_codes"] == codes  # once, not per character
    # a decision's option may need a mark
    choice = {"do": "choice", "options": [{"label": "Call on the villagers of Iga", "requires": {"mark": "iga_saved"}, "effects": []},
                                          {"label": "Go alone", "effects": []}]}
    for marks, enabled in ((["iga_saved"], True), ([], False)):
        s = activation("akira", queue=[{"effects": [choice], "ctx": {"character": "akira", "source": "travel_event"}}], marks=marks)
        advance(s)
        assert s.state["choice"]["options"][0]["enabled"] is enabled
