"""Missions, clan and personal mission tokens; the inn, sanctuaries and captured cities."""

from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario

from .helpers import activation, advance, doc, kachi, of_type


def test_interacting_with_a_mission_token_reveals_it_and_resolves_its_on_reveal_effect():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": remove the mission token from the map, flip the corresponding mission face-up, and resolve its on-reveal effect
    s = activation("tomoe", characters={"tomoe": {"location": "iga"}}, influence=2)
    assert {"type": "interact_mission", "args": {"mission": 1}} in s.legal(0)
    s.when(0, "interact_mission", mission=1)
    mission = s.state["missions"]["1"]
    assert (mission["status"], mission["token"], mission["starter"]) == ("active", None, "tomoe")
    assert mission["clan_tokens"] == {"tomoe": ["nara", "kyoto"]} and s.state["characters"]["tomoe"]["ap"] == 2
    advance(s)
    assert s.state["influence"] == 3  # mission 1's on-reveal effect


def test_akira_completes_a_mission_at_his_clan_token():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token" example: Akira previously placed a clan token ... interact with his clan token there ... the mission has been completed, and so Akira removes his clan token
    missions = {"1": {"status": "active", "token": None, "starter": "akira", "clan_tokens": {"akira": ["kyoto"]}}}
    s = activation("akira", characters={"akira": {"location": "kyoto", "tokens": ["villagers_testimony"]}}, missions=missions)
    assert {"type": "interact_clan", "args": {"mission": 1}} in s.legal(0)
    s.when(0, "interact_clan", mission=1)
    advance(s)  # the entry of the clan token: "the mission has been completed"
    assert s.state["missions"]["1"]["status"] == "completed" and s.state["missions"]["1"]["clan_tokens"] == {}
    assert s.state["characters"]["akira"]["coins"] == 5 and "iga_saved" in s.state["marks"]


def test_only_matching_clan_tokens_can_be_used():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": Take this action in a location with a mission, matching clan, or matching personal mission token
    missions = {"1": {"status": "active", "token": None, "starter": "akira", "clan_tokens": {"akira": ["kyoto"]}}}
    s = activation("hattori", characters={"hattori": {"location": "kyoto"}}, missions=missions)
    assert not [c for c in s.legal(0) if c["type"] == "interact_clan"]


def test_mission_rewards_go_to_the_character_who_started_it():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": Unless otherwise specified, the rewards for a mission go to the person who started the mission
    missions = {"1": {"status": "active", "token": None, "starter": "tomoe",
                      "clan_tokens": {"tomoe": [], "akira": ["kyoto"]}}}
    s = activation("akira", characters={"akira": {"location": "kyoto", "tokens": ["villagers_testimony"]}}, missions=missions)
    s.when(0, "interact_clan", mission=1)
    advance(s)
    assert s.state["characters"]["tomoe"]["coins"] == 5 and s.state["characters"]["akira"]["coins"] == 0


def test_a_mission_completed_by_defeating_its_enemy():
    # rules: Harakiri, "Interact with a Mission, Clan or Personal Mission Token": When a mission indicates that miniatures are to be placed on the map, all characters can interact with them
    camp = kachi("yoshino", None, combat=1, movement=0)
    missions = {"3": {"status": "active", "token": None, "starter": "hikaru", "clan_tokens": {"hikaru": []}}}
    s = activation("tomoe", chapter=2, characters={"tomoe": {"location": "yoshino"}}, missions=missions, influence=5,
                   enemies={"kachi_camp": camp, "far": kachi("kumano", None, movement=0)})
    s.when(0, "attack", enemy="kachi_camp", helpers=[])
    assert s.state["missions"]["3"]["status"] == "completed"
    events = advance(s)  # the mission's success section first, then the chapter's ending condition
    assert of_type(events, "InfluenceMoved")[0] == {"from": 5, "to": 3, "reason": "effect"}
    # rules: Harakiri, "Ending the Adventure Phase": An ending condition specified in the Adventure Phase preparation section is met
    assert [e["payload"]["reason"] for e in events if e["type"] == "PhaseEnded"] == ["mission_completed"]
    assert s.state["result"]["outcome"] == "success"


def test_personal_missions_only_for_their_own_character():
    # rules: Harakiri, "Personal Missions": Characters can only interact with their own personal mission tokens
    s = activation("akira", characters={"akira": {"location": "kyoto"}})  # Kyoto holds Tomoe's personal token
    assert not [c for c in s.legal(0) if c["type"] == "interact_personal"]
    s = activation("tomoe", characters={"tomoe": {"location": "kyoto"}})
    s.when(0, "interact_personal")
    advance(s)
    assert s.state["personal"]["tomoe"]["status"] == "completed" and s.state["characters"]["tomoe"]["coins"] == 5


