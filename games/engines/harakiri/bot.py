"""The Harakiri bot: a bot seat plays its characters through the Exploration Phase.

What it reads (``belief``): the table as every player sees it. The oracle deck, the zones' event
decks, the Chosen's AI decks and a face-down initiative deck are put in a fixed order, and the
zones not yet on the table (the campaign book's unrevealed pages) are left out, so no choice can
depend on them.

What it does with a character's activation (docs/games/harakiri.md, "Bot"), one command at a time:

1. Free actions first: a Ki die into an empty skill slot it meets (the highest die), a head token
   within reach.
2. The goal: for a healer (a healing technique in effect), the most wounded other character;
   otherwise the objective enemy once it is on the table; otherwise the nearest closed door or
   interaction point (surveying a zone, travelling on: rounds cost Malice, so the party presses on);
   otherwise the nearest enemy. Distances are path costs over the grid (walls, obstacles, closed
   doors, enemies and resistors block; allies are passed). A goal that enemies wall off makes the
   character fight the enemy least out of its way there.
3. Interact with the goal when it is within reach; heal when a healing technique restores 2 or more;
   attack the best target in range (the expected damage of every listed attack option is computed
   from the dice faces, the target's defense and armor, the test and focus dice, the damage bonuses,
   the chance to defeat it, the armor a test die breaks, and the risk of a counter attack on a
   critical fail; the objective enemy weighs most); move (exerting when the goal or an attack square
   is only reachable so) to the square that brings it nearest its goal, or from which it can attack,
   keeping the action points the attack needs; meditate with spare points.
4. Rerolls after an attack roll: a meditation token rerolls the lowest attack die when the damage so
   far would not defeat the target. Decisions: the enemy targets the sturdiest character, counter
   attacks are taken, the Failure's second choice reads the success section, level-ups raise power.

Every choice is a pure function of the belief state and the seat; ties go to the first listed
command, so the bot is deterministic. Its cost is a few path searches over the zone's squares per
decision (bounded by the table's size: well under 50 ms on the scenarios shipped).
"""

import heapq
from itertools import product

from . import combat, content, grid, rules

SPARE_AP_FOR_MEDITATION = 2
OBJECTIVE_WEIGHT = 3.0  # damage to the objective enemy against damage to any other
ARMOR_BREAK = 1.2
ARMOR_BREAK_ON_OBJECTIVE = 3.0
HEAL_AT_LEAST = 2  # health a healing technique must restore to be worth an action point


# -- what the seat may know ------------------------------------------------------------------

def belief(state):
    """``state`` with its hidden orders fixed and unrevealed zones left out (see the module doc)."""
    s = dict(state)
    s["oracle"] = dict(state["oracle"], deck=sorted(state["oracle"]["deck"]))
    s["zones"] = {z: dict(zs, events={k: sorted(v) for k, v in zs["events"].items()})
                  for z, zs in state["zones"].items()}
    s["zones_def"] = {z: zd for z, zd in state["zones_def"].items() if z in state["zones"]}
    enemies = {}
    for e, en in state["enemies"].items():
        if "ai" in en:
            en = dict(en, ai=dict(en["ai"], deck=sorted(en["ai"]["deck"])))
        enemies[e] = en
    s["enemies"] = enemies
    if "deck" in (state.get("initiative") or {}):
        s["initiative"] = dict(state["initiative"], deck=sorted(state["initiative"]["deck"]))
    s.pop("next_initiative", None)
    if state.get("market") is not None:
        s["market"] = sorted(state["market"])
    s.pop("forced", None)
    return s


# -- geometry ----------------------------------------------------------------------------------

def _occupied(s):
    return rules.occupied_for(s, "party")


def distance_map(s, c, goals, through_foes=False):
    """Path cost from each square to the nearest of ``goals`` for character ``c``'s movement
    (Dijkstra outwards from the goals; walls, obstacles, foes and resistors block; with
    ``through_foes`` only the terrain and resistors do)."""
    mover = rules.mover_for(s, c)
    occ = ({r["sq"] for r in s["resistors"].values()} if through_foes else _occupied(s)) - set(goals)
    best = {}
    heap = []
    for g in goals:
        if g in s["squares"]:
            best[g] = 0
            heap.append((0, g))
    heapq.heapify(heap)
    while heap:
        cost, sq = heapq.heappop(heap)
        if best.get(sq) != cost:
            continue
        for nb in grid.neighbours(sq):
            step = grid.step_cost(s, nb, sq, mover, occ)
            if step is None:
                continue
            if cost + step < best.get(nb, 1 << 30):
                best[nb] = cost + step
                heapq.heappush(heap, (cost + step, nb))
    return best


