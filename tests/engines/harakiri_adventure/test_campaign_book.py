"""The campaign book reaches a client only as it is read: the content pack holds each chapter as it
stands before play, and a match's view (``book``) adds each entry once the rules read it; no view,
redacted event or event sentence names an entry before (``unread.py`` holds the secrets and their
moments, built from the data, not from ``book.py``)."""

import copy
import json

import pytest

from games.engines.harakiri.adventure import book
from games.engines.harakiri.adventure.content import ACT1, ROOT, SCHEMA
from games.engines.harakiri.engine import ENGINE as HARAKIRI
from games.kernel import SYSTEM, Command, Rng, fold

from . import bot, unread
from .helpers import CAMP, activation, advance, doc, of_type
from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel.scenario import Scenario


def chapter_seen(state) -> dict:
    return ENGINE.view_for(state, 0)["book"]["chapter"]


def mission_seen(state, number) -> dict:
    return next(m for m in chapter_seen(state)["adventure"]["missions"] if m["number"] == number)


# -- the content pack ---------------------------------------------------------------------------------


def test_the_content_pack_holds_each_chapter_as_it_stands_before_play():
    # rules: Harakiri, "Map Board Setup" 8: Place the mission cards for the current chapter facedown ... some missions may be active from the start ... If so, place those mission cards faceup
    pack = HARAKIRI.content()["adventure"]["act1"]
    assert unread.pack_named(pack) == [], "the pack names a campaign-book entry nobody has read"
    chapters = {c["number"]: c for c in pack["chapters"]}
    first = chapters[1]
    assert (first["title"], first["intro"]) == (ACT1["chapters"][0]["title"], ACT1["chapters"][0]["intro"])
    adventure = first["adventure"]
    # the preparation section: start, influence rules, the final round and what it means, the enemies
    assert adventure["start"]["tomoe"] == "nara" and adventure["final_round"] == 8
    assert adventure["influence"]["text"] and adventure["minion_rule"]
    assert adventure["final_section"] == {"outcome": "failure"}
    assert adventure["triggers"] == {"4": {}}  # the trigger token on the round track, not its section
    assert adventure["ending_conditions"] == [{"when": "mission_completed", "mission": 1, "outcome": "success"},
                                              {"when": "mission_failed", "mission": 1, "outcome": "failure"}]
    # face-down missions: the numbered token where the setup image puts it, nothing of the card
    assert adventure["missions"][0] == {"number": 1, "active_from_start": False, "token": "iga"}
    assert {"number": 5, "available": False, "active_from_start": False} in adventure["missions"]
    assert adventure["personal_missions"]["hikaru"] == {k: ACT1["chapters"][0]["adventure"]["personal_missions"]["hikaru"][k]
                                                       for k in ("title", "token", "objective")}
    assert adventure["special_locations"] == [{"location": "kumano", "discovered": False}]
    assert "success" not in adventure and "failure" not in adventure
    assert first["exploration"] == {"scenario": "act1_burning_village"}
    # chapter 3's mission 4 is face up from the start: its card is public, its entries are not
    gates = chapters[3]["adventure"]["missions"][0]
    assert gates["title"] == "Kyoto's gates" and gates["clan_tokens"] == [{"at": "osaka"}, {"at": "nara"}]
    assert "success" not in gates and "token" not in gates
    # the carried tokens a card names are public with the card; the book's are not
    assert set(pack["tokens"]) == {"smugglers_map"}


def _properties(schema: dict, *path) -> set:
    node = schema
    for key in path:
        node = node[key]
    return set(node["properties"])


