"""The Yashima bot: it plays its master to win, by one-ply lookahead with the engine's own rules.

What it may know (``belief``): everything public, its own hand and the face-up cards in decks. Which
of another master's unseen cards are in hand, the order of every deck (its own included) and the
others' secret destiny tokens are hidden; the *multiset* of a master's unseen cards is public (their
battle cards minus every card shown), so the belief state deals those in a fixed order with fresh
ids. Every decision below is computed from the belief state alone.

How it decides (docs/games/yashima.md, "Bot"):

* **On its turn** each listed command (the attacks pruned to one facing per set of masters a card
  would target) is tried on a copy with the engine's own step machinery, and the action is played to
  its end: the other masters answer their prompts with the passive choice (no defense, lose from the
  deck), the bot's own prompts with its rules (``rule``), a move action walks to the space the
  planner picks. The resulting positions are scored by ``evaluate``: first lives (a master depleted
  before its rivals loses the race, "Restoration and Winning the Game"), life (hand + deck), karma,
  statuses and equipment, and the threat the bot's hand poses next turn from where it stands against
  the danger of standing next to (or in line with) a rival while attack tokens remain. A quick effect
  or tome action is also scored with the best attack it leaves (DASH then attack).
* **Prompts** that change the outcome (defenses, DODGE spaces, optional effects, chained attacks,
  EMPOWER, targets, relocations, EXPLODE...) are searched the same way when they have at most
  ``SEARCHED_OPTIONS`` options; the rest (LOSE, payments, reorders, restoration choices...) follow
  rules: lose from the deck while it holds a few cards, pay with the lowest karma, keep good cards.
* **Setup**: the deepest kami deck and a strong master; the miniature nearest to the others.

Bounded: at most ``SIMULATIONS`` simulated commands per decision.
"""

from games.kernel import SYSTEM
from games.kernel.lookahead import Budget, best_of
from games.kernel.rng import Rng

from . import clocks, flow
from . import hexgrid as hx
from . import queries as q
from .stack import run
from .state import Sim, clone

WIN = 10000.0
SIMULATIONS = 600
ROLLOUT_STEPS = 40
SEARCHED_OPTIONS = 12
SIM_SEED = b"yashima-bot-lookahead"

MASTER_ORDER = ("lu_bu", "kenta", "akiko", "musashi", "bruce_lee", "mulan", "hikaru", "rosamu")
KAMI_ORDER = ("tortoise", "tiger", "akkorokamui", "foo_dog", "phoenix", "dragon")
GOOD_STATUSES = {"SPIRIT": 0.7, "CHI": 0.5, "WIND": 0.5}
BAD_STATUSES = {"BURN": 0.6, "BLIND": 0.5, "FROST": 1.0, "PLAGUE": 1.0, "SHOCK": 0.5, "RANCOR": 0.4, "SEED": 0.3}
DEFENSE_VALUE = {"BLOCK": (3, 0), "SPIRIT_SHIELD": (2, -1), "COUNTER": (2, 0), "RIPOSTE": (2, 1),
                 "OCCUPY": (2, 1), "CLASH": (4.5, 2), "DODGE": (99, 2), "BARRIER": (0, 1)}


# -- what the seat may know ------------------------------------------------------------------

def belief(state, seat):
    """``state`` as ``seat`` may know it: unseen cards dealt in a fixed order, secret tokens hidden."""
    s = dict(state)
    players = []
    for i, pl in enumerate(state["players"]):
        p = dict(pl)
        down = [c for c in pl["deck"] if not c.get("im")]
        unseen = down if i == seat else pl["hand"] + down
        cards = [{"id": f"unseen-{i}-{k}", "d": c["d"], "o": c["o"]}
                 for k, c in enumerate(sorted(unseen, key=lambda c: (c["d"], c["o"])))]
        if i != seat:
            p["hand"], cards = cards[:len(pl["hand"])], cards[len(pl["hand"]):]
        deck = []
        for c in pl["deck"]:
            deck.append(clone(c) if c.get("im") else cards.pop(0))
        p["deck"] = deck
        players.append(p)
    s["players"] = players
    s["destiny"] = {k: (v if k == str(seat) else "move") for k, v in (state.get("destiny") or {}).items()}
    return s


