"""Loads and checks the Yokai Battle content pack (``content/cards.json``).

The JSON schema (``content/schema.json``) checks shapes; ``_check_consistency`` checks what a
schema cannot: the deck list of the rulebook (19 monsters, 22 cards), each monster's ability
belonging to its element, no elemental monster summoned dead on unfavourable terrain, and
enough 1-chakra cards for the opening ritual to be satisfiable and meaningful.
"""

import json
from pathlib import Path

import jsonschema

from games.kernel import glossary

CONTENT_DIR = Path(__file__).parent / "content"

DECK_SIZE = 22
OPENING_HAND = 5
# The rulebook's deck list, as printed: family -> (monster name, copies).
PRINTED_DECK = {
    "fire": [("Akuro-Jin no Hi", 2), ("Enraenra", 1), ("Onibi", 1)],
    "water": [("Kappa", 1), ("Enko", 1), ("Kosamebo", 1)],
    "earth": [("Onikuma", 1), ("Daki", 1), ("Momonji", 1)],
    "wood": [("Kodama", 2), ("Mikari Baba", 1), ("Bijin Sama", 1)],
    "metal": [("Gashadokuro", 1), ("Nue", 1), ("Hannya", 1)],
    "colorless": [("Gaki", 2), ("Katakirauwa", 1), ("Kawauso", 1), ("Bakeneko", 1)],
}


class ContentError(ValueError):
    pass


def _check_consistency(pack: dict) -> None:
    monsters = {m["key"]: m for m in pack["monsters"]}
    if len(monsters) != len(pack["monsters"]):
        raise ContentError("duplicate monster keys")
    by_name = {m["name"]: m for m in pack["monsters"]}
    deck = {}
    for entry in pack["deck"]:
        if entry["card"] not in monsters or entry["card"] in deck:
            raise ContentError(f"bad deck entry {entry['card']!r}")
        deck[entry["card"]] = entry["count"]
    if sum(deck.values()) != DECK_SIZE:
        raise ContentError(f"a deck must hold {DECK_SIZE} cards, not {sum(deck.values())}")
    for family, cards in PRINTED_DECK.items():
        for name, copies in cards:
            monster = by_name.get(name)
            if monster is None:
                raise ContentError(f"missing monster {name}")
            if monster["element"] != family:
                raise ContentError(f"{name} belongs to the {family} family")
            if deck.get(monster["key"]) != copies:
                raise ContentError(f"the deck holds {copies} x {name}")
    for m in pack["monsters"]:
        ability = pack["abilities"].get(m["ability"])
        if ability is None or ability["element"] != m["element"]:
            raise ContentError(f"{m['name']} has an ability of another element")
        if m["element"] != "colorless" and m["lp"] < 3:
            raise ContentError(f"{m['name']} would be summoned with no LP on unfavourable terrain")
    if by_name["Daki"]["ability"] != "earth_cancel":
        raise ContentError("Daki carries the cancelling earth ability")
    for name in ("Nue", "Gashadokuro"):
        if by_name[name]["ability"] != "metal_stealth":
            raise ContentError(f"{name} carries the stealth metal ability")
    ones = sum(n for key, n in deck.items() if monsters[key]["cost"] == 1)
    if not 2 <= ones <= DECK_SIZE - OPENING_HAND:
        raise ContentError("the opening ritual needs some, but not only, 1-chakra cards")


def load_pack() -> dict:
    schema = json.loads((CONTENT_DIR / "schema.json").read_text())
    pack = json.loads((CONTENT_DIR / "cards.json").read_text())
    jsonschema.validate(pack, schema)
    _check_consistency(pack)
    return pack


PACK = load_pack()
GLOSSARY = glossary.load(CONTENT_DIR / "glossary.json")
MONSTERS = {m["key"]: m for m in PACK["monsters"]}
DECK_LIST = [entry["card"] for entry in PACK["deck"] for _ in range(entry["count"])]
