"""Enemy activation: minion tables, servant/wanderer lines, chosen AI decks, targets, movement.

An activation is the work item ``{"op": "enemy", "enemy": id, "stage": ...}`` started by the
SYSTEM command ``activate_enemy``. Ties the rulebook leaves to the players (targets, squares)
become party decisions; the item is processed again with the answer.
"""

from . import act2_values, combat, content, grid, passives, rules, special_terrain
from .work_queue import open_decision, take_choice, update_item


def _line_lookup(s, e, item):
    return item["lines"][item["i"]]


def select_lines(w, e):
    """Roll the test die / draw the AI card; returns (lines, info)."""
    s = w.s
    en = s["enemies"][e]
    brd = rules.board(s, e)
    if en["kind"] == "chosen":
        return passives.draw_ai_card(w, e)
    roll = w.roll("test")["n"]
    if en["kind"] == "minion":
        table = brd["aggressive"] if s["oracle"]["color"] == "red" else brd["normal"]
        for entry in table:
            if roll in entry["die"]:
                return entry["lines"], {"roll": roll, "table": "aggressive" if table is brd["aggressive"] else "normal"}
        return [], {"roll": roll}
    lines = brd["lines"]
    start = next((i for i, ln in enumerate(lines) if roll in ln.get("die", [])), len(lines))
    return lines[start:], {"roll": roll}


# -- targets --------------------------------------------------------------------------------------


def candidate_targets(s, e):
    side = rules.side_of(s, e)
    out = [t for t in rules.foes_of(s, side) if not rules.hidden_in_terrain(s, t)]
    if side == "shogun":
        out += [r for r, res in s["resistors"].items() if res["tokens"] > 0]
    return out


def resistor_like(s, e, t):
    if t in s["resistors"]:
        return True
    en = s["enemies"].get(t)
    return bool(en and en.get("allied") and en["kind"] == "wanderer" and rules.side_of(s, e) == "shogun")


def target_sq(s, t):
    if t in s["resistors"]:
        return s["resistors"][t]["sq"]
    return rules.sq_of(s, t)


def can_hit(s, e, t, reach, from_sq):
    """Attack range and LOS from ``from_sq`` (resistors are targeted like creatures)."""
    en = s["enemies"][e]
    tsq = target_sq(s, t)
    if tsq is None or tsq == from_sq or grid.terrain(s, from_sq) in grid.STATIC_BLOCKING:
        return False  # a spectral creature inside occupied terrain "cannot target ... any attack"
    if en["conditions"]["downed"] and not grid.adjacent(s, from_sq, tsq):
        return False  # downed: "can only attack adjacent targets" (LOS still needed)
    side = rules.side_of(s, e)
    occ = grid.terrain_los_occupied(s, from_sq, tsq)
    if grid.height(s, from_sq) == grid.height(s, tsq):
        occ |= rules.occupied_for(s, side)
        occ.discard(en["sq"])
    return rules.in_range(s, from_sq, tsq, reach) and grid.has_los(s, from_sq, tsq, occ)


def destinations(s, e):
    """{square: moves} the enemy can end its movement on (its own square included), with the
    fewest moves any path within its movement takes there. A spectral creature may end inside
    occupied terrain; ``can_hit`` then rules out attacking from there, so a line with an attack
    never picks such a square."""
    en = s["enemies"][e]
    side = rules.side_of(s, e)
    occ = rules.occupied_for(s, side)
    reach = grid.fewest_moves(s, en["sq"], rules.estat(s, e, "movement"), rules.mover_for(s, e), occ)
    taken = rules.taken_squares(s, exclude=e)
    out = {}
    for sq, steps in reach.items():
        if sq in taken or grid.terrain(s, sq) in ("obstacle", "inaccessible") and not rules.is_spectral(s, e):
            continue
        out[sq] = steps
    return out