def test_unrevealed_missions_fail_when_the_phase_ends():
    # rules: Harakiri, "Ending the Adventure Phase": Reveal all un-revealed mission cards, and resolve their failure section, if any
    missions = {"1": {"status": "hidden", "token": "iga", "starter": None, "clan_tokens": {}},
                "2": {"status": "active", "token": None, "starter": "akira", "clan_tokens": {"akira": ["kyoto"]}}}
    s = Scenario(ENGINE, doc(round=2, influence=11, missions=missions))
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    # mission 5 was never made available: an un-revealed card too
    assert [e["mission"] for e in of_type(events, "MissionFailed")] == [1, 5]
    assert s.state["missions"]["1"]["status"] == "failed" and s.state["missions"]["2"]["status"] == "active"


def test_the_inn_heals_level_plus_2_for_10_coins():
    # rules: Harakiri, "Inn": The activated character spends 10 coins to regain health equal to their level +2
    s = activation("akira", characters={"akira": {"health": 5, "coins": 12}})  # Osaka has an inn
    s.when(0, "inn")
    assert s.state["characters"]["akira"]["health"] == 8 and s.state["characters"]["akira"]["coins"] == 2
    assert not [c for c in s.legal(0) if c["type"] == "inn"]


def test_no_city_service_in_a_captured_city():
    # rules: Harakiri, "Captured and Razed Cities": Characters may not take the "interact with a city" action in a captured city
    s = activation("akira", characters={"akira": {"coins": 12}}, cities={"captured": ["osaka"], "razed": []})
    assert not [c for c in s.legal(0) if c["type"] == "inn"]


def test_no_city_service_in_a_city_razed_around_the_character():
    # rules: Harakiri, "Captured and Razed Cities": If a city is razed ... Characters may not enter (or go through) razed city locations
    # given Akira in Osaka (blacksmith, market, inn) with coins and a head to sell, when Osaka is razed around him
    s = activation("akira", characters={"akira": {"coins": 12, "heads": 1}}, cities={"captured": [], "razed": ["osaka"]})
    # then none of its services is open to him (a razed city is worse off than a captured one)
    offered = {c["type"] for c in s.legal(0)}
    assert not offered & {"inn", "blacksmith", "market", "port", "sell_heads"}
    assert "travel" in offered  # he may still leave


def test_a_sanctuary_turns_each_3_karma_into_one_step_of_kami_affinity():
    # rules: Harakiri, "Interact with a Sanctuary": For each 3 karma spent, move the token on the character's Kami affinity track up once
    s = activation("tomoe", characters={"tomoe": {"location": "amaterasu_shrine", "karma": 7, "kami": "hachiman"}})
    assert sorted(c["args"]["karma"] for c in s.legal(0) if c["type"] == "interact_sanctuary") == [0, 3, 6]
    s.when(0, "interact_sanctuary", karma=6)
    assert s.state["characters"]["tomoe"]["affinity"] == 3 and s.state["characters"]["tomoe"]["karma"] == 1


def test_the_holy_one():
    # rules: Harakiri, "Amaterasu": The Holy One: When interacting with any sanctuary, regain up to 3 health
    # rules: Harakiri, "Appendix: Kami Skills": The level 1 Kami skills require spending 1 action point to be activated. They can only be activated once per phase
    s = activation("hikaru", characters={"hikaru": {"location": "amaterasu_shrine", "health": 4, "kami": "amaterasu"}})
    s.when(0, "interact_sanctuary", karma=0, kami=True)
    hikaru = s.state["characters"]["hikaru"]
    assert (hikaru["health"], hikaru["ap"], hikaru["kami_used"]) == (7, 1, True)
    assert [c["args"] for c in s.legal(0) if c["type"] == "interact_sanctuary"] == [{"karma": 0}]  # once per phase
    s.when(0, "interact_sanctuary", karma=0)
    assert s.state["characters"]["hikaru"]["health"] == 7  # the sanctuary alone heals nothing


def test_a_discovered_special_location_card_can_be_interacted_with():
    # rules: Harakiri, "Interact with a Special Location Card": Take this action at any discovered (colored) special location card ... follow the instructions for that secret location
    s = activation("akira", characters={"akira": {"location": "kumano", "health": 5}}, discovered=["kumano"])
    s.when(0, "interact_special")
    advance(s)
    assert s.state["characters"]["akira"]["health"] == 7 and s.state["characters"]["akira"]["karma"] == 1
    assert not [c for c in s.legal(0) if c["type"] == "interact_special"]  # once per character and phase


def test_an_undiscovered_special_location_cannot_be_used_until_an_effect_discovers_it():
    # rules: Harakiri, "Interact with a Special Location Card": Certain effects ... may cause an undiscovered special location to be discovered ... flip the card and record it on the campaign sheet
    queue = [{"effects": [{"do": "discover", "location": "kumano"}], "ctx": {"character": None, "source": "mission"}}]
    s = activation("akira", characters={"akira": {"location": "kumano"}}, queue=queue)
    assert s.state["discovered"] == []
    advance(s)
    assert s.state["discovered"] == ["kumano"] and {"type": "interact_special", "args": {}} in s.legal(0)