def _interaction_squares(s, sq):
    return [sq] + [n for n in grid.neighbours(sq) if grid.height(s, n) == grid.height(s, sq)]


def _attack_squares(s, c, e, reach):
    """Squares from which ``c`` could attack enemy ``e`` with a weapon of ``reach``."""
    esq = s["enemies"][e]["sq"]
    x, y = grid.xy(esq)
    out = []
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            sq = grid.key(x + dx, y + dy)
            if sq in s["squares"] and sq != esq and rules.can_attack(s, c, e, reach, from_sq=sq):
                out.append(sq)
    return out


def _enemy_options(s, c):
    foes = [e for e in rules.shogun_creatures(s) if not rules.hidden_in_terrain(s, e)]
    return [("enemy", e, _attack_squares(s, c, e, rules.weapon(s, c)["range"])) for e in sorted(foes)]


def _nearest(options, around):
    best, best_d = None, None
    for opt in options:
        dist = min((around[q] for q in opt[2] if q in around), default=None)
        if dist is not None and (best_d is None or dist < best_d):
            best, best_d = opt, dist
    return best


def _blocker(s, c, options, fights, around):
    """Among the enemies ``c`` can reach (``fights``), the one least out of the way to the walled-off
    goal ``options``: the least path cost from ``c`` to a square it can attack it from plus the cost
    from its square on to the goal with the enemies gone (so the one that blocks the way, rather
    than the nearest). None if none lies on any way there."""
    through = distance_map(s, c, [q for o in options for q in o[2]], through_foes=True)
    best, best_key = None, None
    for opt in fights:
        on_way = through.get(s["enemies"][opt[1]]["sq"])
        reach = min((around[q] for q in opt[2] if q in around), default=None)
        if on_way is None or reach is None:
            continue
        key = (reach + on_way, opt[1])
        if best_key is None or key < best_key:
            best, best_key = opt, key
    return best


def goal(s, c):
    """(kind, id, squares to reach, distance map to them) of character ``c``'s goal (see the module
    doc), or None. A goal that enemies wall off gives way to the nearest enemy it can fight; with
    none either, the character heads for the goal as if the enemies were not there."""
    obj = s.get("objective") or {}
    here = s["characters"][c]["sq"]
    ally = _wounded_ally(s, c)
    if ally:
        asq = s["characters"][ally]["sq"]
        squares = [q for q in grid.neighbours(asq) if q in s["squares"] and grid.adjacent(s, q, asq)]
        dist = distance_map(s, c, squares)
        if here in dist:
            return ("ally", ally, squares, dist)
    if obj.get("type") == "defeat" and obj.get("enemy") in s["enemies"]:
        e = obj["enemy"]
        options = [("enemy", e, _attack_squares(s, c, e, rules.weapon(s, c)["range"]))]
    else:
        options = []
        for d, door in sorted(s["doors"].items()):
            if not door["open"]:
                options.append(("door", d, _interaction_squares(s, door["sq"])))
        for p, pt in sorted(s["points"].items()):
            options.append(("point", p, _interaction_squares(s, pt["sq"])))
        if not options:
            options = _enemy_options(s, c)
    if not options:
        return None
    around = distance_map(s, c, [here])  # from the character (steps are near enough symmetric)
    best = _nearest(options, around)
    if best is not None:
        return best + (distance_map(s, c, best[2]),)
    fights = [o for o in _enemy_options(s, c) if o[1] != options[0][1]]
    best = _blocker(s, c, options, fights, around) or _nearest(fights, around)
    if best is not None:
        return best + (distance_map(s, c, best[2]),)
    best = _nearest(options, distance_map(s, c, [here], through_foes=True))
    if best is not None:
        return best + (distance_map(s, c, best[2], through_foes=True),)
    return None


# -- attack values -------------------------------------------------------------------------------

