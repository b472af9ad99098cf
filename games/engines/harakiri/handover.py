"""The party handed between the two phases of a chapter (pure).

The Adventure Phase hands on a campaign sheet (``AdventureFinished.sheet``: character cases with
``attributes``, ``traits``, ...); the Exploration Phase takes and hands back a ``party`` (flat
attributes, no traits). Equipment and items one phase's content does not have (the Adventure
Phase's level 2-3 blacksmith cards, most market items; the Exploration Phase's consumables) are
held ``aside`` on the sheet and given back when the party returns to a phase that knows them:
nothing a character owns is lost or invented on the way.
"""

import copy

from . import content as exploration
from .adventure import content as adventure
from .adventure.steps import CARRIED

ATTRIBUTES = ("power", "dexterity", "spirit", "knowledge")
PARTY_KEYS = ("level", "health", *ATTRIBUTES, "skills", "kami", "affinity", "weapons", "equipped", "armor",
              "armor_value", "items", "karma", "coins", "heads", "boss_heads")


def _split(ids, known):
    return [i for i in ids if i in known], [i for i in ids if i not in known]


def _fallback_weapon(cid: str, weapons: list) -> str:
    """A weapon of the character's class among those the Exploration Phase knows (else its first one)."""
    klass = exploration.CHARACTERS[cid]["class"]
    for w in weapons:
        if exploration.WEAPONS[w]["class"] == klass:
            return w
    return exploration.CHARACTERS[cid]["weapons"][0]


def party_from_sheet(sheet: dict, kept: dict | None = None) -> tuple[dict, dict]:
    """(the Exploration Phase's ``party`` option, what is held aside per character). ``kept`` is
    what an earlier Exploration Phase held aside (``sheet_from_party``'s second value)."""
    party, aside = {}, {}
    for cid, case in sheet["characters"].items():
        back = (kept or {}).get(cid, {})
        weapons, weapons_aside = _split([*case["weapons"], *back.get("weapons", [])], exploration.WEAPONS)
        items, items_aside = _split([*case["items"], *back.get("items", [])], exploration.ITEMS)
        armor_known = case["armor"] in exploration.ARMORS
        held = {"weapons": weapons_aside, "items": items_aside, "traits": list(case["traits"])}
        if not armor_known:  # a later level's armor, or none at all (sold): the class's armor stands in
            held["armor"] = {"card": case["armor"], "value": case["armor_value"]}
        equipped = case["equipped"]
        klass = exploration.CHARACTERS[cid]["class"]
        if equipped not in weapons or exploration.WEAPONS[equipped]["class"] != klass:  # it equips its own class
            held["equipped"] = equipped
            fallback = _fallback_weapon(cid, weapons)
            if fallback not in weapons:  # the character's level 1 weapon stands in; it is not kept afterwards
                held["borrowed"] = fallback
                weapons = [fallback, *weapons][:2]
            equipped = fallback
        armor = case["armor"] if armor_known else exploration.CHARACTERS[cid]["armor"]
        armor_value = case["armor_value"] if armor_known else exploration.ARMORS[armor]["armor"]
        if not armor_known:
            held["borrowed_armor"] = armor
        party[cid] = {"level": case["level"], "health": case["health"], **case["attributes"],
                      "skills": list(case["skills"]), "kami": case["kami"], "affinity": case["affinity"],
                      "weapons": weapons, "equipped": equipped, "armor": armor, "armor_value": armor_value,
                      "items": items, "karma": case["karma"], "coins": case["coins"], "heads": case["heads"],
                      "boss_heads": case["boss_heads"]}
        aside[cid] = held
    return party, aside


def sheet_from_party(party: dict, aside: dict, before: dict) -> tuple[dict, dict]:
    """(the next Adventure Phase's ``sheet``, what it holds aside): the Exploration Phase's party
    with what was held aside given back, the campaign sheet's other entries as ``before`` had them."""
    out = copy.deepcopy(before)
    characters, kept = {}, {}
    for cid, spec in party.items():
        held = aside.get(cid, {})
        weapons = [w for w in spec["weapons"] if w != held.get("borrowed")]
        weapons, weapons_out = _split(weapons + list(held.get("weapons", [])), adventure.BLACKSMITH)
        items, items_out = _split(list(spec["items"]) + list(held.get("items", [])), adventure.MARKET)
        equipped = held["equipped"] if "equipped" in held else spec["equipped"]
        if equipped is not None and equipped not in weapons:
            equipped = next((w for w in weapons if adventure.BLACKSMITH[w]["class"] == adventure.CHARACTERS[cid]["class"]),
                            None)
        if "armor" in held and spec["armor"] == held.get("borrowed_armor"):
            armor, armor_value = held["armor"]["card"], held["armor"]["value"]
        else:
            armor, armor_value = spec["armor"], spec["armor_value"]
        case = {"level": spec["level"], "health": spec["health"], "attributes": {a: spec[a] for a in ATTRIBUTES},
                "kami": spec["kami"], "affinity": spec["affinity"], "karma": spec["karma"], "coins": spec["coins"],
                "heads": spec["heads"], "boss_heads": spec["boss_heads"], "armor": armor, "armor_value": armor_value,
                "weapons": weapons, "equipped": equipped, "items": items, "skills": list(spec["skills"]),
                # "Traits are gained by the characters when acquiring new skills": the level's new skill's too
                "traits": sorted(set(held.get("traits", [])) | set(adventure.traits_of_skills(spec["skills"])))}
        characters[cid] = {k: case[k] for k in CARRIED}
        if weapons_out or items_out:
            kept[cid] = {"weapons": weapons_out, "items": items_out}
    out["characters"] = characters
    return out, kept