def test_every_key_of_a_chapter_is_public_or_read_later():
    """A key the content gains must be decided here (public before play, or read at some moment)."""
    act = next(a["then"] for a in SCHEMA["allOf"] if a["if"]["properties"]["kind"]["const"] == "adventure_act")
    chapter = act["properties"]["chapters"]["items"]
    adventure = chapter["properties"]["adventure"]
    assert _properties(adventure) == set(book.ADVENTURE_PUBLIC) | set(book.ADVENTURE_LATER)
    assert _properties(chapter) == {"number", "title", "intro", "adventure", "exploration"}
    mission = adventure["properties"]["missions"]["items"]
    assert _properties(mission) == set(book.MISSION_FACE) | set(book.MISSION_BACK) | {"token", "clan_tokens", "success", "failure"}
    clan = mission["properties"]["clan_tokens"]["items"]
    assert _properties(clan) == set(book.CLAN_PLACE) | set(book.CLAN_ENTRY)
    data_keys = set(json.loads((ROOT / "act1.json").read_text()))
    assert data_keys == set(book.ACT_PUBLIC) | {"chapters", "tokens"}


# -- what the view reads, and when ------------------------------------------------------------------


def test_a_revealed_mission_shows_its_card_and_each_clan_entry_once_resolved():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": flip the corresponding mission face-up ... resolving the clan token interaction effect by reading the corresponding entry in the campaign book
    s = activation("tomoe", characters={"tomoe": {"location": "iga"}})
    assert mission_seen(s.state, 1) == {"number": 1, "active_from_start": False, "token": "iga"}
    s.when(0, "interact_mission", mission=1)
    card = mission_seen(s.state, 1)
    assert card["title"] == "The burning village" and card["objective"].startswith("Reach Iga")
    kyoto = {"at": "kyoto", "requires": {"token": "villagers_testimony"}}  # and what interacting needs
    assert card["clan_tokens"] == [{"at": "nara"}, kyoto]  # where the tokens go, not their entries
    assert "success" not in card and "failure" not in card
    advance(s)
    s.state["characters"]["tomoe"]["location"] = "nara"
    s.when(0, "interact_clan", mission=1)
    entry = mission_seen(s.state, 1)["clan_tokens"][0]
    assert entry["text"].startswith("A wounded villager") and not entry.get("completes")
    assert mission_seen(s.state, 1)["clan_tokens"][1] == kyoto  # Kyoto's entry is still unread


def test_a_completed_or_failed_mission_shows_its_section():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": If interacting with a mission or clan token causes a mission to be completed or failed, after resolving the relevant entry in the campaign book
    missions = {"1": {"status": "active", "token": None, "starter": "akira", "clan_tokens": {"akira": ["kyoto"]}}}
    s = activation("akira", characters={"akira": {"location": "kyoto", "tokens": ["villagers_testimony"]}}, missions=missions)
    s.when(0, "interact_clan", mission=1)
    assert "success" not in mission_seen(s.state, 1)  # the entry is read; it completes the mission next
    advance(s)
    card = mission_seen(s.state, 1)
    assert card["success"]["text"] == "The villagers point to the demon hunter's camp." and "failure" not in card
    assert card["clan_tokens"][1]["completes"] is True and "text" not in card["clan_tokens"][0]


def test_a_trigger_section_is_read_when_the_round_token_reaches_it():
    # rules: Harakiri, "Advance the round token": If the round token moves onto a space with a trigger, immediately consult that chapter's trigger information in the setup and resolve the corresponding section
    s = Scenario(ENGINE, doc(round=3, influence=1, decks={"influence": ["si_03"]}))
    assert chapter_seen(s.state)["adventure"]["triggers"] == {"4": {}}
    advance(s)
    trigger = chapter_seen(s.state)["adventure"]["triggers"]["4"]
    assert trigger["text"].startswith("More kachi pour out") and trigger["effects"][0]["do"] == "spawn"
    # mission 5 "becomes available": its token is on the map, its card still face down
    assert mission_seen(s.state, 5) == {"number": 5, "available": False, "active_from_start": False, "token": "yoshino"}


