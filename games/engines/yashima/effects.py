"""Keyword effects: each card effect item {"k": KEYWORD, ...} is resolved by the "eff" task.

Attack effects are optional (the attacker is asked "use_effect" / "skip_effect" when the effect
can do anything); FATE, imprint and karma-ability effects are mandatory.
"""

from itertools import permutations

from . import hexgrid as hx
from . import ops
from . import queries as q
from .ops import exert_later, place, return_card
from .stack import C, ask, find_attack, handler, pop

EFFECTS = {}


def effect(*names):
    def wrap(fn):
        for n in names:
            EFFECTS[n] = fn
        return fn
    return wrap


@handler("eff")
def h_eff(sim, t):
    it = t["it"]
    fn = EFFECTS[it["k"]]
    if q.player(sim.s, t["seat"])["dead"]:  # a killed master's effects no longer resolve
        pop(sim, t)
        return
    if t["optional"] and not t.get("go"):
        if "ans" in t:
            a = t.pop("ans")
            if a["type"] == "skip_effect":
                pop(sim, t)
                return
            t["go"] = True
        else:
            if not fn(sim, t, it, probe=True):
                pop(sim, t)
                return
            ask(t, t["seat"], "optional_effect", [C("use_effect", effect=it["k"]), C("skip_effect", effect=it["k"])])
            return
    fn(sim, t, it)


def hits(sim, t):
    """The masters this attack hit and still on the board: one it sent into restoration was hit too
    (HIT: "Dealt one or more damage by this attack") and is still there, only a killed one is gone."""
    return [h for h in t["ctx"].get("hits", []) if not q.player(sim.s, h)["dead"]]


def imprint_first(sim, seat) -> bool:
    """Before a card is taken from the top of ``seat``'s deck: an imprinted card lying there (a FATE
    effect triggered by the card that uncovered it resolves first) is revealed and resolves before
    (newest first), then the step takes the card beneath. True when its reveal was queued."""
    c = ops.top(sim, seat)
    if c is None or not c.get("im"):
        return False
    ops.check_top(sim, seat)
    return True


def _repeat(sim, t, it, fn, from_top=False):
    """Resolve ``n`` single steps one per visit so triggers in between resolve first (``from_top``:
    each step takes the top card of the deck, so an imprinted card there resolves before it)."""
    if "left" not in t:
        t["left"] = it.get("n", 1)
    if t["left"] <= 0:
        pop(sim, t)
        return
    if from_top and imprint_first(sim, t["seat"]):
        return
    t["left"] -= 1
    if not fn():
        pop(sim, t)


@effect("DRAW")
def e_draw(sim, t, it, probe=False):
    if probe:
        return bool(q.player(sim.s, t["seat"])["deck"])
    _repeat(sim, t, it, lambda: ops.draw(sim, t["seat"]), from_top=True)


@effect("HEAL")
def e_heal(sim, t, it, probe=False):
    if probe:
        return bool(q.player(sim.s, t["seat"])["discard"])
    _repeat(sim, t, it, lambda: ops.heal(sim, t["seat"]))


@effect("FOCUS")
def e_focus(sim, t, it, probe=False):
    if probe:
        return bool(q.player(sim.s, t["seat"])["deck"])
    _repeat(sim, t, it, lambda: ops.focus(sim, t["seat"]) is not None, from_top=True)


@effect("EXERT")
def e_exert(sim, t, it, probe=False):
    if probe:
        return q.can_exert(sim.s, t["seat"])
    pop(sim, t)  # the EXERTs go one at a time, an imprinted card on top resolving first (newest first)
    exert_later(sim, t["seat"], it.get("n", 1))


@effect("SPIRITUAL_LINK")
def e_link(sim, t, it, probe=False):
    """SPIRITUAL LINK (project definition): HEAL 1 for each master hit by this attack."""
    n = len(t["ctx"].get("hits", []))
    if probe:
        return n > 0 and bool(q.player(sim.s, t["seat"])["discard"])
    _repeat(sim, t, {"n": n}, lambda: ops.heal(sim, t["seat"]))


@effect("DELVE")
def e_delve(sim, t, it, probe=False):
    seat = t["seat"]
    if probe:
        return True
    if "ans" in t:
        pop(sim, t)
        sim.emit("TomeTurned", q.tome_turned(sim.s, seat, q.spread_after(sim.s, seat, t.pop("ans")["args"]["dir"])))
        return
    ask(t, seat, "delve", [C("turn_page", dir=d) for d in (1, -1) if q.spread_after(sim.s, seat, d) is not None])


