"""The core steps on the resolution stack: LOSE (with ICEBREAKER and ENDURE), the imprint reveal,
a card's effect list, placing a status, forced and plain relocations, EXERTs one at a time, the move
action and DASH / WIND walks, and the FOCUS tome action. Each registers its handler in
``stack.HANDLERS``; the primitives that queue these steps are in ``ops``."""

from . import hexgrid as hx
from . import ops
from . import queries as q
from .ops import exert_later, exert_or_wait, return_card
from .stack import C, ask, handler, pop


# -- the Circle of Life ---------------------------------------------------------------------

@handler("lose")
def h_lose(sim, t):
    s, seat = sim.s, t["seat"]
    pl = q.player(s, seat)
    if pl["dead"] or pl["pending"]:
        pop(sim, t)
        return
    if "ans" in t:
        a = t.pop("ans")["args"]
        t["n"] -= 1
        if a["zone"] == "deck":
            c = pl["deck"][0]
            moved = ops.move(sim, seat, "deck", c, seat, "discard", "top", {"im": False, "bl": False})
            d = q.card_def(s, c["d"])
            if d.get("icebreaker"):
                t["n"] = 0
            if d.get("endure"):
                ops.push(sim, {"k": "effects", "seat": seat, "items": d["endure"], "i": 0, "ctx": {"src": "endure", "card": moved["id"]}, "optional": True})
            ops.check_top(sim, seat)
        else:
            c = next(x for x in pl[a["zone"]] if x["id"] == a["card"])
            ops.move(sim, seat, a["zone"], c, seat, "discard", "top")
        return
    if t["n"] <= 0:
        pop(sim, t)
        ops.deplete_check(sim, lost=seat)
        return
    if t["karma_first"] and pl["karma"]:
        cmds = [C("lose_card", zone="karma", card=c["id"]) for c in pl["karma"]]
        ask(t, seat, "lose", cmds)
        return
    if not pl["deck"] and not pl["hand"]:
        pop(sim, t)
        ops.deplete_check(sim, lost=seat)
        return
    if pl["deck"] and pl["deck"][0].get("im"):
        ops.check_top(sim, seat)
        return
    cmds = []
    if pl["deck"]:
        cmds.append(C("lose_card", zone="deck"))
    cmds += [C("lose_card", zone="hand", card=c["id"]) for c in pl["hand"]]
    info = {"remaining": t["n"]}
    if t.get("src") not in (None, "damage"):  # what deals it: BURN, PLAGUE, a RIPOSTE
        info["why"] = t["src"].upper()
    if t.get("by") is not None:
        info["by"] = t["by"]
    ask(t, seat, "lose", cmds, info)


@handler("reveal")
def h_reveal(sim, t):
    s, seat = sim.s, t["seat"]
    pl = q.player(s, seat)
    if t["step"] == 0:
        c = pl["deck"][0] if pl["deck"] else None
        if c is None or not c.get("im"):
            pop(sim, t)
            return
        sim.emit("CardRevealed", {"seat": seat, "card": {"d": c["d"], "o": c["o"]}, "why": "imprint"})
        beneath = any(not x.get("im") for x in pl["deck"][1:])
        if not beneath:
            pop(sim, t)
            return_card(sim, seat, "deck", c)
            ops.check_top(sim, seat)
            return
        ops.move(sim, seat, "deck", c, seat, "aside", "bottom", {"im": True, "bl": bool(c.get("bl"))})
        t["card"] = c["id"]
        t["step"] = 1
        if c.get("bl"):
            items = [{"k": "EXERT", "n": 1}]
        else:
            items = q.card_def(s, c["d"]).get("torn", {}).get("effects", [])
        if items:
            ops.push(sim, {"k": "effects", "seat": seat, "items": items, "i": 0, "ctx": {"src": "imprint"}, "optional": False})
        return
    c = next(x for x in pl["aside"] if x["id"] == t["card"])
    pop(sim, t)
    ops.move(sim, seat, "aside", c, seat, "deck", "bottom", {"im": True, "bl": bool(c.get("bl"))})
    ops.check_top(sim, seat)


@handler("effects")
def h_effects(sim, t):
    if t["i"] >= len(t["items"]):
        pop(sim, t)
        return
    it = t["items"][t["i"]]
    t["i"] += 1
    ops.push(sim, {"k": "eff", "seat": t["seat"], "it": it, "ctx": t["ctx"], "optional": t["optional"], "step": 0})


@handler("place")
def h_place(sim, t):
    """Place one status on several recipients; when the supply is short the owner picks the order."""
    s = sim.s
    name, owner = t["status"], t["owner"]
    if "ans" in t:
        a = t.pop("ans")["args"]
        if a["on"] == "master":
            ops.gain_master(sim, a["who"], name, owner)
        else:
            ops.gain_space(sim, a["who"], name, owner)
        t["left"] = [r for r in t["left"] if r != [a["on"], a["who"]]]
    left = [r for r in t["left"] if (q.can_gain_master(s, r[1], name) if r[0] == "master" else q.can_gain_space(s, r[1], name))]
    if not left:
        pop(sim, t)
        return
    if s["supply"].get(q.supply_key(name), 0) >= len(left):
        pop(sim, t)
        for on, who in left:
            if on == "master":
                ops.gain_master(sim, who, name, owner)
            else:
                ops.gain_space(sim, who, name, owner)
        return
    t["left"] = left
    ask(t, owner, "place_status", [C("place_status", on=on, who=who) for on, who in left], {"status": name})


