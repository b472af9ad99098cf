"""The Kami level 1 skills, passive during the Adventure Phase."""

from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario

from .helpers import activation, advance, doc, kachi, of_type


APPENDIX = "The level 1 Kami skills require spending 1 action point to be activated. They can only be activated once per phase"


def kami_commands(s, seat=0) -> list[dict]:
    return [c for c in s.legal(seat) if c["args"].get("kami")]


def test_sharpened_blade():
    # rules: Harakiri, "Hachiman": Sharpened Blade: Add +1 power to your combat tests
    # rules: Harakiri, "Appendix: Kami Skills": The level 1 Kami skills require spending 1 action point to be activated. They can only be activated once per phase
    enemies = {"k": kachi("nara", None, combat=9, movement=0), "j": kachi("nara", None, combat=9, movement=0),
               "far": kachi("kumano", None, movement=0)}
    s = activation("tomoe", characters={"tomoe": {"kami": "hachiman"}}, enemies=enemies)
    assert {"type": "attack", "args": {"enemy": "k", "helpers": [], "kami": True}} in s.legal(0)
    events = s.when(0, "attack", enemy="k", helpers=[], kami=True)
    assert of_type(events, "KamiSkillActivated") == [{"character": "tomoe", "skill": "hachiman_l1", "ap": 1}]
    assert of_type(events, "CombatTested")[0]["modifier"] == 2  # power 1 + 1
    assert s.state["characters"]["tomoe"]["ap"] == 1  # the attack's action point and the skill's
    advance(s)  # the failed test's hits
    assert not kami_commands(s)  # once per phase
    events = s.when(0, "attack", enemy="j", helpers=[])
    assert of_type(events, "CombatTested")[0]["modifier"] == 1  # power only, without the skill


def test_sharpened_blade_needs_its_own_action_point_and_is_not_free():
    s = activation("tomoe", ap=1, characters={"tomoe": {"kami": "hachiman"}},
                   enemies={"k": kachi("nara", None, combat=9, movement=0), "far": kachi("kumano", None, movement=0)})
    assert not kami_commands(s)  # 1 action point: the attack only
    events = s.when(0, "attack", enemy="k", helpers=[])
    assert of_type(events, "CombatTested")[0]["modifier"] == 1


def test_sharpened_blade_is_not_activated_in_an_arrival_test_outside_the_characters_activation():
    # rules: Harakiri, "Character Skills, Kami Skills, and Enemy Skills": Spending 1 action point during their activation, characters can use character or Kami skills
    s = Scenario(ENGINE, doc(characters={"tomoe": {"kami": "hachiman"}}, flow={"stage": "enemies", "sub": None, "enemies_left": ["k"]},
                             round=1, enemies={"k": kachi("iga", {"character": "tomoe"}, combat=9)}))
    events = advance(s)
    assert of_type(events, "CombatTested")[0]["modifier"] == 1 and not of_type(events, "KamiSkillActivated")


def test_nine_tailed_fox():
    # rules: Harakiri, "Inari": Nine-tailed fox: Add +1 movement when you travel
    # rules: Harakiri, "Appendix: Kami Skills": The level 1 Kami skills require spending 1 action point to be activated
    s = activation("akira", characters={"akira": {"kami": "inari"}})
    assert {"type": "travel", "args": {"group": [], "kami": True}} in s.legal(0)
    s.when(0, "travel", group=[], kami=True)
    assert s.state["flow"]["travel"]["mp"] == 5  # 3 + dexterity 1 + 1
    assert s.state["characters"]["akira"]["ap"] == 1 and s.state["characters"]["akira"]["kami_used"]
    plain = activation("akira", characters={"akira": {"kami": "inari"}})
    plain.when(0, "travel", group=[])
    assert plain.state["flow"]["travel"]["mp"] == 4 and plain.state["characters"]["akira"]["ap"] == 2
    used = activation("akira", characters={"akira": {"kami": "inari", "kami_used": True}})
    assert not kami_commands(used)  # once per phase


def _poisoned_well(ap=3, **akira):
    """Tomoe (Dosojin) travels Nara -> Iga -> Tsu over a dangerous path: the Poisoned well (2 damage)."""
    s = activation("tomoe", ap=ap, characters={"tomoe": {"kami": "dosojin", **akira}}, decks={"travel": ["te_a05"]})
    s.when(0, "travel", group=[])
    s.when(0, "move", to="iga")
    s.when(0, "move", to="tsu")
    s.when(0, "end_travel")
    advance(s)
    return s