@effect("BOOKMARK")
def e_bookmark(sim, t, it, probe=False):
    seat = t["seat"]
    if probe:
        return True
    if "ans" in t:
        pop(sim, t)
        sim.emit("TomeTurned", q.tome_turned(sim.s, seat, t.pop("ans")["args"]["spread"]))
        return
    ask(t, seat, "bookmark", [C("turn_to", spread=x) for x in q.bookmark_spreads(sim.s, seat)])


@effect("CHAIN")
def e_chain(sim, t, it, probe=False):
    seat = t["seat"]
    c = ops.top(sim, seat)
    if probe:
        return c is not None
    if imprint_first(sim, seat):
        return
    pop(sim, t)
    if c is None:
        return
    d = q.card_def(sim.s, c["d"])
    sim.emit("CardRevealed", {"seat": seat, "card": {"d": c["d"], "o": c["o"]}, "why": "chain"})
    if d["karma"] >= 6:
        ops.draw(sim, seat)
    else:
        ops.move(sim, seat, "deck", c, seat, "deck", "bottom")
        ops.check_top(sim, seat)


@effect("EMPOWER")
def e_empower(sim, t, it, probe=False):
    if probe:
        return t["ctx"].get("src") == "attack"
    pop(sim, t)
    atk = find_attack(sim, t["ctx"].get("aid"))
    if atk is not None:
        atk["empower"] = True


def master_candidates(s, seat, target):
    me = q.player(s, seat)
    out = []
    if target.get("self"):
        out = [seat]
    else:
        for who, pl in enumerate(s["players"]):
            if pl["dead"] or pl["pos"] is None or me["pos"] is None:
                continue
            if target.get("adjacent_all") and (who == seat or hx.distance(me["pos"], pl["pos"]) != 1):
                continue
            if "range" in target and hx.distance(me["pos"], pl["pos"]) > target["range"]:
                continue
            if "range" in target and who == seat:
                continue
            out.append(who)
    if target.get("status"):
        out = [w for w in out if q.status_count(s, w, target["status"])]
    if target.get("any_status"):
        out = [w for w in out if q.player(s, w)["st"]]
    return out


@effect("DAMAGE")
def e_damage(sim, t, it, probe=False):
    s, seat = sim.s, t["seat"]
    cands = [w for w in master_candidates(s, seat, it["target"]) if q.active(s, w)]
    if probe:
        return bool(cands)
    n = it.get("n", 0)
    if it.get("n_from") == "karma_count":
        n = min(len(q.player(s, seat)["karma"]), it.get("max", 99))
    if it["target"].get("adjacent_all"):
        pop(sim, t)
        for w in reversed(cands):
            ops.damage(sim, w, n, by=seat)
        return
    if "ans" in t:
        w = t.pop("ans")["args"]["master"]
        pop(sim, t)
        ops.damage(sim, w, n, by=seat)
        return
    if not cands:
        pop(sim, t)
        return
    ask(t, seat, "choose_master", [C("choose_master", master=w) for w in cands], {"effect": "DAMAGE", "n": n})


@effect("STATUS")
def e_status(sim, t, it, probe=False):
    s, seat = sim.s, t["seat"]
    cands = [w for w in master_candidates(s, seat, it["target"]) if q.can_gain_master(s, w, it["status"])]
    if probe:
        return bool(cands)
    if it["target"].get("adjacent_all"):
        pop(sim, t)
        place(sim, seat, it["status"], masters=cands)
        return
    if "ans" in t:
        w = t.pop("ans")["args"]["master"]
        pop(sim, t)
        ops.gain_master(sim, w, it["status"], seat)
        return
    if not cands:
        pop(sim, t)
        return
    ask(t, seat, "choose_master", [C("choose_master", master=w) for w in cands], {"effect": "STATUS", "status": it["status"]})


@effect("STATUS_SELF", "GUST")
def e_status_self(sim, t, it, probe=False):
    name = "WIND" if it["k"] == "GUST" else it["status"]
    if probe:
        return q.can_gain_master(sim.s, t["seat"], name)
    pop(sim, t)
    ops.gain_master(sim, t["seat"], name, t["seat"])


