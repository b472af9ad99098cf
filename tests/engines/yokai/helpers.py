"""Scenario helpers for the Yokai Battle rules tests."""

from games.engines.yokai import ENGINE
from games.engines.yokai.content import MONSTERS
from games.kernel.scenario import Scenario


def grid(fill="wood", rows=(3, 3, 3), **cells):
    """Board rows of ``fill`` terrain; ``cells`` override squares, e.g. grid(r1c1="fire")."""
    board = [[fill] * n for n in rows]
    for name, element in cells.items():
        r, c = name[1:].split("c")
        board[int(r)][int(c)] = element
    return board


def mon(at, card, owner, **kw):
    return {"at": at, "card": card, "owner": owner, **kw}


def scene(monsters=(), hands=None, decks=None, board=None, seats=2, chakra=10, **extra):
    doc = {
        "seats": seats,
        "board": board or grid(),
        "monsters": list(monsters),
        "hands": hands or {},
        "decks": decks if decks is not None else {str(s): ["kodama"] * 10 for s in range(seats)},
        "chakra": chakra,
        **extra,
    }
    return Scenario(ENGINE, doc)


def lp(s, pos):
    m = s.state["monsters"].get(pos)
    return None if m is None else m["lp"]


def ap(key, side):
    return MONSTERS[key]["attack"][side]


def card_lp(key):
    return MONSTERS[key]["lp"]


def cost(key):
    return MONSTERS[key]["cost"]


def types(events):
    return [e["type"] for e in events]
