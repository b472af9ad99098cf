"""Level Increase (between phases): attribute, skill token, health, blacksmith deck."""

import pytest

from games.engines.harakiri.adventure import progress
from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel.scenario import Scenario

from .helpers import doc


def tomoe_case():
    return {k: v for k, v in Scenario(ENGINE, doc()).state["characters"]["tomoe"].items()}


def test_level_increase_steps_1_to_4():
    # rules: Harakiri, "Level Increase": 1. Increase the chosen attribute by 1 ... 2. Take a double-sided character skill token matching the character's new level. Choose 1 of the 2 skills ... 3. Increase the maximum health ... 4. Update the Blacksmith deck
    case = dict(tomoe_case(), health=4)
    assert progress.skill_choices("tomoe", case) == ["divine_arrow", "shockwave"]
    up = progress.level_up("tomoe", case, "dexterity", "shockwave")
    assert up["level"] == 2 and up["attributes"]["dexterity"] == 1 and up["skills"] == ["military_discipline", "shockwave"]
    assert up["health"] == 11 and up["blacksmith_level"] == 2  # the samurai's level 2 health, regained in full
    assert case["level"] == 1  # the input case is left alone


def test_no_attribute_above_3():
    # rules: Harakiri, "Level Increase": Increase the chosen attribute by 1, to a maximum of 3. No effect can increase an attribute score above 3
    case = dict(tomoe_case(), attributes={"power": 3, "dexterity": 0, "spirit": 0, "knowledge": 0})
    assert "power" not in progress.attribute_choices(case)
    with pytest.raises(ValueError):
        progress.level_up("tomoe", case, "power", "shockwave")


def test_only_the_two_skills_of_the_new_level_and_no_level_past_5():
    # rules: Harakiri, "Level Increase": Skills cannot be switched to the unselected option during the campaign
    case = tomoe_case()
    with pytest.raises(ValueError):
        progress.level_up("tomoe", case, "power", "teamwork")  # a level 3 skill
    assert not progress.can_level_up("tomoe", dict(case, level=5))
