"""The resolution stack: every multi-step rule is a task dict on ``state["stacks"][key]``.

``run`` resolves the top task until one needs a decision (it sets ``task["prompt"]`` with the
concrete commands allowed) or the stack is empty. Tasks pushed while another resolves run first
("newest first"). A prompt with a single possible command is answered automatically.

A task flagged ``"sys": true`` is a step of the game itself (dealing, the destiny reveal, initiative,
handing the turn on, each master's restoration, the round end): a seat's command stops in front of it
and the engine awaits SYSTEM, so the platform records those events under its worker, not under the
seat whose command happened to complete the previous decision.
"""

from . import hexgrid as hx
from . import ops
from . import queries as q

HANDLERS = {}


def handler(name):
    def wrap(fn):
        HANDLERS[name] = fn
        return fn
    return wrap


def C(type_, **args):
    return {"type": type_, "args": args}


def ask(t, seat, kind, cmds, info=None):
    t["prompt"] = {"seat": seat, "kind": kind, "cmds": cmds}
    if info is not None:
        t["prompt"]["info"] = info


def pop(sim, t, key=None):
    st = sim.s["stacks"].get(key or sim.key, [])
    for i in range(len(st) - 1, -1, -1):
        if st[i] is t:
            del st[i]
            return


def run(sim, key="main"):
    sim.key = key
    for _ in range(100000):
        st = sim.s["stacks"].get(key) or []
        if not st:
            return
        t = st[-1]
        if t.get("sys"):
            if not sim.system:
                return
            del t["sys"]
        pr = t.get("prompt")
        if pr:
            if len(pr["cmds"]) == 1:
                t["ans"] = pr["cmds"][0]
                t["prompt"] = None
            else:
                return
        HANDLERS[t["k"]](sim, t)
        sim.key = key
    raise RuntimeError(f"resolution did not terminate: {sim.s['stacks'].get(key)}"[:3000])


def system_step(sim, task: dict) -> None:
    """Push ``task`` onto the main stack as a step the SYSTEM takes (see the module docstring)."""
    task["sys"] = True
    sim.s["stacks"]["main"].append(task)


def find_attack(sim, aid):
    for st in sim.s["stacks"].values():
        for t in st:
            if t["k"] == "attack" and t["aid"] == aid:
                return t
    return None


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
    ask(t, seat, "lose", cmds, {"remaining": t["n"]})


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


def return_card(sim, seat, zone, c):
    """Returning cards: tome cards to their spot in the owner's tome, battle cards to the bottom of
    the owner's battle deck, face down."""
    if c["d"].startswith("tome:"):
        ti = int(c["d"].split(":")[2])
        sim.emit("CardMoved", {"seat": seat, "zone": zone, "id": c["id"], "to_seat": c["o"], "to": "tome", "at": "bottom",
                               "new": c["id"], "card": {"d": c["d"], "o": c["o"], "im": False}, "tc": ti})
    else:
        ops.move(sim, seat, zone, c, c["o"], "deck", "bottom", {"im": False, "bl": False})
        ops.check_top(sim, c["o"])


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


def place(sim, owner, name, masters=(), spaces=()):
    left = [["master", m] for m in masters] + [["space", c] for c in spaces]
    if left:
        ops.push(sim, {"k": "place", "owner": owner, "status": name, "left": left})


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


def exert_or_wait(sim, seat):
    """One EXERT: (True, exerted card or None when EXHAUSTED), or (False, None) when an imprinted
    card is on top: its reveal is queued to resolve first and the caller EXERTs on its next visit."""
    if q.exhausted(sim.s, seat):
        return True, None
    if q.player(sim.s, seat)["deck"][0].get("im"):
        ops.check_top(sim, seat)
        return False, None
    return True, ops.exert(sim, seat)


def exert_later(sim, seat, n, key=None) -> None:
    """Queue ``n`` EXERTs for ``seat`` (resolved one at a time by ``h_exert``)."""
    if n > 0:
        ops.push(sim, {"k": "exert", "seat": seat, "n": n}, key)


# -- movement -------------------------------------------------------------------------------

def step_cost(s, seat, frm, to, left, road_used):
    """(speed cost, exerts, enters road) for one step, or None when the step is illegal.

    ``road_used``: no free road entry is left - the move action already entered its first road, or
    the movement is not a move action at all (ROAD TERRAIN: "The first road terrain a master enters
    during their move action costs no speed"; DASH and WIND pay for roads like any space)."""
    if not q.legal_space(s, to):
        return None
    t = q.terrain(s, to)
    if t == "road" and not road_used:
        cost, road = 0, True
    elif t == "arduous":
        if left < 2:
            return None
        cost, road = 2, False
    else:
        if left < 1:
            return None
        cost, road = 1, False
    exerts = q.combat_exerts(s, seat, frm, to) + (1 if q.is_deadly(s, to) else 0)
    if exerts and not q.can_exert(s, seat, exerts):
        return None
    return cost, exerts, road


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
        cost, exerts, road = step_cost(s, seat, pl["pos"], to, t["left"], t["road"])
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
        if step_cost(s, seat, pl["pos"], n, t["left"], t["road"]) is not None:
            cmds.append(C("step", to=n))
    cmds += [C("end_move", facing=f) for f in range(6)]
    ask(t, seat, "move", cmds, {"speed_left": t["left"]})


def reach(s, seat, budget):
    """Best paths from the master's space: cell -> (EXERTs, path list), for a movement outside the
    move action (DASH: no road is free). Best = fewest EXERTs, then not picking up a BURN on the way
    (a master without BURN entering a burning space takes it), then the least speed."""
    start = q.player(s, seat)["pos"]
    has_burn = q.status_count(s, seat, "BURN") > 0
    best = {(start, budget, has_burn): (0, False)}
    frontier = [(0, False, start, budget, has_burn, [])]
    out = {start: (0, False, [])}
    while frontier:
        frontier.sort(key=lambda x: (x[0], x[1], -x[3]))
        ex, picked, cell, left, burning, path = frontier.pop(0)
        for n in hx.neighbours(cell):
            sc = step_cost(s, seat, cell, n, left, True)
            if sc is None:
                continue
            cost, exerts, _ = sc
            tot = ex + exerts
            if not q.can_exert(s, seat, tot) and tot:
                continue
            takes = not burning and "BURN" in q.space_status(s, n)
            rank = (tot, picked or takes)
            k = (n, left - cost, burning or takes)
            if k in best and best[k] <= rank:
                continue
            best[k] = rank
            frontier.append((tot, picked or takes, n, left - cost, burning or takes, path + [n]))
            if n not in out or out[n][:2] > rank:
                out[n] = (tot, picked or takes, path + [n])
    return {cell: (ex, path) for cell, (ex, _, path) in out.items()}


def walk(sim, seat, path):
    """Move along ``path`` paying combat-movement and deadly-terrain EXERTs step by step, then
    apply any forced relocation (see ``h_walk``)."""
    ops.push(sim, {"k": "walk", "seat": seat, "path": list(path)}, "main")


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
                sim.emit("TomeTurned", {"seat": who, "spread": q.spread_after(s, who, delta)})
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
