"""One Harakiri match is one phase: the facade plays the Adventure Phase with ``phase: "adventure"``,
its own steps awaited from SYSTEM; the party is handed between the phases (``handover``)."""

import jsonschema
import pytest

from games.engines.harakiri import content as exploration_content
from games.engines.harakiri import handover
from games.engines.harakiri import views as exploration_views
from games.engines.harakiri.adventure import steps as adventure_steps
from games.engines.harakiri.adventure.engine import ENGINE as ADVENTURE
from games.engines.harakiri.engine import ENGINE, is_adventure
from games.kernel import SYSTEM, Command, Rng, RuleViolation, fold


def _valid(options, seats=1):
    jsonschema.validate(options, ENGINE.options_schema)
    ENGINE.validate_options(options, seats)


def play(options, seats, seed):
    """Seeded random play through the facade; SYSTEM steps by the system command, as the worker does."""
    state = fold(ENGINE, ENGINE.setup(options, seats, Rng(f"phase-{seed}".encode(), "setup")))
    system_steps = 0
    for step in range(4000):
        status = ENGINE.status(state)
        if status.finished:
            return state, system_steps
        seat = status.awaiting[step % len(status.awaiting)]
        if seat == SYSTEM:
            cmd = ENGINE.system_command(state)
            system_steps += 1
        else:
            legal = ENGINE.legal_commands(state, seat)
            cmd = legal[Rng(f"phase-{seed}".encode(), f"pick-{step}").below(len(legal))]
        events = ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(f"phase-{seed}".encode(), f"s{step}"))
        state = fold(ENGINE, events, state)
    raise AssertionError("the phase did not end")


