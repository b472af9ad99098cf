"""Character activation: the commands a character's seat may submit, listed and executed.

``character_commands`` lists every legal command concretely; ``execute`` runs one that the
engine has already found in that list (so listed == accepted by construction).
"""

from itertools import combinations

from . import act2, act2_values, combat, content, flow, grid, market, passives, rules, sharing
from .catalogue import IMPLEMENTED, KAMI_MODES
from .combat import HEAL_TABLE, spend, tier
from .rules import endable, move_points

ROLL_TABLE = [(1, 2, 1), (3, 4, 2), (5, 6, 3)]
DIVINE_FIRE_RANGE = 10

ATTACK_KAMI = {"inari_l3", "amatsumikaboshi_l3", "ryujin_l3", "susanoo_l3"}
TECHNIQUE_KAMI = {"amaterasu_l3", "amatsumara_l3", "dosojin_l3", "shinigami_l3", "izanami_l3"}
ATTACK_SKILLS = {"counter_attack", "stab", "roll", "metsubushi", "energy_alteration", "menacing_shadow",
                 "ebisus_strike", "drain_spirit", "divine_arrow", "shockwave", "piercing", "crescent_strike",
                 "hachimans_wrath", "slaughter", "arrows_mantle", "blinding_light"}
ATTACK_SKILLS |= act2.ATTACK_SKILLS
TECHNIQUES = {"healing", "kamis_assistance", "healing_wave", "concentration", "distraction", "chained_slashes",
              "ninja_shadow", "star_rain", "multi_form"}


def attack_cost(skill, mode):
    if skill == "counter_attack":
        return 3
    if skill == "slaughter":
        return 2
    return 1 if mode == "fast" else 2


def cmd(type_, **args):
    return {"type": type_, "args": args}


def _mover(s, c):
    return rules.mover_for(s, c)


def legal_steps(s, c, mp):
    ch = s["characters"][c]
    occ = rules.occupied_for(s, "party")
    mover = _mover(s, c)
    out = []
    for nb in grid.neighbours(ch["sq"]):
        cost = grid.step_cost(s, ch["sq"], nb, mover, occ)
        if cost is None or cost > mp:
            continue
        if endable(s, c, nb):
            out.append(nb)
            continue
        # passing through an ally (or flying over an obstacle) needs a free square beyond
        reach = grid.reachable(s, nb, mp - cost, mover, occ)
        if any(endable(s, c, q) and q != ch["sq"] for q in reach):
            out.append(nb)
    return sorted(out, key=lambda k: (grid.xy(k)[1], grid.xy(k)[0]))


def adjacent_or_same(s, a, b):
    return a == b or grid.adjacent(s, a, b)


# -- attacks -------------------------------------------------------------------------------------------


def attack_skills(s, c):
    """(skill, kind) the character may add to an attack now: None, character attack skills
    with a Ki die in their slot, level 3+ kami attack skills."""
    ch = s["characters"][c]
    out = [None]
    for sk in ch["skills"]:
        if sk in ATTACK_SKILLS and sk in IMPLEMENTED and rules.skill_active(s, c, sk):
            out.append(sk)
    kid = ch["kami"] + "_l3"
    if kid in ATTACK_KAMI and ch["affinity"] >= 3 and kid not in ch["kami_used"] and not passives.kami_barred(s, c):
        out.append(kid)
    return out


def attack_options(s, c):
    ch = s["characters"][c]
    turn = s["turn"]
    if turn["attacked"] or turn["moving"] or turn["rolling"] or rules.attacks_barred(s, c):
        return []
    wpn = content.WEAPONS[ch["equipped"]]
    out = []
    foes = [e for e in rules.shogun_creatures(s)]
    for skill in attack_skills(s, c):
        modes = [m for m in ("fast", "strong") if wpn[m]]
        if skill == "menacing_shadow":
            modes = ["strong"] if wpn["strong"] else []
        if rules.skill_active(s, c, "defensive_stance"):
            modes = [m for m in modes if m == "fast"]
        reach = combat.char_reach(s, c, skill)
        if skill == "slaughter":
            modes = ["fast"] if wpn["fast"] else []
        if skill == "arrows_mantle" and wpn["range"] < 3:
            modes = []
        if skill in act2.FAST_ONLY:
            modes = ["fast"] if wpn["fast"] else []
        for mode in modes:
            cost = attack_cost(skill, mode)
            if ch["ap"] < cost - act2_values.attack_discount(s, c, ch.get("nemesis")):
                continue
            if skill in ("crescent_strike", "arrows_mantle"):
                out += _multi_options(s, c, skill, mode, reach)
                continue
            if skill == "come_here":
                out += act2.come_here_options(s, c, mode, cost)
                continue
            if skill is None and rules.kami_mode_of(s, c) == "hachiman" and mode == modes[0]:
                out += hachiman_line_options(s, c)
            for e in foes:
                if ch["ap"] < cost - act2_values.attack_discount(s, c, e):
                    continue
                for focus in (False, True):
                    base = {"target": e, "mode": mode, "focus": focus, "skill": skill}
                    if skill == "roll":
                        if rules.can_attack(s, c, e, reach):
                            out.append(cmd("attack", **base, roll="after"))
                        for sq in roll_destinations(s, c):
                            if rules.can_attack(s, c, e, reach, from_sq=sq):
                                out.append(cmd("attack", **base, roll="before", to=sq))
                    elif rules.can_attack(s, c, e, reach):
                        out.append(cmd("attack", **base))
    return out


