"""The campaign book's secrets, for the hidden-information canaries: every text of Act 1 that the
rules keep face down or unread until some moment, the moment (an event of the match's own log) that
reads it, and the check that a response names none of them before.

Built from the data files and the rulebook's moments, independently of the engine's ``book.py``:

- a mission's title, hint, objective and failure conditions: when it is revealed (or fails, which
  reveals its card) - "flip the corresponding mission face-up"; not for missions face up from the
  start;
- a clan token's entry: when that token is resolved - "reading the corresponding entry in the
  campaign book";
- a mission's success or failure section, a personal mission's success: when it is completed or fails;
- a round's trigger section: when the round token reaches it;
- the final round's section and an ending condition's section: when the phase ends by it; the
  chapter's success or failure section: when it is read;
- a special location's instructions: when a character interacts with it;
- a carried token's name and text (unless a card names it): when a character gains it;
- the id of an enemy the book spawns (a trigger's, a mission's): when the entry that spawns it
  is read, or when it is spawned.
"""

import json

from games.engines.harakiri.adventure.content import ACTS, CONTENT, ROOT, TOKENS

NEVER = float("inf")


# public as printed: the Adventure Phase's cards and the catalogue of market and blacksmith cards
CARDS = tuple(ROOT / f"{name}.json" for name in ("map", "travel_events", "influence", "levels")) + (
    CONTENT / "items.json", CONTENT / "equipment.json")


def _card_strings() -> str:
    return "\n".join(s for path in CARDS for s in strings(path.read_text()))


def _card_tokens() -> set[str]:
    """Carried tokens the cards themselves name (public with the cards)."""
    text = "".join(path.read_text() for path in (ROOT / "travel_events.json", ROOT / "influence.json", CONTENT / "items.json"))
    return {t for t in TOKENS if f'"{t}"' in text}


def _spawned(effects) -> list[str]:
    out = []
    for effect in effects or []:
        if effect.get("do") == "spawn" and effect.get("enemy", {}).get("id"):
            out.append(effect["enemy"]["id"])
        for key in ("effects", "then", "else", "success", "failure"):
            if isinstance(effect.get(key), list):
                out += _spawned(effect[key])
        for option in effect.get("options", []) or []:
            out += _spawned(option.get("effects"))
    return out


def _tokens(value) -> set[str]:
    """Carried-token ids an entry names (``gain_token``, ``requires``...)."""
    if isinstance(value, dict):
        return ({value["token"]} if value.get("token") in TOKENS else set()).union(*map(_tokens, value.values()))
    if isinstance(value, list):
        return set().union(*map(_tokens, value))
    return set()


def secrets(act: int = 1) -> tuple[dict, dict]:
    """``({text: {moment, ...}}, {enemy id: {moment, ...}})`` for every chapter of the act: a text
    (or id) is known once any of its moments has happened. A moment is a tuple naming the chapter."""
    texts, ids = {}, {}

    def add(table, value, moment):
        if value:
            table.setdefault(value, set()).add(moment)

    open_tokens = set()  # tokens a card face up from the start names
    named = {}  # token -> the moments of the entries that name it (a card saying "gain the letter")

    def spawns(effects, ch, moment):  # an enemy the entry spawns is known with the entry
        for enemy in _spawned(effects):
            add(ids, enemy, moment)
            add(ids, enemy, (ch, "spawned", enemy))
        for token in _tokens(effects):
            named.setdefault(token, set()).add(moment)

    for chapter in ACTS[act]["chapters"]:
        ch, adventure = chapter["number"], chapter["adventure"]
        for m in adventure["missions"]:
            n = m["number"]
            face = [m["on_reveal"], [t["requires"] for t in m["clan_tokens"] if t.get("requires")]]
            if m.get("active_from_start"):  # a card face up from the start names its tokens publicly
                open_tokens.update(_tokens(face))
            else:
                spawns(face[1], ch, (ch, "mission", n))
                for key in ("title", "hint", "objective"):
                    add(texts, m.get(key), (ch, "mission", n))
                for condition in m.get("fails_when", []):
                    add(texts, condition.get("text"), (ch, "mission", n))
                spawns(m["on_reveal"], ch, (ch, "mission", n))
                add(ids, (m.get("completed_by") or {}).get("enemy"), (ch, "mission", n))
            for token in m["clan_tokens"]:
                add(texts, token.get("text"), (ch, "clan", n, token["at"]))
                spawns(token.get("effects"), ch, (ch, "clan", n, token["at"]))
            add(texts, m["success"]["text"], (ch, "completed", n))
            add(texts, m["failure"]["text"], (ch, "failed", n))
            spawns(m["success"]["effects"], ch, (ch, "completed", n))
            spawns(m["failure"]["effects"], ch, (ch, "failed", n))
        for cid, pm in adventure["personal_missions"].items():
            add(texts, pm["success"]["text"], (ch, "personal", cid))
        for r, trigger in adventure["triggers"].items():
            add(texts, trigger["text"], (ch, "round", int(r)))
            spawns(trigger["effects"], ch, (ch, "round", int(r)))
        add(texts, adventure["final_section"]["text"], (ch, "ended", "final_round", adventure["final_section"]["text"]))
        for condition in adventure["ending_conditions"]:
            add(texts, condition.get("text"), (ch, "ended", condition["when"], condition.get("text")))
        for outcome in ("success", "failure"):
            add(texts, adventure[outcome]["text"], (ch, "section", outcome))
            spawns(adventure[outcome]["effects"], ch, (ch, "section", outcome))
        for cid, pm in adventure["personal_missions"].items():
            spawns(pm["success"]["effects"], ch, (ch, "personal", cid))
        for special in adventure.get("special_locations", []):
            add(texts, special.get("text"), (ch, "special", special["location"]))
            spawns(special.get("effects"), ch, (ch, "special", special["location"]))
        add(texts, chapter["exploration"].get("text"), (ch, "finished"))
    public = _card_tokens() | open_tokens
    for token, doc in TOKENS.items():
        if token not in public:
            for key in ("name", "text"):
                for moment in {("any", "token", token), *named.get(token, ())}:
                    add(texts, doc.get(key), moment)
    # a text a card also prints (an influence card titled like a mission) is public with the card
    cards = _card_strings()
    return {t: ms for t, ms in texts.items() if t not in cards}, ids