# -- stepping a copy --------------------------------------------------------------------------

def system_due(s) -> bool:
    st = (s.get("stacks") or {}).get("main") or []
    return s["phase"] != "over" and bool(st) and not st[-1].get("prompt")


def legal(s, seat) -> list:
    return [] if system_due(s) else flow.legal(s, seat)


def step(s, seat, cmd, budget: Budget):
    """The state after ``seat``'s ``cmd`` (SYSTEM: the game's own step), or None."""
    if not budget.take():
        return None
    sim = Sim(s, Rng(SIM_SEED, "step"))
    try:
        if seat == SYSTEM:
            sim.system = True
            run(sim, "main")
            flow.settle(sim)
        else:
            flow.execute(sim, seat, cmd)
    except Exception:  # a rule refused it, or a guessed hidden card did not fit: not a line to follow
        return None
    return sim.s


def resolve(s, me, budget: Budget, plans=None):
    """Play the action under way to its end: prompts only (no SYSTEM step, no new turn). The bot's
    prompts follow ``rule``; the others' the passive choice (``clocks.timeout_choice``)."""
    for _ in range(ROLLOUT_STEPS):
        if s is None or s["phase"] == "over" or system_due(s):
            return s
        pr = flow.main_prompt(s)
        if pr is None:
            return s
        seat = pr["seat"]
        cmds = list(pr["cmds"])
        if seat == me:
            cmd = rule(s, me, pr["kind"], cmds)
        else:
            cmd = clocks.timeout_choice(s, seat, cmds)
        nxt = step(s, seat, cmd, budget)
        if nxt is None:
            return s
        s = nxt
    return s


# -- geometry ---------------------------------------------------------------------------------

def _standing_rivals(s, me):
    return [i for i, p in enumerate(s["players"])
            if q.opposing(s, me, i) and not p["dead"] and not p["pending"] and p["pos"]]


def _offsets(s, seat, d):
    e = q.effective(s, seat, d)
    pattern = [tuple(x) for x in e["pattern"]]
    for m in e["mods"]:
        if m["k"] == "PATTERN_PLUS":
            pattern += [tuple(x) for x in m["cells"] if tuple(x) not in pattern]
    return e, [[hx.rotate(dq, dr, f) for dq, dr in pattern] for f in range(6)]


def _hand_attacks(s, me):
    out = []
    for c in q.player(s, me)["hand"]:
        e, rot = _offsets(s, me, c["d"])
        out.append((c, e, rot))
    return out


def threat(s, me, cell, attacks=None) -> float:
    """The best ATK the bot's hand could bring on rivals from ``cell`` (any facing), own side hit
    subtracted."""
    if cell is None:
        return 0.0
    cq, cr = hx.parse(cell)
    others = [(i, hx.parse(p["pos"])) for i, p in enumerate(s["players"])
              if i != me and not p["dead"] and p["pos"] and not p["pending"]]
    if not others:
        return 0.0
    best = 0.0
    for _, e, rot in (attacks if attacks is not None else _hand_attacks(s, me)):
        for offs in rot:
            cells = {(cq + dq, cr + dr) for dq, dr in offs}
            total = 0.0
            for i, (oq, orr) in others:
                if (oq, orr) in cells:
                    total += e["atk"] if q.opposing(s, me, i) else -e["atk"]
            if (cq, cr) in cells:
                total -= e["atk"]
            best = max(best, total)
    return best


