"""Adventure Phase Setup and the Shōgun's turn: round token, influence track, influence cards."""

import pytest

from games.engines.harakiri.adventure import content, queries
from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM, Rng, RuleViolation, fold
from games.kernel.scenario import Scenario

from .helpers import CAMP, advance, doc, of_type, types


def fresh(seats=2, options=None):
    return fold(ENGINE, ENGINE.setup(options or {}, seats, Rng(b"setup", "s")))


def test_first_chapter_characters_start_with_the_rulebook_boards():
    # rules: Harakiri, "Character's Setup": steps 2-9 for the first chapter
    state = fresh()
    chars = state["characters"]
    assert {c: chars[c]["health"] for c in chars} == {"akira": 11, "hattori": 9, "hikaru": 8, "tomoe": 10}
    assert chars["akira"]["attributes"]["dexterity"] == 1 and chars["hattori"]["attributes"]["dexterity"] == 1
    assert chars["hikaru"]["attributes"]["spirit"] == 1 and chars["tomoe"]["attributes"]["power"] == 1
    assert all(ch["affinity"] == 1 for ch in chars.values())
    assert chars["akira"]["armor"] == "ronin_robe" and chars["hikaru"]["skills"] == ["healing"]
    assert all(ch["items"] == ["jirobo_omamori"] for ch in chars.values())


def test_each_character_chooses_one_level_1_weapon_of_its_class_before_round_1():
    # rules: Harakiri, "Character's Setup": each character chooses 1 level 1 weapon from their blacksmith deck
    kami = {"akira": "hachiman", "hattori": "inari", "hikaru": "amaterasu", "tomoe": "susanoo"}
    s = Scenario(ENGINE, {"options": {"kami": kami}, "seats": 2})  # the Kami chosen with the match
    assert s.status.phase == "prepare" and s.status.awaiting == [0, 1]
    tomoe = sorted(c["args"]["weapon"] for c in s.legal(1) if c["args"]["character"] == "tomoe")
    assert tomoe == ["samurai_naginata", "samurai_yumi"]
    assert s.rejects(1, "choose_weapon", character="tomoe", weapon="ronin_katana").code == "bad_args"
    for seat, cid, weapon in ((0, "akira", "ronin_katana"), (1, "hattori", "ninja_kodachi"), (0, "hikaru", "monk_bo")):
        s.when(seat, "choose_weapon", character=cid, weapon=weapon)
    assert s.status.awaiting == [1]
    s.when(1, "choose_weapon", character="tomoe", weapon="samurai_naginata")
    assert s.status.awaiting == [SYSTEM] and s.state["characters"]["tomoe"]["equipped"] == "samurai_naginata"


def test_each_player_chooses_one_of_the_8_initial_kami_for_each_of_their_characters():
    # rules: Harakiri, "Character's Setup" step 3: If this is the first chapter, choose one of the 8 initial Kami available (Amaterasu, Amatsumara, Amatsumikaboshi, Dosojin, Hachiman, Inari, Izanami and Susanoo) for each character
    s = Scenario(ENGINE, {"options": {"kami": {"tomoe": "izanami"}}, "seats": 2})
    offered = sorted(c["args"]["kami"] for c in s.legal(0) if c["type"] == "choose_kami" and c["args"]["character"] == "akira")
    assert offered == sorted(set(content.ACT1["initial_kami"]) - {"izanami"}) and "ryujin" not in offered  # Izanami: Tomoe's
    assert not [c for c in s.legal(1) if c["type"] == "choose_kami" and c["args"]["character"] == "tomoe"]  # chosen already
    assert not [c for c in s.legal(0) if c["args"]["character"] in ("hattori", "tomoe")]  # seat 1's characters
    for seat, cid, weapon in ((0, "akira", "ronin_katana"), (1, "hattori", "ninja_kodachi"), (0, "hikaru", "monk_bo"),
                              (1, "tomoe", "samurai_yumi")):
        s.when(seat, "choose_weapon", character=cid, weapon=weapon)
    assert s.status.phase == "prepare" and s.status.awaiting == [0, 1]  # Kami still to choose
    s.when(0, "choose_kami", character="akira", kami="dosojin")
    s.when(0, "choose_kami", character="hikaru", kami="amaterasu")
    assert s.status.awaiting == [1]
    s.when(1, "choose_kami", character="hattori", kami="amatsumikaboshi")
    assert s.status.awaiting == [SYSTEM] and s.state["characters"]["akira"]["kami"] == "dosojin"
    assert {c: ch["kami"] for c, ch in s.state["characters"].items()} == {
        "akira": "dosojin", "hattori": "amatsumikaboshi", "hikaru": "amaterasu", "tomoe": "izanami"}


