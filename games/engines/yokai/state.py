"""The state's shape and the copy-on-write helpers every layer above uses (see engine.py for the
shape itself). Pure data handling: no rules here."""


def clone(x):
    if isinstance(x, dict):
        return {k: clone(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clone(v) for v in x]
    return x


def opening_counters() -> dict:
    """The counters and flags of a state that has not played a turn yet."""
    return {"meter": 0, "round": 0, "turn": 0, "summons": 0, "next_uid": 0, "pending": [],
            "finished": False, "winners": [], "result": None}


def is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def own_player(s, seat) -> dict:
    """Give the (already shallow-copied) state ``s`` a private copy of one player and return it."""
    players = list(s["players"])
    players[seat] = dict(players[seat])
    s["players"] = players
    return players[seat]


def own_monsters(s) -> dict:
    s["monsters"] = dict(s["monsters"])
    return s["monsters"]


def set_lp(s, pos, lp) -> None:
    monsters = own_monsters(s)
    monsters[pos] = dict(monsters[pos], lp=lp)