@effect("STATUS_HIT", "BLIND")
def e_status_hit(sim, t, it, probe=False):
    name = "BLIND" if it["k"] == "BLIND" else it["status"]
    cands = [h for h in hits(sim, t) if q.can_gain_master(sim.s, h, name)]
    if probe:
        return bool(cands)
    pop(sim, t)
    place(sim, t["seat"], name, masters=cands)


def space_choice(sim, t, cells, name, n, kind):
    """Let the controller choose up to ``n`` of ``cells`` to gain ``name`` (one at a time)."""
    s, seat = sim.s, t["seat"]
    t.setdefault("chosen", [])
    if "ans" in t:
        a = t.pop("ans")
        if a["type"] == "done":
            pop(sim, t)
            return
        ops.gain_space(sim, a["args"]["cell"], name, seat)
        t["chosen"].append(a["args"]["cell"])
    opts = [c for c in cells if c not in t["chosen"] and q.occupant(s, c) is None and q.can_gain_space(s, c, name)]
    if len(t["chosen"]) >= n or not opts:
        pop(sim, t)
        return
    ask(t, seat, kind, [C("choose_space", cell=c) for c in opts] + [C("done")], {"status": name})


@effect("STATUS_SPACES")
def e_status_spaces(sim, t, it, probe=False):
    s, seat = sim.s, t["seat"]
    pos = q.player(s, seat)["pos"]
    cells = sorted(c for c in s["cells"] if pos and hx.distance(pos, c) <= it.get("range", 99))
    if probe:
        return True
    space_choice(sim, t, cells, it["status"], it.get("n", 1), "status_spaces")


BLAZE_SPACES = 2


def blaze_cells(s, t, name) -> list:
    """The unoccupied targeted spaces that may still gain ``name`` (none once two were chosen)."""
    chosen = t.get("chosen", [])
    if len(chosen) >= BLAZE_SPACES:
        return []
    return [c for c in t["ctx"].get("tcells", []) if c not in chosen and q.occupant(s, c) is None
            and q.can_gain_space(s, c, name)]


def blaze_short(s, name, masters, cells, chosen) -> bool:
    """Too few tokens for every hit master and every space still open to the owner: the owner then
    orders the placements ("When placing multiple instances of the same status, the owner of the status
    chooses which order the statuses are placed", core "Status Tokens")."""
    return bool(masters) and bool(cells) and \
        s["supply"].get(q.supply_key(name), 0) < len(masters) + min(len(cells), BLAZE_SPACES - len(chosen))


@effect("BLAZE", "FROSTBITE")
def e_blaze(sim, t, it, probe=False):
    """Each hit master and up to 2 unoccupied targeted spaces gain BURN (FROSTBITE: FROST). With too
    few tokens for all of them the owner places them one at a time in the order they choose (hit
    masters must all gain one while tokens last; the spaces stay "up to 2")."""
    s = sim.s
    name = "BURN" if it["k"] == "BLAZE" else "FROST"
    if probe:
        return True
    if not t.get("masters_done"):
        t.setdefault("chosen", [])
        if "ans" in t:  # an ordered placement (short supply)
            a = t.pop("ans")["args"]
            if a["on"] == "master":
                ops.gain_master(sim, a["who"], name, t["seat"])
            else:
                ops.gain_space(sim, a["who"], name, t["seat"])
                t["chosen"].append(a["who"])
        masters = [h for h in hits(sim, t) if q.can_gain_master(s, h, name)]
        cells = blaze_cells(s, t, name)
        if blaze_short(s, name, masters, cells, t["chosen"]):
            ask(t, t["seat"], "place_status", [C("place_status", on="master", who=m) for m in masters]
                + [C("place_status", on="space", who=c) for c in cells], {"status": name})
            return
        t["masters_done"] = True
        place(sim, t["seat"], name, masters=masters)
        return
    space_choice(sim, t, t["ctx"].get("tcells", []), name, BLAZE_SPACES, "blaze_spaces")


