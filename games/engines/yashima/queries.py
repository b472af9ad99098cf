"""Read-only questions about a Yashima state: stats, terrain, adjacency, card definitions."""

from . import hexgrid as hx
from .content import CARDS, MASTERS, PATTERNS, STATUSES

ATTACK_MODS = {"COMBO", "PATIENCE", "KINDLE", "AMBUSH", "SWIFT", "NO_TOKEN", "PATTERN_PLUS"}


def player(s, seat):
    return s["players"][seat]


def card_def(s, d: str) -> dict:
    """Definition of a battle card id, a scenario's custom card, or a tome face "tome:m:i:face"."""
    custom = s.get("custom") or {}
    if d in custom:
        return custom[d]
    if d.startswith("tome:"):
        _, m, i, face = d.split(":")
        return MASTERS[m]["tome"][int(i)]["faces"][face]
    return CARDS[d]


def master_of(s, seat) -> dict:
    return MASTERS[player(s, seat)["master"]]


def effective(s, seat, d: str) -> dict:
    """A battle card as ``seat`` plays it: ADAPT expanded, keywords collected."""
    c = card_def(s, d)
    m = master_of(s, seat) if player(s, seat).get("master") else {"adapt": {}}
    items = []
    defense = c.get("defense")
    for it in c.get("attack", []):
        if it["k"] == "ADAPT":
            items.extend(m["adapt"].get("attack", []))
            if not defense and m["adapt"].get("defense"):
                defense = m["adapt"]["defense"]
        else:
            items.append(it)
    mods = [it for it in items if it["k"] in ATTACK_MODS]
    effects = [it for it in items if it["k"] not in ATTACK_MODS]
    keywords = {it["k"] for it in items}
    if defense:
        keywords.add(defense)
    pattern = c["pattern"] if isinstance(c["pattern"], list) else PATTERNS[c["pattern"]]
    return {"name": c["name"], "karma": c["karma"], "atk": c["atk"], "pattern": pattern, "mods": mods,
            "effects": effects, "defense": defense, "keywords": sorted(keywords), "quick": c.get("quick")}


def stats(s, seat) -> dict:
    pl = player(s, seat)
    return MASTERS[pl["master"]]["avatar"]["restored" if pl["restored"] else "front"]


def passive(s, seat, key):
    pl = player(s, seat)
    for ab in MASTERS[pl["master"]]["abilities"]:
        if ab["kind"] == "passive" and key in ab.get("hook", {}):
            return ab["hook"]
    return None


def equip_bonus(s, seat, key) -> int:
    total = 0
    for c in player(s, seat)["equip"]:
        torn = card_def(s, c["d"]).get("torn", {})
        total += torn.get("passive", {}).get(key, 0)
    return total


def status_count(s, seat, name) -> int:
    return len(player(s, seat)["st"].get(name, []))


def speed(s, seat) -> int:
    v = stats(s, seat)["speed"] + equip_bonus(s, seat, "speed")
    v += status_count(s, seat, "SPIRIT") - status_count(s, seat, "BLIND")
    return max(0, v)


def hand_size(s, seat) -> int:
    v = stats(s, seat)["hand"] + equip_bonus(s, seat, "hand")
    v += status_count(s, seat, "SPIRIT") - status_count(s, seat, "SHOCK")
    return max(0, v)


def exhausted(s, seat) -> bool:
    pl = player(s, seat)
    return not pl["deck"] or status_count(s, seat, "FROST") > 0


def exertable(s, seat) -> int:
    """How many EXERTs the battle deck can pay: its face-down cards. A face-up imprinted (or BLEED)
    card is never exerted: revealed on top it resolves and goes beneath the deck (IMPRINT), or, with
    no face-down card beneath it, leaves the deck (to its owner's tome or deck) - so it pays nothing."""
    return sum(1 for c in player(s, seat)["deck"] if not c.get("im"))


def can_exert(s, seat, n=1) -> bool:
    """Whether ``n`` EXERTs can be paid as a cost (EXHAUSTED: "If an effect or movement requires you
    to EXERT as a cost, you cannot activate that effect or perform that movement")."""
    return status_count(s, seat, "FROST") == 0 and exertable(s, seat) >= n