def plan_for_target(s, e, line, t, dests):
    """Squares (with fewest moves) from which the line resolves against target t, or []."""
    en = s["enemies"][e]
    atk = line.get("attack")
    reach = (atk or {}).get("range") or rules.estat(s, e, "range")
    mv = line.get("move")
    tsq = target_sq(s, t)
    if tsq is None:
        return []
    if mv is None:
        if atk and can_hit(s, e, t, reach, en["sq"]):
            return [en["sq"]]
        return []
    if mv["of"] == "ally":
        allies = [a for a, ae in s["enemies"].items() if a != e and ae["type"] == en["type"]
                  and ae.get("allied") == en.get("allied")]
        ok = [d for d in dests if any(grid.adjacent(s, d, s["enemies"][a]["sq"]) for a in allies)]
    elif mv["cond"] == "adjacent":
        ok = [d for d in dests if grid.adjacent(s, d, tsq)]
    elif mv["cond"] in ("toward", "away"):
        if not dests:
            return []
        ranges = {d: grid.range_between(d, tsq) for d in dests}
        best = min(ranges.values()) if mv["cond"] == "toward" else max(ranges.values())
        ok = [d for d in dests if ranges[d] == best]
    else:  # range X with LOS
        x = mv.get("x", 1)
        side = rules.side_of(s, e)
        ok = []
        for d in dests:
            occ = grid.terrain_los_occupied(s, d, tsq)
            if grid.height(s, d) == grid.height(s, tsq):
                occ |= rules.occupied_for(s, side)
            if rules.in_range(s, d, tsq, x) and grid.has_los(s, d, tsq, occ):
                ok.append(d)
    if atk:
        ok = [d for d in ok if can_hit(s, e, t, reach, d)]
    if not ok:
        return []
    fewest = min(dests[d] for d in ok)
    return sorted([d for d in ok if dests[d] == fewest], key=lambda k: (grid.xy(k)[1], grid.xy(k)[0]))


def target_health(s, t):
    if t in s["resistors"]:
        return s["resistors"][t]["tokens"]
    if rules.is_double(s, t):  # targeted as if it were its owner
        return rules.creature_health(s, s["enemies"][t]["double_of"])
    return rules.creature_health(s, t)


def target_defense(s, t):
    if t in s["characters"]:
        return rules.char_defense(s, t)
    if t in s["enemies"]:
        return rules.estat(s, t, "defense")
    return 0


def initiative_index(s, t):
    if rules.is_double(s, t):  # it activates on its owner's card
        t = s["enemies"][t]["double_of"]
    q = s["initiative"]["queue"]
    for i, card in enumerate(q):
        kind, _, ident = card.partition(":")
        if ident == t or (kind == "color" and s["enemies"].get(t, {}).get("color") == ident):
            return i
    return len(q)


def next_initiative_rank(s, t):
    """How soon t activates after the current card: the cards after it in queue order, then the
    ones already played this round (read on from the start); face-down cards tie behind all."""
    q = s["initiative"]["queue"]
    i = initiative_index(s, t)
    if i >= len(q):
        return len(q)
    return (i - s["initiative"]["pos"] - 1) % len(q)


def prioritise(s, e, line, cands):
    """Resistors first; then the line's priority icon; the remaining ties go to the party."""
    res = [t for t in cands if resistor_like(s, e, t)]
    if res:
        return res
    prio = act2_values.intimidation(s) or line.get("priority")
    if prio in ("+defense", "-defense"):
        pick = max if prio == "+defense" else min
        best = pick(target_defense(s, t) for t in cands)
        return [t for t in cands if target_defense(s, t) == best]
    if prio == "+health":
        best = max(target_health(s, t) for t in cands)
        return [t for t in cands if target_health(s, t) == best]
    if prio == "-health":
        best = min(target_health(s, t) for t in cands)
        return [t for t in cands if target_health(s, t) == best]
    if prio == "first_initiative":
        best = min(initiative_index(s, t) for t in cands)
        return [t for t in cands if initiative_index(s, t) == best]
    if prio == "next_initiative":
        best = min(next_initiative_rank(s, t) for t in cands)
        return [t for t in cands if next_initiative_rank(s, t) == best]
    return cands


def target_tie_breaker(s, e):
    """Who picks among targets tied by priority: the players collectively, but for Yomi's Servant its
    owner ("If there are multiple targets available with the same priority, you decide who to
    attack")."""
    owner = s["enemies"][e].get("owner")
    if owner in s["characters"] and not s["characters"][owner]["defeated"]:
        return s["control"][owner]
    return "party"