@effect("FURY")
def e_fury(sim, t, it, probe=False):
    """Relocate each hit master, in the order the attacker chooses, to an adjacent legal space."""
    s = sim.s
    if "left_m" not in t:
        t["left_m"] = hits(sim, t)
    if "ans" in t:
        a = t.pop("ans")["args"]
        t["left_m"] = [m for m in t["left_m"] if m != a["master"]]
        ops.relocate(sim, a["master"], a["to"], chooser=t["seat"])
        return
    cmds = []
    for m in t["left_m"]:
        pos = q.player(s, m)["pos"]
        for n in hx.neighbours(pos):
            if ops.relocation_ok(s, m, n):
                cmds.append(C("relocate_master", master=m, to=n))
    if probe:
        return bool(cmds)
    if not cmds:
        pop(sim, t)
        return
    ask(t, t["seat"], "fury", cmds)


def relocate_choice(sim, t, cells, kind, allow_stay=True):
    s, seat = sim.s, t["seat"]
    if "ans" in t:
        a = t.pop("ans")
        pop(sim, t)
        if a["type"] == "relocate_to":
            ops.relocate(sim, seat, a["args"]["to"])
        return
    opts = [c for c in cells if ops.relocation_ok(s, seat, c)]
    if not opts:
        pop(sim, t)
        return
    ask(t, seat, kind, [C("relocate_to", to=c) for c in opts] + ([C("stay")] if allow_stay else []))


@effect("OVERRUN")
def e_overrun(sim, t, it, probe=False):
    s = sim.s
    cells = sorted({n for h in hits(sim, t) for n in hx.neighbours(q.player(s, h)["pos"])})
    if probe:
        return any(ops.relocation_ok(s, t["seat"], c) for c in cells)
    relocate_choice(sim, t, cells, "overrun")


@effect("FEINT", "RELOCATE")
def e_relocate(sim, t, it, probe=False):
    s = sim.s
    pos = q.player(s, t["seat"])["pos"]
    rng = 1 if it["k"] == "FEINT" else it.get("range", 1)
    cells = sorted(c for c in s["cells"] if c != pos and hx.distance(pos, c) <= rng)
    if probe:
        return any(ops.relocation_ok(s, t["seat"], c) for c in cells)
    relocate_choice(sim, t, cells, it["k"].lower())


def status_removal_options(s, masters, spaces):
    cmds = []
    for m in masters:
        for name in sorted(q.player(s, m)["st"]):
            cmds.append(C("remove_status", on="master", who=m, status=name))
    for c in spaces:
        for name in sorted(q.space_status(s, c)):
            cmds.append(C("remove_status", on="space", who=c, status=name))
    return cmds


def remove_status(sim, a):
    if a["on"] == "master":
        ops.lose_master(sim, a["who"], a["status"])
    else:
        ops.lose_space(sim, a["who"], a["status"])


def status_removal(sim, t, kind, masters, spaces, probe):
    """Ask ``t``'s seat which one status of ``masters`` or ``spaces`` to remove (nothing to remove:
    nothing happens), then remove it; ``probe``: whether there is anything to remove."""
    cmds = status_removal_options(sim.s, masters, spaces)
    if probe:
        return bool(cmds)
    if "ans" in t:
        pop(sim, t)
        remove_status(sim, t.pop("ans")["args"])
    elif not cmds:
        pop(sim, t)
    else:
        ask(t, t["seat"], kind, cmds)
    return None


@effect("PURIFY")
def e_purify(sim, t, it, probe=False):
    """Remove one status from a master or space targeted by this attack (a hit is not needed)."""
    masters = [m for m in t["ctx"].get("targets", []) if not q.player(sim.s, m)["dead"]]
    return status_removal(sim, t, "purify", masters, t["ctx"].get("tcells", []), probe)


@effect("REMOVE_STATUS")
def e_remove_status(sim, t, it, probe=False):
    return status_removal(sim, t, "remove_status", master_candidates(sim.s, t["seat"], it["target"]), [], probe)


@effect("EXPLODE")
def e_explode(sim, t, it, probe=False):
    """Remove the status from a space; masters on or adjacent take 4, two spaces away take 2."""
    s = sim.s
    cells = sorted(c for c, st in s["spst"].items() if it["status"] in st)
    if probe:
        return bool(cells)
    if "ans" in t:
        cell = t.pop("ans")["args"]["cell"]
        pop(sim, t)
        ops.lose_space(sim, cell, it["status"])
        dmg = []
        for who in q.turn_order_from(s, t["seat"]):
            pl = q.player(s, who)
            if pl["dead"] or pl["pos"] is None:
                continue
            d = hx.distance(cell, pl["pos"])
            if d <= 1:
                dmg.append((who, 4))
            elif d == 2:
                dmg.append((who, 2))
        for who, n in reversed(dmg):
            ops.damage(sim, who, n, by=t["seat"])
        return
    if not cells:
        pop(sim, t)
        return
    ask(t, t["seat"], "explode", [C("explode", cell=c) for c in cells], {"status": it["status"]})