def life(s, seat) -> int:
    pl = player(s, seat)
    return len(pl["deck"]) + len(pl["hand"])


def in_game(s, seat) -> bool:
    return not player(s, seat)["dead"]


def active(s, seat) -> bool:
    """In the game and not waiting to restore."""
    pl = player(s, seat)
    return not pl["dead"] and not pl["pending"]


def opposing(s, a, b) -> bool:
    return s["teams"][a] != s["teams"][b]


def occupant(s, cell):
    for i, pl in enumerate(s["players"]):
        if pl.get("pos") == cell:
            return i
    return None


def terrain(s, cell):
    return s["cells"].get(cell)


def space_status(s, cell) -> dict:
    return s["spst"].get(cell, {})


def is_solid(s, cell) -> bool:
    t = terrain(s, cell)
    return t in ("solid", "relic") or "PLANT" in space_status(s, cell)


def is_deadly(s, cell) -> bool:
    return terrain(s, cell) == "deadly" or "FROST" in space_status(s, cell)


def legal_space(s, cell) -> bool:
    """On the board, not solid, unoccupied."""
    return terrain(s, cell) is not None and not is_solid(s, cell) and occupant(s, cell) is None


def adjacent_opponents(s, seat, cell) -> list:
    out = []
    for n in hx.neighbours(cell):
        o = occupant(s, n)
        if o is not None and o != seat and opposing(s, seat, o):
            out.append(o)
    return out


def adjacent_masters(s, seat, cell) -> list:
    out = []
    for n in hx.neighbours(cell):
        o = occupant(s, n)
        if o is not None and o != seat:
            out.append(o)
    return out


def combat_exerts(s, seat, frm, to) -> int:
    """EXERTs owed for a move from ``frm`` to ``to`` (Locked In Combat: "you must EXERT for each
    master you move away from"): one per opposing master adjacent before the step and not after it."""
    still = set(adjacent_opponents(s, seat, to))
    return sum(1 for o in adjacent_opponents(s, seat, frm) if o not in still)


def status_rule(name) -> dict:
    return STATUSES[name]


def supply_key(name) -> str:
    return STATUSES[name].get("supply_key", name)


def can_gain_master(s, seat, name) -> bool:
    rule = STATUSES[name]
    if rule["masters"] <= 0 or not in_game(s, seat):
        return False
    if s["supply"].get(supply_key(name), 0) <= 0:
        return False
    return status_count(s, seat, name) < rule["masters"]


def places_saru(s, seat) -> bool:
    """A master flagged in content as placing SARU (Mitsuo of Icy Peaks and his monkey)."""
    return bool(MASTERS.get(player(s, seat)["master"] or "", {}).get("places_saru"))


def saru_space(s, seat):
    """The space holding ``seat``'s SARU status, or None (one SARU in play per master)."""
    return next((cell for cell, st in sorted(s["spst"].items()) if seat in st.get("SARU", [])), None)


def saru_spot(s, cell) -> bool:
    """SARU may sit on an unoccupied, non-solid space of the map."""
    return terrain(s, cell) is not None and not is_solid(s, cell) and occupant(s, cell) is None


def can_gain_space(s, cell, name) -> bool:
    rule = STATUSES[name]
    if rule["spaces"] <= 0 or terrain(s, cell) is None:
        return False
    if s["supply"].get(supply_key(name), 0) <= 0:
        return False
    if name in ("SARU", "PLANT") and (is_solid(s, cell) or occupant(s, cell) is not None):
        return False
    return len(space_status(s, cell).get(name, [])) < rule["spaces"]


def tome_stacks(s, seat, spread=None) -> tuple:
    """The tome as it lies on the table: (left, right), the indices of the tome cards still in it.

    ``spread`` is the reader's place in the whole book, counting removed cards too: the cards before
    it have been turned (the left-hand stack, its top = the last one, showing its back page), the others
    have not (the right-hand stack, its top = the first one, showing its front page)."""
    tome = player(s, seat)["tome"]
    spread = tome["spread"] if spread is None else spread
    present = [i for i in range(len(master_of(s, seat)["tome"])) if i not in tome["out"]]
    return [i for i in present if i < spread], [i for i in present if i >= spread]


