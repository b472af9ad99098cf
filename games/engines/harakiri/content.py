"""Content pack: JSON data files validated against ``content/schema.json`` at import time, and
the lookups that read only a card (an enemy board, a kami skill, what an armor or weapon card allows)."""

import json
from pathlib import Path

import jsonschema

from games.kernel import glossary

ROOT = Path(__file__).parent / "content"
_SCHEMA = json.loads((ROOT / "schema.json").read_text())


def _load(path: Path) -> dict:
    data = json.loads(path.read_text())
    jsonschema.validate(data, _SCHEMA)
    return data


def validate(document: dict) -> None:
    """Raise jsonschema.ValidationError if ``document`` breaks the content schema."""
    jsonschema.validate(document, _SCHEMA)


DICE = _load(ROOT / "dice.json")
CHARACTERS = _load(ROOT / "characters.json")["characters"]
EQUIPMENT = _load(ROOT / "equipment.json")
WEAPONS = EQUIPMENT["weapons"]
ARMORS = EQUIPMENT["armors"]
ITEMS = _load(ROOT / "items.json")["items"]
SKILLS_DOC = _load(ROOT / "skills.json")
SKILLS = {s["id"]: s for s in SKILLS_DOC["skills"]}
KAMI_DOC = _load(ROOT / "kami.json")
KAMI = {k["id"]: k for k in KAMI_DOC["kami"]}
ENEMIES_DOC = _load(ROOT / "enemies.json")
ORACLE = _load(ROOT / "oracle.json")["cards"]
GLOSSARY = glossary.load(ROOT / "glossary.json")
SCENARIOS = {p.stem: _load(p) for p in sorted((ROOT / "scenarios").glob("*.json"))}

# Optional Rule: Replace the Red Die ("the new blue attack die ... and the red die have the same
# average, so one can be substituted for the other"): the die a match with option ``blue_die`` rolls.
REPLACED_BY_BLUE = "red"


def rolled_die(die: str, blue_die: bool) -> str:
    """The attack die actually rolled when a rule calls for ``die``: with the optional rule on,
    every red die is rolled as the blue die; every other die (and the rule off) as it is."""
    return "blue" if blue_die and die == REPLACED_BY_BLUE else die


ENEMY_KINDS = {"minion": "minions", "servant": "servants", "chosen": "chosen", "wanderer": "wanderers"}


def kami_skill(skill_id: str) -> dict:
    """A kami skill's content entry, e.g. ``kami_skill("amaterasu_l3")``."""
    return next(sk for k in KAMI.values() for sk in k["skills"] if sk["id"] == skill_id)


def wears_armor(ch):
    """Armor protects only a character of the armor card's class; another class's armor received
    from an ally is only carried in the supply (rulebook "Share"). A character who sold or gave
    away its armor (Adventure Phase) has none (``armor_card`` None)."""
    return ch["armor_card"] is not None and ARMORS[ch["armor_card"]]["class"] == ch["class"]


def armor_cap(ch):
    """The base armor value of the equipped armor (0 when the carried armor cannot be worn)."""
    return ARMORS[ch["armor_card"]]["armor"] if wears_armor(ch) else 0


# -- the market cards (one catalogue with the Adventure Phase: content/items.json) ----------------

MAX_ITEMS, MAX_PERMANENT = 5, 2  # "Equipment and Item Limits"
MAX_WEAPONS = 2


def knowledge_needed(item_id: str) -> int:
    """An item's knowledge requirement (a card with no requirement: 0)."""
    return ITEMS[item_id]["knowledge"] or 0


def market_cards() -> list[str]:
    """Every market card of the catalogue (special cards never enter the market deck)."""
    return sorted(i for i, it in ITEMS.items() if it["type"] != "special")


def item_counts(ids) -> tuple[int, int]:
    """(market items, permanent items) among ``ids``: special items count for neither."""
    cards = [ITEMS[i] for i in ids if ITEMS[i]["type"] != "special"]
    return len(cards), sum(1 for it in cards if it["type"] == "permanent")


def can_receive(ch, item_id):
    """Rulebook "Equipment and Item Limits": "a maximum of 2 permanent items with a maximum of 5
    items in total in their supply"; "Items with the special keyword do not count". Every item
    the character carries counts, whichever phase it was bought in."""
    info = ITEMS[item_id]
    if info["type"] == "special":
        return True
    n, perm = item_counts(i["id"] for i in ch["items"])
    return n < MAX_ITEMS and (info["type"] != "permanent" or perm < MAX_PERMANENT)


def can_wield(ch, weapon_id):
    """A weapon can be equipped only by a character of its class (rulebook "Share")."""
    return WEAPONS[weapon_id]["class"] == ch["class"]


def enemy_board(kind: str, type_: str) -> dict:
    return ENEMIES_DOC[ENEMY_KINDS[kind]][type_]


def enemy_exists(kind: str, type_: str) -> bool:
    return kind in ENEMY_KINDS and type_ in ENEMIES_DOC[ENEMY_KINDS[kind]]


def is_unique(kind: str, type_: str) -> bool:
    """One miniature of this type exists (the component list names it without a count)."""
    return enemy_exists(kind, type_) and bool(enemy_board(kind, type_).get("unique"))


def unique_placed_twice(scenario: dict) -> list[str]:
    """Unique enemy types a scenario's zones place more than once (it has one miniature)."""
    seen, twice = set(), []
    for zone in scenario.get("zones", {}).values():
        for spec in zone.get("enemies", []):
            key = (spec["kind"], spec["type"])
            if is_unique(*key):
                if key in seen:
                    twice.append(spec["type"])
                seen.add(key)
    return twice


for _id, _scenario in SCENARIOS.items():
    if unique_placed_twice(_scenario):
        raise ValueError(f"scenario {_id} places a unique enemy twice: {unique_placed_twice(_scenario)}")