def _faces(name):
    if name == "test":
        return content.DICE["test"]
    if name == "focus":
        return content.DICE["focus"]
    return content.DICE["attack"][name]


def _mean_impacts(names):
    return sum(sum(f.get("i", 0) for f in _faces(n)) / len(_faces(n)) for n in names if n not in ("test", "focus"))


def counter_risk(s, e, c):
    """The damage enemy ``e`` is expected to deal ``c`` if it counter attacks (0 if it cannot)."""
    if not rules.can_attack(s, e, c, rules.counter_reach(s, e)):
        return 0.0
    brd = rules.board(s, e)
    en = s["enemies"][e]
    dice = (brd.get("plus") or {}).get("dice") if en.get("plus") and brd.get("plus") else None
    hits = _mean_impacts(dice or brd.get("dice", []))
    prot = rules.char_defense(s, c) + rules.char_armor(s, c)
    return 0.67 * max(0.5, hits - prot + 1)


def attack_value(s, c, e, mode, focus, skill):
    """Expected worth of an attack: damage (capped by the target's health, the objective enemy's
    worth more), a bonus for the chance to defeat it, the armor a test-die fail or critical breaks,
    minus the expected counter attack on a critical fail."""
    ch = s["characters"][c]
    pool = combat.char_pool(s, c, mode, skill)
    dice = [content.rolled_die(d, bool(s.get("blue_die"))) for d in pool if d != "test"]  # as rolled
    has_test = "test" in pool
    en = s["enemies"][e]
    health = en["health"]
    objective = (s.get("objective") or {}).get("enemy") == e
    weight = OBJECTIVE_WEIGHT if objective else 1.0
    # an armor point broken on the objective enemy adds to every later attack on it
    armor_break = ARMOR_BREAK_ON_OBJECTIVE if objective else ARMOR_BREAK
    kill_bonus = 50.0 if objective else 4.0
    hits0 = rules.attr(s, c, "power") - ch["conditions"]["poisoned"]
    if grid.height(s, ch["sq"]) > grid.height(s, en["sq"]):
        hits0 += 1
    d, a = rules.estat(s, e, "defense"), rules.estat(s, e, "armor")
    if skill in ("stab", "come_here"):
        d = 0
    if skill == "piercing" and grid.adjacent(s, ch["sq"], en["sq"]):
        d, a = 0, 0
    bonus = combat.char_damage_bonus(s, c, e, {"skill": skill})  # Military Discipline and the like
    impacts = {}
    for combo in product(*[_faces(x) for x in dice]):
        n = sum(f.get("i", 0) for f in combo)
        impacts[n] = impacts.get(n, 0) + 1
    total = sum(impacts.values())
    tests = [(1 / 6, "fail"), (1 / 6, "blank"), (3 / 6, "hit"), (1 / 6, "critical")] if has_test else [(1.0, "hit")]
    focuses = [(4 / 6, "minus1"), (1 / 6, "fail"), (1 / 6, "fail_no_counter")] if focus else [(1.0, None)]
    value = 0.0
    crit_fail = 0.0
    for pt, t in tests:
        for pf, f in focuses:
            p = pt * pf
            if t in ("fail", "critical") and a > 0:
                value += p * armor_break  # "-1 armor on fail or critical success", even without damage
            if t == "fail" or f == "fail":
                crit_fail += p
                continue
            if t == "blank" or f == "fail_no_counter":
                continue
            for n, k in impacts.items():
                hits = n + hits0
                if t == "critical":
                    dmg = hits + bonus
                else:
                    prot = d + a - (1 if f == "minus1" else 0)
                    dmg = max(0, hits - max(0, prot)) + bonus
                q = p * k / total
                value += q * (weight * min(dmg, health) + (kill_bonus if dmg >= health else 0.0))
    return value - crit_fail * counter_risk(s, e, c)


def _attack_cost(a):
    if a.get("skill") == "counter_attack":
        return 3
    if a.get("skill") == "slaughter":
        return 2
    return 1 if a["mode"] == "fast" else 2