@effect("BURST")
def e_burst(sim, t, it, probe=False):
    s = sim.s
    cands = [w for w, pl in enumerate(s["players"]) if pl["st"].get("SEED")]
    if probe:
        return bool(cands)
    if "ans" in t:
        w = t.pop("ans")["args"]["master"]
        pop(sim, t)
        n = 0
        while ops.lose_master(sim, w, "SEED"):
            n += 1
        ops.damage(sim, w, 2 * n, by=t["seat"])
        return
    if not cands:
        pop(sim, t)
        return
    ask(t, t["seat"], "choose_master", [C("choose_master", master=w) for w in cands], {"effect": "BURST"})


@effect("GROW")
def e_grow(sim, t, it, probe=False):
    s, seat = sim.s, t["seat"]
    plants = sorted(c for c, st in s["spst"].items() if "PLANT" in st)
    pos = q.player(s, seat)["pos"]
    dests = [n for n in hx.neighbours(pos) if q.terrain(s, n) is not None and not q.is_solid(s, n) and q.occupant(s, n) is None]
    cmds = [C("grow", frm=p, to=d) for p in plants for d in dests if d != p]
    if probe:
        return bool(cmds)
    if "ans" in t:
        a = t.pop("ans")["args"]
        pop(sim, t)
        owner = q.space_status(s, a["frm"])["PLANT"][-1]
        ops.lose_space(sim, a["frm"], "PLANT")
        ops.gain_space(sim, a["to"], "PLANT", owner)
        return
    if not cmds:
        pop(sim, t)
        return
    ask(t, seat, "grow", cmds)


@effect("BLEED")
def e_bleed(sim, t, it, probe=False):
    """Choose one hit master to IMPRINT this card: face up beneath their battle deck."""
    s, seat = sim.s, t["seat"]
    atk = find_attack(sim, t["ctx"].get("aid"))
    cands = hits(sim, t)
    if probe:
        return bool(cands) and atk is not None and not atk.get("bled")
    if "ans" in t:
        w = t.pop("ans")["args"]["master"]
        pop(sim, t)
        card = next((c for c in q.player(s, seat)["aside"] if c["id"] == atk["card"]["id"]), None)
        if card is None:
            return
        atk["bled"] = True
        ops.move(sim, seat, "aside", card, w, "deck", "bottom", {"im": True, "bl": True})
        ops.check_top(sim, w)
        return
    if not cands or atk is None:
        pop(sim, t)
        return
    ask(t, seat, "bleed", [C("choose_master", master=w) for w in cands])


@effect("WEAKEN")
def e_weaken(sim, t, it, probe=False):
    """WEAKEN (project definition): each hit master puts one card of their choice from their karma
    pool into their discard pile."""
    s = sim.s
    if "left_m" not in t:
        t["left_m"] = [h for h in hits(sim, t) if q.player(s, h)["karma"]]
    if probe:
        return bool(t.pop("left_m"))
    if "ans" in t:
        a = t.pop("ans")["args"]
        who = t["left_m"].pop(0)
        c = next(x for x in q.player(s, who)["karma"] if x["id"] == a["card"])
        ops.move(sim, who, "karma", c, who, "discard", "top")
        return
    t["left_m"] = [h for h in t["left_m"] if q.player(s, h)["karma"] and not q.player(s, h)["dead"]]
    if not t["left_m"]:
        pop(sim, t)
        return
    who = t["left_m"][0]
    ask(t, who, "weaken", [C("discard_karma", card=c["id"]) for c in q.player(s, who)["karma"]])


@effect("LOOK_REORDER")
def e_look(sim, t, it, probe=False):
    s, seat = sim.s, t["seat"]
    deck = q.player(s, seat)["deck"]
    top = []
    for c in deck:
        if c.get("im") or len(top) >= it.get("n", 4):
            break
        top.append(c)
    if probe:
        return len(top) > 1
    if "ans" in t:
        order = t.pop("ans")["args"]["order"]
        pop(sim, t)
        by_id = {c["id"]: c for c in top}
        sim.emit("DeckReordered", {"seat": seat, "cards": [by_id[i] for i in order]})
        return
    if len(top) < 2:
        pop(sim, t)
        return
    ids = [c["id"] for c in top]
    ask(t, seat, "reorder", [C("reorder", order=list(p)) for p in permutations(ids)],
        {"cards": [{"id": c["id"], "d": c["d"]} for c in top]})