DIRECTIONS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def hachiman_line_options(s, c):
    """Hachiman Kami Mode: a special attack on every enemy in a straight line up to range 4
    (the line stops at walls and inaccessible terrain)."""
    ch = s["characters"][c]
    wpn = content.WEAPONS[ch["equipped"]]
    x, y = grid.xy(ch["sq"])
    out = []
    for dx, dy in DIRECTIONS:
        hit = []
        for k in range(1, 5):
            q = grid.key(x + dx * k, y + dy * k)
            if grid.terrain(s, q) == "inaccessible":
                break
            hit += [e for e in rules.targetable_shogun(s) if s["enemies"][e]["sq"] == q]
        if not hit:
            continue
        for mode in ("fast", "strong"):
            if wpn[mode] and ch["ap"] >= attack_cost(None, mode):
                for focus in (False, True):
                    out.append(cmd("attack", target=hit[0], mode=mode, focus=focus, skill="hachiman_mode",
                                   also=hit[1:]))
    return out


def _multi_options(s, c, skill, mode, reach):
    """Crescent Strike: up to 2 adjacent enemies; Arrow's Mantle: up to 3 enemies adjacent to
    another character (range and LOS as usual). One roll for all."""
    ch = s["characters"][c]
    if skill == "crescent_strike":
        pool = [e for e in rules.shogun_creatures(s) if grid.adjacent(s, ch["sq"], s["enemies"][e]["sq"])
                and rules.can_attack(s, c, e, reach)]
        most = 2
    else:
        others = [o["sq"] for k, o in s["characters"].items() if k != c and not o["defeated"] and o["sq"]]
        pool = [e for e in rules.shogun_creatures(s) if rules.can_attack(s, c, e, reach)
                and any(grid.adjacent(s, q, s["enemies"][e]["sq"]) for q in others)]
        most = 3
    pool.sort()
    out = []
    groups = [[e] for e in pool]
    if most >= 2:
        groups += [[a, b] for i, a in enumerate(pool) for b in pool[i + 1:]]
    if most >= 3:
        groups += [[a, b, x] for i, a in enumerate(pool) for j, b in enumerate(pool[i + 1:], i + 1)
                   for x in pool[j + 1:]]
    for g in groups:
        for focus in (False, True):
            out.append(cmd("attack", target=g[0], mode=mode, focus=focus, skill=skill, also=g[1:]))
    return out


def roll_destinations(s, c):
    ch = s["characters"][c]
    mp = tier(rules.ki_in(s, c, "roll"), ROLL_TABLE)
    occ = rules.occupied_for(s, "party")
    reach = grid.reachable(s, ch["sq"], mp, _mover(s, c), occ)
    return sorted([q for q in reach if q != ch["sq"] and endable(s, c, q)],
                  key=lambda k: (grid.xy(k)[1], grid.xy(k)[0]))