def test_the_final_section_and_the_chapters_section_are_read_when_the_phase_ends():
    # rules: Harakiri, "Advance the round token": After the last round ends, read the corresponding section; "Ending the Adventure Phase": Read the indicated success or failure section
    s = Scenario(ENGINE, doc(round=7, influence=1, enemies={"camp": CAMP}, decks={"influence": ["si_03"]}))
    advance(s)
    for cid in ("akira", "hattori", "hikaru", "tomoe"):
        s.when(0, "activate", character=cid)
        s.when(0, "end_activation")
    adventure = chapter_seen(s.state)["adventure"]
    assert adventure["final_section"] == {"outcome": "failure"} and "failure" not in adventure
    advance(s)
    adventure = chapter_seen(s.state)["adventure"]
    assert adventure["final_section"]["text"].startswith("The kachi scouts report")
    assert adventure["failure"]["text"] == "The Shōgun knows where the companions are going." and "success" not in adventure
    # the un-revealed missions' cards are revealed with their failure sections
    assert all(m.get("title") and m.get("failure") for m in adventure["missions"])


def test_an_ending_conditions_section_is_read_when_it_ends_the_phase():
    # rules: Harakiri, "Ending the Adventure Phase": An ending condition specified in the Adventure Phase preparation section is met
    camp = {**CAMP, "location": "yoshino", "combat": 1}
    missions = {"3": {"status": "active", "token": None, "starter": "hikaru", "clan_tokens": {"hikaru": []}}}
    s = activation("tomoe", chapter=2, characters={"tomoe": {"location": "yoshino"}}, missions=missions, influence=5,
                   enemies={"kachi_camp": camp, "far": {**CAMP}})
    conditions = chapter_seen(s.state)["adventure"]["ending_conditions"]
    assert all("text" not in c for c in conditions)
    s.when(0, "attack", enemy="kachi_camp", helpers=[])
    advance(s)
    conditions = chapter_seen(s.state)["adventure"]["ending_conditions"]
    assert conditions[0]["text"] == "With their camp in ashes, the kachi scatter." and "text" not in conditions[1]


def test_a_special_locations_instructions_and_a_personal_missions_success_are_read_when_used():
    # rules: Harakiri, "Interact with a Special Location Card": follow the instructions for that secret location from the campaign book
    s = activation("akira", characters={"akira": {"location": "kumano"}}, discovered=["kumano"])
    assert chapter_seen(s.state)["adventure"]["special_locations"] == [{"location": "kumano", "discovered": True}]
    s.when(0, "interact_special")
    assert chapter_seen(s.state)["adventure"]["special_locations"][0]["text"].startswith("Deep in the Kumano forest")
    # rules: Harakiri, "Personal Missions": Personal missions are specified in the Adventure Phase preparation section
    s = activation("tomoe", characters={"tomoe": {"location": "kyoto"}})
    personal = chapter_seen(s.state)["adventure"]["personal_missions"]
    assert personal["tomoe"]["title"] == "Her father's sword" and "success" not in personal["tomoe"]
    s.when(0, "interact_personal")
    assert chapter_seen(s.state)["adventure"]["personal_missions"]["tomoe"]["success"]["effects"] == [{"do": "coins", "amount": 5}]


def test_a_carried_token_is_named_once_a_character_carries_it():
    # rules: Harakiri, "Share": mission or event tokens handed over with the share action
    s = activation("tomoe", characters={"tomoe": {"location": "amaterasu_shrine"}})
    assert "jirobo_letter" not in ENGINE.view_for(s.state, 0)["book"]["tokens"]
    s.when(0, "interact_mission", mission=2)
    advance(s)
    assert ENGINE.view_for(s.state, 0)["book"]["tokens"]["jirobo_letter"]["name"] == "Jirōbō's letter"


def test_a_placed_missions_event_keeps_its_card_face_down():
    # rules: Harakiri, "Map Board Setup" 8: Bear in mind, some missions may not be available from the start of the phase
    s = Scenario(ENGINE, doc(round=3, influence=1, decks={"influence": ["si_03"]}))
    placed = next(e for e in advance(s) if e["type"] == "MissionPlaced")
    assert "title" in placed["payload"]  # the log keeps what the worker read...
    for seat in (0, None):
        assert HARAKIRI.redact_event(placed, seat)["payload"] == {"mission": 5, "token": "yoshino"}  # ...no client does