def danger(s, me, cell) -> float:
    """How exposed ``cell`` is to the standing rivals (adjacent, in line, near), if they can attack."""
    if cell is None:
        return 0.0
    total = 0.0
    for i in _standing_rivals(s, me):
        d = hx.distance(cell, s["players"][i]["pos"])
        if d == 1:
            total += 3.0
        elif d <= 3 and _in_line(cell, s["players"][i]["pos"]):
            total += 1.5
        elif d == 2:
            total += 0.7
    tokens = (s.get("pool") or {}).get("attack", 0)
    return total * (1.0 if tokens else 0.4)


def _in_line(a, b) -> bool:
    aq, ar = hx.parse(a)
    bq, br = hx.parse(b)
    dq, dr = bq - aq, br - ar
    return dq == 0 or dr == 0 or dq + dr == 0


def position_value(s, me, cell, attacks=None) -> float:
    if cell is None:
        return 0.0
    rivals = _standing_rivals(s, me)
    near = min((hx.distance(cell, s["players"][i]["pos"]) for i in rivals), default=0)
    return 0.3 * threat(s, me, cell, attacks) - 0.3 * danger(s, me, cell) - 0.05 * near


def best_facing(s, me, cell) -> int:
    """The facing whose front space is nearest the nearest standing rival."""
    rivals = _standing_rivals(s, me)
    if not rivals or cell is None:
        return q.player(s, me)["facing"]
    target = min((s["players"][i]["pos"] for i in rivals), key=lambda c: (hx.distance(cell, c), c))
    return _facing_towards(cell, target)


def _facing_towards(cell, target) -> int:
    cq, cr = hx.parse(cell)

    def front(f):
        dq, dr = hx.rotate(0, -1, f)
        return hx.distance(hx.key(cq + dq, cr + dr), target)
    return min(range(6), key=lambda f: (front(f), f))


# -- evaluation -------------------------------------------------------------------------------

def master_value(s, seat, me) -> float:
    p = s["players"][seat]
    if p["dead"]:
        return -60.0
    if p["pending"]:
        return 30.0 + 0.3 * len(p["discard"])
    value = (100.0 if not p["restored"] else 40.0) + q.life(s, seat) + 0.7 * len(p["karma"])
    value += 1.5 * len(p["equip"])
    if not p["deck"]:
        value -= 2.0
    for name, owners in p["st"].items():
        value += len(owners) * (GOOD_STATUSES.get(name, 0.0) - BAD_STATUSES.get(name, 0.0))
    if seat == me:
        value += 0.3 * sum(1 for c in p["hand"] if q.effective(s, seat, c["d"])["defense"])
    return value


def evaluate(s, me) -> float:
    if s is None:
        return -WIN
    if s["phase"] == "over":
        winners = (s.get("result") or {}).get("winners") or []
        if not winners:
            return 0.0
        return WIN if me in winners else -WIN
    score = 0.0
    for i in range(len(s["players"])):
        if s["players"][i].get("master") is None:
            continue
        v = master_value(s, i, me)
        score += v if not q.opposing(s, me, i) else -v
    pl = s["players"][me]
    if not pl["dead"] and not pl["pending"]:
        score += position_value(s, me, pl["pos"])
    return score


# -- rules: cheap choices for every decision kind ----------------------------------------------

def _card_value(s, seat, c) -> float:
    """How much the bot wants to keep a card in hand: attack power, a defense, karma."""
    e = q.effective(s, seat, c["d"])
    value = e["atk"] + 0.2 * e["karma"]
    if e["defense"]:
        value += 3.0
    return value


def _is_rival(s, me, w) -> bool:
    return q.opposing(s, me, w)


def _master_choice(s, me, cmds):
    """A choice of master: the rival with the least life still standing; never oneself if avoidable."""
    def key(c):
        w = c["args"].get("master")
        if w is None:
            return (3, 0)
        p = s["players"][w]
        if _is_rival(s, me, w):
            return (0 if not p["pending"] else 1, q.life(s, w))
        return (2, 0)
    return min(cmds, key=key)