def best_attack(s, c, legal, ap_reserve=0):
    """The listed attack with the best expected worth per the budget, or None."""
    ap = s["characters"][c]["ap"]
    best, best_v = None, 0.05
    for cmd in legal:
        if cmd["type"] != "attack":
            continue
        a = cmd["args"]
        if "target" not in a or a["target"] not in s["enemies"]:
            continue
        if ap - _attack_cost(a) < ap_reserve and a["mode"] == "strong":
            continue
        v = attack_value(s, c, a["target"], a["mode"], a.get("focus", False), a.get("skill"))
        if a.get("skill") is not None:
            v -= 0.05  # keep skills for when they add something
        if v > best_v + 1e-9:
            best, best_v = cmd, v
    return best


# -- movement ----------------------------------------------------------------------------------

def _mover(s, c):
    """(square, movement kind, squares occupied for it) of character ``c``."""
    return s["characters"][c]["sq"], rules.mover_for(s, c), _occupied(s)


def _destination(s, c, mp, dist):
    """The endable square within ``mp`` movement points nearest the goal (by ``dist``)."""
    here, mover, occ = _mover(s, c)
    reach = grid.reachable(s, here, mp, mover, occ)
    best, key = here, (dist.get(here, 1 << 30), 0)
    for sq, (cost, steps) in sorted(reach.items()):
        if sq == here or not rules.endable(s, c, sq):
            continue
        k = (dist.get(sq, 1 << 30), cost)
        if k < key:
            best, key = sq, k
    return best


def _next_step(s, c, target, mp):
    """The neighbour of ``c``'s square on a cheapest path to ``target`` within ``mp``."""
    here, mover, occ = _mover(s, c)
    back = {here: None}
    cost = {here: 0}
    heap = [(0, here)]
    while heap:
        k, sq = heapq.heappop(heap)
        if sq == target:
            break
        if cost.get(sq) != k:
            continue
        for nb in grid.neighbours(sq):
            step = grid.step_cost(s, sq, nb, mover, occ)
            if step is None or k + step > mp:
                continue
            if k + step < cost.get(nb, 1 << 30):
                cost[nb] = k + step
                back[nb] = sq
                heapq.heappush(heap, (k + step, nb))
    if target not in back:
        return None
    sq = target
    while back[sq] != here:
        sq = back[sq]
        if sq is None:
            return None
    return sq


def _movement_budget(s, c):
    """(whether a movement is under way, its movement points left, or those a new one would get)."""
    turn = s["turn"]
    if turn["moving"]:
        return True, turn["mp"]
    if turn["rolling"]:
        return True, turn["roll_mp"]
    return False, rules.move_points(s, c)


def _move_plan(s, c, g):
    """(destination, whether an exert is wanted) for the movement under way or about to start."""
    ch = s["characters"][c]
    moving, mp = _movement_budget(s, c)
    dist = g[3] if g else {}
    dest = _destination(s, c, mp, dist)
    exert = False
    if dist.get(dest, 1 << 30) > 0 and ch["ap"] >= (1 if moving else 2):
        far = _destination(s, c, mp + 3, dist)
        near_d, far_d = dist.get(dest, 1 << 30), dist.get(far, 1 << 30)
        if far_d == 0 or far_d < near_d - 1:  # it reaches the goal, or gets well nearer
            exert = True
    return dest, exert


# -- decisions ---------------------------------------------------------------------------------

def _find(legal, type_, **args):
    for c in legal:
        if c["type"] == type_ and all(c["args"].get(k) == v for k, v in args.items()):
            return c
    return None


