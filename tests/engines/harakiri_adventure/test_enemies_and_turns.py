"""Activate Enemies and the characters' turns."""

from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario

from .helpers import CAMP, activation, advance, doc, kachi, of_type


def kachi_example(**kw):
    """Tomoe in Nara; the blue kachi four locations away by two equally short paths, the yellow two away."""
    enemies = {"blue_kachi": kachi("owase", {"character": "tomoe"}), "yellow_kachi": kachi("tsu", {"character": "tomoe"})}
    return Scenario(ENGINE, doc(seats=2, enemies=enemies, decks={"influence": ["si_03"]}, **kw))


def test_the_kachi_activation_example():
    # rules: Harakiri, "Activate Enemies" example: The kachi targeting Tomoe activate ... Players agree to move the kachi to Iga. The yellow kachi reaches Tomoe's location, forcing a combat test.
    # rules: Harakiri, "Activate Enemies": Enemies activate one by one. If there are more than one, players decide their activation order
    # rules: Harakiri, "Activate Enemies": The enemy will always use the shortest path to their target. If more than one path is equally short and no other tiebreaker is specified, the players decide which path the enemy will take
    s = kachi_example()
    advance(s)
    assert s.status.phase == "enemies" and s.status.awaiting == [0, 1]  # players decide the activation order
    s.when(1, "activate_enemy", enemy="blue_kachi")
    advance(s)
    assert s.state["flow"]["tie"]["options"] == ["amaterasu_shrine", "iga"]
    assert s.legal(0) == [{"type": "choose_path", "args": {"to": "amaterasu_shrine"}}, {"type": "choose_path", "args": {"to": "iga"}}]
    s.when(0, "choose_path", to="iga")
    assert s.status.awaiting == [SYSTEM]  # the choice only records; the worker moves the kachi
    events = advance(s)
    assert of_type(events, "EnemyMoved")[0] == {"enemy": "blue_kachi", "path": ["owase", "matsusaka", "tsu", "iga"]}
    yellow = of_type(events, "EnemyMoved")[1]
    assert yellow["path"][-1] == "nara"
    test = of_type(events, "CombatTested")[0]
    assert test["character"] == "tomoe" and test["enemy"] == "yellow_kachi" and test["difficulty"] == 5 and test["reason"] == "arrival"


def test_an_enemy_that_does_not_reach_its_target_forces_no_combat_test():
    # rules: Harakiri, "Activate Enemies": Movement: the number of locations that the enemy will move toward their goal
    s = Scenario(ENGINE, doc(enemies={"k": kachi("kumano", {"character": "akira"})}, decks={"influence": ["si_03"]}))
    events = advance(s)
    assert len(of_type(events, "EnemyMoved")[0]["path"]) == 4 and not of_type(events, "CombatTested")


def test_failed_arrival_combat_test_deals_the_enemys_hits_reduced_by_armor():
    # rules: Harakiri, "Combat Tests": Consequences for failing a combat test ... specified in the Adventure Phase preparation section
    s = Scenario(ENGINE, doc(enemies={"k": kachi("iga", {"character": "tomoe"}, combat=99, hits=4)}, decks={"influence": ["si_03"]}))
    events = advance(s)
    assert of_type(events, "CombatTested")[0]["success"] is False
    assert of_type(events, "HitsTaken")[0] == {"character": "tomoe", "hits": 4, "armor": 2, "damage": 2}
    assert s.state["characters"]["tomoe"]["health"] == 8


def test_an_enemy_reaching_its_target_location_resolves_its_on_reach_effects():
    # rules: Harakiri, "Activate Enemies": Target: the character or location that the enemy will move toward
    grey = kachi("tsu", {"location": "nara"}, on_reach=[{"do": "capture", "location": "nara"}])
    s = Scenario(ENGINE, doc(enemies={"grey": grey}, decks={"influence": ["si_03"]}))
    advance(s)
    assert s.state["enemies"]["grey"]["location"] == "nara" and s.state["cities"]["captured"] == ["nara"]


def test_characters_activate_in_an_order_the_players_choose_with_3_action_points():
    # rules: Harakiri, "Character's Turn": Characters are activated in any order decided by the players ... gains 3 action point tokens
    s = Scenario(ENGINE, doc(seats=2, enemies={"camp": CAMP}, flow={"stage": "characters", "sub": None}, round=1))
    assert s.status.awaiting == [0, 1]
    assert sorted(c["args"]["character"] for c in s.legal(1)) == ["hattori", "tomoe"]
    s.when(1, "activate", character="tomoe")
    assert s.state["characters"]["tomoe"]["ap"] == 3 and s.status.awaiting == [1]
    s.when(1, "end_activation")
    assert s.rejects(1, "activate", character="tomoe").code == "bad_args"
    for seat, cid in ((0, "hikaru"), (0, "akira"), (1, "hattori")):
        s.when(seat, "activate", character=cid)
        s.when(seat, "end_activation")
    assert s.status.phase == "round_end" and s.status.awaiting == [SYSTEM]


def test_work_in_a_city_gains_2_coins_and_camp_elsewhere_regains_1_health():
    # rules: Harakiri, "Work or Camp": Work: if the active character is in a city, they gain 2 coins. Camp: ... regain 1 health
    s = activation("akira")  # Osaka, a city
    assert {"type": "camp", "args": {}} not in s.legal(0)
    s.when(0, "work")
    assert s.state["characters"]["akira"]["coins"] == 2 and s.state["characters"]["akira"]["ap"] == 2
    s = activation("hattori", characters={"hattori": {"health": 5}})  # Hikone, a village
    s.when(0, "camp")
    assert s.state["characters"]["hattori"]["health"] == 6
    s = activation("hattori", characters={"hattori": {"health": 9}})
    s.when(0, "camp")
    assert s.state["characters"]["hattori"]["health"] == 9  # cannot exceed the maximum


def test_no_action_without_action_points_but_the_activation_can_end():
    # rules: Harakiri, "Actions": by spending 1 action point each time
    s = activation("akira", ap=0)
    assert [c["type"] for c in s.legal(0)] == ["end_activation"]
    assert s.rejects(0, "work").code == "illegal_command"


def test_swap_weapon_is_a_free_action():
    # rules: Harakiri, "Free Actions": Swap Weapon. Exchange your equipped weapon for your unequipped weapon
    s = activation("tomoe", characters={"tomoe": {"weapons": ["samurai_naginata", "samurai_yumi"]}})
    s.when(0, "swap_weapon")
    assert s.state["characters"]["tomoe"]["equipped"] == "samurai_yumi" and s.state["characters"]["tomoe"]["ap"] == 3


def test_an_enemy_whose_target_was_defeated_stays_where_it_is():
    # rules: Harakiri, "Defeated Characters": Immediately remove the miniature from the map. The character takes no further part in the Adventure Phase.
    enemies = {"k": kachi("tsu", {"character": "tomoe"}), "far": kachi("kumano", None, movement=0)}
    s = Scenario(ENGINE, doc(enemies=enemies, decks={"influence": ["si_03"]},
                             characters={"tomoe": {"defeated": True, "health": 0, "location": None}}))
    advance(s)
    s.when(0, "activate_enemy", enemy="k")
    events = advance(s)
    assert of_type(events, "EnemyMoved")[0] == {"enemy": "k", "path": ["tsu"]} and not of_type(events, "CombatTested")
    assert "tomoe" not in [c["args"]["character"] for c in s.legal(0) if c["type"] == "activate"]