def _cell_choice(s, me, cmds, arg):
    attacks = _hand_attacks(s, me)

    def score(c):
        if c["type"] in ("stay", "done"):
            return position_value(s, me, q.player(s, me)["pos"], attacks)
        return position_value(s, me, c["args"][arg], attacks)
    return max(cmds, key=score)


def _spaces_near_rivals(s, me, cmds):
    """Status spaces (BURN...): the free space nearest a rival and not next to the bot."""
    mine = q.player(s, me)["pos"]
    rivals = [s["players"][i]["pos"] for i in _standing_rivals(s, me)]
    best, key = None, None
    for c in cmds:
        if c["type"] != "choose_space":
            continue
        cell = c["args"]["cell"]
        near = min((hx.distance(cell, r) for r in rivals), default=99)
        if mine and hx.distance(cell, mine) <= 1:
            continue
        k = (near, cell)
        if key is None or k < key:
            best, key = c, k
    if best is None or key[0] > 3:
        return next((c for c in cmds if c["type"] == "done"), cmds[0])
    return best


def _typed(cmds, *types):
    for t in types:
        for c in cmds:
            if c["type"] == t:
                return c
    return cmds[0]


def _defense_rule(s, me, cmds):
    pr = flow.main_prompt(s)
    atk = (pr or {}).get("info", {}).get("atk", 3)
    best, best_net = _typed(cmds, "no_defense"), 0.0
    for c in cmds:
        if c["type"] != "defend":
            continue
        card = next(x for x in q.player(s, me)["hand"] if x["id"] == c["args"]["card"])
        kind = q.effective(s, me, card["d"])["defense"]
        prevent, cost = DEFENSE_VALUE.get(kind, (0, 1))
        if kind == "BARRIER":
            prevent = len(q.player(s, me)["karma"])
        net = min(prevent, atk) - cost - 0.3 * _card_value(s, me, card) / 5
        if kind == "RIPOSTE":
            net += 1.5
        if net > best_net:
            best, best_net = c, net
    return best


def _lose_rule(s, me, cmds):
    pl = q.player(s, me)
    karma = [c for c in cmds if c["args"].get("zone") == "karma"]
    if karma:
        def kv(c):
            card = next(x for x in pl["karma"] if x["id"] == c["args"]["card"])
            return q.card_def(s, card["d"])["karma"]
        return min(karma, key=kv)
    deck = next((c for c in cmds if c["args"].get("zone") == "deck"), None)
    hand = [c for c in cmds if c["args"].get("zone") == "hand"]
    if deck is not None and (len(pl["deck"]) >= 3 or not hand):
        return deck
    if not hand:
        return cmds[0]
    return min(hand, key=lambda c: _card_value(s, me, next(x for x in pl["hand"] if x["id"] == c["args"]["card"])))


def _by_card(s, me, cmds, zone, key, lowest=True):
    pl = q.player(s, me)
    ids = {x["id"]: x for x in pl[zone]}

    def k(c):
        card = ids.get(c["args"].get("card"))
        return key(card) if card else 0
    return (min if lowest else max)(cmds, key=k)


def _chain_rule(s, me, cmds):
    best, best_v = _typed(cmds, "decline_chain"), 0.0
    pl = q.player(s, me)
    for c in cmds:
        if c["type"] != "chain_attack":
            continue
        card = next(x for x in pl["hand"] if x["id"] == c["args"]["card"])
        v = _attack_estimate(s, me, card, c["args"]["facing"])
        if v > best_v:
            best, best_v = c, v
    return best


def _attack_estimate(s, me, card, facing) -> float:
    """ATK on rivals minus ATK on the bot's own side for ``card`` played at ``facing`` (no modifiers)."""
    pos = q.player(s, me)["pos"]
    if pos is None:
        return 0.0
    e, rot = _offsets(s, me, card["d"])
    cq, cr = hx.parse(pos)
    cells = {hx.key(cq + dq, cr + dr) for dq, dr in rot[facing]}
    total = 0.0
    for i, p in enumerate(s["players"]):
        if p["dead"] or p["pending"] or p["pos"] not in cells:
            continue
        total += e["atk"] if _is_rival(s, me, i) else -e["atk"]
    return total


