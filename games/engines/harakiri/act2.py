"""Skills of the Act 2 characters: Akane, Byakuei, Hanako and Takashi (rulebook appendix,
"Act 2"). Commands, techniques and decisions; the derived values (bonuses, Yastun Lad's place)
are in ``act2_values``, and what the skills do inside an attack or a defeat (Self Taught, Duel to
Death, Inspiration, Yastun Lad on a defeated enemy...) is in ``combat``, which runs those procedures.
Decisions go through work items ``{"op": "skill", "skill": ...}``; the skill list is
``catalogue.ACT2_SKILLS``."""

from . import combat, content, grid, rules
from .act2_values import LAD, active, arms, attack_discount, ki, lad_square, lad_target, tier
from .combat import NEGATIVE
from .work_queue import open_decision, take_choice

ATTACK_SKILLS = {"self_taught", "one_for_each", "good_for_both", "powered_hit", "come_here", "deadly",
                 "smell_the_blood", "duel_to_death", "upward_cut", "team_hit", "the_last_word"}
FAST_ONLY = {"upward_cut", "come_here"}
TECHNIQUES = {"recovery", "bite", "adrenaline", "lightnings_dance", "necessary_sacrifice", "ill_change_it",
              "come_together", "hits_rain", "blood_thirsty", "reborn_strength", "tactical_retreat", "new_breath"}
COMMANDS = {"lad", "nemesis"}
DECISIONS = {"intimidation", "one_for_each", "good_for_both", "nemesis_condition", "duel_to_death",
             "necessary_sacrifice"}
PRIORITIES = ("+health", "-health", "+defense", "-defense")
ATTRS = ("power", "dexterity", "spirit", "knowledge")
LAD_MOVE = 4


def cmd(type_, **args):
    return {"type": type_, "args": args}


def handles(command):
    t, a = command["type"], command["args"]
    return t in COMMANDS or (t == "technique" and a.get("skill") in TECHNIQUES)


def _order(sqs):
    return sorted(sqs, key=lambda k: (grid.xy(k)[1], grid.xy(k)[0]))


def _others_near(s, c, reach):
    here = s["characters"][c]["sq"]
    return sorted(o for o, och in s["characters"].items() if o != c and not och["defeated"] and och["sq"]
                  and grid.range_between(here, och["sq"]) <= reach)


def _foes_near(s, c, reach):
    here = s["characters"][c]["sq"]
    return sorted(e for e in rules.targetable_shogun(s) if grid.range_between(here, s["enemies"][e]["sq"]) <= reach)


# -- listing -------------------------------------------------------------------------------------------


def commands(s, c):
    ch = s["characters"][c]
    turn = s["turn"]
    in_action = turn["moving"] or turn["rolling"]
    out = []
    if active(s, c, "my_loyal_friend") and (not turn.get("lad_moved") or lad_square(s, c) is None):
        out += [cmd("lad", to=q) for q in lad_destinations(s, c)]
    if active(s, c, "nemesis") and (ch.get("nemesis_free") or ch.get("nemesis") not in s["enemies"]):
        out += [cmd("nemesis", target=e) for e in sorted(rules.targetable_shogun(s)) if e != ch.get("nemesis")]
    if not in_action and ch["ap"] >= 1:
        for sk in sorted(TECHNIQUES):
            if active(s, c, sk):
                for o in TECHNIQUE_OPTIONS[sk](s, c):
                    if o not in out:
                        out.append(o)
    return out


def lad_destinations(s, c):
    """Yastun Lad moves up to 4 squares (terrain counts; creatures do not block him: he is a
    token) and may end on an enemy, never on a character or a resistor. From the reserve he is
    first placed on a square adjacent to Akane."""
    here = lad_square(s, c)
    blocked = {r["sq"] for r in s["resistors"].values()}
    chars = {ch["sq"] for ch in s["characters"].values() if ch["sq"] and not ch["defeated"]}

    def standable(q):
        return q in s["squares"] and grid.terrain(s, q) not in ("obstacle", "inaccessible") and q not in blocked \
            and q not in chars

    if here is None:
        me = s["characters"][c]["sq"]
        starts = [q for q in grid.neighbours(me) if standable(q) and grid.adjacent(s, me, q)]
    else:
        starts = [here]
    mover = {"flying": False, "spectral": False, "elusive": False}
    out = set()
    for st in starts:
        out |= {q for q in grid.reachable(s, st, LAD_MOVE, mover, blocked) if standable(q)}
    if here is not None:
        out.discard(here)
    return _order(out)