def moments(chapter: int, events) -> dict:
    """{moment: the seq at which the match's log (unredacted, ``seq`` on each event) reaches it}."""
    out = {}

    def at(moment, seq):
        out.setdefault(moment, seq)

    for ev in events:
        p, seq = ev["payload"], ev["seq"]
        kind = ev["type"]
        if kind == "MissionRevealed":
            at((chapter, "mission", p["mission"]), seq)
        elif kind == "MissionFailed":
            at((chapter, "mission", p["mission"]), seq)
            at((chapter, "failed", p["mission"]), seq)
        elif kind == "MissionCompleted":
            at((chapter, "completed", p["mission"]), seq)
        elif kind == "ClanTokenResolved":
            at((chapter, "clan", p["mission"], p["location"]), seq)
        elif kind == "PersonalMissionCompleted":
            at((chapter, "personal", p["character"]), seq)
        elif kind == "RoundStarted":
            at((chapter, "round", p["round"]), seq)
        elif kind == "PhaseEnded":
            at((chapter, "ended", p["reason"], p.get("text")), seq)
        elif kind == "SectionRead":
            at((chapter, "section", p["outcome"]), seq)
        elif kind == "SpecialLocationVisited":
            at((chapter, "special", p["location"]), seq)
        elif kind == "AdventureFinished":
            at((chapter, "finished"), seq)
        elif kind == "TokenGained":
            at(("any", "token", p["token"]), seq)
        elif kind == "EnemySpawned":
            at((chapter, "spawned", p["enemy"]["id"]), seq)
    return out


def known_from(table: dict, reached: dict) -> dict:
    """{secret: the first seq at which one of its moments is reached (NEVER if none)}."""
    return {value: min((reached.get(m, NEVER) for m in ms), default=NEVER) for value, ms in table.items()}


def strings(body) -> list[str]:
    """Every string of a JSON response (keys and values), decoded; a body that is not JSON as is."""
    text = body.decode() if isinstance(body, bytes) else body
    try:
        doc = json.loads(text)
    except ValueError:
        return [text]
    out = []

    def walk(value):
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                out.append(k)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(doc)
    return out


def named_early(known_texts: dict, known_ids: dict, records) -> list[tuple]:
    """``(secret, seat, seq)`` for each ``(seat, seq, body)`` that names a secret text (inside any
    string) or a secret id (as a whole string) before the seq at which it is known; ``seq`` None
    is a response outside the match (nothing of it read)."""
    found = []
    for seat, seq, body in records:
        at = -1 if seq is None else seq
        values = strings(body)
        joined = "\n".join(values)
        whole = set(values)
        found += [(text, seat, seq) for text, known in known_texts.items() if known > at and text in joined]
        found += [(eid, seat, seq) for eid, known in known_ids.items() if known > at and eid in whole]
    return found


def unread_named(chapter: int, events, records) -> list[tuple]:
    """The campaign-book secrets that ``records`` name before the match's log (``events``, its
    chapter ``chapter``) reads them."""
    texts, ids = secrets()
    reached = moments(chapter, events)
    return named_early(known_from(texts, reached), known_from(ids, reached), records)


def pack_named(pack) -> list[str]:
    """The secrets a document outside any match (the content pack) names: none is read there."""
    return [secret for secret, _, _ in named_early(*[{k: NEVER for k in t} for t in secrets()],
                                                   [(None, None, json.dumps(pack))])]


__all__ = ["NEVER", "moments", "named_early", "pack_named", "secrets", "strings", "unread_named"]
