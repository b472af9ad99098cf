"""Every card, tome page and avatar ability in the pack can be played through the engine."""

import json
from pathlib import Path

import pytest

from games.engines.yashima import effects, queries
from games.engines.yashima.content import CARDS, KAMI, MASTERS

from .helpers import P, hid, pl, prompt, scene

SCHEMA = json.loads((Path(effects.__file__).parent / "content" / "schema.json").read_text())


def test_every_effect_keyword_has_a_handler():
    kinds = set(SCHEMA["$defs"]["effect"]["properties"]["k"]["enum"])
    handled = set(effects.EFFECTS) | queries.ATTACK_MODS | {"ADAPT"}
    assert kinds <= handled, kinds - handled


def resolve(s, limit=200):
    """Answer every prompt with its first listed command (use_effect where offered)."""
    for _ in range(limit):
        pr = prompt(s)
        if not pr:
            return
        cmds = s.legal(pr["seat"])
        cmd = next((c for c in cmds if c["type"] == "use_effect"), cmds[0])
        s.when(pr["seat"], cmd["type"], **cmd["args"])
    raise AssertionError("prompts never ended")


BIG_KARMA = ["seven"] * 6


def rich(master, kami="tiger", **kw):
    return pl(master=master, kami=kami, pos="0,0", deck=["plain"] * 12, discard=["low"] * 3, karma=BIG_KARMA, **kw)


@pytest.mark.parametrize("master", sorted(MASTERS))
def test_every_tome_page_and_avatar_ability(master):
    for page in range(1, 11):
        s = scene(rich(master, spread=page // 2), pl(master="rosamu" if master != "rosamu" else "kenta", kami="dragon", pos="0,-1", facing=3,
                                                      statuses={"BURN": 1, "BLIND": 1}),
                  space_statuses={"1,1": {"BURN": 1}})
        s.when(0, "ability", src=f"page:{page}")
        resolve(s)
        assert s.state["turn"]["tome"] is True
    for i, ab in enumerate(MASTERS[master]["abilities"]):
        if ab["kind"] == "passive":
            continue
        s = scene(rich(master), pl(master="kenta" if master != "kenta" else "rosamu", kami="dragon", pos="0,-1", facing=3))
        typ = "ability" if ab["kind"] == "karma" else "quick"
        s.when(0, typ, src=f"avatar:{i}")
        resolve(s)


@pytest.mark.parametrize("owner", sorted(MASTERS) + sorted(KAMI))
def test_every_battle_card_attacks(owner):
    cards = [c for c in CARDS.values() if c["owner"] == owner]
    for c in cards:
        master = owner if owner in MASTERS else "rosamu"
        s = scene(pl(master=master, kami="tiger", pos="0,0", hand=[c["id"], "plain"], deck=["plain"] * 8, discard=["low"]),
                  pl(master="kenta" if master != "kenta" else "akiko", kami="dragon", pos="0,-1", facing=3, hand=["block"], karma=["low"]),
                  pl(master="hikaru", kami="phoenix", pos="0,-2", facing=3, statuses={"SEED": 1}),
                  space_statuses={"1,-2": {"BURN": 1}, "-1,-1": {"PLANT": 2}})
        s.when(0, "attack", card=hid(s, 0, c["id"]), facing=0)
        resolve(s)
        assert P(s, 0)["aside"] == [], c["id"]
        if c.get("defense"):
            d = scene(pl(pos="0,0", hand=["seven"]), pl(master=master, kami="dragon", pos="0,-1", facing=3, hand=[c["id"]]))
            d.when(0, "attack", card=hid(d, 0, "seven"), facing=0)
            pr = prompt(d)
            if pr and pr["kind"] == "defense":
                d.when(1, "defend", card=hid(d, 1, c["id"]))
                resolve(d)