def _recovery(s, c):
    n = ki(s, c, "recovery")
    who = [c] if n >= 3 else []
    if n >= 5:
        who += _others_near(s, c, 2)
    return [cmd("technique", skill="recovery", who=o, condition=k) for o in who for k in NEGATIVE
            if s["characters"][o]["conditions"][k]]


def _bite(s, c):
    return [cmd("technique", skill="bite")] if lad_target(s, c) and ki(s, c, "bite") >= 3 else []


def _adrenaline(s, c):
    n = tier(ki(s, c, "adrenaline"), [(2, 3, 1), (4, 6, 2)])
    combos = [[a] for a in ATTRS] if n == 1 else [[a, b] for i, a in enumerate(ATTRS) for b in ATTRS[i:]]
    out = []
    for combo in combos if n else []:
        if all(rules.attr(s, c, a) + combo.count(a) <= 3 for a in combo):
            out.append(cmd("technique", skill="adrenaline", attrs=combo))
    return out


def _lightnings_dance(s, c):
    ch, turn = s["characters"][c], s["turn"]
    ok = not turn["moved"] and not turn["attacked"] and ch["ap"] >= 3 and rules.weapon(s, c)["fast"]
    return [cmd("technique", skill="lightnings_dance")] if ok else []


def _necessary_sacrifice(s, c):
    return [cmd("technique", skill="necessary_sacrifice")]


def _ill_change_it(s, c):
    n = tier(ki(s, c, "ill_change_it"), [(4, 5, 1), (6, 6, 2)])
    if not n:
        return []
    out = []
    for src in [c] + _others_near(s, c, 2):
        have = [k for k in NEGATIVE if s["characters"][src]["conditions"][k]]
        groups = [[k] for k in have] + ([[a, b] for i, a in enumerate(have) for b in have[i + 1:]] if n == 2 else [])
        for e in _foes_near(s, c, 2):
            out += [cmd("technique", skill="ill_change_it", source=src, target=e, conditions=g) for g in groups]
    return out


def _come_together(s, c):
    q, pos = s["initiative"]["queue"], s["initiative"]["pos"]
    later = q[pos + 1:]
    out = []
    for i, a in enumerate(later):
        for b in later[i + 1:]:
            o = cmd("technique", skill="come_together", swap=[a, b])
            if a != b and o not in out:
                out.append(o)
    return out


def _sequences(targets, n):
    seqs = [[t] for t in targets]
    if n >= 2:
        seqs += [[a, b] for a in targets for b in targets]
    return seqs


def _attackable(s, c):
    reach = combat.char_reach(s, c, None)
    return sorted(e for e in rules.shogun_creatures(s) if rules.can_attack(s, c, e, reach))


def _hits_rain(s, c):
    n = arms(s, c)
    if not n or s["characters"][c]["ap"] < 2 or not rules.weapon(s, c)["fast"]:
        return []
    return [cmd("technique", skill="hits_rain", targets=t, focus=f) for t in _sequences(_attackable(s, c), n)
            for f in (False, True)]


def _blood_thirsty(s, c):
    if s["turn"]["attacked"] or s["characters"][c]["ap"] < 3 or not rules.weapon(s, c)["fast"]:
        return []
    pairs = [t for t in _sequences(_attackable(s, c), 2) if len(t) == 2]
    return [cmd("technique", skill="blood_thirsty", targets=t, focus=f) for t in pairs for f in (False, True)]


def _reborn_strength(s, c):
    return [cmd("technique", skill="reborn_strength")]


def _tactical_retreat(s, c):
    out = []
    for o in _others_near(s, c, 5):
        sq = s["characters"][o]["sq"]
        reach = grid.reachable(s, sq, 3, rules.mover_for(s, o), rules.occupied_for(s, "party"))
        out += [cmd("technique", skill="tactical_retreat", ally=o, to=q) for q in _order(reach)
                if q != sq and rules.endable(s, o, q)]
    return out


def _new_breath(s, c):
    q, pos = s["initiative"]["queue"], s["initiative"]["pos"]
    done = [x[5:] for x in q[:pos] if x.startswith("char:")]
    return [cmd("technique", skill="new_breath", ally=o) for o in _others_near(s, c, 10 ** 6)
            if o in done and f"char:{o}" not in q[pos + 1:]]


TECHNIQUE_OPTIONS = {
    "recovery": _recovery, "bite": _bite, "adrenaline": _adrenaline, "lightnings_dance": _lightnings_dance,
    "necessary_sacrifice": _necessary_sacrifice, "ill_change_it": _ill_change_it, "come_together": _come_together,
    "hits_rain": _hits_rain, "blood_thirsty": _blood_thirsty, "reborn_strength": _reborn_strength,
    "tactical_retreat": _tactical_retreat, "new_breath": _new_breath,
}