def test_a_kami_another_character_holds_is_not_available_to_choose():
    # rules: Harakiri, "Character's Setup" step 3: choose one of the 8 initial Kami available ... for each character
    # ("10 kami cards": each Kami is one card, "Place each character's Kami card next to their player board")
    # given Tomoe's Kami chosen with the match, and Akira choosing Dosojin
    s = Scenario(ENGINE, {"options": {"kami": {"tomoe": "izanami"}}, "seats": 1})
    s.when(0, "choose_kami", character="akira", kami="dosojin")
    # then neither is offered to Hikaru, and choosing one is refused
    offered = {c["args"]["kami"] for c in s.legal(0) if c["type"] == "choose_kami" and c["args"]["character"] == "hikaru"}
    assert offered == set(content.ACT1["initial_kami"]) - {"izanami", "dosojin"}
    assert s.rejects(0, "choose_kami", character="hikaru", kami="izanami").code == "bad_args"
    # and a match cannot give two characters the same Kami
    with pytest.raises(RuleViolation) as refused:
        ENGINE.validate_options({"kami": {"akira": "inari", "tomoe": "inari"}}, 1)
    assert refused.value.code == "bad_options"


def test_map_setup_places_characters_influence_final_round_and_no_razed_cities():
    # rules: Harakiri, "Map Board Setup": steps 3, 4 and 10
    state = fresh(options={"chapter": 1})
    adventure = content.ACT1["chapters"][0]["adventure"]
    assert {c: ch["location"] for c, ch in state["characters"].items()} == adventure["start"]
    assert state["influence"] == adventure["influence"]["start"] and state["round"] == 0
    assert state["cities"] == {"captured": [], "razed": []}


def test_first_chapter_market_holds_no_requirement_and_level_1_cards_only():
    # rules: Harakiri, "Map Board Setup" step 6: take the market cards with no requirement and those with a level 1 requirement
    state = fresh()
    needs = {content.MARKET[c]["knowledge"] or 0 for c in state["decks"]["market"]}
    assert needs == {0, 1} and "jirobo_omamori" not in state["decks"]["market"]


def test_travel_deck_holds_the_chapters_letter_codes():
    # rules: Harakiri, "Map Board Setup" step 7; "Travel Events": letter code (A, B or C)
    state = fresh(options={"chapter": 2})
    assert {content.TRAVEL_EVENTS[c]["code"] for c in state["decks"]["travel"]} == {"A", "B"}


def test_round_1_places_the_round_token_on_1_and_skips_the_influence_update():
    # rules: Harakiri, "Shōgun's Turn": During Round 1, the token is placed in space 1 ... During Round 1, ignore this step
    s = Scenario(ENGINE, doc(decks={"influence": ["si_03"]}))
    events = advance(s)
    assert of_type(events, "RoundStarted")[0]["round"] == 1
    assert "InfluenceStepSkipped" in types(events)
    assert not [e for e in of_type(events, "InfluenceMoved") if e["reason"] == "round"]


