"""The Adventure Phase's history in words (``adventure/describe.py``, through the facade's ``describe``):
every event type names who acted and what was chosen instead of falling back to the generic sentence
("Weapon chosen", "Kami chosen", "Sheet marks read"), and the event types both phases use keep each
phase's words."""

import re

import pytest

from games.engines.harakiri import ENGINE
from games.engines.harakiri.adventure import describe as adventure_words
from games.kernel import SYSTEM, Command, Rng, fold
from games.kernel.narration import generic_sentence
from games.kernel.scenario import Scenario
from tests.engines.harakiri_adventure import bot

NAMES = ["alice", "bob"]
FOLD_TABLE = re.compile(r'^    "([A-Za-z]+)": _', re.M)


def say(type_, **payload):
    return ENGINE.describe({"type": type_, "v": 1, "payload": payload}, 0, NAMES)


def test_choosing_weapons_and_kami_names_the_hero_and_the_choice():
    # given a first chapter for two seats, Kami and weapons still to choose
    s = Scenario(ENGINE, {"phase": "adventure", "options": {"chapter": 1}, "seats": 2})
    # when Akira's player chooses his weapon and his Kami
    weapon = s.when(0, "choose_weapon", character="akira", weapon="ronin_katana")
    kami = s.when(0, "choose_kami", character="akira", kami="dosojin")
    # then the history says who chose what
    assert [ENGINE.describe(e, 1, NAMES) for e in weapon] == ["Akira chooses Katana as weapon"]
    assert [ENGINE.describe(e, 1, NAMES) for e in kami] == ["Akira chooses Dosojin as Kami"]


def test_the_shoguns_first_turn_reads_in_words():
    s = Scenario(ENGINE, {"phase": "adventure", "options": {"chapter": 1, "kami": {
        "akira": "dosojin", "hattori": "inari", "hikaru": "amaterasu", "tomoe": "susanoo"}}, "seats": 1})
    for cid, weapon in (("akira", "ronin_katana"), ("hattori", "ninja_kodachi"), ("hikaru", "monk_bo"),
                        ("tomoe", "samurai_naginata")):
        s.when(0, "choose_weapon", character=cid, weapon=weapon)
    events = s.when(SYSTEM, "advance")
    text = {e["type"]: ENGINE.describe(ENGINE.redact_event(e, 0), 0, NAMES) for e in events}
    assert text["SheetMarksRead"] == "The campaign sheet holds no mark for this chapter"
    assert text["RoundStarted"] == "Round 1 begins"
    assert text["InfluenceStepSkipped"] == "The Shōgun's influence does not rise in round 1"
    assert text["EnemiesTurnStarted"].startswith("The enemies' turn: the ")


def test_a_marked_sheet_names_the_mark_and_its_consequence():
    text = say("SheetMarksRead", marks=[{"mark": "ch1_unseen", "text": "Each character gains 1 karma."}])
    assert text == "The campaign sheet is read: “The companions slipped away unseen (chapter 1 won)”: Each character gains 1 karma."


def test_every_adventure_event_type_has_its_own_words():
    source = (adventure_words.__file__.rsplit("/", 1)[0] + "/effects.py")
    with open(source, encoding="utf-8") as f:
        folded = set(FOLD_TABLE.findall(f.read())) | {"AdventureStarted", "HitsTaken"}
    assert len(folded) > 70
    missing = folded - set(adventure_words.SENTENCES) - adventure_words.BOOKKEEPING
    assert not missing, f"Adventure events with no words: {sorted(missing)}"


def test_the_event_types_both_phases_use_keep_each_phases_words():
    # the Exploration Phase names who with "who" and a "set"; the Adventure Phase with "character"
    assert say("HealthChanged", who="akira", set={"health": 9}, delta=-2, reason="event gate_r1") == \
        "Akira loses 2 health, now 9 (the Smoke and Embers event)"
    assert say("HealthChanged", character="akira", delta=-2, health=9, cause="hits") == "Akira loses 2 health, now 9 (hits)"
    assert say("WeaponSwapped", who="akira", set={"equipped": "ronin_tanto"}) == "Akira takes up Tanto"
    assert say("WeaponSwapped", character="akira", equipped="ronin_tanto") == "Akira takes up Tanto"
    assert say("PhaseEnded", result="round_cap", reason="round cap 4 reached").startswith("The Exploration Phase ends")
    assert say("PhaseEnded", outcome="failure", reason="influence", text=None) == \
        "The Adventure Phase ends in failure: the Shōgun's influence reached its peak"
    assert say("KarmaChanged", who="akira", set={"karma": 2}, reason="yin-yang") == "Akira has 2 karma (yin-yang)"
    assert say("KarmaChanged", character="akira", delta=2, karma=2) == "Akira gains 2 karma, now 2"


def _phase(chapter, seats, seed):
    events = ENGINE.setup({"phase": "adventure", "chapter": chapter}, seats, Rng(seed.encode(), "setup"))
    state = fold(ENGINE, events)
    for step in range(3000):
        status = ENGINE.status(state)
        if status.finished:
            break
        seat = status.awaiting[step % len(status.awaiting)]
        choice = bot.pick(state, ENGINE.legal_commands(state, seat), Rng(seed.encode(), f"pick-{step}"))
        new = ENGINE.decide(state, Command(choice["type"], choice["args"], seat), Rng(seed.encode(), f"step-{step}"))
        state = fold(ENGINE, new, state)
        events += new
    return events


@pytest.mark.parametrize("chapter,seats,seed", [(1, 2, "words-1"), (2, 1, "words-2"), (3, 2, "words-3")])
def test_a_seeded_adventure_phase_reads_in_words_for_every_seat(chapter, seats, seed):
    seen_types = set()
    for ev in _phase(chapter, seats, seed):
        for viewer in [*range(seats), None]:
            shown = ENGINE.redact_event(ev, viewer)
            text = ENGINE.describe(shown, viewer, NAMES[:seats])
            if ev["type"] in adventure_words.BOOKKEEPING:
                assert text == "", (ev["type"], text)
                continue
            seen_types.add(ev["type"])
            assert text and text != generic_sentence(shown, NAMES[:seats]), (ev["type"], text)
            assert "None" not in text and "_" not in text and "{" not in text, (ev["type"], text)
    assert {"WeaponChosen", "KamiChosen", "SheetMarksRead", "InfluenceStepSkipped", "CharacterActivated"} <= seen_types
