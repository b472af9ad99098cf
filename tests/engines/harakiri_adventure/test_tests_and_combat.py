"""Attribute tests, combat tests, attacks, hits and damage, defeated characters."""

from games.engines.harakiri.adventure import effects, steps
from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel.scenario import Scenario

from .helpers import ScriptedRng, activation, advance, doc, kachi, of_type, scripted


def test_hikarus_spirit_5_test():
    # rules: Harakiri, "Attribute Tests" example: Hikaru has 1 spirit and faces a Spirit(5) attribute test. He rolls a 4. Adding his 1 spirit, he succeeds
    s = Scenario(ENGINE, doc())
    em = effects.Emitter(s.state)
    assert steps.attribute_test(em, ScriptedRng([3]), "hikaru", "spirit", 5) is True  # test die face 4
    assert of_type(em.events, "TestRolled")[0] == {"character": "hikaru", "attribute": "spirit", "difficulty": 5,
                                                        "roll": 4, "modifier": 1, "total": 5, "success": True, "trait": None}
    em = effects.Emitter(s.state)
    assert steps.attribute_test(em, ScriptedRng([2]), "hikaru", "spirit", 5) is False  # a 3 fails


def test_a_trait_named_by_a_test_succeeds_without_a_roll():
    # rules: Harakiri, "Travel Events" (Traits): a bonus to the dice test, offer new options, or even automatic success
    s = Scenario(ENGINE, doc(characters={"akira": {"traits": ["papers"]}}))
    em = effects.Emitter(s.state)
    assert steps.attribute_test(em, ScriptedRng([0]), "akira", "knowledge", 4, trait="papers") is True


def test_tomoes_combat_test_against_two_kachi():
    # rules: Harakiri, "Combat Tests" example: Tomoe faces 2 kachi ... combat difficulty is 6 ... one green and one red die ... 5, which added to her +1 power is a total of 6. She succeeds
    enemies = {"k1": kachi("nara", {"character": "tomoe"}, combat=6), "k2": kachi("nara", {"character": "tomoe"}, combat=6)}
    s = activation("tomoe", chapter=2, enemies=enemies)
    scripted(s, [4, 4])  # red face 3, green face 2
    events = s.when(0, "attack", enemy="k1", helpers=[])
    test = of_type(events, "CombatTested")[0]
    assert sorted(d["die"] for d in test["dice"]) == ["green", "red"] and sum(d["value"] for d in test["dice"]) == 5
    assert (test["modifier"], test["total"], test["success"]) == (1, 6, True)
    assert list(s.state["enemies"]) == ["k2"] and s.state["characters"]["tomoe"]["heads"] == 1
    assert s.state["characters"]["tomoe"]["ap"] == 2


def test_a_failed_combat_test_leaves_the_enemy():
    # rules: Harakiri, "Combat Tests": Otherwise, the test failed and the enemy is not removed
    s = activation("tomoe", enemies={"k": kachi("nara", {"character": "tomoe"}, combat=6, hits=0)})
    scripted(s, [0, 0])
    s.when(0, "attack", enemy="k", helpers=[])
    assert "k" in s.state["enemies"] and s.state["characters"]["tomoe"]["heads"] == 0


def test_attack_only_an_enemy_at_the_active_characters_location():
    # rules: Harakiri, "Attack an Enemy": Choose an enemy to target on the same location as the active character
    s = activation("tomoe", enemies={"k": kachi("iga", {"character": "tomoe"})})
    assert not [c for c in s.legal(0) if c["type"] == "attack"]
    assert s.rejects(0, "attack", enemy="k", helpers=[]).code == "illegal_command"


def test_hikarus_joint_attack_on_the_camp():
    # rules: Harakiri, "Combat Tests" example: Hikaru is going to perform a (10) combat test against an enemy camp. Tomoe ... decides to assist ... Tomoe, at the start of her activation, will have 1 less action point
    camp = {"type": "camp", "location": "nara", "target": None, "movement": 0, "combat": 10, "on_test": {}, "on_reach": []}
    s = activation("hikaru", enemies={"camp": camp, "far": kachi("kumano", None, movement=0)},
                   characters={"hikaru": {"location": "nara"}})
    assert {"type": "attack", "args": {"enemy": "camp", "helpers": ["tomoe"]}} in s.legal(0)
    scripted(s, [5, 5, 5, 5])  # bo: green 2 + orange 2; naginata: red 4 + green 2
    events = s.when(0, "attack", enemy="camp", helpers=["tomoe"])
    test = of_type(events, "CombatTested")[0]
    assert test["total"] == 4 + (6 + 1) and test["success"] and test["helpers"][0]["character"] == "tomoe"
    assert s.state["characters"]["hikaru"]["ap"] == 2 and s.state["characters"]["hikaru"]["heads"] == 1
    s.when(0, "end_activation")
    s.when(0, "activate", character="tomoe")
    assert s.state["characters"]["tomoe"]["ap"] == 2


def test_hits_are_reduced_by_armor_and_damage_is_not():
    # rules: Harakiri, "Hits and Damage": reduce them by the value of the equipped armor ... If the character takes damage directly, subtract that amount
    queue = [{"effects": [{"do": "hits", "amount": 3}, {"do": "hits", "amount": 1}, {"do": "damage", "amount": 2}],
              "ctx": {"character": "akira", "source": "mission"}}]
    s = activation("akira", queue=queue)
    advance(s)
    assert s.state["characters"]["akira"]["health"] == 11 - 1 - 0 - 2  # armor 2


def test_a_character_at_0_health_is_defeated_and_removed_from_the_map():
    # rules: Harakiri, "Defeated Characters": If a character's health reaches 0, they are defeated. Immediately remove the miniature
    queue = [{"effects": [{"do": "damage", "amount": 20}], "ctx": {"character": "hikaru", "source": "mission"}}]
    s = activation("akira", queue=queue)
    events = advance(s)
    assert of_type(events, "CharacterDefeated") == [{"character": "hikaru"}]
    hikaru = s.state["characters"]["hikaru"]
    assert hikaru["defeated"] and hikaru["location"] is None and hikaru["health"] == 0


def test_health_never_exceeds_the_maximum():
    # rules: Harakiri, "Inn": Characters cannot exceed their maximum health value at any time
    queue = [{"effects": [{"do": "heal", "amount": 5}], "ctx": {"character": "hikaru", "source": "mission"}}]
    s = activation("akira", queue=queue, characters={"hikaru": {"health": 6}})
    advance(s)
    assert s.state["characters"]["hikaru"]["health"] == 8
