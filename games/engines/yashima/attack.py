"""The attack action, tournament "Attack Action Breakdown" (see docs/games/yashima.md).

1.1 token (taken by ``flow.turn_exec``), 1.2 rotate and 1.3 reveal happen in ``start_attack``; the
"attack" task it pushes does 1.4 attack changes, 2 targets and defenses in turn order, 3 damage and
hits, 4 card effects top to bottom, 5 the attack card is USEd (or EMPOWERed / BLEEDed) and follow-up
attacks (a CHAIN follow-up calls ``start_attack`` again).
"""

from . import hexgrid as hx
from . import ops
from . import queries as q
from .ops import exert_later, exert_or_wait
from .stack import C, ask, find_attack, handler, pop


def start_attack(sim, seat, card_id, facing, no_token=False):
    s = sim.s
    pl = q.player(s, seat)
    rotated = facing != pl["facing"]
    ops.face(sim, seat, facing)
    card = next(c for c in pl["hand"] if c["id"] == card_id)
    moved = ops.move(sim, seat, "hand", card, seat, "aside", "bottom")
    s["stacks"]["main"].append({"k": "attack", "aid": sim.rng.token(4), "seat": seat, "card": moved, "rotated": rotated,
                                "no_token": no_token, "step": "start"})


def exerts_before_defense(s, atk) -> int:
    """EXERTs a defender owes before their defense resolves: the attacker's passive (Lu Bu: a master
    who defends against him EXERTs) is paid first, so it uses up cards a defense's own EXERT needs."""
    hook = q.passive(s, atk["seat"], "defended_exert")
    return hook["defended_exert"] if hook else 0


def defense_options(s, seat, atk):
    """The defense cards ``seat`` may play. One needing an EXERT (CLASH, DODGE) is not offered when it
    cannot be paid after the EXERTs owed before it (DEFENSE EFFECT: "If you are EXHAUSTED, you may not
    play a defense effect that requires you to EXERT")."""
    pl = q.player(s, seat)
    before = exerts_before_defense(s, atk)
    cmds = []
    for c in pl["hand"]:
        e = q.effective(s, seat, c["d"])
        k = e["defense"]
        if not k:
            continue
        if k == "CLASH" and not q.can_exert(s, seat, 1 + before):
            continue
        if k == "DODGE" and not dodge_options(s, seat, extra=1 + before):
            continue
        cmds.append(C("defend", card=c["id"]))
    return cmds


def dodge_options(s, seat, extra=0):
    pl = q.player(s, seat)
    out = []
    for n in hx.neighbours(pl["pos"]):
        if not q.legal_space(s, n) or q.terrain(s, n) == "arduous":
            continue
        cost = extra + q.combat_exerts(s, seat, pl["pos"], n) + (1 if q.is_deadly(s, n) else 0)
        if cost and not q.can_exert(s, seat, cost):
            continue
        out.append(n)
    return out