def do_attack(w, c, a):
    s = w.s
    skill = a.get("skill")
    cost = max(0, attack_cost(skill, a["mode"]) - act2_values.attack_discount(s, c, a["target"]))
    ch = s["characters"][c]
    w.emit("ActionPointsChanged", who=c, set={"ap": ch["ap"] - cost}, reason=f"{a['mode']} attack")
    act2.before_attack(w, c, a)
    w.emit("TurnChanged", set={"attacked": True})
    w.emit("AttributesChanged", who=c, set={"attacked_round": s["round"]}, reason="attack")
    if skill and skill.endswith("_l3"):
        w.emit("KamiSkillUsed", who=c, set={"kami_used": ch["kami_used"] + [skill]}, skill=skill)
    if skill == "counter_attack":
        w.emit("CounterReadied", who=c, set={"counter_ready": {"turns": 0}}, reason="Counter Attack")
    roll_after = None
    if skill == "roll":
        mp = tier(rules.ki_in(s, c, "roll"), ROLL_TABLE)
        if a.get("roll") == "before":
            w.emit("CreatureMoved", who=c, set={"sq": a["to"]}, path=[ch["sq"], a["to"]], reason="Roll")
        else:
            roll_after = mp
    combat.start_char_attack(w, c, [a["target"]] + list(a.get("also", [])), a["mode"], a["focus"], skill,
                             repeat=1 if skill == "slaughter" else 0)
    if roll_after:
        if w.s["attack"] is not None:
            atk = dict(w.s["attack"])
            atk["roll_after"] = roll_after
            w.emit("AttackRolled", attack=atk)
        elif not w.s["characters"][c]["defeated"] and w.s["turn"]:
            w.emit("TurnChanged", set={"rolling": True, "roll_mp": roll_after})


# -- listing -------------------------------------------------------------------------------------------------


def character_commands(s, c):
    if s["turn"]["kind"] == "double":
        return double_commands(s, s["turn"])
    ch = s["characters"][c]
    turn = s["turn"]
    out = []
    moving, rolling = turn["moving"], turn["rolling"]
    in_action = moving or rolling
    here = ch["sq"]
    # movement
    if not turn["moved"] and not in_action and ch["ap"] >= 1:
        out.append(cmd("move"))
    if moving and ch["ap"] >= 1:
        out.append(cmd("exert"))
    if moving or rolling:
        mp = turn["mp"] if moving else turn["roll_mp"]
        for sq in legal_steps(s, c, mp):
            out.append(cmd("step", to=sq))
        if endable(s, c, here):
            out.append(cmd("end_move"))
    # attack
    out += attack_options(s, c)
    # techniques
    if not in_action and ch["ap"] >= 1:
        out += technique_options(s, c)
    out += act2.commands(s, c)
    # reroll Ki dice
    ki = ch["ki"]
    if not in_action and ch["ap"] >= 2 and (ki["supply"] or ki["slots"] or ki["exhausted"]):
        out.append(cmd("reroll_ki"))
    # interact (allowed during a movement action)
    if ch["ap"] >= 1:
        for d, door in sorted(s["doors"].items()):
            if not door["open"] and adjacent_or_same(s, here, door["sq"]):
                out.append(cmd("interact", door=d))
        for p, pt in sorted(s["points"].items()):
            if adjacent_or_same(s, here, pt["sq"]):
                out.append(cmd("interact", point=p))
        for o, och in sorted(s["characters"].items()):
            if o != c and not och["defeated"] and och["sq"] and adjacent_or_same(s, here, och["sq"]):
                for i, it in enumerate(ch["items"]):
                    if content.can_receive(och, it["id"]):
                        out.append(cmd("give", to=o, slot=i))
                for what in ("heads", "boss_heads", "coins"):
                    if ch[what] > 0:
                        out.append(cmd("give", to=o, what=what))
                out += sharing.equipment_gives(s, c, o)
    if len(ch["weapons"]) == 2 and not in_action and sharing.can_swap(ch):
        if free_swap(s, c) or ch["ap"] >= 1:
            out.append(cmd("swap_weapon"))
    # items (a permanent item needs no action point)
    out += item_options(s, c)
    # meditate
    if not in_action and ch["ap"] >= 1 and ch["meditation"] < 1:
        out.append(cmd("meditate"))
    # free actions
    for i, v in enumerate(ki["supply"]):
        for sk in ch["skills"]:
            info = content.SKILLS[sk]
            if sk not in ki["slots"] and sk in IMPLEMENTED and v >= info["ki"]:
                c2 = cmd("place_ki", die=i, skill=sk)
                if c2 not in out:
                    out.append(c2)
    if turn["withdrawn"] < rules.attr(s, c, "knowledge"):
        for sk in sorted(ki["slots"]):
            out.append(cmd("withdraw_ki", skill=sk))
    for i, h in enumerate(s["heads"]):
        if adjacent_or_same(s, here, h["sq"]):
            out.append(cmd("retrieve_head", index=i))
    if kami_mode_allowed(s, c):
        out.append(cmd("kami_mode"))
    if not in_action or endable(s, c, here):
        out.append(cmd("end_activation"))
    return out


