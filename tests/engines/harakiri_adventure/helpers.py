"""Scenario helpers for the Adventure Phase rules tests."""

from games.engines.harakiri.adventure.engine import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario

WEAPONS = {"akira": "ronin_katana", "hattori": "ninja_kodachi", "hikaru": "monk_bo", "tomoe": "samurai_naginata"}


class ScriptedRng:
    """A kernel-shaped RNG whose ``below`` answers come from a script (then 0): a die face is
    ``faces[below(6)]``, so a test can name the faces it needs."""

    def __init__(self, answers):
        self.answers = list(answers)

    def below(self, n):
        value = self.answers.pop(0) if self.answers else 0
        assert 0 <= value < n, (value, n)
        return value

    def randint(self, low, high):
        return low + self.below(high - low + 1)

    def choice(self, items):
        items = list(items)
        return items[self.below(len(items))]

    def shuffled(self, items):
        return list(items)

    def token(self, nbytes=8):
        return "00" * nbytes


def armed(**characters) -> dict:
    """Characters with their level 1 weapon chosen, plus any per-character overrides."""
    out = {c: {"weapons": [w], "equipped": w} for c, w in WEAPONS.items()}
    for cid, fields in characters.items():
        out[cid] = {**out[cid], **fields}
    return out


# A far enemy that never moves: keeps "no enemy left" chapter endings out of tests about other rules.
CAMP = {"type": "camp", "location": "kumano", "target": None, "movement": 0, "combat": 10,
        "on_test": {"success": [], "failure": []}, "on_reach": []}


def doc(chapter=1, seats=1, characters=None, enemies=None, flow=None, decks=None, **state) -> dict:
    patch = {"characters": armed(**(characters or {})), "flow": {"stage": "shogun", "sub": "round", **(flow or {})}, **state}
    document = {"options": {"chapter": chapter}, "seats": seats, "state": patch, "replace": []}
    if enemies is not None:
        patch["enemies"] = enemies
        document["replace"].append("enemies")
    if decks:
        document["decks"] = decks
    return document


def activation(cid, ap=3, characters=None, **kw) -> Scenario:
    """``cid`` in the middle of its activation with ``ap`` action points (round 1)."""
    chars = {cid: {"ap": ap, "activated": True}}
    for other, fields in (characters or {}).items():
        chars[other] = {**chars.get(other, {}), **fields}
    kw.setdefault("enemies", {"camp": dict(CAMP)})
    return Scenario(ENGINE, doc(characters=chars, flow={"stage": "activation", "sub": None, "active": cid}, round=1, **kw))


def scripted(s: Scenario, answers):
    s.rng = lambda: ScriptedRng(answers)
    return s


def advance(s: Scenario, answers=None):
    if answers is not None:
        scripted(s, answers)
    return s.when(SYSTEM, "advance")


def kachi(at, target, combat=5, hits=2, movement=3, **extra):
    return {"type": "kachi", "location": at, "target": target, "movement": movement, "combat": combat,
            "on_test": {"success": [], "failure": [{"do": "hits", "amount": hits}]}, "on_reach": [], **extra}


def types(events) -> list[str]:
    return [e["type"] for e in events]


def of_type(events, type_) -> list[dict]:
    return [e["payload"] for e in events if e["type"] == type_]