def test_traveler_shield():
    # rules: Harakiri, "Dosojin": Traveler Shield: When losing health due to travel events, reduce the amount by 1
    # rules: Harakiri, "Appendix: Kami Skills": They can be activated whenever their conditions are met ... require spending 1 action point
    s = _poisoned_well()
    assert s.status.awaiting == [0] and [o["label"] for o in s.state["choice"]["options"]] == [
        "Traveler Shield: spend 1 action point to lose 1 health less (once this phase)", "Take the full loss"]
    s.when(0, "choose", option=0)
    advance(s)
    tomoe = s.state["characters"]["tomoe"]
    assert (tomoe["health"], tomoe["ap"], tomoe["kami_used"]) == (9, 1, True)  # 10 - (2 - 1); travel 1 + skill 1
    s = _poisoned_well()
    s.when(0, "choose", option=1)
    advance(s)
    assert (s.state["characters"]["tomoe"]["health"], s.state["characters"]["tomoe"]["ap"]) == (8, 2)


def test_traveler_shield_without_an_action_point_or_once_used_is_not_offered():
    for fields in ({"kami_used": True}, {}):
        s = _poisoned_well(ap=1 if not fields else 3, **fields)
        assert s.state["choice"] is None and s.state["characters"]["tomoe"]["health"] == 8


def test_traveler_shield_does_not_cover_other_losses():
    queue = [{"effects": [{"do": "damage", "amount": 2}], "ctx": {"character": "tomoe", "source": "influence"}}]
    s = activation("tomoe", characters={"tomoe": {"kami": "dosojin"}}, queue=queue)
    advance(s)
    assert s.state["characters"]["tomoe"]["health"] == 8 and s.state["choice"] is None


def test_chaos_unleashed():
    # rules: Harakiri, "Amatsumikaboshi": Chaos Unleashed: Before revealing your travel events, roll a die: 1-3 draw a green event; 4-6 draw a red event. This effect has priority over the path you have used to travel and is always active
    for face, side in ((3, "red"), (2, "green")):
        s = activation("akira", characters={"akira": {"kami": "amatsumikaboshi"}}, decks={"travel": ["te_a05"]})
        s.when(0, "travel", group=[])
        s.when(0, "move", to="kyoto")  # roads only
        s.when(0, "move", to="nara")
        s.when(0, "end_travel")
        drawn = of_type(advance(s, answers=[face]), "TravelEventDrawn")[0]
        assert (drawn["chaos_roll"], drawn["side"]) == (face + 1, side)
        # "always active": it costs no action point and applies to every travel event of the phase
        assert s.state["characters"]["akira"]["ap"] == 2 and not s.state["characters"]["akira"]["kami_used"]


def test_guided_by_the_waves():
    # rules: Harakiri, "Susanoo": Guided by the Waves: Once per phase, you may spend 3 movement points to travel from one port to any other, even if they are not in the same sea ... do not reveal any travel events
    # rules: Harakiri, "Appendix: Kami Skills": The level 1 Kami skills require spending 1 action point to be activated
    s = activation("tomoe", characters={"tomoe": {"kami": "susanoo", "location": "osaka"}}, decks={"travel": ["te_a05"]})
    s.when(0, "travel", group=[])
    assert {"type": "guided_by_the_waves", "args": {"to": "edo"}} in s.legal(0)  # Pacific, not the Seto Inland Sea
    s.when(0, "exert")
    s.when(0, "guided_by_the_waves", to="edo")
    assert s.state["characters"]["tomoe"]["ap"] == 0  # travel, exert, and the skill's action point
    s.when(0, "move", to="kai")
    events = s.when(0, "end_travel")
    assert of_type(events, "TravelEnded")[0]["event_due"] is False and s.status.awaiting == [0]
    assert s.state["characters"]["tomoe"]["kami_used"] is True


def test_guided_by_the_waves_once_per_phase_and_with_an_action_point_left():
    s = activation("tomoe", characters={"tomoe": {"kami": "susanoo", "location": "osaka", "kami_used": True}})
    s.when(0, "travel", group=[])
    assert not [c for c in s.legal(0) if c["type"] == "guided_by_the_waves"]
    s = activation("tomoe", ap=1, characters={"tomoe": {"kami": "susanoo", "location": "osaka"}})
    s.when(0, "travel", group=[])  # the last action point
    assert not [c for c in s.legal(0) if c["type"] == "guided_by_the_waves"]