def free_swap(s, c):
    """Military Discipline makes switching weapons a free action, once per activation (further
    swaps cost 1 AP as usual, so a free action can never be repeated endlessly)."""
    return rules.skill_active(s, c, "military_discipline") and not s["turn"].get("swapped_free")


def technique_options(s, c):
    ch = s["characters"][c]
    out = []
    if rules.skill_active(s, c, "healing"):
        out.append(cmd("technique", skill="healing", ally=None))
        for o, och in sorted(s["characters"].items()):
            if o != c and not och["defeated"] and och["sq"] and grid.adjacent(s, ch["sq"], och["sq"]):
                out.append(cmd("technique", skill="healing", ally=o))
    if rules.skill_active(s, c, "healing_wave"):
        out.append(cmd("technique", skill="healing_wave"))
    if rules.skill_active(s, c, "kamis_assistance") and ch["ki"]["supply"]:
        out.append(cmd("technique", skill="kamis_assistance"))
    if rules.skill_active(s, c, "concentration") and not ch.get("concentration"):
        out.append(cmd("technique", skill="concentration"))
    if rules.skill_active(s, c, "ninja_shadow") and ch.get("ninja_shadow") != s["round"]:
        out.append(cmd("technique", skill="ninja_shadow"))
    if rules.skill_active(s, c, "distraction") and not s.get("distraction"):
        out.append(cmd("technique", skill="distraction"))
    if rules.skill_active(s, c, "star_rain"):
        out += [cmd("technique", skill="star_rain", targets=g) for g in star_rain_groups(s, c)]
    if rules.skill_active(s, c, "multi_form") and not rules.double_of(s, c):
        out += [cmd("technique", skill="multi_form", to=q) for q in free_adjacent(s, ch["sq"])]
    if (rules.skill_active(s, c, "chained_slashes") and ch["ap"] >= 3
            and content.WEAPONS[ch["equipped"]]["fast"] and not s["turn"]["attacked"]
            and not rules.attacks_barred(s, c)):
        out.append(cmd("technique", skill="chained_slashes"))
    kid = ch["kami"] + "_l3"
    if kid in TECHNIQUE_KAMI and ch["affinity"] >= 3 and kid not in ch["kami_used"] and not passives.kami_barred(s, c):
        if kid == "shinigami_l3":
            for n in range(1, min(3, ch["health"] - 1) + 1):
                out.append(cmd("technique", skill=kid, amount=n))
        elif kid == "izanami_l3":
            types = sorted({d["type"] for d in s["defeated_enemies"] if d["kind"] == "minion"})
            squares = [q for q in grid.neighbours(ch["sq"]) if q in s["squares"] and grid.adjacent(s, ch["sq"], q)
                       and rules.free_square(s, q)]
            for ty in types:
                for q in sorted(squares, key=lambda k: (grid.xy(k)[1], grid.xy(k)[0])):
                    out.append(cmd("technique", skill=kid, minion=ty, to=q))
        elif kid == "amaterasu_l3":
            if not rules.attacked_this_round(s, c):
                out += [cmd("technique", skill=kid, target=e) for e in sorted(rules.shogun_creatures(s))
                        if rules.can_attack(s, c, e, DIVINE_FIRE_RANGE)]
        else:
            out.append(cmd("technique", skill=kid))
    return out


def free_adjacent(s, sq):
    near = [q for q in grid.neighbours(sq) if grid.adjacent(s, sq, q) and rules.free_square(s, q)]
    return sorted(near, key=lambda k: (grid.xy(k)[1], grid.xy(k)[0]))


def star_rain_groups(s, c):
    """Star Rain: every choice of 1 to 3 enemies within range 2 (no LOS needed, as the text
    asks only for the range; a spectral enemy hidden in blocking terrain cannot be targeted; range 2
    never reaches another height level, "Range and Height Level")."""
    here = s["characters"][c]["sq"]
    near = sorted(e for e in rules.targetable_shogun(s) if rules.in_range(s, here, s["enemies"][e]["sq"], 2))
    return [list(g) for n in (1, 2, 3) for g in combinations(near, n)]


PASSIVE_ITEMS = ("none", "attack_bonus", "armor_bonus")  # nothing to use: applied by the rules


def item_cost(info):
    """"spend 1 action point to use an item"; "Permanent items do not require action points to be used"."""
    return 0 if info["type"] == "permanent" else 1