def _explode_rule(s, me, cmds):
    def score(c):
        cell = c["args"]["cell"]
        total = 0.0
        for i, p in enumerate(s["players"]):
            if p["dead"] or p["pos"] is None or p["pending"]:
                continue
            d = hx.distance(cell, p["pos"])
            n = 4 if d <= 1 else 2 if d == 2 else 0
            total += n if _is_rival(s, me, i) else -n
        return total
    return max(cmds, key=score)


def _status_removal_rule(s, me, cmds):
    def score(c):
        a = c["args"]
        good = GOOD_STATUSES.get(a.get("status"), 0.0) - BAD_STATUSES.get(a.get("status"), 0.0)
        if a.get("on") == "master":
            return -good if not _is_rival(s, me, a["who"]) else good
        return 0.0
    return max(cmds, key=score)


def _setup_rule(s, me, cmds):
    kinds = {c["type"] for c in cmds}
    if "pick" in kinds:
        def rank(c):
            m, k = c["args"]["master"], c["args"]["kami"]
            return (MASTER_ORDER.index(m) if m in MASTER_ORDER else 99, KAMI_ORDER.index(k) if k in KAMI_ORDER else 99)
        return min(cmds, key=rank)
    if "place_miniature" in kinds:
        others = [p["pos"] for i, p in enumerate(s["players"]) if i != me and p["pos"]]

        def rank(c):
            cell = c["args"]["cell"]
            near = min((hx.distance(cell, o) for o in others), default=hx.distance(cell, "0,0"))
            return (near, cell)
        cell = min(cmds, key=rank)["args"]["cell"]
        facing = _facing_towards(cell, others[0] if others else "0,0")
        return next((c for c in cmds if c["args"]["cell"] == cell and c["args"]["facing"] == facing), cmds[0])
    return cmds[0]


def _reconcile_rule(s, me, cmds):
    return _typed(cmds, "draw", "end_reconcile")


def _move_rule(s, me, cmds):
    """A move step towards the space the planner picks, or the end of the move facing a rival."""
    pl = q.player(s, me)
    pr = flow.main_prompt(s) or {}
    left = pr.get("info", {}).get("speed_left", 0)
    steps = {c["args"]["to"]: c for c in cmds if c["type"] == "step"}
    attacks = _hand_attacks(s, me)
    here = position_value(s, me, pl["pos"], attacks)
    best_cell, best_v, best_first = pl["pos"], here, None
    if steps and left >= 0:
        paths = q.reach(s, me, max(left, 1))
        for cell, (exerts, path) in sorted(paths.items()):
            if not path or path[0] not in steps or q.occupant(s, cell) is not None:
                continue
            v = position_value(s, me, cell, attacks) - 1.0 * exerts
            if v > best_v + 1e-9:
                best_cell, best_v, best_first = cell, v, path[0]
    if best_first is not None:
        return steps[best_first]
    facing = best_facing(s, me, pl["pos"])
    return next((c for c in cmds if c["type"] == "end_move" and c["args"]["facing"] == facing),
                _typed(cmds, "end_move"))