def come_here_options(s, c, mode, cost):
    """Come here: an enemy within range 3 (and in LOS) is placed next to Byakuei, then attacked."""
    ch = s["characters"][c]
    here = ch["sq"]
    free = [q for q in grid.neighbours(here) if grid.adjacent(s, here, q) and rules.free_square(s, q)]
    out = []
    for e in sorted(rules.shogun_creatures(s)):
        esq = s["enemies"][e]["sq"]
        if (grid.range_between(here, esq) > 3 or rules.hidden_in_terrain(s, e) or not rules.los(s, here, esq, "party")
                or ch["ap"] < cost - attack_discount(s, c, e)):
            continue
        dests = [esq] if grid.adjacent(s, here, esq) else _order(free)
        out += [cmd("attack", target=e, mode=mode, focus=f, skill="come_here", to=q) for q in dests
                for f in (False, True)]
    return out


# -- execution ---------------------------------------------------------------------------------------------


def execute(w, c, command):
    s = w.s
    t, a = command["type"], command["args"]
    if t == "lad":
        on = next((e for e in sorted(rules.shogun_creatures(s)) if s["enemies"][e]["sq"] == a["to"]), None)
        w.emit("AttributesChanged", who=c, set={"lad": {"sq": a["to"], "on": on}},
               reason=f"Yastun Lad moves to {a['to']}" + (f", onto {on}'s board" if on else ""))
        w.emit("TurnChanged", set={"lad_moved": True})
        return
    if t == "nemesis":
        w.emit("AttributesChanged", who=c, set={"nemesis": a["target"], "nemesis_free": False},
               reason=f"Nemesis marker on {a['target']}")
        return
    sk = a["skill"]
    combat.spend(w, c, 1, f"technique {sk}")
    w.emit("TechniqueUsed", who=c, skill=sk)
    ch = s["characters"][c]
    if sk == "recovery":
        combat.cleanse(w, a["who"], [a["condition"]])
    elif sk == "bite":
        bite(w, c)
    elif sk == "adrenaline":
        boost = dict(ch.get("boost") or {})
        for at in a["attrs"]:
            boost[at] = boost.get(at, 0) + 1
        w.emit("AttributesChanged", who=c, set={"boost": boost}, reason="Adrenaline (until the end of the turn)")
    elif sk == "lightnings_dance":
        combat.spend(w, c, 2, "Lightning's Dance (3 action points in all)")
        seen = _foes_adjacent(s, ch["sq"])
        w.emit("TurnChanged", set={"moved": True, "moving": True, "mp": rules.move_points(s, c), "attacked": True,
                                   "chained": seen, "chain_skill": "lightnings_dance"})
    elif sk == "necessary_sacrifice":
        cond = _random_condition(w)
        combat.give_condition(w, c, cond, "Necessary Sacrifice")
        amount = w.d6()
        w.emit("StateNote", note=f"Necessary Sacrifice: {cond}, {amount} health to share")
        w.emit("WorkPushed", items=[{"op": "skill", "skill": sk, "char": c, "amount": amount}], front=True)
    elif sk == "ill_change_it":
        for cond in a["conditions"]:
            combat.cleanse(w, a["source"], [cond])
            combat.give_condition(w, a["target"], cond, "I'll change it")
    elif sk == "come_together":
        q, pos = list(s["initiative"]["queue"]), s["initiative"]["pos"]
        i, j = q.index(a["swap"][0], pos + 1), q.index(a["swap"][1], pos + 1)
        q[i], q[j] = q[j], q[i]
        w.emit("InitiativeSet", queue=q, reason="Come together")
    elif sk in ("hits_rain", "blood_thirsty"):
        combat.spend(w, c, 1 if sk == "hits_rain" else 2, f"{sk} ({'2' if sk == 'hits_rain' else '3'} action points in all)")
        if sk == "blood_thirsty":
            w.emit("TurnChanged", set={"attacked": True})
        w.emit("AttributesChanged", who=c, set={"attacked_round": s["round"]}, reason=sk)
        first, rest = a["targets"][0], list(a["targets"][1:])
        combat.start_char_attack(w, c, [first], "fast", a["focus"], sk, extra={"queue": rest})
    elif sk == "reborn_strength":
        for o in _others_near(s, c, 3):
            och = s["characters"][o]
            if och["armor"] < 4 and rules.wears_armor(och):
                w.emit("ArmorChanged", who=o, set={"armor": och["armor"] + 1}, reason="Reborn Strength")
    elif sk == "tactical_retreat":
        sq = s["characters"][a["ally"]]["sq"]
        w.emit("CreatureMoved", who=a["ally"], set={"sq": a["to"]}, path=[sq, a["to"]], reason="Tactical Retreat")
    elif sk == "new_breath":
        combat.regain_ki(w, a["ally"], "New Breath")
        q, pos = list(s["initiative"]["queue"]), s["initiative"]["pos"]
        q.insert(pos + 1, f"char:{a['ally']}")
        w.emit("InitiativeSet", queue=q, reason=f"New Breath: {a['ally']} activates again after {c}")