def item_options(s, c):
    """"Use an Item. If they meet the knowledge requirement, spend 1 action point ... Each item may
    be used a maximum of once per round" (a movement item only during the movement action, a
    once-per-phase item once per phase)."""
    ch = s["characters"][c]
    moving = s["turn"]["moving"]
    out = []
    for i, it in enumerate(ch["items"]):
        info = content.ITEMS[it["id"]]
        fx = info["effect"]
        if (content.knowledge_needed(it["id"]) > rules.attr(s, c, "knowledge") or i in ch["items_used"]
                or fx["kind"] in PASSIVE_ITEMS or ch["ap"] < item_cost(info)):
            continue
        if fx.get("once_per_phase") and it["id"] in ch.get("items_spent", []):
            continue
        if fx["kind"] == "movement" and not moving:
            continue
        if fx["kind"] == "damage":
            for e in rules.shogun_creatures(s):
                if rules.can_attack(s, c, e, info["range"]):
                    out.append(cmd("use_item", slot=i, target=e))
        elif fx["kind"] == "condition":
            for e in rules.shogun_creatures(s):
                if combat.can_have_conditions(s, e) and rules.can_attack(s, c, e, info["range"]):
                    out.append(cmd("use_item", slot=i, target=e))
        else:
            out.append(cmd("use_item", slot=i))
    return out


def kami_mode_allowed(s, c):
    ch = s["characters"][c]
    if ch["affinity"] < 6 or ch.get("kami_mode") or ch["kami"] not in KAMI_MODES or passives.kami_barred(s, c):
        return False
    if any(o.get("kami_mode") for o in s["characters"].values()):
        return False
    return ch["health"] < ch["max_health"] // 2


# -- execution ------------------------------------------------------------------------------------------------


