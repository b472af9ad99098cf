"""Builds a full Yokai Battle state from a scenario document (format: docs/games/yokai.md)."""

from games.kernel import RuleViolation

from . import rules as R
from .board import LAYOUTS, ORIENTATIONS, squares
from .content import MONSTERS, PACK
from .state import opening_counters

DOC_KEYS = {
    "seats", "teams", "board", "monsters", "hands", "decks", "discards", "chakra", "round", "meter",
    "turn", "summons", "no_draw", "set_aside",
}


def _bad(message):
    raise RuleViolation("bad_scenario", message)


def _int(value, name, low, high):
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        _bad(f"{name} must be an integer in {low}..{high}")
    return value


def _default_board(seats):
    elements = PACK["terrain_elements"]
    rows, i = [], 0
    for length in LAYOUTS[seats]:
        rows.append([elements[(i + k) % len(elements)] for k in range(length)])
        i += length
    return rows


def _per_seat(doc, name, seats, default):
    value = doc.get(name, {})
    if not isinstance(value, dict) or any(k not in {str(s) for s in range(seats)} for k in value):
        _bad(f"{name} must map seats ('0', '1', ...) to values")
    return [value.get(str(s), default) for s in range(seats)]


def _cards(value, where, prefix):
    if not isinstance(value, list):
        _bad(f"{where} must be a list of cards")
    out = []
    for i, c in enumerate(value):
        if isinstance(c, str):
            key, cid = c, f"{prefix}{i}"
        elif isinstance(c, dict) and set(c) <= {"card", "id"} and "card" in c:
            key, cid = c["card"], c.get("id", f"{prefix}{i}")
        else:
            _bad(f"bad card in {where}")
        if not isinstance(key, str) or key not in MONSTERS or not isinstance(cid, str) or not cid:
            _bad(f"unknown card {key!r} in {where}")
        out.append({"id": cid, "card": key})
    return out


def build_state(doc) -> dict:
    if not isinstance(doc, dict):
        _bad("a scenario is a JSON object")
    unknown = set(doc) - DOC_KEYS
    if unknown:
        _bad(f"unknown scenario keys {sorted(unknown)}")
    seats = _int(doc.get("seats", 2), "seats", 2, 4)
    teams = doc.get("teams", False)
    if not isinstance(teams, bool) or (teams and seats != 4):
        _bad("teams (true/false) is only possible with 4 seats")
    board = doc.get("board", _default_board(seats))
    if not isinstance(board, list) or not board or not all(isinstance(row, list) and row for row in board):
        _bad("board is a non-empty list of non-empty rows of elements")
    rows = [len(row) for row in board]
    set_aside = doc.get("set_aside", [])
    if not isinstance(set_aside, list) or any(e not in PACK["terrain_elements"] for e in set_aside):
        _bad("set_aside is a list of terrain elements")
    terrain = {}
    for r, row in enumerate(board):
        for c, element in enumerate(row):
            if element not in PACK["terrain_elements"]:
                _bad(f"unknown terrain element {element!r}")
            terrain[f"{r},{c}"] = element
    state = {
        "seats": seats,
        "teams": teams,
        "rows": rows,
        "terrain": terrain,
        "set_aside": list(set_aside),
        "monsters": {},
        "players": [],
        "chakra": [],
        **opening_counters(),
    }
    rnd = _int(doc.get("round", 1), "round", 1, 10_000)
    state["round"] = rnd
    state["meter"] = _int(doc.get("meter", min(R.MAX_METER, rnd + 1)), "meter", 0, R.MAX_METER)
    chakra = doc.get("chakra", state["meter"])
    if isinstance(chakra, dict):
        state["chakra"] = [_int(v, "chakra", 0, 99) for v in _per_seat(doc, "chakra", seats, state["meter"])]
    else:
        state["chakra"] = [_int(chakra, "chakra", 0, 99)] * seats
    state["turn"] = _int(doc.get("turn", 0), "turn", 0, seats - 1)
    state["summons"] = _int(doc.get("summons", 0), "summons", 0, R.MAX_SUMMONS)
    hands = _per_seat(doc, "hands", seats, [])
    decks = _per_seat(doc, "decks", seats, [])
    discards = _per_seat(doc, "discards", seats, [])
    no_draw = _per_seat(doc, "no_draw", seats, None)
    for s in range(seats):
        if no_draw[s] not in (None, "next", "now", "both"):
            _bad("no_draw is null, 'next', 'now' or 'both'")
        if not isinstance(discards[s], list) or any(not isinstance(k, str) or k not in MONSTERS for k in discards[s]):
            _bad("discards are lists of card keys")
        state["players"].append(
            {
                "hand": _cards(hands[s], f"hand {s}", f"h{s}-"),
                "deck": _cards(decks[s], f"deck {s}", f"d{s}-"),
                "discard": list(discards[s]),
                "no_draw": no_draw[s],
            }
        )
    ids = [c["id"] for p in state["players"] for c in p["hand"] + p["deck"]]
    if len(ids) != len(set(ids)):
        _bad("card ids must be unique")
    monsters = doc.get("monsters", [])
    if not isinstance(monsters, list):
        _bad("monsters is a list")
    explicit = {}
    for uid, m in enumerate(monsters):
        if not isinstance(m, dict) or not {"at", "card", "owner"} <= set(m) or not set(m) <= {
            "at", "card", "owner", "orientation", "lp", "doubled", "stealth"
        }:
            _bad("a monster is {at, card, owner[, orientation, lp, doubled, stealth]}")
        pos, key = m["at"], m["card"]
        if not isinstance(pos, str) or pos not in terrain or pos in state["monsters"]:
            _bad(f"bad or occupied square {pos!r}")
        if not isinstance(key, str) or key not in MONSTERS:
            _bad(f"unknown monster {key!r}")
        owner = _int(m["owner"], "owner", 0, seats - 1)
        orientation = m.get("orientation", "vertical")
        if orientation not in ORIENTATIONS:
            _bad("orientation is vertical or horizontal")
        lp = _int(m["lp"], "lp", 1, R.MAX_LP) if "lp" in m else R.summoned_lp(state, pos, key)
        for flag in ("doubled", "stealth"):
            if flag in m and not isinstance(m[flag], bool):
                _bad(f"{flag} is true or false")
        state["monsters"][pos] = {
            "uid": uid,
            "card": key,
            "id": f"m{uid}",
            "owner": owner,
            "orientation": orientation,
            "lp": lp,
            "doubled": False,
            "stealth": bool(m.get("stealth", False)),
        }
        explicit[pos] = m.get("doubled")
    # A colorless_double monster described without "doubled" was doubled if its ability is in force.
    dakis = R.effective_dakis(state)
    for pos, flag in explicit.items():
        if flag is None:
            flag = R.active_ability(state, pos, dakis) == "colorless_double"
        state["monsters"][pos]["doubled"] = flag
    state["next_uid"] = len(monsters)
    if len(squares(rows)) != len(terrain):
        _bad("board rows are inconsistent")
    return state