def tome_pages(s, seat, spread=None) -> list:
    """The pages face up: the left-hand card's back and the right-hand card's front, [(page, ti, face)]
    (at ``spread`` instead of the tome's own place when given)."""
    left, right = tome_stacks(s, seat, spread)
    out = []
    if left:
        out.append((2 * left[-1] + 2, left[-1], "back"))
    if right:
        out.append((2 * right[0] + 1, right[0], "front"))
    return out


def tome_turned(s, seat, spread) -> dict:
    """The TomeTurned payload: the tome's new place and the pages it then shows face up, as the board
    numbers them ("Tome pages 2 and 3"; the rulebook's setup: page 1 on the right, then 2 and 3), so
    the history names the pages and not the place's index."""
    return {"seat": seat, "spread": spread, "pages": [page for page, _, _ in tome_pages(s, seat, spread)]}


def spread_after(s, seat, pages):
    """``spread`` once ``pages`` pages are turned one at a time (negative: backward), or None when the
    tome cannot turn that far (not past its cover, nor past its back). A page turn moves one tome card
    from one stack onto the other; the place moves just past that card, so cards removed from the tome
    that it passes over now lie on the other side of the reader's place."""
    left, right = tome_stacks(s, seat)
    spread = player(s, seat)["tome"]["spread"]
    for _ in range(abs(pages)):
        if pages > 0 and right:
            left.append(right.pop(0))
            spread = left[-1] + 1
        elif pages < 0 and left:
            right.insert(0, left.pop())
            spread = right[0]
        else:
            return None
    return spread


def bookmark_spreads(s, seat) -> list:
    """One ``spread`` for each other way the tome can lie open: 0, 1, ... of its cards turned."""
    left, right = tome_stacks(s, seat)
    places = [0] + [i + 1 for i in sorted(left + right)]
    return [spread for turned, spread in enumerate(places) if turned != len(left)]


def turn_order_from(s, first) -> list:
    n = len(s["players"])
    return [(first + i) % n for i in range(n)]


def standing(s, seat) -> bool:
    pl = player(s, seat)
    return not (pl["dead"] or pl["pending"] or pl["restored"])


# -- movement ---------------------------------------------------------------------------

def step_cost(s, seat, frm, to, left, road_used):
    """(speed cost, exerts, enters road) for one step, or None when the step is illegal.

    ``road_used``: no free road entry is left - the move action already entered its first road, or
    the movement is not a move action at all (ROAD TERRAIN: "The first road terrain a master enters
    during their move action costs no speed"; DASH and WIND pay for roads like any space)."""
    if not legal_space(s, to):
        return None
    t = terrain(s, to)
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
    exerts = combat_exerts(s, seat, frm, to) + (1 if is_deadly(s, to) else 0)
    if exerts and not can_exert(s, seat, exerts):
        return None
    return cost, exerts, road


def reach(s, seat, budget):
    """Best paths from the master's space: cell -> (EXERTs, path list), for a movement outside the
    move action (DASH: no road is free). Best = fewest EXERTs, then not picking up a BURN on the way
    (a master without BURN entering a burning space takes it), then the least speed."""
    start = player(s, seat)["pos"]
    has_burn = status_count(s, seat, "BURN") > 0
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
            if not can_exert(s, seat, tot) and tot:
                continue
            takes = not burning and "BURN" in space_status(s, n)
            rank = (tot, picked or takes)
            k = (n, left - cost, burning or takes)
            if k in best and best[k] <= rank:
                continue
            best[k] = rank
            frontier.append((tot, picked or takes, n, left - cost, burning or takes, path + [n]))
            if n not in out or out[n][:2] > rank:
                out[n] = (tot, picked or takes, path + [n])
    return {cell: (ex, path) for cell, (ex, _, path) in out.items()}