def _foes_adjacent(s, sq):
    return sorted(e for e in rules.targetable_shogun(s) if grid.adjacent(s, sq, s["enemies"][e]["sq"]))


def _random_condition(w):
    """A random negative condition from the dice (5-6 rerolled so the four are equally likely)."""
    for _ in range(50):
        n = w.d6()
        if n <= 4:
            return NEGATIVE[n - 1]
    return NEGATIVE[0]  # pragma: no cover - 50 rerolls in a row


def bite(w, c):
    """Bite: Yastun Lad rolls Akane's weapon dice (fast with Ki 3-4, strong with 5-6), hits against
    the defense and armor of the enemy he is on; no power, no focus die, no counter attack."""
    s = w.s
    e = lad_target(s, c)
    wpn = rules.weapon(s, c)
    mode = "strong" if ki(s, c, "bite") >= 5 and wpn["strong"] else "fast" if wpn["fast"] else "strong"
    dice = [w.roll(d) for d in wpn[mode]]
    w.emit("EnemyAttackRolled", attacker=LAD, target=e, dice=dice, skill="bite", counter=False, blind=None)
    outcome = combat._outcome(dice)
    test = combat.test_face(dice)
    if outcome != "hit":
        if test and test["s"] == "fail":
            combat.reduce_armor(w, e, "test die fail")
        w.emit("AttackResolved", attacker=LAD, target=e, outcome=outcome)
        return
    hits = combat.impacts(dice)
    critical = bool(test and test["s"] == "critical")
    dmg = hits if critical else max(0, hits - rules.estat(s, e, "defense") - rules.estat(s, e, "armor"))
    w.emit("AttackResolved", attacker=LAD, target=e, outcome="hit", damage=dmg, critical=critical)
    killed = combat.damage(w, e, dmg, attacker=LAD, reason="Bite")
    if not killed and test and test["s"] in ("fail", "critical"):
        combat.reduce_armor(w, e, "test die " + test["s"])


# -- hooks called by the other modules ---------------------------------------------------------------------


def skill_activated(w, c, sid):
    """A Ki die was placed on ``sid``: Yastun Lad starts again from the reserve; Nemesis may be moved."""
    if sid == "my_loyal_friend":
        w.emit("AttributesChanged", who=c, set={"lad": None}, reason="Yastun Lad waits in Akane's reserve")
    elif sid == "nemesis":
        w.emit("AttributesChanged", who=c, set={"nemesis_free": True}, reason="Nemesis reactivated")


def before_attack(w, c, a):
    if a.get("skill") == "come_here":
        e = a["target"]
        sq = w.s["enemies"][e]["sq"]
        if a["to"] != sq:
            w.emit("CreatureMoved", who=e, set={"sq": a["to"]}, path=[sq, a["to"]], reason="Come here")


def craft_bonus(s, c):
    return tier(ki(s, c, "craft_improvement"), [(3, 4, 2), (5, 6, 3)]) if active(s, c, "craft_improvement") else 0


def round_start(w):
    s = w.s
    items = [{"op": "skill", "skill": "intimidation", "char": c} for c in rules.on_board_characters(s)
             if active(s, c, "intimidation")]
    if items:
        w.emit("WorkPushed", items=items, front=True)


