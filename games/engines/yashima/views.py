"""What a seat may see: ``view_for`` and ``redact_event``. Hands and deck orders never leave them
for another seat; destiny choices stay secret until the reveal; prompts are shown in full only to
the seat they await."""

from games.kernel import SYSTEM

from . import clocks, labels, spaces
from . import queries as q
from .state import clone

PUBLIC_KEYS = ["phase", "round", "pool", "teams", "cells", "boards", "spst", "supply", "result", "last_init",
               "options", "turn", "recon", "setup", "custom"]


def _prompts(s, seat):
    out = {}
    for key, st in (s.get("stacks") or {}).items():
        if st and st[-1].get("prompt"):
            pr = st[-1]["prompt"]
            out[key] = clone(pr) if pr["seat"] == seat else {"seat": pr["seat"], "kind": pr["kind"]}
    return out


def _attacks(s):
    out = []
    for t in (s.get("stacks") or {}).get("main", []):
        if t["k"] == "attack" and "targets" in t:
            out.append({"seat": t["seat"], "card": t["card"]["d"], "cells": t["tcells"],
                        "targets": [{"seat": tg["seat"], "atk": tg["atk"], "defended": tg["defended"]} for tg in t["targets"]],
                        "hits": t.get("hits", []), "step": t["step"]})
    return out


def _labelled(s, seat, prompts):
    """The seat's own prompts get a ``title`` and ``labels`` (one per entry of ``cmds``, same order)."""
    for pr in prompts.values():
        if "cmds" in pr:
            pr["title"] = labels.title(s, pr)
            pr["labels"] = [labels.label(s, seat, c, pr) for c in pr["cmds"]]
    return prompts


def _own_prompt(s, seat):
    for st in (s.get("stacks") or {}).values():
        if st and st[-1].get("prompt") and st[-1]["prompt"]["seat"] == seat:
            return st[-1]["prompt"]
    return None


def choices(s, seat, legal):
    """Every command ``seat`` may send now (exactly ``legal``, unchanged), each with a label, and
    ``on_timeout``: the index of the option the engine's timeout rule takes if the seat's clock runs out."""
    if not legal:
        return None
    pr = _own_prompt(s, seat)
    return {"title": labels.decision_title(s, pr),
            "options": [{"label": labels.label(s, seat, c, pr), "command": clone(c)} for c in legal],
            "on_timeout": legal.index(clocks.timeout_choice(s, seat, legal))}


def view_for(s, seat, legal=None):
    if seat == SYSTEM:
        return clone(s)
    v = {k: clone(s.get(k)) for k in PUBLIC_KEYS}
    v["space_names"] = spaces.names(s.get("cells") or {})  # as every text names them: "the road space E4"
    v["destiny"] = {k: (tok if k == str(seat) else "chosen") for k, tok in (s.get("destiny") or {}).items()}
    v["prompts"] = _labelled(s, seat, _prompts(s, seat))
    v["choices"] = choices(s, seat, legal)
    v["attacks"] = _attacks(s)
    players = []
    for i, pl in enumerate(s["players"]):
        pv = {k: clone(pl[k]) for k in ("master", "kami", "pos", "facing", "st", "restored", "pending", "dead",
                                         "karma", "discard", "equip", "aside", "tome")}
        if pl["master"]:
            pv["tome"]["pages"] = [page for page, _, _ in q.tome_pages(s, i)]  # face up on the table
        pv["deck_count"] = len(pl["deck"])
        pv["hand_count"] = len(pl["hand"])
        pv["deck_face_up"] = [{"d": c["d"], "o": c["o"], "bl": bool(c.get("bl"))} for c in pl["deck"] if c.get("im")]
        if seat == i:
            pv["hand"] = clone(pl["hand"])
        players.append(pv)
    v["players"] = players
    v["seat"] = seat
    return v


def view_open(s):
    """Every hand, deck and destiny token face up (staff review): the spectator's view plus each
    player's ``hand`` and ``deck`` (in order) and every chosen destiny token."""
    v = view_for(s, None)
    for pv, pl in zip(v["players"], s["players"]):
        pv["hand"] = clone(pl["hand"])
        pv["deck"] = clone(pl["deck"])
    v["destiny"] = clone(s.get("destiny") or {})
    return v


def _knows(zone, zone_owner, seat, face_up):
    if zone in ("deck",):
        return face_up
    if zone == "hand":
        return seat == zone_owner
    return True


def redact_event(ev, seat):
    if seat == SYSTEM:
        return ev
    t = ev["type"]
    p = ev["payload"]
    if t in ("GameSetUp", "ScenarioLoaded"):
        return {"type": t, "v": ev["v"], "payload": {"state": view_for(p["state"], seat)}}
    if t == "CardMoved":
        face_up = bool(p["card"].get("im"))
        know_from = p["zone"] in ("tome",) or _knows(p["zone"], p["seat"], seat, False)
        know_to = p["to"] == "tome" or _knows(p["to"], p["to_seat"], seat, face_up)
        out = {k: p[k] for k in ("seat", "zone", "to_seat", "to", "at") if k in p}
        if "tc" in p:
            out["tc"] = p["tc"]
        if know_from:
            out["id"] = p["id"]
        if know_to:
            out["new"] = p["new"]
        if know_from or know_to:
            out["card"] = clone(p["card"])
        return {"type": t, "v": ev["v"], "payload": out}
    if t == "DeckShuffled":
        return {"type": t, "v": ev["v"], "payload": {"seat": p["seat"], "count": len(p["deck"])}}
    if t == "DeckReordered":
        if seat == p["seat"]:
            return ev
        return {"type": t, "v": ev["v"], "payload": {"seat": p["seat"], "count": len(p["cards"])}}
    if t == "DestinyChosen":
        if seat == p["seat"]:
            return ev
        return {"type": t, "v": ev["v"], "payload": {"seat": p["seat"]}}
    if t == "ControlSet":
        out = {k: clone(v) for k, v in p.items() if k != "stacks"}
        if "stacks" in p:
            out["prompts"] = _prompts({"stacks": p["stacks"]}, seat)
        return {"type": t, "v": ev["v"], "payload": out}
    if t == "PlayerSet" and ("deck" in p["set"] or "hand" in p["set"]):
        return {"type": t, "v": ev["v"], "payload": {"seat": p["seat"]}}
    return ev
