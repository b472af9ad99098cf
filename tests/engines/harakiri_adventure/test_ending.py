"""Ending the Adventure Phase: conditions, sections, resurrection, health regained."""

from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario

from .helpers import CAMP, activation, advance, doc, of_type


def finish(s, answers=None):
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s, answers)
    return events


def test_the_chapters_own_ending_condition_ends_the_phase_in_success_and_heals_by_level():
    # rules: Harakiri, "Ending the Adventure Phase": An ending condition specified in the Adventure Phase preparation section is met ... each character regains health equal to their level
    missions = {"1": {"status": "active", "token": None, "starter": "tomoe", "clan_tokens": {"tomoe": ["kyoto"]}}}
    s = activation("tomoe", missions=missions, characters={"tomoe": {"health": 5, "location": "kyoto", "tokens": ["villagers_testimony"]}})
    s.when(0, "interact_clan", mission=1)
    events = finish(s)
    assert of_type(events, "PhaseEnded")[0] == {"outcome": "success", "reason": "mission_completed",
                                                "text": "The companions learn who burned Iga."}
    assert of_type(events, "SectionRead")[0]["outcome"] == "success"
    assert s.state["characters"]["tomoe"]["health"] == 6 and "ch1_unseen" in s.state["marks"]
    assert s.status.finished and s.status.winners == [0]


def test_failure_regains_no_health():
    # rules: Harakiri, "Ending the Adventure Phase": If the phase ends with failure ... the characters will not regain any health
    s = Scenario(ENGINE, doc(round=2, influence=11, characters={"tomoe": {"health": 5}}))
    finish(s)
    assert s.state["result"]["outcome"] == "failure" and s.state["characters"]["tomoe"]["health"] == 5
    assert "ch1_exposed" in s.state["marks"] and s.status.finished and s.status.winners == []


def test_all_characters_defeated_ends_the_phase():
    # rules: Harakiri, "Ending the Adventure Phase": All characters are defeated
    queue = [{"effects": [{"do": "damage", "amount": 30}], "ctx": {"character": None, "source": "mission"}}]
    s = activation("akira", queue=queue)
    events = advance(s, answers=[5, 5, 5, 5])
    assert of_type(events, "PhaseEnded")[0]["reason"] == "all_defeated"


def test_city_captured_condition_of_chapter_3():
    # rules: Harakiri, "Ending the Adventure Phase": An ending condition specified in the Adventure Phase preparation section is met
    queue = [{"effects": [{"do": "capture", "location": "kyoto"}], "ctx": {"character": None, "source": "influence"}}]
    s = activation("akira", chapter=3, queue=queue)
    events = advance(s)
    assert of_type(events, "PhaseEnded")[0] == {"outcome": "failure", "reason": "city_captured", "text": "Kyoto is captured."}


def test_defeated_characters_resurrect_at_full_health_before_the_section():
    # rules: Harakiri, "Defeated Characters": before resolving any entries in the campaign book ... defeated characters will be resurrected, regaining health up to their current maximum
    s = Scenario(ENGINE, doc(round=2, influence=11, characters={"hikaru": {"defeated": True, "health": 0, "location": None}}))
    events = finish(s, answers=[5])
    kinds = [e["type"] for e in events]
    assert kinds.index("CharacterResurrected") < kinds.index("SectionRead")
    assert s.state["characters"]["hikaru"]["health"] == 8 and not s.state["characters"]["hikaru"]["defeated"]


def test_a_failed_resurrection_test_loses_an_attribute_of_the_players_choice_never_the_initial_one():
    # rules: Harakiri, "Defeated Characters": attribute test (X), where X is the character's current level ... loses an attribute point of the controlling player's choice. The initial attribute point for each class cannot be lost
    hikaru = {"defeated": True, "health": 0, "location": None, "level": 3,
              "attributes": {"power": 1, "dexterity": 0, "spirit": 1, "knowledge": 0}}
    s = Scenario(ENGINE, doc(round=2, influence=11, characters={"hikaru": hikaru}))
    finish(s, answers=[0])  # test die face 1: 1 + spirit 1 < level 3
    assert s.status.awaiting == [0]
    assert s.legal(0) == [{"type": "lose_attribute", "args": {"attribute": "power"}}]  # spirit is Hikaru's initial point
    s.when(0, "lose_attribute", attribute="power")
    finish(s)
    assert s.state["characters"]["hikaru"]["attributes"]["power"] == 0 and s.status.finished


def test_a_failed_resurrection_with_only_the_initial_point_loses_nothing():
    s = Scenario(ENGINE, doc(round=2, influence=11, characters={"hikaru": {"defeated": True, "health": 0, "location": None, "level": 3}}))
    finish(s, answers=[0])
    assert s.status.finished and s.state["characters"]["hikaru"]["attributes"]["spirit"] == 1


def test_a_round_without_enemies_left_is_not_a_success_for_a_chapter_that_needs_a_different_condition():
    s = Scenario(ENGINE, doc(chapter=3, enemies={}, decks={"influence": ["si_03"]}))
    advance(s)
    assert not s.status.finished and s.status.phase == "characters"


def test_the_far_camp_keeps_chapter_1_running():
    s = Scenario(ENGINE, doc(enemies={"camp": CAMP}, decks={"influence": ["si_03"]}))
    advance(s)
    assert s.status.phase == "characters"


def test_the_finished_phase_names_every_character_defeated_during_it_for_yomi_mode():
    # rules: Harakiri, "Yomi Mode": After completing each phase, mark a box from the Yomi Mode track on the campaign sheet for each character who was defeated
    s = Scenario(ENGINE, doc(round=2, influence=11, characters={
        "hikaru": {"defeated": True, "defeated_in_phase": True, "health": 0, "location": None}}))
    events = finish(s, answers=[5])  # the resurrection test succeeds
    finished = of_type(events, "AdventureFinished")[0]
    assert finished["defeated"] == ["hikaru"] and not s.state["characters"]["hikaru"]["defeated"]


def test_a_character_defeated_by_an_entry_read_at_the_end_is_resurrected_before_the_phase_finishes():
    # rules: Harakiri, "Defeated Characters": At the end of the Adventure Phase ... defeated characters will be resurrected, regaining health up to their current maximum
    # an un-revealed mission's failure section (read after the resurrections) defeats Hikaru: he is resurrected too,
    # and the sheet handed on never holds a character at 0 health
    failure_entry = [{"effects": [{"do": "damage", "amount": 30}], "ctx": {"character": "hikaru", "source": "mission", "mission": 2}}]
    s = Scenario(ENGINE, doc(round=2, result={"outcome": "failure", "reason": "influence"}, queue=failure_entry,
                             flow={"stage": "ending", "sub": "missions"}))
    events = finish(s, answers=[5] * 10)
    assert of_type(events, "CharacterDefeated") == [{"character": "hikaru"}]
    assert [r["character"] for r in of_type(events, "CharacterResurrected")] == ["hikaru"]
    finished = of_type(events, "AdventureFinished")[0]
    assert finished["sheet"]["characters"]["hikaru"]["health"] == 8 and finished["defeated"] == ["hikaru"]
    assert not s.state["characters"]["hikaru"]["defeated"] and s.status.finished