def test_the_phase_option_is_validated():
    _valid({})
    _valid({"phase": "exploration", "scenario": "act1_burning_village"})
    _valid({"phase": "adventure", "chapter": 2}, seats=2)
    for bad in ({"phase": "epilogue"}, {"phase": "adventure", "scenario": "act1_burning_village"},
                {"phase": "adventure", "chapter": 9}, {"chapter": 1}, {"phase": "exploration", "sheet": {}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, ENGINE.options_schema)
    with pytest.raises(RuleViolation):  # seat 3 controls a character in a 2-seat match
        ENGINE.validate_options({"phase": "adventure", "control": {"akira": 3, "hattori": 0, "hikaru": 1, "tomoe": 1}}, 2)


def test_an_adventure_match_is_the_adventure_engines_decider():
    state = fold(ENGINE, ENGINE.setup({"phase": "adventure", "chapter": 1}, 2, Rng(b"a", "s")))
    same = fold(ADVENTURE, ADVENTURE.setup({"chapter": 1}, 2, Rng(b"a", "s")))
    assert is_adventure(state) and state == same
    assert ENGINE.status(state) == ADVENTURE.status(state)
    assert ENGINE.legal_commands(state, 0) == ADVENTURE.legal_commands(state, 0)
    assert ENGINE.view_for(state, 1) == ADVENTURE.view_for(state, 1)
    exploration = fold(ENGINE, ENGINE.setup({}, 2, Rng(b"a", "s")))
    assert not is_adventure(exploration) and exploration["phase"] == "oracle"


@pytest.mark.parametrize("seed,seats,chapter", [(1, 1, 1), (2, 2, 2), (3, 4, 3)])
def test_a_seeded_adventure_phase_plays_to_its_end_with_the_shoguns_steps_from_system(seed, seats, chapter):
    # rules: Harakiri, "Ending the Adventure Phase"; the Shōgun's turn is the game's own step (SYSTEM)
    state, system_steps = play({"phase": "adventure", "chapter": chapter}, seats, seed)
    assert state["flow"]["stage"] == "finished" and state["result"]["outcome"] in ("success", "failure")
    assert system_steps > 0
    assert ENGINE.legal_commands(state, SYSTEM) == [] and ENGINE.system_command(state) is None


def test_each_phase_redacts_its_own_hidden_events_through_the_facade():
    started = ENGINE.setup({"phase": "adventure"}, 1, Rng(b"r", "s"))[0]
    assert ENGINE.redact_event(started, 0) == ADVENTURE.redact_event(started, 0)
    assert isinstance(ENGINE.redact_event(started, 0)["payload"]["state"]["decks"]["travel"], int)
    phase = ENGINE.setup({}, 1, Rng(b"r", "s"))[0]
    assert ENGINE.redact_event(phase, 0) == exploration_views.redact(phase)
    shuffled = {"type": "AIDeckShuffled", "v": 1, "payload": {"who": "x", "deck": ["a", "b"]}}
    assert ENGINE.redact_event(shuffled, 0)["payload"] == {"who": "x", "deck": 2}


def handover_sheet(state):
    """What ``AdventureFinished`` hands on: the campaign sheet of the finished state."""
    return adventure_steps.sheet(state)


def test_the_adventure_sheet_becomes_a_valid_exploration_party_and_comes_back_unchanged():
    # rules: Harakiri, "Adventure Phase Setup" / "Exploration Phase Setup" (step 10: "Place already acquired items and
    # equipment into the character's supply"): the characters keep their health, equipment, items, skills
    sheet = handover_sheet(play({"phase": "adventure", "chapter": 1}, 1, 5)[0])
    akira = sheet["characters"]["akira"]
    akira.update(level=2, weapons=["ronin_katana", "ronin_nodachi"], equipped="ronin_nodachi", armor="ronin_lamellar",
                 armor_value=2, items=["jirobo_omamori", "rice_ball", "war_fan", "ginseng_tea"], item_uses={"ginseng_tea": 1})
    sheet["characters"]["hattori"].update(armor=None, armor_value=0)  # sold in the Adventure Phase
    sheet["characters"]["hikaru"]["traits"] = ["pious"]
    party = handover.party_from_sheet(sheet)
    _valid({"scenario": "act1_burning_village", "party": party, "adventure": "success"})
    # the level 2 cards bought in the Adventure Phase are the ones the Exploration Phase plays with
    assert {k: party["akira"][k] for k in ("weapons", "equipped", "armor", "armor_value", "items", "item_uses")} == {
        "weapons": ["ronin_katana", "ronin_nodachi"], "equipped": "ronin_nodachi", "armor": "ronin_lamellar",
        "armor_value": 2, "items": ["jirobo_omamori", "rice_ball", "war_fan", "ginseng_tea"], "item_uses": {"ginseng_tea": 1}}
    assert (party["hattori"]["armor"], party["hattori"]["armor_value"]) == (None, 0)
    state = fold(ENGINE, ENGINE.setup({"party": party}, 1, Rng(b"handover", "setup")))
    ch = state["characters"]["akira"]
    assert (ch["equipped"], ch["armor_card"], ch["armor"]) == ("ronin_nodachi", "ronin_lamellar", 2)
    assert ch["items"][-1] == {"id": "ginseng_tea", "uses": 1}  # the "Uses: X" tokens left, not a fresh card
    back = handover.sheet_from_party(party, sheet)
    assert back == sheet
    _valid({"phase": "adventure", "chapter": 2, "sheet": back})


def test_a_party_over_the_item_limits_is_refused():
    # rules: Harakiri, "Equipment and Item Limits": "a maximum of 2 permanent items with a maximum of 5 items in total"
    sheet = handover_sheet(play({"phase": "adventure", "chapter": 1}, 1, 5)[0])
    sheet["characters"]["tomoe"]["items"] = ["jirobo_omamori", "war_fan", "iron_tessen", "dragon_scale"]
    with pytest.raises(RuleViolation, match="permanent"):
        _valid({"scenario": "act1_burning_village", "party": handover.party_from_sheet(sheet)})
    sheet["characters"]["tomoe"]["items"] = ["jirobo_omamori", "rice_ball", "rice_ball", "bandages", "holy_water",
                                             "healing_potion", "fire_powder"]
    with pytest.raises(RuleViolation, match="5 market items"):
        _valid({"scenario": "act1_burning_village", "party": handover.party_from_sheet(sheet)})


def test_an_unlocked_kami_and_a_new_skills_trait_go_through_the_hand_over():
    # rules: Harakiri, "Kami Change": Characters who replace their Kami maintain their current affinity level
    # rules: Harakiri, "Travel Events" (Traits): Traits are gained by the characters when acquiring new skills
    sheet = handover_sheet(play({"phase": "adventure", "chapter": 1}, 1, 5)[0])
    sheet["characters"]["hikaru"].update(kami="ryujin", affinity=2)  # taken at the end of the phase
    party = handover.party_from_sheet(sheet)
    _valid({"scenario": "act1_burning_village", "party": party, "adventure": "failure"})
    assert (party["hikaru"]["kami"], party["hikaru"]["affinity"]) == ("ryujin", 2)
    party["tomoe"].update(level=2, skills=[*party["tomoe"]["skills"], "divine_arrow"])  # the level's skill chosen
    back = handover.sheet_from_party(party, sheet)
    assert back["characters"]["tomoe"]["traits"] == ["leadership"] and back["characters"]["hikaru"]["kami"] == "ryujin"
    _valid({"phase": "adventure", "chapter": 2, "sheet": back})


def test_the_chapters_preparation_applies_the_adventure_phases_mission_results_and_marks():
    # rules: Harakiri, "Ending the Adventure Phase": Additionally, the adventure and Exploration Phase preparation sections of a chapter may specify consequences for meeting certain ending conditions, and succeeding or failing certain missions
    base = {"phase": "exploration", "scenario": "act1_burning_village", "adventure": "success"}
    _valid({**base, "missions": {"2": "completed", "5": "failed"}, "marks": ["ch1_unseen"]})
    plain = fold(ENGINE, ENGINE.setup(base, 1, Rng(b"c", "s")))
    letter = fold(ENGINE, ENGINE.setup({**base, "missions": {"1": "completed", "2": "completed", "5": "completed"}}, 1, Rng(b"c", "s")))
    assert plain["adventure_consequences"] == [] and all(ch["conditions"]["blessed"] == 0 for ch in plain["characters"].values())
    # Jirōbō's letter delivered (mission 2): every companion starts blessed
    assert [c["when"] for c in letter["adventure_consequences"]] == [{"mission": 2, "status": "completed"}]
    assert all(ch["conditions"]["blessed"] == 1 for ch in letter["characters"].values())
    assert len(letter["oracle"]["deck"]) == len(plain["oracle"]["deck"]) == 6
    # the kachi's supplies left alone (mission 5 failed): one more red oracle card
    kept = fold(ENGINE, ENGINE.setup({**base, "missions": {"2": "failed", "5": "failed"}}, 1, Rng(b"c", "s")))
    reds = {c["id"] for c in exploration_content.ORACLE if c["color"] == "red"}
    assert sum(c in reds for c in kept["oracle"]["deck"]) == sum(c in reds for c in plain["oracle"]["deck"]) + 1
    view = exploration_views.view(kept)
    assert view["adventure_consequences"][0]["text"].startswith("The kachi kept their supplies")
    # a mark on the campaign sheet (chapter 3's Exploration Phase after Nara fell in chapter 2)
    gates = {"phase": "exploration", "scenario": "act1_kyoto_gates", "adventure": "failure"}
    fallen = fold(ENGINE, ENGINE.setup({**gates, "marks": ["nara_fallen"]}, 1, Rng(b"g", "s")))
    assert [c["when"] for c in fallen["adventure_consequences"]] == [{"mark": "nara_fallen"}]
    assert len(fallen["oracle"]["deck"]) == len(fold(ENGINE, ENGINE.setup(gates, 1, Rng(b"g", "s")))["oracle"]["deck"]) + 1
    for bad in ({**base, "missions": {"2": "won"}}, {**base, "marks": "nara_fallen"}, {**base, "missions": {"two": "failed"}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, ENGINE.options_schema)
