"""Optional Rule: Replace the Red Die (option ``blue_die``): every red attack die is rolled as the
blue die, the characters' and the enemies' alike; without the option nothing changes."""

from games.engines.harakiri import ENGINE, content
from games.engines.harakiri.state import W
from games.kernel import Rng

from .helpers import arena, doc, find, open_rows, scenario


def _akira_vs(enemy, forced, blue_die):
    """Akira (katana: strong attack green, red and the test die) next to ``enemy``."""
    d = doc(arena(open_rows()), {"akira": {"sq": "2,2", "ap": 4}}, {"foe": {"at": "3,2", "color": "red", **enemy}},
            activate="char:akira", forced=forced, options={"blue_die": blue_die})
    return scenario(d)


def test_the_blue_die_runs_from_1_to_3_with_the_red_dies_average():
    # rules: Harakiri, "Optional Rule: Replace the Red Die": "The new blue attack die ... and the red
    # die have the same average ... The blue die has a smaller range of possible results (1 to 3),
    # reducing the randomness of the red die (0 to 4)."
    red = [f["i"] for f in content.DICE["attack"]["red"]]
    blue = [f["i"] for f in content.DICE["attack"]["blue"]]
    assert (min(red), max(red)) == (0, 4)
    assert (min(blue), max(blue)) == (1, 3) and set(blue) == {1, 2, 3}
    assert sum(blue) / 6 == sum(red) / 6
    # like every attack die, one success and one fail yin-yang symbol
    assert sorted(f.get("y", "") for f in content.DICE["attack"]["blue"] if f.get("y")) == ["fail", "success"]


def test_with_the_option_a_characters_red_die_is_rolled_as_the_blue_die():
    # rules: Harakiri, "Optional Rule: Replace the Red Die": "one can be substituted for the other"
    # given Akira's strong katana attack (green, red, test) with the blue die in place of the red
    s = _akira_vs({"type": "ashigaru"}, [2, 6, 4], blue_die=True)
    # when he attacks: green face 2 (1 impact), the sixth face of the blue die (3), a hit
    ev = s.when(0, "attack", target="foe", mode="strong")
    # then the roll shows a blue die, and its 3 impacts count: 1 + 3 - defense 1 - armor 1 = 2 damage
    dice = find(ev, "AttackRolled")[0]["attack"]["dice"]
    assert [d["die"] for d in dice] == ["green", "blue", "test"]
    assert dice[1]["i"] == 3
    assert s.state["enemies"]["foe"]["health"] == 5 - 2
    assert "blue 3" in ENGINE.describe(ev[[e["type"] for e in ev].index("AttackRolled")], 0)
    assert ENGINE.view_for(s.state, 0)["blue_die"] is True


def test_without_the_option_the_red_die_is_rolled():
    # rules: Harakiri, "Optional Rule: Replace the Red Die" (an optional rule: off by default)
    # given the same attack and the same faces without the option
    s = _akira_vs({"type": "ashigaru"}, [2, 6, 4], blue_die=False)
    ev = s.when(0, "attack", target="foe", mode="strong")
    # then the red die's sixth face gives 4 impacts: 1 + 4 - 2 = 3 damage
    dice = find(ev, "AttackRolled")[0]["attack"]["dice"]
    assert [d["die"] for d in dice] == ["green", "red", "test"] and dice[1]["i"] == 4
    assert s.state["enemies"]["foe"]["health"] == 5 - 3


def test_an_enemys_red_die_is_rolled_blue_too():
    # rules: Harakiri, "Optional Rule: Replace the Red Die", and "Counter Attacks": the Undertaker's
    # attack dice are red and green
    # given Akira next to the Undertaker, with the blue die in place of the red
    s = _akira_vs({"type": "undertaker", "kind": "servant"}, [6, 6, 1, 6, 6, 3], blue_die=True)
    # when Akira's attack critically fails (test die 1) and the Undertaker counter attacks
    ev = s.when(0, "attack", target="foe", mode="strong")
    # then the Undertaker rolls the blue die for its red one: blue 3 + green 2 = 5 hits against
    # Akira's defense 1 and armor 2: 2 damage (the red die's 4 would have dealt 3)
    rolled = find(ev, "EnemyAttackRolled")[0]
    assert rolled["counter"] and [d["die"] for d in rolled["dice"]] == ["blue", "green", "test"]
    assert s.state["characters"]["akira"]["health"] == 11 - 2


def test_a_rerolled_blue_die_stays_blue():
    # rules: Harakiri, "Optional Rule: Replace the Red Die" and "Meditate" ("discard 1 meditation
    # token to reroll a single die")
    d = doc(arena(open_rows()), {"akira": {"sq": "2,2", "ap": 4, "meditation": 1}},
            {"foe": {"at": "3,2", "color": "red", "type": "ashigaru"}},
            activate="char:akira", forced=[2, 1, 4, 5], options={"blue_die": True})
    s = scenario(d)
    s.when(0, "attack", target="foe", mode="strong")
    assert s.state["attack"]["dice"][1] == {"i": 1, "y": "fail", "die": "blue"}
    ev = s.when(0, "reroll_die", die=1, **{"with": "meditation"})
    assert find(ev, "AttackDieRerolled")[0]["new"] == {"i": 3, "die": "blue"}


def test_a_state_set_up_before_the_option_existed_rolls_red():
    # rules: Harakiri, "Optional Rule: Replace the Red Die" (old matches: no option, no blue die)
    w = W({"forced": [6]}, Rng(b"old", "old"))
    assert w.roll("red") == {"i": 4, "y": "success", "die": "red"}
    assert ENGINE.options_schema["else"]["properties"]["blue_die"]["default"] is False