def test_vital_absorption():
    # rules: Harakiri, "Shinigami": Vital Absorption: When defeating an enemy through an attack, you regain 2 health
    # rules: Harakiri, "Appendix: Kami Skills": They can be activated whenever their conditions are met ... require spending 1 action point
    enemies = {"k": kachi("nara", None, combat=1, movement=0), "far": kachi("kumano", None, movement=0)}
    s = activation("tomoe", characters={"tomoe": {"kami": "shinigami", "health": 5}}, enemies=enemies)
    s.when(0, "attack", enemy="k", helpers=[])
    assert s.state["characters"]["tomoe"]["health"] == 5 and s.status.awaiting == [0]
    assert s.state["choice"]["options"][0]["label"] == "Vital Absorption: spend 1 action point to regain 2 health (once this phase)"
    s.when(0, "choose", option=0)
    advance(s)
    tomoe = s.state["characters"]["tomoe"]
    assert (tomoe["health"], tomoe["ap"], tomoe["kami_used"]) == (7, 1, True)
    s = activation("tomoe", characters={"tomoe": {"kami": "shinigami", "health": 5}}, enemies=enemies)
    s.when(0, "attack", enemy="k", helpers=[])
    s.when(0, "choose", option=1)  # not now
    assert (s.state["characters"]["tomoe"]["health"], s.state["characters"]["tomoe"]["ap"]) == (5, 2)


def test_vital_absorption_is_not_offered_once_used_without_an_action_point_or_at_full_health():
    enemies = {"k": kachi("nara", None, combat=1, movement=0), "far": kachi("kumano", None, movement=0)}
    for ap, fields in ((3, {"kami_used": True, "health": 5}), (1, {"health": 5}), (3, {})):
        s = activation("tomoe", ap=ap, characters={"tomoe": {"kami": "shinigami", **fields}}, enemies=enemies)
        s.when(0, "attack", enemy="k", helpers=[])
        assert s.state["choice"] is None


def test_known_path():
    # rules: Harakiri, "Izanami": Known Path: You always succeed on resurrection rolls
    s = Scenario(ENGINE, doc(round=2, influence=11, characters={"hikaru": {"kami": "izanami", "defeated": True, "health": 0, "location": None, "level": 5}}))
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s, answers=[0])
    assert of_type(events, "CharacterResurrected")[0]["success"] is True and s.status.finished


def test_a_kami_at_affinity_0_gives_no_ability():
    # rules: Harakiri, "Character's Setup" step 4: If the affinity level reaches 0, remove the cube from the track
    s = activation("akira", characters={"akira": {"kami": "inari", "affinity": 0}})
    s.when(0, "travel", group=[])
    assert s.state["flow"]["travel"]["mp"] == 4


def test_master_blacksmith():
    # rules: Harakiri, "Amatsumara": Master Blacksmith: When interacting with a blacksmith, you can repair all your armor at no cost
    # rules: Harakiri, "Appendix: Kami Skills": The level 1 Kami skills require spending 1 action point to be activated. They can only be activated once per phase
    s = activation("akira", characters={"akira": {"coins": 0, "armor_value": 1, "kami": "amatsumara"}})
    s.when(0, "blacksmith")
    assert {"type": "repair", "args": {}} not in s.legal(0)  # 10 coins, which Akira has not
    s.when(0, "repair", kami=True)
    akira = s.state["characters"]["akira"]
    assert (akira["armor_value"], akira["coins"], akira["ap"], akira["kami_used"]) == (2, 0, 1, True)


def test_master_blacksmith_once_per_phase_then_repairs_cost_10_coins():
    s = activation("akira", characters={"akira": {"coins": 10, "armor_value": 0, "kami": "amatsumara", "kami_used": True}})
    s.when(0, "blacksmith")
    assert [c["args"] for c in s.legal(0) if c["type"] == "repair"] == [{}]
    s.when(0, "repair")
    assert (s.state["characters"]["akira"]["armor_value"], s.state["characters"]["akira"]["coins"]) == (2, 0)