def rule(s, me, kind, cmds):
    """The bot's rule for a decision of ``kind`` among ``cmds`` (no simulation)."""
    if len(cmds) == 1:
        return cmds[0]
    if kind == "setup":
        return _setup_rule(s, me, cmds)
    if kind == "destiny":
        pl = q.player(s, me)
        rivals = _standing_rivals(s, me)
        near = min((hx.distance(pl["pos"], s["players"][i]["pos"]) for i in rivals), default=99) if pl["pos"] else 99
        token = "attack" if near <= q.speed(s, me) + 2 else "move"
        return next((c for c in cmds if c["args"].get("token") == token), cmds[0])
    if kind == "reconcile":
        return _reconcile_rule(s, me, cmds)
    if kind == "turn":
        return _turn_rule(s, me, cmds)
    if kind == "defense":
        return _defense_rule(s, me, cmds)
    if kind == "lose":
        return _lose_rule(s, me, cmds)
    if kind == "move":
        return _move_rule(s, me, cmds)
    if kind == "optional_effect":
        if any(c["args"].get("effect") == "EXPLODE" for c in cmds):
            return _typed(cmds, "skip_effect")
        return _typed(cmds, "use_effect")
    if kind == "chain_followup":
        return _chain_rule(s, me, cmds)
    if kind == "empower":
        return next((c for c in cmds if c["args"].get("to") == "top"), cmds[0])
    if kind in ("pay",):
        return _by_card(s, me, cmds, "karma", lambda c: q.card_def(s, c["d"])["karma"])
    if kind in ("weaken", "discard_karma"):
        return _by_card(s, me, cmds, "karma", lambda c: q.card_def(s, c["d"])["karma"])
    if kind == "discard":
        return _by_card(s, me, cmds, "hand", lambda c: _card_value(s, me, c))
    if kind == "put_on_top":
        return _by_card(s, me, cmds, "hand", lambda c: _card_value(s, me, c))
    if kind == "reorder":
        return cmds[0]
    if kind in ("choose_master", "bleed", "imprint_into"):
        return _master_choice(s, me, cmds)
    if kind == "destroy":
        return min(cmds, key=lambda c: (not _is_rival(s, me, c["args"]["master"]), c["args"]["master"]))
    if kind in ("overrun", "feint", "relocate", "forced_relocation", "dodge"):
        arg = "to"
        return _cell_choice(s, me, cmds, arg)
    if kind in ("status_spaces", "blaze_spaces"):
        return _spaces_near_rivals(s, me, cmds)
    if kind == "explode":
        return _explode_rule(s, me, cmds)
    if kind in ("purify", "remove_status"):
        return _status_removal_rule(s, me, cmds)
    if kind == "rejuvenate":
        return _typed(cmds, "rejuvenate")
    if kind == "frost":
        return _typed(cmds, "pay_frost")
    if kind == "restore_statuses":
        for c in cmds:
            if c["type"] == "restore_remove_status" and c["args"]["status"] not in GOOD_STATUSES:
                return c
        return _typed(cmds, "restore_keep_statuses")
    if kind == "restore_equipment":
        return _typed(cmds, "restore_keep_equipment")
    if kind == "relic":
        return _typed(cmds, "relic_skip")
    if kind == "saru_move":
        return _typed(cmds, "done")
    return clocks.timeout_choice(s, me, cmds)


def _turn_rule(s, me, cmds):
    """The turn without search: the best estimated attack, else a move towards a rival, else a token."""
    pl = q.player(s, me)
    best, best_v = None, 0.0
    for c in cmds:
        if c["type"] == "attack":
            card = next(x for x in pl["hand"] if x["id"] == c["args"]["card"])
            v = _attack_estimate(s, me, card, c["args"]["facing"])
            if v > best_v:
                best, best_v = c, v
    if best is not None:
        return best
    return _typed(cmds, "end_turn", "move_action", "take_token")


# -- the turn: one-ply lookahead ----------------------------------------------------------------

COMBAT = ("attack", "move_action", "take_token")


def _attack_candidates(s, me, cmds):
    """One attack per (card, set of masters its pattern covers): facings that target the same
    masters differ only in where the miniature ends up facing; the current facing is kept if it is
    one of them (PATIENCE)."""
    pl = q.player(s, me)
    facing_now = pl["facing"]
    groups = {}
    for c in cmds:
        if c["type"] not in ("attack", "chain_attack"):
            continue
        card = next(x for x in pl["hand"] if x["id"] == c["args"]["card"])
        e, rot = _offsets(s, me, card["d"])
        cq, cr = hx.parse(pl["pos"])
        cells = {hx.key(cq + dq, cr + dr) for dq, dr in rot[c["args"]["facing"]]}
        hit = tuple(sorted(i for i, p in enumerate(s["players"]) if p["pos"] in cells and not p["dead"]))
        k = (c["type"], c["args"]["card"], hit)
        if k not in groups or c["args"]["facing"] == facing_now:
            groups[k] = c
    return [c for c in cmds if c in groups.values()]


