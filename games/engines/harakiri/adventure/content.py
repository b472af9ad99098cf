"""Adventure Phase content: the JSON files of ``content/adventure/`` validated by its schema.

Character boards, dice and kami come from the Exploration Phase's content files (read here as JSON,
not through the Exploration engine's modules), and so do the blacksmith and market cards: one
catalogue for both phases, ``content/equipment.json`` (levels 1-3 per class) and ``content/items.json``
(every market card with its Adventure ``effects`` and its Exploration ``effect``). The Adventure
fields of those cards are validated here by this schema (kinds ``adventure_blacksmith`` and
``adventure_market``), the rest by the Exploration Phase's schema.
"""

import json
from pathlib import Path

import jsonschema

CONTENT = Path(__file__).resolve().parent.parent / "content"
ROOT = CONTENT / "adventure"
SCHEMA = json.loads((ROOT / "schema.json").read_text())
FILES = ("map", "act1", "travel_events", "influence", "levels")
_VALIDATOR = jsonschema.validators.validator_for(SCHEMA)
_VALIDATOR.check_schema(SCHEMA)  # once, not for every file
VALIDATOR = _VALIDATOR(SCHEMA)


def validate(document: dict) -> None:
    """Raise jsonschema.ValidationError if ``document`` breaks the Adventure content schema."""
    error = jsonschema.exceptions.best_match(VALIDATOR.iter_errors(document))
    if error is not None:
        raise error


def _load(name: str) -> dict:
    data = json.loads((ROOT / f"{name}.json").read_text())
    validate(data)
    return data


def _shared(name: str) -> dict:
    return json.loads((CONTENT / f"{name}.json").read_text())


MAP = _load("map")
ACT1 = _load("act1")
TRAVEL_EVENTS = {card["id"]: card for card in _load("travel_events")["cards"]}
INFLUENCE_CARDS = {card["id"]: card for card in _load("influence")["cards"]}
LEVELS = _load("levels")

CHARACTERS = {k: v for k, v in _shared("characters")["characters"].items() if k in ACT1["starting"]}
DICE = _shared("dice")
KAMI = {k["id"]: k for k in _shared("kami")["kami"]}
_EQUIPMENT = _shared("equipment")
_ITEMS = _shared("items")


def _checked(kind: str, cards: dict, note: str) -> dict:
    validate({"provisional": True, "kind": kind, "note": note, "cards": cards})
    return cards


# The blacksmith deck's cards: every weapon and armor of the shared catalogue, with its slot.
BLACKSMITH = _checked("adventure_blacksmith", {
    **{k: {"slot": "weapon", **c} for k, c in _EQUIPMENT["weapons"].items()},
    **{k: {"slot": "armor", **c} for k, c in _EQUIPMENT["armors"].items()}}, _EQUIPMENT["note"])
# The market cards (and the special Jirōbō's omamori): the shared catalogue's items.
MARKET = _checked("adventure_market", _ITEMS["items"], _ITEMS["note"])
ACTS = {1: ACT1}
TOKENS = ACT1.get("tokens", {})  # mission and event tokens a character carries (and may share)
SKILL_TRAITS = LEVELS.get("skill_traits", {})  # skill -> the trait it grants ("Traits")


def chapter(act: int, number: int) -> dict | None:
    for entry in ACTS.get(act, {}).get("chapters", []):
        if entry["number"] == number:
            return entry
    return None


def blacksmith_deck(class_: str, level: int) -> list[str]:
    """The class's cards of ``level`` and lower (Setup step 5; Level Increase step 4)."""
    return sorted(k for k, c in BLACKSMITH.items() if c["class"] == class_ and c["level"] <= level)


def market_deck(low: int, high: int) -> list[str]:
    """Market cards whose knowledge requirement lies in ``low``..``high``, special cards never (Setup
    step 6). A card with no requirement (null, or 0) counts as 0: it is in only when the lowest
    knowledge is 0 ("if the lowest knowledge is 1 and highest is 3, take all the market cards of
    level 1-3, excluding the cards with no knowledge requirement")."""
    out = []
    for card_id, card in sorted(MARKET.items()):
        if card["type"] == "special":
            continue
        if low <= (card["knowledge"] or 0) <= high:
            out.append(card_id)
    return out


def traits_of_skills(skills) -> list[str]:
    """The traits a character's acquired skills grant."""
    return sorted({SKILL_TRAITS[s] for s in skills if s in SKILL_TRAITS})