@effect("DRAW_THEN_TOP")
def e_draw_then_top(sim, t, it, probe=False):
    s, seat = sim.s, t["seat"]
    if probe:
        return True
    n = it.get("n", 1)
    t.setdefault("drawn", 0)
    t.setdefault("placed", 0)
    if t["drawn"] < n:
        if imprint_first(sim, seat):
            return
        t["drawn"] += 1
        if not ops.draw(sim, seat):
            t["drawn"] = n
        return
    if "ans" in t:
        cid = t.pop("ans")["args"]["card"]
        c = next(x for x in q.player(s, seat)["hand"] if x["id"] == cid)
        ops.move(sim, seat, "hand", c, seat, "deck", "top")
        t["placed"] += 1
    hand = q.player(s, seat)["hand"]
    if t["placed"] >= n or not hand:
        pop(sim, t)
        return
    ask(t, seat, "put_on_top", [C("put_on_top", card=c["id"]) for c in hand])


@effect("STUPOR")
def e_stupor(sim, t, it, probe=False):
    if probe:
        return True
    pop(sim, t)
    if sim.s.get("turn"):
        sim.s["turn"]["stupor"] = True


@effect("ATTACK_BONUS")
def e_bonus(sim, t, it, probe=False):
    if probe:
        return True
    pop(sim, t)
    if sim.s.get("turn"):
        sim.s["turn"]["bonus"] = sim.s["turn"].get("bonus", 0) + it.get("n", 1)


@effect("DISCARD_KARMA")
def e_discard_karma(sim, t, it, probe=False):
    """The resolving player puts one card of their choice from their karma pool into their discard pile."""
    s, seat = sim.s, t["seat"]
    pool = q.player(s, seat)["karma"]
    if probe:
        return bool(pool)
    if "ans" in t:
        cid = t.pop("ans")["args"]["card"]
        pop(sim, t)
        c = next(x for x in pool if x["id"] == cid)
        ops.move(sim, seat, "karma", c, seat, "discard", "top")
        return
    if not pool:
        pop(sim, t)
        return
    ask(t, seat, "discard_karma", [C("discard_karma", card=c["id"]) for c in pool])


@effect("DISCARD")
def e_discard(sim, t, it, probe=False):
    """DISCARD n: "Place cards from your hand into your discard pile in any order you choose. Unlike
    LOSE, you cannot DISCARD from your battle deck." One card per answer; fewer if the hand runs out."""
    s, seat = sim.s, t["seat"]
    hand = q.player(s, seat)["hand"]
    if probe:
        return bool(hand)
    if "left" not in t:
        t["left"] = it.get("n", 1)
    if "ans" in t:
        cid = t.pop("ans")["args"]["card"]
        c = next(x for x in hand if x["id"] == cid)
        ops.move(sim, seat, "hand", c, seat, "discard", "top")
        t["left"] -= 1
        return
    if t["left"] <= 0 or not hand:
        pop(sim, t)
        return
    ask(t, seat, "discard", [C("discard_card", card=c["id"]) for c in hand], {"remaining": t["left"]})


def destroy_candidates(s, seat, target) -> list:
    return [(w, c["id"]) for w in master_candidates(s, seat, target) for c in q.player(s, w)["equip"]]


@effect("DESTROY")
def e_destroy(sim, t, it, probe=False):
    """DESTROY: "When you DESTROY equipment, return it to its owner's tome" - one equipped card of a
    master the target spec allows (as Returning Cards: a tome card back to its spot)."""
    s, seat = sim.s, t["seat"]
    cands = destroy_candidates(s, seat, it["target"])
    if probe:
        return bool(cands)
    if "ans" in t:
        a = t.pop("ans")["args"]
        pop(sim, t)
        c = next(x for x in q.player(s, a["master"])["equip"] if x["id"] == a["card"])
        return_card(sim, a["master"], "equip", c)
        return
    if not cands:
        pop(sim, t)
        return
    ask(t, seat, "destroy", [C("destroy_equipment", master=w, card=cid) for w, cid in cands])