def _after(s, me, cmd, budget):
    nxt = step(s, me, cmd, budget)
    return resolve(nxt, me, budget) if nxt is not None else None


def _score_turn_command(s, me, cmd, budget, attacks_left):
    if cmd["type"] == "end_turn":
        return evaluate(s, me)
    nxt = _after(s, me, cmd, budget)
    if nxt is None:
        return None
    value = evaluate(nxt, me)
    if attacks_left and cmd["type"] not in COMBAT and nxt["phase"] == "battle" and flow.main_prompt(nxt) is None \
            and not system_due(nxt) and (nxt.get("turn") or {}).get("seat") == me:
        # a tome action or quick effect first: score it with the best attack it leaves
        follow = [c for c in _attack_candidates(nxt, me, legal(nxt, me)) if c["type"] == "attack"]
        for c in follow:
            card = next(x for x in q.player(nxt, me)["hand"] if x["id"] == c["args"]["card"])
            if _attack_estimate(nxt, me, card, c["args"]["facing"]) <= 0:
                continue
            after = _after(nxt, me, c, budget)
            if after is not None:
                value = max(value, evaluate(after, me))
    return value


def _turn_choice(s, me, cmds, rng, budget):
    attacks = _attack_candidates(s, me, cmds)
    others = [c for c in cmds if c["type"] not in ("attack", "delve")]
    candidates = attacks + others
    if not candidates:
        return rule(s, me, "turn", cmds)
    turn = s.get("turn") or {}
    attacks_left = turn.get("token") is None and (s.get("pool") or {}).get("attack", 0) > 0
    scored = []
    for c in candidates:
        v = _score_turn_command(s, me, c, budget, attacks_left)
        if v is not None:
            scored.append((round(v, 6), c))
    return best_of(scored, rng) or rule(s, me, "turn", cmds)


def _prompt_choice(s, me, kind, cmds, rng, budget):
    if kind == "chain_followup":
        cmds = _attack_candidates(s, me, cmds) + [c for c in cmds if c["type"] != "chain_attack"]
    scored = []
    for c in cmds:
        nxt = _after(s, me, c, budget)
        if nxt is not None:
            scored.append((round(evaluate(nxt, me), 6), c))
    return best_of(scored, rng) or rule(s, me, kind, cmds)


SEARCHED = {"defense", "dodge", "optional_effect", "chain_followup", "empower", "explode", "choose_master",
            "bleed", "overrun", "feint", "relocate", "forced_relocation", "purify", "remove_status", "fury",
            "destroy", "imprint_into", "status_spaces", "blaze_spaces"}


def choose(state, seat, cmds, rng, simulations: int = SIMULATIONS):
    """The bot's command for ``seat`` among ``cmds`` (the listed commands), or None."""
    if not cmds:
        return None
    if len(cmds) == 1:
        return cmds[0]
    s = belief(state, seat)
    kind = clocks.decision_kind(s, seat)
    budget = Budget(simulations)
    if kind == "chain_followup":
        cmds_searched = _attack_candidates(s, seat, cmds) + [c for c in cmds if c["type"] != "chain_attack"]
    else:
        cmds_searched = cmds
    if kind == "turn":
        cmd = _turn_choice(s, seat, cmds, rng, budget)
    elif kind in SEARCHED and len(cmds_searched) <= SEARCHED_OPTIONS:
        cmd = _prompt_choice(s, seat, kind, cmds, rng, budget)
    else:
        cmd = rule(s, seat, kind, cmds)
    return cmd if cmd in cmds else rule(s, seat, kind, cmds)