def execute(w, c, command):
    s = w.s
    if s["turn"]["kind"] == "double":
        execute_double(w, command)
        return
    t, a = command["type"], command["args"]
    ch = s["characters"][c]
    turn = s["turn"]
    if act2.handles(command):
        act2.execute(w, c, command)
    elif t == "move":
        spend(w, c, 1, "move")
        w.emit("TurnChanged", set={"moved": True, "moving": True, "mp": move_points(s, c)})
    elif t == "exert":
        spend(w, c, 1, "exert")
        w.emit("TurnChanged", set={"mp": turn["mp"] + 3})
    elif t == "step":
        occ = rules.occupied_for(s, "party")
        cost = grid.step_cost(s, ch["sq"], a["to"], _mover(s, c), occ)
        w.emit("CreatureMoved", who=c, set={"sq": a["to"]}, path=[ch["sq"], a["to"]], cost=cost)
        if turn["moving"]:
            w.emit("TurnChanged", set={"mp": turn["mp"] - cost})
        else:
            w.emit("TurnChanged", set={"roll_mp": turn["roll_mp"] - cost})
        if turn.get("chained") is not None:
            seen = set(turn["chained"]) | {e for e in rules.shogun_creatures(s)
                                           if grid.adjacent(s, a["to"], s["enemies"][e]["sq"])}
            w.emit("TurnChanged", set={"chained": sorted(seen)})
    elif t == "end_move":
        chained = turn.get("chained")
        w.emit("TurnChanged", set={"moving": False, "mp": 0, "rolling": False, "roll_mp": 0, "chained": None})
        targets = [e for e in (chained or []) if e in s["enemies"]]
        if targets:
            combat.start_char_attack(w, c, targets, "fast", False, turn.get("chain_skill") or "chained_slashes")
    elif t == "attack":
        do_attack(w, c, a)
    elif t == "technique":
        do_technique(w, c, a)
    elif t == "reroll_ki":
        spend(w, c, 2, "reroll Ki dice")
        ki = ch["ki"]
        n = len(ki["supply"]) + len(ki["slots"]) + ki["exhausted"]
        w.emit("KiChanged", who=c, set={"ki": {"supply": [w.d6() for _ in range(n)], "slots": {}, "exhausted": 0}},
               reason="reroll Ki dice")
    elif t == "interact":
        do_interact(w, c, a)
    elif t == "give" and sharing.is_equipment_give(a):
        sharing.execute(w, c, a)
    elif t == "give" and "what" in a:
        spend(w, c, 1, "interact with a character")
        what, other = a["what"], s["characters"][a["to"]]
        n = 1 if what != "coins" else ch["coins"]
        w.emit("HeadsChanged", who=c, set={what: ch[what] - n}, reason=f"gave {n} {what} to {a['to']}")
        w.emit("HeadsChanged", who=a["to"], set={what: other[what] + n}, reason=f"received from {c}")
    elif t == "give":
        spend(w, c, 1, "interact with a character")
        items = list(ch["items"])
        i = a["slot"]
        it = items.pop(i)
        used = [u if u < i else u - 1 for u in ch["items_used"] if u != i]
        w.emit("ItemsChanged", who=c, set={"items": items, "items_used": used}, reason=f"gave {it['id']} to {a['to']}")
        other = s["characters"][a["to"]]
        w.emit("ItemsChanged", who=a["to"], set={"items": other["items"] + [it]}, reason=f"received from {c}")
    elif t == "swap_weapon":
        if free_swap(s, c):
            w.emit("TurnChanged", set={"swapped_free": True})
        else:
            spend(w, c, 1, "swap weapon")
        other = [x for x in ch["weapons"] if x != ch["equipped"]][0]
        w.emit("WeaponSwapped", who=c, set={"equipped": other})
    elif t == "use_item":
        do_item(w, c, a)
    elif t == "meditate":
        spend(w, c, 1, "meditate")
        w.emit("MeditationChanged", who=c, set={"meditation": 1})
    elif t == "place_ki":
        ki = ch["ki"]
        supply = list(ki["supply"])
        v = supply.pop(a["die"])
        slots = dict(ki["slots"])
        slots[a["skill"]] = v
        w.emit("KiChanged", who=c, set={"ki": {"supply": supply, "slots": slots, "exhausted": ki["exhausted"]}},
               reason=f"Ki die {v} placed on {a['skill']}")
        act2.skill_activated(w, c, a["skill"])
    elif t == "withdraw_ki":
        ki = ch["ki"]
        slots = dict(ki["slots"])
        slots.pop(a["skill"])
        new = {"supply": list(ki["supply"]), "slots": slots, "exhausted": ki["exhausted"] + 1}
        reason = f"Ki die withdrawn from {a['skill']}"
        if not new["supply"] and not new["slots"]:
            new = {"supply": [w.d6() for _ in range(new["exhausted"])], "slots": {}, "exhausted": 0}
            reason += "; all Ki dice exhausted: reroll them all"
        w.emit("KiChanged", who=c, set={"ki": new}, reason=reason)
        w.emit("TurnChanged", set={"withdrawn": turn["withdrawn"] + 1})
    elif t == "retrieve_head":
        h = s["heads"][a["index"]]
        field = "boss_heads" if h["boss"] else "heads"
        w.emit("HeadRetrieved", who=c, index=a["index"], set={field: ch[field] + 1})
    elif t == "kami_mode":
        w.emit("KamiModeChanged", who=c, set={"kami_mode": {"kami": ch["kami"], "turns_done": 0,
                                                            "round": s["round"]}}, kami=ch["kami"])
    elif t == "end_activation":
        flow.end_turn(w)


