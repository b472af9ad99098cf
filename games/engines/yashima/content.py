"""Loads and validates the provisional Yashima content pack (JSON data, never code)."""

import json
from pathlib import Path

import jsonschema

from games.kernel import glossary

_DIR = Path(__file__).parent / "content"
_FILES = ["masters.json", "kami.json", "boards.json", "statuses.json", "patterns.json"]


def _load() -> dict:
    pack = {"provisional": True}
    notes = []
    for name in _FILES:
        body = json.loads((_DIR / name).read_text())
        if body.pop("provisional", None) is not True:
            raise ValueError(f"{name} must be marked provisional")
        notes.append(body.pop("note", ""))
        pack.update(body)
    pack["note"] = notes[0]
    schema = json.loads((_DIR / "schema.json").read_text())
    jsonschema.validate(pack, schema)
    return pack


PACK = _load()
GLOSSARY = glossary.load(_DIR / "glossary.json")
MASTERS = {m["id"]: m for m in PACK["masters"]}
KAMI = {k["id"]: k for k in PACK["kami"]}
PATTERNS = PACK["patterns"]
STATUSES = PACK["statuses"]
BOARDS = {b["id"]: b for b in PACK["boards"]["terrain"]}
RELIC = PACK["boards"]["relic"]
CARDS = {}
for _m in PACK["masters"]:
    for _c in _m["cards"]:
        CARDS[_c["id"]] = _c
for _k in PACK["kami"]:
    for _c in _k["cards"]:
        CARDS[_c["id"]] = _c


def _check() -> None:
    for c in CARDS.values():
        if c["pattern"] not in PATTERNS:
            raise ValueError(f"card {c['id']} has unknown pattern {c['pattern']}")
    for k in PACK["kami"]:
        n = len(k["cards"])
        if n != k["deck_size"]:
            raise ValueError(f"{k['id']} deck has {n} cards, not {k['deck_size']}")
        if sum(c["karma"] for c in k["cards"]) != k["average_karma"] * n:
            raise ValueError(f"{k['id']} average karma is off")
        if sum(c["atk"] for c in k["cards"]) != k["average_attack"] * n:
            raise ValueError(f"{k['id']} average attack is off")


_check()