def test_healing_wave():
    # rules: Harakiri, "Ryujin": Healing Wave: When interacting with a port, you regain as many health as your level
    # rules: Harakiri, "Appendix: Kami Skills": The level 1 Kami skills require spending 1 action point to be activated
    s = activation("akira", characters={"akira": {"kami": "ryujin", "health": 5, "level": 2}})  # Osaka: a port
    s.when(0, "port", kami=True)
    akira = s.state["characters"]["akira"]
    assert (akira["health"], akira["ap"], akira["kami_used"]) == (7, 1, True)
    assert not kami_commands(s)  # once per phase
    s = activation("akira", characters={"akira": {"kami": "ryujin", "health": 5}})
    s.when(0, "port")  # the port without the skill
    assert s.state["characters"]["akira"]["health"] == 5
    s = activation("akira", characters={"akira": {"kami": "ryujin", "health": 5, "location": "kyoto"}})
    assert not [c for c in s.legal(0) if c["type"] == "port"]  # no port in Kyoto


def _ending(unlocked, seats=1, **state):
    """A phase at its end (influence 11 -> 12 in round 3) with Kami unlocked during it."""
    s = Scenario(ENGINE, doc(round=2, influence=11, seats=seats, unlocked_kami=unlocked, **state))
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    return s, events


def test_a_kami_unlocked_by_a_personal_mission_may_replace_that_characters_kami():
    # rules: Harakiri, "Kami Change": At the end of a phase where a Kami has been unlocked as a result of a personal mission, the character referenced in that mission may replace their current Kami with the unlocked Kami ... Characters who replace their Kami maintain their current affinity level
    s = activation("hikaru", characters={"hikaru": {"location": "ise"}})
    s.when(0, "interact_personal")
    advance(s)
    assert s.state["unlocked_kami"] == [{"kami": "ryujin", "character": "hikaru", "decided": False}]
    s, _ = _ending([{"kami": "ryujin", "character": "hikaru", "decided": False}], seats=2,
                   characters={"hikaru": {"affinity": 3}})
    assert s.status.awaiting == [0]  # Hikaru's player (seat 0 with two seats: Akira, Hikaru)
    assert [c["args"] for c in s.legal(0)] == [{"character": "hikaru"}, {"character": None}]
    s.when(0, "change_kami", character="hikaru")
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    hikaru = of_type(events, "AdventureFinished")[0]["sheet"]["characters"]["hikaru"]
    assert (hikaru["kami"], hikaru["affinity"]) == ("ryujin", 3)
    assert of_type(events, "AdventureFinished")[0]["kami_changes"] == [{"character": "hikaru", "kami": "ryujin"}]


def test_a_kami_unlocked_by_another_mission_may_be_taken_by_any_one_character_or_none():
    # rules: Harakiri, "Kami Change": At the end of a phase where a Kami has been unlocked as a result of a non-personal mission, any 1 character may choose to replace their current Kami with the unlocked Kami
    camp = kachi("yoshino", None, combat=1, movement=0)
    missions = {"3": {"status": "active", "token": None, "starter": "hikaru", "clan_tokens": {"hikaru": []}}}
    s = activation("tomoe", chapter=2, characters={"tomoe": {"location": "yoshino"}}, missions=missions,
                   influence=5, enemies={"kachi_camp": camp})
    s.when(0, "attack", enemy="kachi_camp", helpers=[])
    events = advance(s)  # the camp's success section, then the chapter ends
    assert of_type(events, "KamiUnlocked") == [{"kami": "shinigami", "character": None}]
    assert s.status.phase == "ending" and s.status.awaiting == [0]
    assert [c["args"]["character"] for c in s.legal(0)] == ["akira", "hattori", "hikaru", "tomoe", None]
    s.when(0, "change_kami", character=None)
    events = []
    while s.status.awaiting == [SYSTEM]:
        events += advance(s)
    finished = of_type(events, "AdventureFinished")[0]
    assert finished["kami_changes"] == [] and finished["sheet"]["characters"]["tomoe"]["kami"] == "susanoo"


def test_the_party_decides_a_non_personal_kami_change():
    s, _ = _ending([{"kami": "shinigami", "character": None, "decided": False}], seats=3)
    assert s.status.awaiting == [0, 1, 2]  # "any 1 character": any player records the party's choice
    s.when(2, "change_kami", character="akira")
    assert s.state["characters"]["akira"]["kami"] == "shinigami"