def _activation(s, c, legal):
    ch = s["characters"][c]
    turn = s["turn"]
    moving, mp = _movement_budget(s, c)
    # 1. free actions
    kis = [x for x in legal if x["type"] == "place_ki"]
    if kis:
        supply = ch["ki"]["supply"]
        return max(kis, key=lambda x: (supply[x["args"]["die"]], -legal.index(x)))
    head = _find(legal, "retrieve_head")
    if head:
        return head
    g = goal(s, c)
    # 2. interact with the goal
    if g and g[0] in ("door", "point"):
        act = _find(legal, "interact", **{g[0]: g[1]})
        if act:
            return act
    # 3. movement under way
    if moving:
        dest, exert = _move_plan(s, c, g)
        if exert and _find(legal, "exert"):
            return _find(legal, "exert")
        if dest != ch["sq"]:
            nxt = _next_step(s, c, dest, mp)
            step = _find(legal, "step", to=nxt) if nxt else None
            if step:
                return step
        end = _find(legal, "end_move")
        if end:
            return end
        steps = [x for x in legal if x["type"] == "step"]
        return steps[0] if steps else legal[-1]
    # 4. heal first when it restores enough
    heal = _healing(s, c, legal)
    if heal:
        return heal
    # 5. attack, keeping a point to move when the goal is still away
    need_move = bool(g) and not turn["moved"] and g[3].get(ch["sq"], 1 << 30) > 0
    attack = best_attack(s, c, legal, ap_reserve=1 if need_move else 0)
    goes_first = g and need_move and (g[0] == "ally" or (g[0] in ("door", "point") and _reaches_goal_now(s, c, g)))
    if attack and not goes_first:
        return attack
    # 6. move towards the goal (or an attack square)
    move = _find(legal, "move")
    if move and g:
        dest, exert = _move_plan(s, c, g)
        if dest != ch["sq"] or exert:
            return move
    # 7. meditate, end
    if ch["ap"] >= SPARE_AP_FOR_MEDITATION and _find(legal, "meditate"):
        return _find(legal, "meditate")
    end = _find(legal, "end_activation")
    return end or legal[-1]


def _reaches_goal_now(s, c, g):
    """Whether moving (and exerting) this activation puts ``c`` on its goal's squares with a point
    left to interact."""
    ch = s["characters"][c]
    budget = rules.move_points(s, c) + (3 if ch["ap"] >= 3 else 0)
    dist = g[3]
    return dist.get(_destination(s, c, budget, dist), 1 << 30) == 0


def _restored(s, who, amount):
    """What a healing of ``amount`` gives ``who``: the health it regains (up to its maximum) and the
    bleeding it loses (that much damage at each of its next activations)."""
    och = s["characters"][who]
    if och["defeated"]:
        return 0
    return min(amount, och["max_health"] - och["health"]) + och["conditions"]["bleeding"]


def heal_worth(s, c, cmd):
    """Health (and bleeding) a listed healing technique restores over the characters it reaches."""
    skill = cmd["args"]["skill"]
    amount = combat.tier(rules.ki_in(s, c, skill), combat.HEAL_TABLE)
    if skill == "healing_wave":
        here = s["characters"][c]["sq"]
        return sum(_restored(s, o, amount) for o, och in s["characters"].items()
                   if not och["defeated"] and och["sq"] and grid.range_between(och["sq"], here) <= 2)
    return sum(_restored(s, o, amount) for o in {c, cmd["args"].get("ally") or c})


def _healing(s, c, legal, least=HEAL_AT_LEAST):
    """The listed healing technique that restores the most (at least ``least``), or None."""
    best, best_worth = None, least - 1
    for x in legal:
        if x["type"] == "technique" and x["args"].get("skill") in ("healing", "healing_wave"):
            worth = heal_worth(s, c, x)
            if worth > best_worth:
                best, best_worth = x, worth
    return best


def _wounded_ally(s, c):
    """For a character with a healing technique in effect: the most wounded other character (at
    least ``HEAL_AT_LEAST`` health missing), or None. One it already stands beside counts too, so
    that the healer stays there rather than stepping off and back."""
    if not (rules.skill_active(s, c, "healing") or rules.skill_active(s, c, "healing_wave")):
        return None
    best, best_missing = None, HEAL_AT_LEAST - 1
    for o, och in sorted(s["characters"].items()):
        if o == c or och["defeated"] or not och["sq"]:
            continue
        missing = och["max_health"] - och["health"] + och["conditions"]["bleeding"]
        if missing > best_missing:
            best, best_missing = o, missing
    return best


def _double(s, legal):
    attacks = [x for x in legal if x["type"] == "attack"]
    if attacks:
        return max(attacks, key=lambda x: (x["args"]["target"] in s["enemies"] and
                                           -s["enemies"][x["args"]["target"]]["health"], -legal.index(x)))
    move = _find(legal, "move")
    if move:
        return move
    steps = [x for x in legal if x["type"] == "step"]
    foes = [s["enemies"][e]["sq"] for e in rules.shogun_creatures(s)]
    d = s["enemies"].get(s["turn"].get("double") or "", {}).get("sq")
    if steps and foes and d:
        here = min(grid.range_between(d, f) for f in foes)
        best = min(steps, key=lambda x: min(grid.range_between(x["args"]["to"], f) for f in foes))
        if min(grid.range_between(best["args"]["to"], f) for f in foes) < here:
            return best
    return _find(legal, "end_move") or _find(legal, "end_activation") or legal[-1]


