"""Level Increase: a character case between phases (pure; the campaign runs it as players decide).

"1. Increase the chosen attribute by 1, to a maximum of 3 ... 2. Take a double-sided character skill
token matching the character's new level. Choose 1 of the 2 skills ... 3. Increase the maximum health
available and regain health up to the new maximum level ... 4. Update the Blacksmith deck ... 5. ...
the character will gain an extra Ki die, up to their current level."
"""

from .content import CHARACTERS, LEVELS

ATTRIBUTES = ("power", "dexterity", "spirit", "knowledge")


def attribute_choices(case: dict) -> list[str]:
    return [a for a in ATTRIBUTES if case["attributes"][a] < LEVELS["max_attribute"]]


def skill_choices(cid: str, case: dict) -> list[str]:
    """The two sides of the skill token of the character's next level (none past the last level)."""
    return list(LEVELS["skill_tokens"].get(cid, {}).get(str(case["level"] + 1), []))


def can_level_up(cid: str, case: dict) -> bool:
    return case["level"] < LEVELS["max_level"] and bool(skill_choices(cid, case))


def level_up(cid: str, case: dict, attribute: str | None, skill: str) -> dict:
    """The case one level higher. ``attribute`` is None only when every attribute is already 3.
    Raises ValueError for a choice the rules do not offer."""
    if not can_level_up(cid, case):
        raise ValueError(f"{cid} cannot gain a level")
    choices = attribute_choices(case)
    if (attribute is None and choices) or (attribute is not None and attribute not in choices):
        raise ValueError(f"{attribute!r} is not an attribute {cid} can raise")
    if skill not in skill_choices(cid, case):
        raise ValueError(f"{skill!r} is not on {cid}'s level {case['level'] + 1} token")
    level = case["level"] + 1
    attributes = dict(case["attributes"])
    if attribute:
        attributes[attribute] += 1
    health = LEVELS["health_by_class"][CHARACTERS[cid]["class"]][level - 1]
    return {**case, "level": level, "attributes": attributes, "skills": [*case["skills"], skill], "health": health,
            "blacksmith_level": min(3, level)}