@handler("forced")
def h_forced(sim, t):
    """Slick / splice point: the master must relocate to one of the listed spaces."""
    seat = t["seat"]
    if q.player(sim.s, seat)["pos"] is None:
        pop(sim, t)
        return
    if "ans" in t:
        to = t.pop("ans")["args"]["to"]
        pop(sim, t)
        if ops.relocation_ok(sim.s, seat, to):
            ops.relocate(sim, seat, to, t["chooser"], t["visited"])
        return
    opts = ops.forced_options(sim.s, seat, t["visited"])
    if not opts:
        pop(sim, t)
        return
    ask(t, t["chooser"], "forced_relocation", [C("relocate_to", to=c) for c in opts], {"master": seat})


@handler("relocate")
def h_relocate(sim, t):
    """A relocation: the deadly destination's EXERT (and any imprint on top or uncovered) resolves
    first, then the master enters and any slick / splice point relocation follows. If the space was
    taken meanwhile the master stays; a forced chain then offers its remaining spaces again."""
    s, seat = sim.s, t["seat"]
    if q.player(s, seat)["pos"] is None:
        pop(sim, t)
        return
    if not t.get("paid"):
        t["paid"] = True
        exert_later(sim, seat, 1 if q.is_deadly(s, t["to"]) else 0)
        return
    pop(sim, t)
    to, chain = t["to"], t["chain"]
    if not q.legal_space(s, to):
        if chain is not None:
            ops.forced_relocation(sim, seat, t["chooser"], chain)
        return
    ops.enter(sim, seat, to)
    ops.forced_relocation(sim, seat, t["chooser"], (chain or []) + [to])


@handler("exert")
def h_exert(sim, t):
    """EXERT ``n`` times, one card per visit, so an imprinted card that reaches the top resolves
    first ("the newest effect triggered resolves first") and the next EXERT takes the card beneath."""
    if t["n"] <= 0 or q.player(sim.s, t["seat"])["dead"]:
        pop(sim, t)
        return
    done, _ = exert_or_wait(sim, t["seat"])
    if done:
        t["n"] -= 1


# -- movement -------------------------------------------------------------------------------

@handler("move")
def h_move(sim, t):
    s, seat = sim.s, t["seat"]
    pl = q.player(s, seat)
    if not q.active(s, seat) or pl["pos"] is None:  # entered restoration or killed mid-move
        pop(sim, t)
        return
    if "ans" in t:
        a = t.pop("ans")
        if a["type"] == "end_move":
            pop(sim, t)
            ops.face(sim, seat, a["args"]["facing"])
            ops.forced_relocation(sim, seat)
            return
        to = a["args"]["to"]
        cost, exerts, road = q.step_cost(s, seat, pl["pos"], to, t["left"], t["road"])
        t["left"] -= cost
        t["road"] = t["road"] or road
        t["to"] = to
        exert_later(sim, seat, exerts)
        return
    if "to" in t:  # this step's EXERTs (and any imprint they uncovered) are resolved: step
        to = t.pop("to")
        if q.legal_space(s, to):
            ops.enter(sim, seat, to, hx.direction_to(pl["pos"], to))
        return
    cmds = []
    for n in hx.neighbours(pl["pos"]):
        if q.step_cost(s, seat, pl["pos"], n, t["left"], t["road"]) is not None:
            cmds.append(C("step", to=n))
    cmds += [C("end_move", facing=f) for f in range(6)]
    ask(t, seat, "move", cmds, {"speed_left": t["left"]})


@handler("walk")
def h_walk(sim, t):
    s, seat = sim.s, t["seat"]
    pos = q.player(s, seat)["pos"]
    if pos is None or not q.active(s, seat):
        pop(sim, t)
        return
    if "to" in t:  # this step's EXERTs are resolved: step (unless the space was taken meanwhile)
        to = t.pop("to")
        if not q.legal_space(s, to):
            t["path"] = []
        else:
            ops.enter(sim, seat, to, hx.direction_to(pos, to))
        return
    if not t["path"]:
        pop(sim, t)
        ops.forced_relocation(sim, seat)
        return
    to = t["path"].pop(0)
    t["to"] = to
    exert_later(sim, seat, q.combat_exerts(s, seat, pos, to) + (1 if q.is_deadly(s, to) else 0))


@handler("focus_action")
def h_focus_action(sim, t):
    s, seat = sim.s, t["seat"]
    pl = q.player(s, seat)
    if t["step"] == 0:
        t["step"] = 1
        ops.focus(sim, seat)
        return
    if t["step"] == 1:
        if "ans" in t:
            a = t.pop("ans")
            t["step"] = 2
            if a["type"] == "relic_turn":
                who, delta = a["args"]["master"], a["args"]["delta"]
                sim.emit("TomeTurned", q.tome_turned(s, who, q.spread_after(s, who, delta)))
            return
        if pl["pos"] and any(q.terrain(s, n) == "relic" for n in hx.neighbours(pl["pos"])):
            cmds = [C("relic_skip")]
            for who, other in enumerate(s["players"]):
                if other["dead"]:
                    continue
                for delta in (-2, -1, 1, 2):
                    if q.spread_after(s, who, delta) is not None:
                        cmds.append(C("relic_turn", master=who, delta=delta))
            ask(t, seat, "relic", cmds)
            return
        t["step"] = 2
        return
    if "ans" in t:
        a = t.pop("ans")
        pop(sim, t)
        if a["type"] == "rejuvenate":
            ops.heal(sim, seat)
        return
    if pl["pos"] and q.terrain(s, pl["pos"]) == "rejuvenating" and pl["discard"]:
        ask(t, seat, "rejuvenate", [C("rejuvenate"), C("no_rejuvenate")])
        return
    pop(sim, t)
