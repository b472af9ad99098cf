"""The party handed between the two phases of a chapter (pure).

The Adventure Phase hands on a campaign sheet (``AdventureFinished.sheet``: character cases with
``attributes``, ``traits``, ``item_uses`` ...); the Exploration Phase takes and hands back a
``party`` (flat attributes, no traits). Both phases read one catalogue of blacksmith and market
cards (``content/equipment.json``, ``content/items.json``), so every weapon, armor and item a
character owns goes from one phase to the other as it is: the equipped weapon, the armor with its
resistance, each item with the "Uses: X" tokens left on it. Traits exist only on the sheet (the
Exploration Phase has no travel events): they stay on the character case.
"""

import copy

from . import content as exploration
from .adventure import content as adventure
from .adventure.steps import CARRIED

ATTRIBUTES = ("power", "dexterity", "spirit", "knowledge")
PARTY_KEYS = ("level", "health", *ATTRIBUTES, "skills", "kami", "affinity", "weapons", "equipped", "armor",
              "armor_value", "items", "item_uses", "karma", "coins", "heads", "boss_heads")


def _equipped(cid: str, weapons: list, equipped):
    """The weapon a character has equipped: the one the sheet names if its class can wield it, else
    its first weapon of its class ("A weapon can be equipped only by a character of its class")."""
    klass = exploration.CHARACTERS[cid]["class"]
    if equipped in weapons and exploration.WEAPONS[equipped]["class"] == klass:
        return equipped
    return next((w for w in weapons if exploration.WEAPONS[w]["class"] == klass), equipped)


def _uses(items: list, uses: dict) -> dict:
    """The tokens left on the carried "Uses: X" items that have been used (an item not listed has
    the card's X: "When obtained, add tokens equal to the number of uses available on the item card")."""
    return {i: n for i, n in sorted((uses or {}).items())
            if i in items and exploration.ITEMS[i]["type"] == "uses" and n != exploration.ITEMS[i]["uses"]}


def party_from_sheet(sheet: dict) -> dict:
    """The Exploration Phase's ``party`` option: each character exactly as its case on the sheet."""
    party = {}
    for cid, case in sheet["characters"].items():
        weapons = list(case["weapons"])
        party[cid] = {"level": case["level"], "health": case["health"], **case["attributes"],
                      "skills": list(case["skills"]), "kami": case["kami"], "affinity": case["affinity"],
                      "weapons": weapons, "equipped": _equipped(cid, weapons, case["equipped"]),
                      "armor": case["armor"], "armor_value": case["armor_value"] if case["armor"] else 0,
                      "items": list(case["items"]), "item_uses": _uses(case["items"], case.get("item_uses")),
                      "karma": case["karma"], "coins": case["coins"], "heads": case["heads"],
                      "boss_heads": case["boss_heads"]}
    return party


def sheet_from_party(party: dict, before: dict) -> dict:
    """The next Adventure Phase's ``sheet``: the Exploration Phase's party on the character cases of
    ``before`` (the sheet the phase started from: its traits and every other entry are kept)."""
    out = copy.deepcopy(before)
    characters = {}
    for cid, spec in party.items():
        traits = before["characters"][cid]["traits"]
        case = {"level": spec["level"], "health": spec["health"], "attributes": {a: spec[a] for a in ATTRIBUTES},
                "kami": spec["kami"], "affinity": spec["affinity"], "karma": spec["karma"], "coins": spec["coins"],
                "heads": spec["heads"], "boss_heads": spec["boss_heads"], "armor": spec["armor"],
                "armor_value": spec["armor_value"], "weapons": list(spec["weapons"]), "equipped": spec["equipped"],
                "items": list(spec["items"]), "item_uses": _uses(spec["items"], spec.get("item_uses")),
                "skills": list(spec["skills"]),
                # "Traits are gained by the characters when acquiring new skills": the level's new skill's too
                "traits": sorted(set(traits) | set(adventure.traits_of_skills(spec["skills"])))}
        characters[cid] = {k: case[k] for k in CARRIED}
    out["characters"] = characters
    return out