def plan_line(s, e, line):
    """{target: [squares]} for every eligible target, or {} if the line cannot be resolved."""
    dests = destinations(s, e) if line.get("move") else {}
    plans = {}
    for t in candidate_targets(s, e):
        sqs = plan_for_target(s, e, line, t, dests)
        if sqs:
            plans[t] = sqs
    return plans


# -- the work item --------------------------------------------------------------------------------


def process(w, item):
    s = w.s
    e = item["enemy"]
    if e not in s["enemies"]:
        done(w, e)
        return
    stage = item["stage"]
    if stage == "start":
        en = s["enemies"][e]
        if en["conditions"]["bleeding"]:
            combat.damage(w, e, en["conditions"]["bleeding"], reason="bleeding")
            if e not in w.s["enemies"]:
                done(w, e)
                return
        lines, info = select_lines(w, e)
        w.emit("EnemyActivated", enemy=e, lines=[ln["n"] for ln in lines], **info)
        distraction = None
        if s.get("distraction") and rules.side_of(s, e) == "shogun":
            distraction = s["distraction"]
            w.emit("DistractionUsed", by=distraction, enemy=e)
        update_item(w, stage="lines", lines=lines, i=0, target=None, square=None, distraction=distraction)
        return
    if stage == "lines":
        choice = take_choice(w)
        if choice:
            item = update_item(w, **choice)
        while item["i"] < len(item["lines"]):
            line = item["lines"][item["i"]]
            plans = plan_line(s, e, line)
            if not plans:
                item = update_item(w, i=item["i"] + 1, target=None, square=None)
                continue
            target = item.get("target")
            if (target is None or target not in plans) and item.get("distraction") and line.get("attack"):
                by = item["distraction"]
                if len(plans) > 1 and by in s["characters"] and not s["characters"][by]["defeated"]:
                    open_decision(w, "distraction", s["control"][by], [{"target": t} for t in sorted(plans)],
                                  f"Distraction: {by} chooses which target {e} attacks.", {"enemy": e})
                    return
            if target is None or target not in plans:
                best = prioritise(s, e, line, sorted(plans))
                if len(best) > 1:
                    open_decision(w, "enemy_target", target_tie_breaker(s, e), [{"target": t} for t in best],
                                  f"{e} line {line['n']}: which target (tied by priority)?", {"enemy": e})
                    return
                target = best[0]
            squares = plans[target]
            sq = item.get("square")
            if sq is None or sq not in squares:
                if len(squares) > 1:
                    open_decision(w, "enemy_square", "party", [{"target": target, "square": q} for q in squares],
                                  f"{e} moves toward {target}: which square (same fewest moves)?", {"enemy": e})
                    return
                sq = squares[0]
            resolve_line(w, e, line, target, sq)
            return
        w.emit("EnemyLineChosen", enemy=e, line=None, note="no line can be fully resolved")
        done(w, e)
        return
    if stage == "retarget":
        choice = take_choice(w)
        if choice is None:  # pragma: no cover - the decision is always answered first
            return
        attack_part(w, e, item["line_def"], choice["target"])
        return
    if stage == "counter":
        choice = take_choice(w)
        c = item["target"]
        if choice and choice.get("counter") and c in s["characters"] and not s["characters"][c]["defeated"] \
                and e in s["enemies"]:
            counter_attack(w, c, e, "fast", choice.get("focus", False))
            return
        done(w, e)
        return
    if stage == "countered":  # "After resolving the attack, the enemy's activation then continues"
        done(w, e)
        return
    if stage == "skill_counter":
        choice = take_choice(w)
        c = item["target"]
        ch = s["characters"][c]
        ready = {k: v for k, v in (ch.get("counter_ready") or {}).items() if k != "due"}
        if choice and choice.get("counter") and not ch["defeated"] and e in s["enemies"]:
            w.emit("CounterReadied", who=c, set={"counter_ready": None}, reason="Counter Attack skill")
            counter_attack(w, c, e, combat.counter_skill_mode(s, c), choice.get("focus", False))
            return
        if ch.get("counter_ready"):  # declined: not activated, so it stays armed
            w.emit("CounterReadied", who=c, set={"counter_ready": ready or None}, reason="Counter Attack declined")
        done(w, e)
        return