def test_from_round_2_influence_rises_by_the_chapter_rules():
    # rules: Harakiri, "Update the Shōgun's influence track": according to the influence increase rules
    s = Scenario(ENGINE, doc(round=1, influence=3, cities={"captured": ["kyoto"], "razed": []}, decks={"influence": ["si_12"]}))
    events = advance(s)
    moved = [e for e in of_type(events, "InfluenceMoved") if e["reason"] == "round"]
    assert moved == [{"from": 3, "to": 5, "reason": "round"}]  # 1 per round + 1 per captured city


def test_influence_reaching_12_ends_the_phase_in_failure():
    # rules: Harakiri, "Update the Shōgun's influence track": If the Shōgun's influence token reaches 12, the phase ends in failure
    s = Scenario(ENGINE, doc(round=3, influence=11))
    events = advance(s)
    ended = of_type(events, "PhaseEnded")
    assert ended and ended[0]["outcome"] == "failure" and ended[0]["reason"] == "influence"
    assert "InfluenceCardDrawn" not in types(events)
    assert s.status.finished and s.status.winners == []


def test_influence_card_resolves_the_effect_matching_the_band():
    # rules: Harakiri, "Draw and resolve a Shōgun's influence card": 5 or less low, 6-9 medium, 10 or more high
    assert [queries.band(i) for i in (0, 5, 6, 9, 10, 11)] == ["low", "low", "medium", "medium", "high", "high"]
    for influence, expected_loss in ((2, 0), (6, 1), (10, 2)):
        s = Scenario(ENGINE, doc(round=1, influence=influence - 1, decks={"influence": ["si_04"]}))  # poisoned rice
        events = advance(s)
        drawn = of_type(events, "InfluenceCardDrawn")[0]
        assert drawn["band"] == queries.band(influence)
        assert s.state["characters"]["akira"]["health"] == 11 - expected_loss


def test_a_new_influence_card_discards_the_previous_one():
    # rules: Harakiri, "Draw and resolve a Shōgun's influence card": discard the previous Shōgun's Influence card
    s = Scenario(ENGINE, doc(round=1, influence=1, influence_card="si_12", decks={"influence": ["si_03", "si_08"]}))
    advance(s)
    assert s.state["influence_card"] == "si_03" and s.state["discard"]["influence"] == ["si_12"]


def test_trigger_space_resolves_the_chapters_trigger_section():
    # rules: Harakiri, "Advance the round token": If the round token moves onto a space with a trigger ... resolve the corresponding section
    s = Scenario(ENGINE, doc(round=3, influence=1, decks={"influence": ["si_03"]}))
    events = advance(s)
    assert of_type(events, "RoundStarted")[0]["trigger"]
    assert "green_kachi" in s.state["enemies"] or any(e["enemy"]["id"] == "green_kachi" for e in of_type(events, "EnemySpawned"))


def test_final_round_ends_the_phase_with_the_final_section_after_the_last_round():
    # rules: Harakiri, "Advance the round token": this will be the final round ... After the last round ends, read the corresponding section
    s = Scenario(ENGINE, doc(round=7, influence=1, enemies={"camp": CAMP}, decks={"influence": ["si_03"]}))
    advance(s)
    assert s.state["round"] == 8 and s.state["final"] is True and not s.status.finished
    for cid in ("akira", "hattori", "hikaru", "tomoe"):
        s.when(0, "activate", character=cid)
        s.when(0, "end_activation")
    assert s.status.phase == "round_end"
    events = advance(s)
    ended = of_type(events, "PhaseEnded")[0]
    assert ended["reason"] == "final_round" and ended["outcome"] == "failure"  # chapter 1's final section
    assert s.status.finished


def test_an_empty_influence_deck_is_reshuffled_from_its_discards():
    s = Scenario(ENGINE, doc(round=1, influence=1, influence_card="si_12", decks={"influence": []},
                             discard={"influence": ["si_03", "si_08"]}))
    events = advance(s)
    assert "InfluenceDeckShuffled" in types(events)
    assert s.state["influence_card"] in ("si_03", "si_08")
    assert sorted(s.state["decks"]["influence"] + s.state["discard"]["influence"] + [s.state["influence_card"]]) == ["si_03", "si_08", "si_12"]
