"""Missions beyond "the last clan token completes it": an entry per clan token, deliveries that need a
carried token, missions not available from the start, a mission's own failure conditions while the
phase runs, and missions that place miniatures."""

from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario

from .helpers import activation, advance, doc, kachi, of_type, types


def run_system(s):
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    return events


def test_each_clan_token_resolves_its_own_entry_and_only_the_completing_one_completes_the_mission():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": If interacting with a clan token, resolve the effect on the corresponding active mission
    missions = {"1": {"status": "active", "token": None, "starter": "tomoe", "clan_tokens": {"tomoe": ["nara", "kyoto"]}}}
    s = activation("tomoe", missions=missions, decks={"travel": ["te_a05"]})  # Tomoe is in Nara
    s.when(0, "interact_clan", mission=1)
    advance(s)
    mission = s.state["missions"]["1"]
    assert s.state["characters"]["tomoe"]["karma"] == 1  # the Nara entry: a wounded villager talks
    assert (mission["status"], mission["clan_tokens"]) == ("active", {"tomoe": ["kyoto"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="kyoto")
    s.when(0, "end_travel")  # one location: no travel event
    s.when(0, "interact_clan", mission=1)
    advance(s)
    assert s.state["missions"]["1"]["status"] == "completed" and s.state["characters"]["tomoe"]["coins"] == 5


def test_a_delivery_needs_the_carried_mission_token_which_can_be_shared():
    # rules: Harakiri, "Share": Remember that some missions require something to be delivered somewhere and interacting with a character's clan token is not enough for the mission to be completed
    # rules: Harakiri, "Share": An active character that shares a location with another character may exchange coins, heads, items, equipment and mission or event tokens
    s = activation("akira", characters={"akira": {"location": "amaterasu_shrine"}})
    s.when(0, "interact_mission", mission=2)
    advance(s)
    assert s.state["characters"]["akira"]["tokens"] == ["jirobo_letter"]  # the on-reveal effect
    missions = {"2": {"status": "active", "token": None, "starter": "akira",
                      "clan_tokens": {"akira": ["kyoto"], "tomoe": ["kyoto"]}}}
    s = activation("tomoe", missions=missions, characters={"tomoe": {"location": "kyoto"},
                                                           "akira": {"location": "kyoto", "tokens": ["jirobo_letter"]}})
    assert not [c for c in s.legal(0) if c["type"] == "interact_clan"]  # Tomoe holds no letter
    s.when(0, "give", **{"from": "akira"}, to="tomoe", what="jirobo_letter", amount=1)
    assert s.state["characters"]["tomoe"]["tokens"] == ["jirobo_letter"] and s.state["characters"]["akira"]["tokens"] == []
    s.when(0, "interact_clan", mission=2)
    advance(s)
    assert s.state["missions"]["2"]["status"] == "completed" and s.state["characters"]["tomoe"]["tokens"] == []
    assert s.state["characters"]["akira"]["karma"] == 2  # the rewards go to the character who started it


def test_a_mission_not_available_from_the_start_has_no_token_until_an_effect_places_it():
    # rules: Harakiri, "Map Board Setup" step 8: Bear in mind, some missions may not be available from the start of the phase
    s = Scenario(ENGINE, doc(round=3, characters={"hattori": {"location": "yoshino"}}))
    assert s.state["missions"]["5"] == {"status": "unavailable", "token": None, "starter": None, "clan_tokens": {}}
    events = run_system(s)  # round 4's trigger places it
    assert of_type(events, "MissionPlaced") == [{"mission": 5, "token": "yoshino", "title": "Kachi in the forest"}]
    assert (s.state["missions"]["5"]["status"], s.state["missions"]["5"]["token"]) == ("hidden", "yoshino")


def test_a_mission_not_completed_by_the_end_of_its_round_fails_before_the_round_ends():
    # rules: Harakiri, "Ending the Adventure Phase": the adventure and Exploration Phase preparation sections of a chapter may specify consequences for ... succeeding or failing certain missions
    missions = {"2": {"status": "active", "token": None, "starter": "akira", "clan_tokens": {"akira": ["kyoto"]}}}
    s = Scenario(ENGINE, doc(round=6, influence=4, missions=missions, flow={"stage": "round_end", "sub": None},
                             characters={"akira": {"tokens": ["jirobo_letter"]}}))
    events = run_system(s)
    failed = of_type(events, "MissionFailed")
    assert failed == [{"mission": 2, "title": "Jirōbō's letter", "reason": "round_end"}]
    order = types(events)
    assert order.index("MissionFailed") < order.index("TokenLost") < order.index("RoundEnded")
    assert s.state["characters"]["akira"]["tokens"] == [] and s.state["influence"] >= 5


def test_a_mission_fails_when_the_city_it_names_is_captured_and_the_chapter_ends_in_failure():
    missions = {"6": {"status": "hidden", "token": "nara", "starter": None, "clan_tokens": {}}}
    queue = [{"effects": [{"do": "capture", "location": "nara"}], "ctx": {"character": None, "source": "influence"}}]
    s = activation("akira", chapter=2, missions=missions, queue=queue, influence=3)
    events = run_system(s)
    assert of_type(events, "MissionFailed")[0] == {"mission": 6, "title": "Refugees of Nara", "reason": "city_captured"}
    ended = of_type(events, "PhaseEnded")[0]
    assert (ended["outcome"], ended["reason"]) == ("failure", "mission_failed")
    assert of_type(events, "InfluenceMoved")[0] == {"from": 3, "to": 4, "reason": "effect"}  # its failure section first


def test_a_mission_that_places_miniatures_has_every_character_place_its_clan_tokens():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": When a mission indicates that miniatures are to be placed on the map, all characters can interact with them and with the mission ... All characters must place their clan token for that mission.
    s = activation("tomoe", chapter=2, characters={"tomoe": {"location": "yoshino"}}, influence=3,
                   enemies={"far": kachi("kumano", None, movement=0)})
    s.when(0, "interact_mission", mission=3)
    advance(s)
    assert sorted(s.state["missions"]["3"]["clan_tokens"]) == ["akira", "hattori", "hikaru", "tomoe"]
    assert s.state["enemies"]["kachi_camp"]["location"] == "yoshino"
    assert {"type": "attack", "args": {"enemy": "kachi_camp", "helpers": []}} in s.legal(0)