def _reroll(s, legal):
    atk = s["attack"]
    c = atk["attacker"]
    rerolls = [x for x in legal if x["type"] == "reroll_die"]
    if not rerolls:
        return _find(legal, "resolve_attack") or legal[0]
    test = combat.test_face(atk["dice"])
    if test and test["s"] in ("blank", "fail") and not any(x["args"]["with"] == "relentless" for x in rerolls):
        return _find(legal, "resolve_attack") or legal[0]
    if test and test["s"] in ("blank", "fail"):
        return next(x for x in rerolls if x["args"]["with"] == "relentless")
    targets = [t for t in atk["targets"] if t in s["enemies"]]
    if not targets:
        return _find(legal, "resolve_attack") or legal[0]
    t = targets[0]
    hits = combat.impacts(atk["dice"]) + rules.attr(s, c, "power")
    prot = 0 if test and test["s"] == "critical" else rules.estat(s, t, "defense") + rules.estat(s, t, "armor")
    if hits - prot >= s["enemies"][t]["health"]:
        return _find(legal, "resolve_attack") or legal[0]
    candidates = [x for x in rerolls if atk["dice"][x["args"]["die"]]["die"] not in ("test", "focus")]
    if not candidates:
        return _find(legal, "resolve_attack") or legal[0]
    low = min(candidates, key=lambda x: (atk["dice"][x["args"]["die"]].get("i", 0), x["args"]["die"]))
    if atk["dice"][low["args"]["die"]].get("i", 0) <= 1:
        return low
    return _find(legal, "resolve_attack") or legal[0]


def _sturdiness(s, who):
    if who in s["characters"]:
        return rules.creature_health(s, who) + rules.char_defense(s, who) + rules.char_armor(s, who)
    if who in s["enemies"]:
        return rules.creature_health(s, who)
    return 0


def _decision(s, legal):
    p = s["pending"]
    kind = p["kind"]
    options = p["options"]

    def pick(i):
        return _find(legal, "choose", option=i) or legal[0]
    if kind == "enemy_target":
        return pick(max(range(len(options)), key=lambda i: (_sturdiness(s, options[i]["target"]), -i)))
    if kind in ("counter_attack", "counter_attack_skill"):
        for i, o in enumerate(options):
            if o.get("counter") and not o.get("focus"):
                return pick(i)
    if kind == "second_failure":
        for i, o in enumerate(options):
            if o.get("success"):
                return pick(i)
    if kind == "level_attribute":
        for want in ("power", "dexterity", "spirit", "knowledge"):
            for i, o in enumerate(options):
                if o.get("attribute") == want:
                    return pick(i)
    if kind == "lose_attribute":
        for want in ("knowledge", "spirit", "dexterity", "power"):
            for i, o in enumerate(options):
                if o.get("attribute") == want:
                    return pick(i)
    if kind in ("market", "blacksmith"):
        for i, o in enumerate(options):
            if o.get("repair"):
                return pick(i)
        for i, o in enumerate(options):
            if o.get("done"):
                return pick(i)
    if kind == "initiative_swap":
        for i, o in enumerate(options):
            if o.get("swap") is None:
                return pick(i)
    if kind == "sixth_sense":
        for i, o in enumerate(options):
            if o.get("move") == -1:
                return pick(i)
    return legal[0]


def choose(state, seat, legal):
    """The bot's command for ``seat`` among ``legal`` (the listed commands), or None."""
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    s = belief(state)
    end_share = {"type": "end_share", "args": {}}
    if end_share in legal:  # before the Exploration Phase: the bot keeps its supplies as they are
        return end_share
    if s["pending"]:
        cmd = _decision(s, legal)
    elif s["attack"]:
        cmd = _reroll(s, legal)
    elif (s.get("turn") or {}).get("kind") == "double":
        cmd = _double(s, legal)
    elif (s.get("turn") or {}).get("kind") == "character":
        cmd = _activation(s, s["turn"]["who"], legal)
    else:
        cmd = legal[0]
    return cmd if cmd in legal else legal[0]
