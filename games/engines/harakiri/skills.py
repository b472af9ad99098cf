"""Skill effects that need a decision after an attack (work items ``{"op": "skill"}``):
Hachiman's Wrath, Dragon Tail (Ryujin) and Susanoo's Fury."""

from . import act2, combat, content, rules
from .combat import NEGATIVE
from .work_queue import open_decision, take_choice
from .rules import armor_cap


def options(s, item):
    c = item["char"]
    ch = s["characters"][c]
    sk = item["skill"]
    if sk == "hachimans_wrath":
        missing = armor_cap(ch) - ch["armor"]
        n = item["amount"]
        return [{"armor": k, "health": n - k} for k in range(0, min(n, max(0, missing)) + 1)]
    if sk == "ryujin_l3":
        q = s["initiative"]["queue"]
        current = (s.get("turn") or {}).get("card")
        cards = [x for x in q if x != current]
        return [{"swap": None}] + [{"swap": [a, b]} for i, a in enumerate(cards) for b in cards[i + 1:]]
    if sk == "blinding_light":
        here = ch["sq"]
        near = sorted(e for e in rules.targetable_shogun(s) if e not in item["exclude"]
                      and rules.in_range(s, here, s["enemies"][e]["sq"], 2))
        out = [{"damage": {}}]
        for split in act2.splits(4, len(near)):
            out.append({"damage": {e: n for e, n in zip(near, split) if n}})
        return out if near else []
    if sk == "susanoo_l3":
        minions = sorted(e for e, en in s["enemies"].items() if en["kind"] == "minion" and not en.get("allied"))
        pairs = [[a, b] for i, a in enumerate(NEGATIVE) for b in NEGATIVE[i:]]
        return [{"minion": m, "conditions": p} for m in minions for p in pairs]
    return []


def process(w, item):
    if item["skill"] in act2.DECISIONS:
        act2.process(w, item)
        return
    s = w.s
    c = item["char"]
    choice = take_choice(w)
    if choice is None:
        opts = options(s, item)
        if len(opts) > 1:
            prompts = {"hachimans_wrath": "Hachiman's Wrath: split the damage dealt between armor and health",
                       "ryujin_l3": "Dragon Tail: swap two initiative cards?",
                       "susanoo_l3": "Susanoo's Fury: two negative conditions on which minion?",
                       "blinding_light": "Blinding Light: divide 4 damage among other enemies within range 2"}
            open_decision(w, item["skill"], s["control"][c], opts, prompts[item["skill"]])
            return
        choice = opts[0] if opts else None
    sk = item["skill"]
    if choice is not None:
        if sk == "hachimans_wrath":
            ch = s["characters"][c]
            if choice["armor"]:
                w.emit("ArmorChanged", who=c, set={"armor": ch["armor"] + choice["armor"]}, reason="Hachiman's Wrath")
            combat.heal(w, c, choice["health"], "Hachiman's Wrath")
        elif sk == "ryujin_l3" and choice["swap"]:
            q = list(s["initiative"]["queue"])
            a, b = choice["swap"]
            i, j = q.index(a), q.index(b)
            q[i], q[j] = q[j], q[i]
            w.emit("InitiativeSet", queue=q, reason="Dragon Tail")
        elif sk == "blinding_light":
            for e, n in sorted(choice["damage"].items()):
                if e in s["enemies"]:
                    combat.damage(w, e, n, attacker=c, reason="Blinding Light")
        elif sk == "susanoo_l3" and choice["minion"] in s["enemies"]:
            for cond in choice["conditions"]:
                combat.give_condition(w, choice["minion"], cond, "Susanoo's Fury")
    w.emit("WorkDone", op="skill")