def do_technique(w, c, a):
    s = w.s
    sk = a["skill"]
    spend(w, c, 1, f"technique {sk}")
    ch = s["characters"][c]
    w.emit("TechniqueUsed", who=c, skill=sk)
    if sk == "healing":
        amount = tier(rules.ki_in(s, c, "healing"), HEAL_TABLE)
        for who in [c] + ([a["ally"]] if a.get("ally") else []):
            combat.cleanse(w, who)
            combat.heal(w, who, amount, "Healing")
    elif sk == "healing_wave":
        amount = tier(rules.ki_in(s, c, "healing_wave"), HEAL_TABLE)
        for o, och in s["characters"].items():
            if not och["defeated"] and och["sq"] and grid.range_between(och["sq"], ch["sq"]) <= 2:
                combat.cleanse(w, o)
                combat.heal(w, o, amount, "Healing Wave")
    elif sk == "kamis_assistance":
        ki = ch["ki"]
        w.emit("KiChanged", who=c, set={"ki": {"supply": [min(6, v + 1) for v in ki["supply"]],
                                              "slots": dict(ki["slots"]), "exhausted": ki["exhausted"]}},
               reason="Kami's Assistance")
    elif sk == "chained_slashes":
        spend(w, c, 2, "Chained Slashes (3 action points in all)")
        here = ch["sq"]
        seen = sorted(e for e in rules.shogun_creatures(s) if grid.adjacent(s, here, s["enemies"][e]["sq"]))
        w.emit("TurnChanged", set={"rolling": True, "roll_mp": move_points(s, c), "chained": seen})
    elif sk == "ninja_shadow":
        w.emit("AttributesChanged", who=c, set={"ninja_shadow": s["round"]}, reason="Ninja Shadow")
    elif sk == "concentration":
        w.emit("AttributesChanged", who=c, set={"concentration": True}, reason="Concentration")
    elif sk == "distraction":
        w.emit("DistractionSet", by=c)
    elif sk == "multi_form":
        double = {"kind": "double", "type": f"{c}_double", "color": None, "plus": False, "sq": a["to"],
                  "zone": grid.zone_of(s, a["to"]), "health": ch["health"], "max_health": ch["max_health"],
                  "armor_tokens": 0, "conditions": dict.fromkeys(ch["conditions"], 0), "allied": True,
                  "double_of": c, "no_heads": True}
        w.emit("EnemySpawned", who=f"{c}_double", enemy=double)
    elif sk == "star_rain":
        amount = tier(rules.ki_in(s, c, "star_rain"), content.SKILLS["star_rain"]["damage_by_ki"])
        for e in a["targets"]:
            if e in w.s["enemies"]:
                combat.damage(w, e, amount, attacker=c, reason="Star Rain")
    elif sk in TECHNIQUE_KAMI:
        w.emit("KamiSkillUsed", who=c, set={"kami_used": ch["kami_used"] + [sk]}, skill=sk)
        if sk == "amatsumara_l3":
            for o, och in s["characters"].items():
                if och["defeated"]:
                    continue
                cap = rules.armor_cap(och)
                if och["armor"] < cap:
                    w.emit("ArmorChanged", who=o, set={"armor": och["armor"] + 1}, reason="Destiny Forger")
                combat.heal(w, o, rules.char_armor(w.s, o), "Destiny Forger")
        elif sk == "amaterasu_l3":
            w.emit("AttributesChanged", who=c, set={"divine_fire": s["round"]},
                   reason="Divine Fire: no attacks this round")
            combat.damage(w, a["target"], content.kami_skill("amaterasu_l3")["damage"], attacker=c, reason="Divine Fire")
        elif sk == "dosojin_l3":
            for o, och in s["characters"].items():
                if not och["defeated"]:
                    w.emit("AttributesChanged", who=o, set={"breeze": 2}, reason="Protective Breeze")
        elif sk == "izanami_l3":
            flow.spawn_enemy(w, "minion", a["minion"], "yomi", a["to"],
                             extra={"allied": True, "owner": c, "no_heads": True})
        elif sk == "shinigami_l3":
            n = a["amount"]
            w.emit("HealthChanged", who=c, set={"health": ch["health"] - n}, delta=-n, reason="Salute to Death")
            w.emit("KarmaChanged", who=c, set={"karma": ch["karma"] + n}, reason="Salute to Death")
            for e in rules.targetable_shogun(s):
                if e in w.s["enemies"]:
                    combat.damage(w, e, n, attacker=c, reason="Salute to Death")


# -- Multi-Form: the double's turn ---------------------------------------------------------------------


DOUBLE_MOVER = {"flying": False, "spectral": False, "elusive": False}


def double_steps(s, d, mp):
    """Squares the double may step to (it passes allies like a character, never stays on one)."""
    here = s["enemies"][d]["sq"]
    occ = rules.occupied_for(s, "party")
    out = []
    for nb in grid.neighbours(here):
        cost = grid.step_cost(s, here, nb, DOUBLE_MOVER, occ)
        if cost is None or cost > mp:
            continue
        reach = [nb] if endable(s, d, nb) else grid.reachable(s, nb, mp - cost, DOUBLE_MOVER, occ)
        if any(endable(s, d, q) and q != here for q in reach):
            out.append(nb)
    return sorted(out, key=lambda k: (grid.xy(k)[1], grid.xy(k)[0]))


def double_commands(s, turn):
    """Multi-Form: the double's turn after its owner's: one movement of 3 + the owner's dexterity
    and one attack with the owner's weapon (fast or strong, focus die allowed); no action points,
    no skills, items or interactions."""
    d, c = turn["double"], turn["who"]
    here = s["enemies"][d]["sq"]
    out = []
    if not turn["moved"]:
        out.append(cmd("move"))
    if turn["moving"]:
        out += [cmd("step", to=q) for q in double_steps(s, d, turn["mp"])]
        if endable(s, d, here):
            out.append(cmd("end_move"))
    elif not turn["attacked"]:
        wpn = content.WEAPONS[s["characters"][c]["equipped"]]
        for e in sorted(rules.shogun_creatures(s)):
            if rules.can_attack(s, d, e, wpn["range"]):
                out += [cmd("attack", target=e, mode=m, focus=f, skill=None) for m in ("fast", "strong") if wpn[m]
                        for f in (False, True)]
    if not turn["moving"] or endable(s, d, here):
        out.append(cmd("end_activation"))
    return out