def end_of_turn(w, c):
    s = w.s
    ch = s["characters"][c]
    if not ch["defeated"]:
        if active(s, c, "patch") and ch["armor"] < rules.armor_cap(ch):
            w.emit("ArmorChanged", who=c, set={"armor": ch["armor"] + 1}, reason="Patch")
        if active(s, c, "cautious"):
            n = tier(ki(s, c, "cautious"), [(2, 4, 1), (5, 6, 2)])
            w.emit("ArmorChanged", who=c, set={"armor_bonus": ch.get("armor_bonus", 0) + n},
                   reason="Cautious (until the end of the round)")
        if active(s, c, "full_of_resources_akane"):
            n = tier(ki(s, c, "full_of_resources_akane"), [(1, 2, 2), (3, 4, 3), (5, 6, 4)])
            ki_ = s["characters"][c]["ki"]
            add = max(0, min(n, ch["level"] - len(ki_["supply"]) - len(ki_["slots"])))
            if add:
                new = {"supply": ki_["supply"] + [w.d6() for _ in range(add)], "slots": dict(ki_["slots"]),
                       "exhausted": max(0, ki_["exhausted"] - add)}
                w.emit("KiChanged", who=c, set={"ki": new}, reason="Full of resources")
    if s["characters"][c].get("boost"):
        w.emit("AttributesChanged", who=c, set={"boost": {}}, reason="Adrenaline ends")


# -- decisions -------------------------------------------------------------------------------------------------


def splits(total, k):
    """Every way to divide ``total`` among ``k`` recipients (damage or health to share out)."""
    if k == 0:
        return []
    if k == 1:
        return [[total]]
    return [[n] + rest for n in range(total, -1, -1) for rest in splits(total - n, k - 1)]


def options(s, item):
    c = item["char"]
    sk = item["skill"]
    here = s["characters"][c]["sq"]
    if sk == "intimidation":
        return [{"priority": None}] + [{"priority": p} for p in PRIORITIES]
    if sk == "one_for_each":
        reach = combat.char_reach(s, c, None)
        return [{"target": None}] + [{"target": e} for e in _foes_adjacent(s, here)
                                     if rules.can_attack(s, c, e, reach)]
    if sk == "good_for_both":
        return [{"ally": None}] + [{"ally": o} for o in _others_near(s, c, 2) if combat.has_conditions(s, o)]
    if sk == "nemesis_condition":
        return [{"condition": k} for k in NEGATIVE] if item["target"] in s["enemies"] else []
    if sk == "duel_to_death":
        near = _others_near(s, c, 3) + _foes_near(s, c, 3)
        near += sorted(e for e, en in s["enemies"].items() if en.get("allied")
                       and grid.range_between(here, en["sq"]) <= 3)
        return [{"target": None}] + [{"target": x} for x in near]
    if sk == "necessary_sacrifice":
        who = [c] + _others_near(s, c, 2)
        who = [o for o in who if s["characters"][o]["health"] < s["characters"][o]["max_health"]]
        return [{"health": dict(zip(who, sp))} for sp in splits(item["amount"], len(who))]
    return []


PROMPTS = {
    "intimidation": "Intimidation: the tiebreaker every enemy applies this round?",
    "one_for_each": "One for each: a free fast attack on another adjacent enemy?",
    "good_for_both": "Good for both: which ally within range 2 discards all negative conditions?",
    "nemesis_condition": "Nemesis: which negative condition does the marked enemy suffer?",
    "duel_to_death": "Duel to Death: transfer all your negative conditions to whom (range 3)?",
    "necessary_sacrifice": "Necessary Sacrifice: share the health among you and your allies within range 2",
}


def process(w, item):
    s = w.s
    c = item["char"]
    sk = item["skill"]
    choice = take_choice(w)
    if choice is None:
        opts = options(s, item)
        if len(opts) > 1:
            open_decision(w, sk, s["control"][c], opts, PROMPTS[sk])
            return
        choice = opts[0] if opts else None
    w.emit("WorkDone", op="skill")
    if choice is None or s["characters"][c]["defeated"] and sk != "intimidation":
        return
    if sk == "intimidation" and choice["priority"]:
        w.emit("RoundEffectAdded", effect={"type": "intimidation", "priority": choice["priority"], "by": c})
    elif sk == "one_for_each" and choice["target"] in s["enemies"]:
        combat.start_char_attack(w, c, [choice["target"]], "fast", False, None)
    elif sk == "good_for_both" and choice["ally"]:
        combat.cleanse(w, choice["ally"])
    elif sk == "nemesis_condition" and item["target"] in s["enemies"]:
        combat.give_condition(w, item["target"], choice["condition"], "Nemesis")
    elif sk == "duel_to_death" and choice["target"] and rules.creature(s, choice["target"]):
        conds = dict(s["characters"][c]["conditions"])
        combat.cleanse(w, c)
        for k in NEGATIVE:
            for _ in range(conds[k]):
                combat.give_condition(w, choice["target"], k, "Duel to Death")
    elif sk == "necessary_sacrifice":
        for o, n in sorted(choice["health"].items()):
            combat.heal(w, o, n, "Necessary Sacrifice")
