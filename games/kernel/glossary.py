"""Rules glossaries: the text behind every keyword, status, terrain, tag and concept a game shows.

A game keeps its glossary as a data file (``content/glossary.json``), grouped by what the terms are::

    {"provisional": true, "note": "...",
     "groups": {"keyword": {"title": "Keywords", "entries": {
         "KINDLE": {"term": "KINDLE", "short": "+3 ATK against targets with BURN",
                    "text": "This attack is +3 ATK against targets with BURN status. ...",
                    "source": "Yashima core, Glossary"},
         "WEAKEN": {"term": "WEAKEN", "short": "...", "text": "...", "provisional": true}}}}}

An optional ``guide`` is the game's short how-to-play for newcomers (the home page and the rules
page show it): ``{"summary": "what the game is", "steps": [{"title", "text", "see": ["concept:ROUND",
"keyword"]}]}``; each ``see`` names a group or an entry of this glossary (checked on load), which
the pages link to.

``text`` is the rule as the rulebook words it (``source`` names the section) or, where the rulebook
has none, the project's definition, marked ``"provisional": true``. ``short`` is one line for places
with little room; ``{field}`` placeholders in it are filled by clients from the item they describe
(``DAMAGE {n}``). ``load`` validates a file and returns it flattened into what
``GET /api/games/{slug}/glossary/`` serves: ``{provisional, note, groups: {group: title},
entries: {"group:KEY": {term, group, short, text, provisional, source?}}, guide?}``.
"""

import json
from pathlib import Path

import jsonschema

_TEXT = {"type": "string", "minLength": 1}


def _record(required: list, **properties) -> dict:
    """A JSON object with exactly these properties, the ``required`` ones present."""
    return {"type": "object", "required": required, "additionalProperties": False, "properties": properties}


_ENTRY = _record(["term", "text"], term=_TEXT, short=_TEXT, text=_TEXT, source=_TEXT, provisional={"type": "boolean"})

_GUIDE = _record(
    ["summary", "steps"],
    summary=_TEXT,
    steps={
        "type": "array",
        "minItems": 1,
        "items": _record(["title", "text"], title=_TEXT, text=_TEXT,
                         see={"type": "array", "items": {"type": "string", "pattern": "^[a-z_]+(:[A-Za-z0-9_+-]+)?$"}}),
    },
)

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "A game's rules glossary",
    **_record(
        ["provisional", "groups"],
        provisional={"const": True},
        note={"type": "string"},
        guide=_GUIDE,
        groups={
            "type": "object",
            "minProperties": 1,
            "additionalProperties": False,
            "patternProperties": {
                "^[a-z_]+$": _record(["title", "entries"], title=_TEXT,
                                     entries={"type": "object", "minProperties": 1, "additionalProperties": False,
                                              "patternProperties": {"^[A-Za-z0-9_+-]+$": _ENTRY}}),
            },
        },
    ),
}


def empty() -> dict:
    """The glossary of a game without one."""
    return {"provisional": False, "note": "", "groups": {}, "entries": {}}


def flatten(document: dict) -> dict:
    """A validated glossary document as served: groups by title, entries keyed ``group:KEY``."""
    entries = {}
    for group, body in document["groups"].items():
        for key, entry in body["entries"].items():
            out = {"term": entry["term"], "group": group, "short": entry.get("short", ""), "text": entry["text"],
                   "provisional": bool(entry.get("provisional", False))}
            if "source" in entry:
                out["source"] = entry["source"]
            entries[f"{group}:{key}"] = out
    out = {"provisional": True, "note": document.get("note", ""),
           "groups": {g: body["title"] for g, body in document["groups"].items()}, "entries": entries}
    if "guide" in document:
        out["guide"] = document["guide"]
    return out


def load(path: Path) -> dict:
    """Read, validate (raises ``jsonschema.ValidationError``) and flatten a glossary file."""
    document = json.loads(Path(path).read_text())
    jsonschema.validate(document, SCHEMA)
    for group, body in document["groups"].items():
        for key, entry in body["entries"].items():
            if "source" not in entry and not entry.get("provisional"):
                raise ValueError(f"glossary entry {group}:{key} has no rulebook source: mark it provisional")
    flat = flatten(document)
    for step in (flat.get("guide") or {}).get("steps", []):
        for ref in step.get("see", []):
            if ref not in flat["groups"] and ref not in flat["entries"]:
                raise ValueError(f"the guide's step {step['title']!r} refers to {ref!r}: no such group or entry")
    return flat
