"""Scenario documents -> a full state (see docs/games/yashima.md, "Scenario format")."""

from games.kernel import RuleViolation

from . import hexgrid as hx
from .content import BOARDS, CARDS, KAMI, MASTERS, STATUSES
from .flow import new_state
from .state import clone

TERRAIN = ("blank", "arduous", "deadly", "relic", "road", "rejuvenating", "solid", "slick", "splice_point")


def _card(seat, zone, i, entry, custom):
    if isinstance(entry, dict):
        d = entry["d"]
        extra = {k: True for k in ("im", "bl") if entry.get(k)}
    else:
        d, extra = entry, {}
    known = d in CARDS or d in custom
    if d.startswith("tome:"):
        _, m, ti, face = d.split(":")
        known = m in MASTERS and 0 <= int(ti) < 5 and face in ("front", "back")
    if not known:
        raise RuleViolation("bad_scenario", f"unknown card {d!r}")
    owner = entry.get("o", seat) if isinstance(entry, dict) else seat
    return dict({"id": f"{seat}{zone[0]}{i}", "d": d, "o": owner}, **extra)


def _index(x, bound) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < bound


def build(doc: dict) -> dict:
    if not isinstance(doc, dict) or not isinstance(doc.get("players"), list):
        raise RuleViolation("bad_scenario", "a scenario needs a players list")
    try:
        return _build(doc)
    except RuleViolation:
        raise
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise RuleViolation("bad_scenario", f"scenario document is malformed: {exc!r}")


def _build(doc):
    n = len(doc["players"])
    options = dict(doc.get("options") or {})
    s = new_state(options, n)
    if "teams" in doc:
        s["teams"] = list(doc["teams"])
    s["custom"] = clone(doc.get("custom_cards") or {})
    if "map" in doc:
        s["cells"] = {c: "blank" for c in hx.hexagon(doc["map"].get("radius", 4))}
    for b in doc.get("boards", []):
        cells = hx.board_cells(b["slot"], b.get("rotation", 0), BOARDS[b["board"]]["sides"][b.get("side", "a")])
        s["cells"].update(cells)
        s["boards"].append({"seat": b.get("seat", 0), "board": b["board"], "side": b.get("side", "a"), "slot": b["slot"],
                            "rotation": b.get("rotation", 0), "cells": sorted(cells)})
    for cell, typ in (doc.get("terrain") or {}).items():
        if typ not in TERRAIN:
            raise RuleViolation("bad_scenario", f"unknown terrain {typ!r}")
        hx.parse(cell)
        s["cells"][cell] = typ
    for seat, pd in enumerate(doc["players"]):
        pl = s["players"][seat]
        if pd["master"] not in MASTERS or pd["kami"] not in KAMI:
            raise RuleViolation("bad_scenario", "unknown master or kami")
        pl["master"], pl["kami"] = pd["master"], pd["kami"]
        pl["pos"] = pd.get("pos")
        pl["facing"] = pd.get("facing", 0)
        for zone in ("deck", "hand", "discard", "karma", "equip"):
            pl[zone] = [_card(seat, zone if zone != "discard" else "x", i, e, s["custom"]) for i, e in enumerate(pd.get(zone, []))]
        pl["tome"] = {"spread": pd.get("spread", 0), "out": list(pd.get("tome_out", []))}
        size = len(MASTERS[pl["master"]]["tome"])
        if not _index(pl["tome"]["spread"], size + 1) or not all(_index(ti, size) for ti in pl["tome"]["out"]):
            raise RuleViolation("bad_scenario", "spread must be 0..tome size, tome_out tome card indices")
        for c in pl["equip"] + [c for c in pl["deck"] if c.get("im") and c["d"].startswith("tome:")]:
            ti = int(c["d"].split(":")[2])
            if ti not in pl["tome"]["out"]:
                pl["tome"]["out"].append(ti)
        pl["restored"] = bool(pd.get("restored"))
        pl["pending"] = bool(pd.get("pending"))
        pl["dead"] = bool(pd.get("dead"))
        for name, count in (pd.get("statuses") or {}).items():
            key = STATUSES[name].get("supply_key", name)
            pl["st"][name] = [seat] * count
            s["supply"][key] -= count
    for cell, sts in (doc.get("space_statuses") or {}).items():
        for name, owner in sts.items():
            s["spst"].setdefault(cell, {})[name] = [owner]
            s["supply"][STATUSES[name].get("supply_key", name)] -= 1
    if "supply" in doc:
        s["supply"].update(doc["supply"])
    s["setup"] = {"step": "done", "i": 0, "placed": [], "choice": None}
    s["round"] = doc.get("round", 1)
    s["last_init"] = doc.get("last_init")
    phase = doc.get("phase", "battle")
    s["phase"] = phase
    if phase == "battle":
        seat = doc.get("turn", 0)
        s["pool"] = dict(doc.get("pool") or {"move": 1, "attack": 1})
        s["turn"] = {"seat": seat, "tome": bool(doc.get("tome_used")), "token": doc.get("token"), "bonus": 0,
                     "stupor": False, "seen": list(doc.get("seen", [seat]))}
    elif phase == "reconcile":
        alive = [i for i, pl in enumerate(s["players"]) if not pl["dead"]]
        s["pool"] = dict(doc.get("pool") or {"move": 2, "attack": 2})
        s["recon"] = {str(i): {"drawn": False, "done": False} for i in alive}
        for i in alive:
            s["stacks"][str(i)] = []
    elif phase == "destiny":
        s["pool"] = {"move": 0, "attack": 0}
    elif phase == "initiative":
        alive = [i for i, pl in enumerate(s["players"]) if not pl["dead"]]
        s["pool"] = dict(doc.get("pool") or {"move": 2, "attack": 2})
        s["stacks"]["main"] = [{"k": "initiative", "step": "frost", "fi": 0, "i": 0, "cont": alive, "vals": {}, "exh": {}, "first": True}]
    elif phase == "end_of_round":
        s["phase"] = "battle"
        s["pool"] = {"move": 0, "attack": 0}
        s["turn"] = {"seat": doc.get("turn", 0), "tome": True, "token": "move", "bonus": 0, "stupor": False, "seen": []}
        s["stacks"]["main"] = [{"k": "end_turn"}]
    else:
        raise RuleViolation("bad_scenario", f"unknown phase {phase!r}")
    for v in s["supply"].values():
        if v < 0:
            raise RuleViolation("bad_scenario", "more status tokens than the supply holds")
    return s