@handler("attack")
def h_attack(sim, t):
    s, seat = sim.s, t["seat"]
    step = t["step"]
    if step == "start":
        start(sim, t)
        t["step"] = "defend"
        return
    if step == "defend":
        if "ans" in t:
            a = t.pop("ans")
            tg = t["targets"][t["i"]]
            t["i"] += 1
            if a["type"] == "defend":
                defend(sim, t, tg, a["args"]["card"])
            return
        while t["i"] < len(t["targets"]):
            tg = t["targets"][t["i"]]
            if tg["swift"] or t["swift"] or not q.active(s, tg["seat"]):
                t["i"] += 1
                continue
            cmds = defense_options(s, tg["seat"], t)
            if not cmds:
                t["i"] += 1
                continue
            ask(t, tg["seat"], "defense", cmds + [C("no_defense")], {"attacker": seat, "card": t["card"]["d"], "atk": tg["atk"]})
            return
        t["step"] = "damage"
        return
    if step == "damage":
        hits = []
        loses = []
        for tg in t["targets"]:
            who = tg["seat"]
            if not q.active(s, who):
                continue
            if tg["dodged"] and q.player(s, who)["pos"] not in t["tcells"]:
                tg["all"] = True
            dmg = 0 if tg["all"] else max(0, tg["atk"] - tg["prevent"])
            tg["dealt"] = dmg
            if dmg > 0:
                hits.append(who)
                loses.append((who, dmg))
        t["hits"] = hits
        t["step"] = "effects"
        for who, dmg in reversed(loses):
            ops.damage(sim, who, dmg, karma_first=t["stupor"], by=seat)
        return
    if step == "effects":
        t["step"] = "finish"
        if t["effects"]:
            ctx = {"src": "attack", "aid": t["aid"], "attacker": seat, "hits": t["hits"], "tcells": t["tcells"],
                   "targets": [tg["seat"] for tg in t["targets"]]}
            ops.push(sim, {"k": "effects", "seat": seat, "items": t["effects"], "i": 0, "ctx": ctx, "optional": True})
        return
    if step == "finish":
        pl = q.player(s, seat)
        card = next((c for c in pl["aside"] if c["id"] == t["card"]["id"]), None)
        if card is not None and t.get("empower") and "ans" not in t:
            ask(t, seat, "empower", [C("empower", to="karma"), C("empower", to="top"), C("empower", to="bottom")])
            return
        if card is not None:
            a = t.pop("ans", None)
            dest = a["args"]["to"] if a else "bottom"
            if dest == "karma":
                ops.to_karma(sim, seat, "aside", card)
            elif dest == "top":
                ops.move(sim, seat, "aside", card, seat, "deck", "top")
            else:
                ops.use(sim, seat, "aside", card)
        t["step"] = "follow"
        return
    if step == "follow":
        if "ans" in t:
            a = t.pop("ans")
            pop(sim, t)
            if a["type"] == "chain_attack":
                start_attack(sim, seat, a["args"]["card"], a["args"]["facing"], no_token=True)
            ops.deplete_check(sim)
            return
        hook = q.passive(s, seat, "chain_followup")
        if hook and "CHAIN" in t["keywords"] and q.active(s, seat):
            cmds = [C("chain_attack", card=c["id"], facing=f) for c in q.player(s, seat)["hand"]
                    if q.card_def(s, c["d"])["karma"] >= hook["chain_followup"] for f in range(6)]
            if cmds:
                ask(t, seat, "chain_followup", cmds + [C("decline_chain")])
                return
        pop(sim, t)
        ops.deplete_check(sim)


def start(sim, t):
    """1.4 attack changes and pattern, 2.1 targets (masters in the pattern, team-mates and self included)."""
    s, seat = sim.s, t["seat"]
    pl = q.player(s, seat)
    e = q.effective(s, seat, t["card"]["d"])
    mods = {m["k"] for m in e["mods"]}
    pattern = [list(x) for x in e["pattern"]]
    for m in e["mods"]:  # 1.4.1 effects that change the attack pattern
        if m["k"] == "PATTERN_PLUS":
            pattern += [list(x) for x in m["cells"] if list(x) not in pattern]
    tcells = [c for c in hx.pattern_cells(pl["pos"], pl["facing"], pattern) if q.terrain(s, c) is not None]
    base = e["atk"]
    turn = s.get("turn") or {}
    if turn.get("seat") == seat and turn.get("bonus"):
        base += turn["bonus"]
        turn["bonus"] = 0
    base += q.equip_bonus(s, seat, "atk")
    hook = q.passive(s, seat, "atk_bonus_keyword")
    if hook and hook["atk_bonus_keyword"] in e["keywords"]:
        base += hook["n"]
    chi = q.status_count(s, seat, "CHI")
    for _ in range(chi):
        ops.lose_master(sim, seat, "CHI")
    base += chi
    if "PATIENCE" in mods and not t["rotated"]:
        base += 2
    if "COMBO" in mods:
        base += len(pl["hand"])
    adj = q.passive(s, seat, "adjacent_bonus")
    order = q.turn_order_from(s, seat)
    targets = []
    for who in order:
        other = q.player(s, who)
        if other["dead"] or other["pos"] not in tcells:
            continue
        atk = base
        swift = False
        if "KINDLE" in mods and q.status_count(s, who, "BURN"):
            atk += 3
        if "AMBUSH" in mods and who != seat and other["facing"] == pl["facing"]:
            atk += 1
            swift = True
        if "FURY" in e["keywords"] and q.status_count(s, who, "RANCOR"):
            atk += 2
        if adj and who != seat and hx.distance(pl["pos"], other["pos"]) == 1:
            atk += adj["adjacent_bonus"]
        targets.append({"seat": who, "atk": atk, "swift": swift, "prevent": 0, "all": False, "dodged": False, "defended": False})
    stupor = bool(turn.get("seat") == seat and turn.get("stupor"))
    if stupor:
        turn["stupor"] = False
    t.update({"tcells": tcells, "targets": targets, "i": 0, "swift": "SWIFT" in mods, "effects": e["effects"],
              "keywords": e["keywords"], "karma": e["karma"], "stupor": stupor, "hits": []})
    sim.emit("AttackDeclared", {"seat": seat, "card": {"d": t["card"]["d"], "o": t["card"]["o"]}, "facing": pl["facing"],
                                "cells": tcells, "targets": [{"seat": tg["seat"], "atk": tg["atk"]} for tg in targets]})