def execute_double(w, command):
    s = w.s
    t, a = command["type"], command["args"]
    turn = s["turn"]
    d = turn["double"]
    if t == "move":
        w.emit("TurnChanged", set={"moved": True, "moving": True, "mp": 3 + rules.attr(s, turn["who"], "dexterity")})
    elif t == "step":
        here = s["enemies"][d]["sq"]
        cost = grid.step_cost(s, here, a["to"], DOUBLE_MOVER, rules.occupied_for(s, "party"))
        w.emit("CreatureMoved", who=d, set={"sq": a["to"]}, path=[here, a["to"]], cost=cost)
        w.emit("TurnChanged", set={"mp": turn["mp"] - cost})
    elif t == "end_move":
        w.emit("TurnChanged", set={"moving": False, "mp": 0})
    elif t == "attack":
        w.emit("TurnChanged", set={"attacked": True})
        combat.start_double_attack(w, d, [a["target"]], a["mode"], a["focus"])
    elif t == "end_activation":
        flow.end_turn(w)


def do_interact(w, c, a):
    s = w.s
    spend(w, c, 1, "interact")
    if "door" in a:
        door = s["doors"][a["door"]]
        w.emit("DoorOpened", door=a["door"], by=c)
        if door.get("survey"):
            flow.reveal_zone(w, door["survey"])
        return
    p = a["point"]
    pt = s["points"][p]
    action = pt["action"]
    w.emit("Interacted", who=c, point=p, action=action)
    w.emit("PointRemoved", point=p)
    if action["type"] == "survey":
        flow.reveal_zone(w, action["zone"])
    elif action["type"] == "travel":
        if action["zone"] not in s["zones"]:
            flow.travel(w, action["zone"])
    elif action["type"] == "objective":
        w.emit("ObjectiveAchieved", by=c, point=p)


def do_item(w, c, a):
    s = w.s
    ch = s["characters"][c]
    i = a["slot"]
    it = ch["items"][i]
    info = content.ITEMS[it["id"]]
    if item_cost(info):
        spend(w, c, item_cost(info), f"use {it['id']}")
    w.emit("ItemUsed", who=c, item=it["id"], target=a.get("target"))
    fx = info["effect"]
    if fx["kind"] == "heal":
        if fx.get("cleanse"):
            combat.cleanse(w, c, fx["cleanse"])
        combat.heal(w, c, fx["amount"], it["id"])
    elif fx["kind"] == "cleanse":
        combat.cleanse(w, c)
    elif fx["kind"] == "bless":
        combat.bless(w, c)
    elif fx["kind"] == "damage":
        combat.damage(w, a["target"], fx["amount"] + act2.craft_bonus(s, c), attacker=c, reason=it["id"])
    elif fx["kind"] == "condition":
        # "If what provokes the negative condition is not an attack, it may be applied even if it causes no damage."
        combat.give_condition(w, a["target"], fx["condition"], it["id"])
    elif fx["kind"] == "karma":
        w.emit("KarmaChanged", who=c, set={"karma": ch["karma"] + fx["amount"]}, reason=it["id"])
    elif fx["kind"] == "movement":
        w.emit("TurnChanged", set={"mp": s["turn"]["mp"] + fx["amount"]})
    ch = w.s["characters"][c]
    items = list(ch["items"])
    used = list(ch["items_used"])
    spent = False
    if info["type"] == "consumable":
        items.pop(i)
        used = [u if u < i else u - 1 for u in used if u != i]
        spent = True
    elif info["type"] == "uses":
        left = (items[i]["uses"] or 1) - 1
        if left <= 0:
            items.pop(i)
            used = [u if u < i else u - 1 for u in used if u != i]
            spent = True
        else:
            items[i] = {"id": it["id"], "uses": left}
            used.append(i)
    else:
        used.append(i)
    change = {"items": items, "items_used": used}
    if fx.get("once_per_phase"):
        change["items_spent"] = ch.get("items_spent", []) + [it["id"]]
    w.emit("ItemsChanged", who=c, set=change, reason=f"{it['id']} used")
    if spent:  # "discard it after use by returning it to the market deck, which is then shuffled"
        market.returned(w, [it["id"]], f"{it['id']} used")