def counter_attack(w, c, e, mode, focus):
    """Character ``c`` counter attacks enemy ``e``. The enemy's activation ends only once the attack
    is resolved: it may wait for a meditation reroll, and skills it triggers are pushed in front."""
    update_item(w, stage="countered")
    combat.start_char_attack(w, c, [e], mode, focus, None, counter=True)


def resolve_line(w, e, line, target, sq):
    s = w.s
    en = s["enemies"][e]
    w.emit("EnemyLineChosen", enemy=e, line=line["n"], target=target, square=sq)
    if sq != en["sq"]:
        w.emit("CreatureMoved", who=e, set={"sq": sq}, path=[en["sq"], sq], reason="enemy movement")
    atk = line.get("attack")
    if not atk:
        done(w, e)
        return
    chooser = retargeter(s, e)
    if chooser:
        reach = atk.get("range") or rules.estat(s, e, "range")
        opts = sorted(t for t in set(rules.on_board_characters(s)) | set(s["enemies"])
                      if t != e and not rules.hidden_in_terrain(s, t) and _can_hit_any(s, e, t, reach))
        if len(opts) > 1:
            update_item(w, stage="retarget", target=target, line_def=line)
            open_decision(w, "amatsumikaboshi_target", s["control"][chooser], [{"target": t} for t in opts],
                          f"Amatsumikaboshi Kami Mode: {chooser} decides whom {e} attacks.", {"enemy": e})
            return
    attack_part(w, e, line, target)


def retargeter(s, e):
    """A character whose Amatsumikaboshi Kami Mode decides enemy attack targets."""
    if rules.side_of(s, e) != "shogun":
        return None
    for c in rules.on_board_characters(s):
        if rules.kami_mode_of(s, c) == "amatsumikaboshi":
            return c
    return None


def _can_hit_any(s, e, t, reach):
    en = s["enemies"][e]
    tsq = rules.sq_of(s, t)
    if tsq is None or rules.hidden_in_terrain(s, e):
        return False
    if en["conditions"]["downed"] and not grid.adjacent(s, en["sq"], tsq):
        return False
    occ = grid.terrain_los_occupied(s, en["sq"], tsq)
    if grid.height(s, en["sq"]) == grid.height(s, tsq):
        occ |= rules.occupied_for(s, "shogun")
    return rules.in_range(s, en["sq"], tsq, reach) and grid.has_los(s, en["sq"], tsq, occ - {tsq})


def attack_part(w, e, line, target):
    s = w.s
    atk = line["attack"]
    outcome = combat.enemy_attack(w, e, target, atk)
    c = target
    ready = s["characters"][c].get("counter_ready") if c in s["characters"] else None
    if ready and ready.get("due") == e and e in s["enemies"] and not s["characters"][c]["defeated"]:
        update_item(w, stage="skill_counter", target=c)
        open_decision(w, "counter_attack_skill", s["control"][c],
                      [{"counter": False}, {"counter": True, "focus": False}, {"counter": True, "focus": True}],
                      f"{e} damaged {c}: Counter Attack may strike back at no action point cost.", {"enemy": e})
        return
    if (outcome == "critical_fail" and c in s["characters"] and not s["characters"][c]["defeated"]
            and e in s["enemies"]):
        ch = s["characters"][c]
        wpn = content.WEAPONS[ch["equipped"]]
        if wpn["fast"] and rules.can_attack(s, c, e, wpn["range"]) and not rules.attacks_barred(s, c):
            update_item(w, stage="counter", target=c)
            open_decision(w, "counter_attack", s["control"][c],
                          [{"counter": False}, {"counter": True, "focus": False}, {"counter": True, "focus": True}],
                          f"{e} critically failed: {c} may counter attack (fast attack).", {"enemy": e})
            return
    done(w, e)


def done(w, e):
    s = w.s
    w.emit("WorkDone", op="enemy", enemy=e)
    if e in s["enemies"] and s["enemies"][e]["conditions"]["downed"]:
        conds = dict(s["enemies"][e]["conditions"])
        conds["downed"] = 0
        w.emit("EnemyChanged", who=e, set={"conditions": conds}, reason="downed discarded after activation")
    turn = s.get("turn")
    if turn and turn["kind"] == "enemies" and e in turn["todo"]:
        w.emit("TurnChanged", set={"todo": [x for x in turn["todo"] if x != e]})
    special_terrain.end_of_activation(w, e)
