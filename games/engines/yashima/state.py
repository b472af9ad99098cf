"""State shape, events and ``evolve`` for Yashima.

The state is a JSON dict. Cards are objects ``{"id", "d", "o"}`` (opaque id, definition id, owner
seat) plus ``"im": true`` while an imprinted card lies face-up in a battle deck and ``"bl": true``
for a BLEED card. Zones per player: deck (index 0 = top), hand, discard (last = top), karma,
equip, aside (a revealed attack or an imprinted card being resolved). Decks and hands are hidden.

``evolve`` applies one event to a copy; ``Sim`` applies events in place to a private working copy
while ``decide`` runs, so the rules code reads the state exactly as replay will rebuild it.
"""

from games.kernel import event, json_copy

CONTROL_KEYS = ["phase", "round", "pool", "turn", "stacks", "recon", "setup", "last_init", "cells", "boards", "result"]
ZONES = ["deck", "hand", "discard", "karma", "equip", "aside"]


def clone(x):
    return json_copy(x) if isinstance(x, (dict, list)) else x


def evolve(state, ev):
    return apply(clone(state) if state is not None else None, ev)


def evolve_all(state, events):
    """``evolve`` over ``events``, copying the state once (a whole copy costs more than most events)."""
    s = clone(state) if state is not None else None
    for ev in events:
        s = apply(s, ev)
    return s


def _take(zone: list, cid: str):
    for i, c in enumerate(zone):
        if c["id"] == cid:
            return zone.pop(i)
    raise KeyError(cid)


def apply(s, ev):
    """Apply ``ev`` to ``s`` in place (``s`` must be private) and return it."""
    t = ev["type"]
    p = clone(ev["payload"])
    if t in ("GameSetUp", "ScenarioLoaded"):
        return p["state"]
    if t == "ControlSet":
        for k, v in p.items():
            s[k] = v
    elif t == "CardMoved":
        src = s["players"][p["seat"]]
        if p["zone"] == "tome":
            src["tome"]["out"].append(p["tc"])
            card = {"id": p["new"], "d": p["card"]["d"], "o": p["card"]["o"]}
        else:
            card = _take(src[p["zone"]], p["id"])
            card["id"] = p["new"]
        for flag in ("im", "bl"):
            if flag in p["card"]:
                if p["card"][flag]:
                    card[flag] = True
                else:
                    card.pop(flag, None)
        dst = s["players"][p["to_seat"]]
        if p["to"] == "tome":
            dst["tome"]["out"].remove(p["tc"])
        elif p["at"] == "top":
            if p["to"] == "discard":
                dst["discard"].append(card)
            else:
                dst[p["to"]].insert(0, card)
        else:
            if p["to"] == "deck":
                dst["deck"].append(card)
            else:
                dst[p["to"]].append(card)
    elif t == "DeckShuffled":
        s["players"][p["seat"]]["deck"] = p["deck"]
    elif t == "DeckReordered":
        deck = s["players"][p["seat"]]["deck"]
        n = len(p["cards"])
        s["players"][p["seat"]]["deck"] = p["cards"] + deck[n:]
    elif t == "StatusChanged":
        name = p["status"]
        if p["on"] == "master":
            bag = s["players"][p["who"]]["st"]
        else:
            bag = s["spst"].setdefault(p["who"], {})
        owners = bag.setdefault(name, [])
        supply_key = p.get("supply", name)
        if p["delta"] > 0:
            owners.append(p["owner"])
            s["supply"][supply_key] -= 1
        else:
            owners.remove(p["owner"])
            s["supply"][supply_key] += 1
        if not owners:
            del bag[name]
        if p["on"] == "space" and not s["spst"][p["who"]]:
            del s["spst"][p["who"]]
    elif t == "MasterMoved":
        pl = s["players"][p["seat"]]
        pl["pos"] = p["pos"]
        pl["facing"] = p["facing"]
    elif t == "TomeTurned":
        s["players"][p["seat"]]["tome"]["spread"] = p["spread"]
    elif t == "PlayerSet":
        s["players"][p["seat"]].update(p["set"])
    elif t == "DestinyChosen":
        s["destiny"][str(p["seat"])] = p["token"]
    elif t == "DestinyRevealed":
        s["destiny"] = {}
        s["pool"] = p["pool"]
    elif t == "MasterConceded":  # concede.py: the player resigned; the master is out of the game
        s["players"][p["seat"]].update(dead=True, pending=False)
        s["destiny"].pop(str(p["seat"]), None)
    elif t == "GameEnded":
        s["result"] = {"winners": p["winners"], "reason": p["reason"]}
        s["phase"] = "over"
        s["stacks"] = {"main": []}
    elif t in ("CardRevealed", "InitiativeRevealed", "InitiativeWon", "AttackDeclared", "Note", "BoardChosen", "BoardPlaced"):
        pass  # informational only
    else:
        raise ValueError(f"unknown event {t}")
    return s


class Sim:
    """A private working copy of the state that records every event applied to it."""

    def __init__(self, state, rng):
        self.s = clone(state)
        self.rng = rng
        self.events = []
        self.key = "main"
        self.system = False  # True while the platform's SYSTEM "proceed" is being decided
        self._start = {k: clone(state.get(k)) for k in CONTROL_KEYS} if state else {}

    def emit(self, type_: str, payload: dict) -> None:
        ev = event(type_, payload)
        self.events.append(ev)
        self.s = apply(self.s, clone(ev))

    def close(self) -> list:
        changed = {k: clone(self.s.get(k)) for k in CONTROL_KEYS if self.s.get(k) != self._start.get(k)}
        if changed:
            self.events.append(event("ControlSet", changed))
        return self.events