def defend(sim, t, tg, card_id):
    """2.2 one defense card per targeted master, resolved at once (by the "defense" task, after
    any EXERT the attacker's passive demands and the imprints that EXERT uncovers)."""
    s = sim.s
    who = tg["seat"]
    card = next(c for c in q.player(s, who)["hand"] if c["id"] == card_id)
    k = q.effective(s, who, card["d"])["defense"]
    tg["defended"] = True
    sim.emit("CardRevealed", {"seat": who, "card": {"d": card["d"], "o": card["o"]}, "why": "defense:" + k})
    ops.push(sim, {"k": "defense", "seat": who, "aid": t["aid"], "ti": t["targets"].index(tg), "card": card_id,
                   "kind": k, "step": "card"})
    exert_later(sim, who, exerts_before_defense(s, t))


@handler("defense")
def h_defense(sim, d):
    s, who, k = sim.s, d["seat"], d["kind"]
    t = find_attack(sim, d["aid"])
    pl = q.player(s, who)
    if t is None or pl["dead"]:
        pop(sim, d)
        return
    tg, attacker = t["targets"][d["ti"]], t["seat"]
    if d["step"] == "clash":  # each EXERT waits for an imprint it uncovers before the next / the comparison
        side = who if "mine" not in d else attacker
        done, c = exert_or_wait(sim, side)
        if not done:
            return
        val = q.card_def(s, c["d"])["karma"] if c else 0
        if "mine" not in d:
            d["mine"] = val
            return
        pop(sim, d)
        tg["clash"] = [d["mine"], val]
        if d["mine"] > val:
            tg["all"] = True
        else:
            tg["prevent"] += 4
        return
    pop(sim, d)
    card = next((c for c in pl["hand"] if c["id"] == d["card"]), None)
    if card is None:  # the card left the hand while an imprint resolved: no defense
        return
    if k in ("BLOCK", "SPIRIT_SHIELD", "COUNTER"):
        ops.use(sim, who, "hand", card)
    else:
        ops.move(sim, who, "hand", card, who, "discard", "top")
    if k == "BLOCK":
        tg["prevent"] += 3
    elif k == "CLASH":
        ops.push(sim, dict(d, step="clash"))
    elif k == "DODGE":
        ops.push(sim, {"k": "dodge", "seat": who, "aid": t["aid"]})
        exert_later(sim, who, 1)
    elif k == "RIPOSTE":
        tg["prevent"] += 2
        ops.damage(sim, attacker, 3, src="riposte", by=who)
    elif k == "BARRIER":
        tg["prevent"] += len(pl["karma"])
    elif k == "OCCUPY":
        tg["prevent"] += 2
        exert_later(sim, attacker, 1)
    elif k == "SPIRIT_SHIELD":
        tg["prevent"] += 2
        ops.heal(sim, who)
    elif k == "COUNTER":
        tg["prevent"] += 2
        ops.gain_master(sim, who, "CHI", who)


@handler("dodge")
def h_dodge(sim, t):
    s, seat = sim.s, t["seat"]
    if q.player(s, seat)["pos"] is None:
        pop(sim, t)
        return
    if "ans" in t:
        to = t["to"] = t.pop("ans")["args"]["to"]
        pos = q.player(s, seat)["pos"]
        exert_later(sim, seat, q.combat_exerts(s, seat, pos, to) + (1 if q.is_deadly(s, to) else 0))
        return
    if "to" in t:  # the EXERTs (and any imprint they uncovered) are resolved: move
        to = t.pop("to")
        pop(sim, t)
        if not q.legal_space(s, to):
            return
        ops.enter(sim, seat, to)
        atk = find_attack(sim, t["aid"])
        if atk:
            for tg in atk["targets"]:
                if tg["seat"] == seat:
                    tg["dodged"] = True
        ops.forced_relocation(sim, seat)
        return
    opts = dodge_options(s, seat)
    if not opts:
        pop(sim, t)
        return
    ask(t, seat, "dodge", [C("dodge_to", to=c) for c in opts])