def test_an_older_match_without_the_books_record_is_read_without_its_entries():
    # a match begun (or snapshotted) before ``book_read`` existed: its view works, resolved entries stay unread
    missions = {"1": {"status": "active", "token": None, "starter": "akira", "clan_tokens": {"akira": ["nara", "kyoto"]}}}
    s = activation("akira", characters={"akira": {"location": "nara"}}, missions=missions)
    s.when(0, "interact_clan", mission=1)
    old = copy.deepcopy(s.state)
    del old["book_read"]
    card = ENGINE.view_for(old, 0)["book"]["chapter"]["adventure"]["missions"][0]
    assert card["title"] == "The burning village" and [t["at"] for t in card["clan_tokens"]] == ["nara", "kyoto"]
    assert all("text" not in t for t in card["clan_tokens"])
    later = fold(ENGINE, [{"type": "ClanTokenResolved", "v": 1, "payload": {
        "mission": 1, "character": "akira", "location": "kyoto", "completes": True}}], old)
    assert later["book_read"]["clan_tokens"] == {"1": ["kyoto"]}  # from now on it records


# -- seeded phases: no view, event or sentence names an entry before it is read -----------------------


def _play(chapter: int, seats: int, seed: str):
    """A seeded phase through the facade, as the platform serves it: returns (the log with seqs, every
    (seat, seq, body) a client would receive: redacted events, their sentences, views)."""
    rng = Rng(seed.encode(), "setup")
    log, records = [], []
    viewers = [*range(seats), None]

    def take(events):
        for ev in events:
            ev = {**ev, "seq": len(log) + 1}
            log.append(ev)
            for seat in viewers:
                red = HARAKIRI.redact_event(ev, seat)
                records.append((seat, ev["seq"], json.dumps(red)))
                records.append((seat, ev["seq"], json.dumps(HARAKIRI.describe(red, seat, ()))))

    events = HARAKIRI.setup({"phase": "adventure", "chapter": chapter}, seats, rng)
    take(events)
    state = fold(HARAKIRI, events)
    for step in range(3000):
        for seat in viewers:
            records.append((seat, len(log), json.dumps(HARAKIRI.view_for(state, seat))))
        status = HARAKIRI.status(state)
        if status.finished:
            return state, log, records
        seat = status.awaiting[step % len(status.awaiting)]
        choice = bot.pick(state, HARAKIRI.legal_commands(state, seat), Rng(seed.encode(), f"pick-{step}"))
        events = HARAKIRI.decide(state, Command(choice["type"], choice["args"], seat), Rng(seed.encode(), f"step-{step}"))
        take(events)
        state = fold(HARAKIRI, events, state)
    raise AssertionError("the phase did not end")


@pytest.mark.parametrize("chapter,seats,seed", [(1, 2, "book-1"), (2, 1, "book-2"), (3, 3, "book-3"), (1, 1, "book-4")])
def test_no_view_event_or_sentence_names_an_entry_before_it_is_read(chapter, seats, seed):
    state, log, records = _play(chapter, seats, seed)
    early = unread.unread_named(chapter, log, records)
    assert not early, f"named before it was read: {sorted(set(early), key=str)[:5]}"
    # ... and the view reads each entry once it is read: the cards face up, the rounds reached, the section
    adventure = HARAKIRI.view_for(state, None)["book"]["chapter"]["adventure"]
    outcome = state["result"]["outcome"]
    assert adventure[outcome]["text"] == next(c for c in ACT1["chapters"] if c["number"] == chapter)["adventure"][outcome]["text"]
    assert all(m["title"] for m in adventure["missions"])  # revealed, or failed at the end (revealed then)
    assert all(t.get("text") for r, t in adventure["triggers"].items() if int(r) <= state["round"])
    texts, _ = unread.secrets()
    reached = unread.moments(chapter, log)
    read = [t for t, ms in texts.items() if any(m in reached for m in ms)]
    shown = "\n".join(unread.strings(json.dumps(HARAKIRI.view_for(state, 0))))
    missing = [t for t in read if t not in shown]
    assert not missing, f"read, but not in the view: {missing[:5]}"
