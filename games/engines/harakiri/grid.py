"""Squares, adjacency, movement, range and line of sight for the Exploration Phase.

Squares are "x,y" string keys into ``state["squares"]``; each square is
``{"z": zone, "t": terrain, "h": height}`` with terrain one of ``open``, ``obstacle`` (yellow),
``inaccessible`` (red), ``difficult`` (purple), ``special`` (blue), ``stairs`` and ``door``
(a door square is inaccessible while its door is closed and regular terrain once opened).
A coordinate that is not in ``squares`` is a wall (inaccessible).

Everything here is a pure function of the state; ``occ`` arguments are precomputed sets.
"""

from fractions import Fraction
import heapq

STATIC_BLOCKING = ("obstacle", "inaccessible")


def xy(sq: str) -> tuple:
    a, b = sq.split(",")
    return int(a), int(b)


def key(x: int, y: int) -> str:
    return f"{x},{y}"


def neighbours(sq: str) -> list:
    x, y = xy(sq)
    return [key(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


def chebyshev(a: str, b: str) -> int:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return max(abs(ax - bx), abs(ay - by))


def terrain(state, sq: str) -> str:
    """Effective terrain: walls and closed doors are inaccessible."""
    info = state["squares"].get(sq)
    if info is None:
        return "inaccessible"
    t = info["t"]
    if t == "door":
        for door in state["doors"].values():
            if door["sq"] == sq:
                return "open" if door["open"] else "inaccessible"
        return "open"
    return t


def special_rule(state, sq: str) -> dict:
    """The special (blue) terrain rule of the zone holding ``sq`` (scenario ``zones.<z>.special``),
    or {} when ``sq`` is not special terrain or its zone defines no rule (then it is regular)."""
    info = state["squares"].get(sq)
    if info is None or info["t"] != "special":
        return {}
    zones = state["zones_def"] if "zones_def" in state else state.get("zones_info", {})  # a state or a view
    return (zones.get(info["z"]) or {}).get("special") or {}


def height(state, sq: str) -> int:
    info = state["squares"].get(sq)
    return info.get("h", 0) if info else 0


def zone_of(state, sq: str):
    info = state["squares"].get(sq)
    return info["z"] if info else None


def range_between(a: str, b: str) -> int:
    """Rulebook "Determining Range": shortest distance in squares, origin excluded, target included.

    Diagonal steps count 1 (squares touching at a corner are adjacent), so this is the
    Chebyshev distance; walls do not lengthen a range (the text counts squares, not paths)."""
    return chebyshev(a, b)


def adjacent(state, a: str, b: str) -> bool:
    """Touching along a side or a corner, and at the same height level."""
    return a != b and chebyshev(a, b) == 1 and height(state, a) == height(state, b)


# -- movement ---------------------------------------------------------------------------


def step_cost(state, frm: str, to: str, mover: dict, occ: set):
    """Movement points to step from ``frm`` to the adjacent ``to``, or None if illegal.

    ``mover``: {"flying": bool, "spectral": bool, "elusive": bool, "large": bool}; ``occ``: squares holding
    creatures of the other side and resistors (occupied for this mover). Ending on a free
    square is checked by the caller.
    """
    if chebyshev(frm, to) != 1:
        return None
    flying, spectral = mover.get("flying"), mover.get("spectral")
    if to not in state["squares"]:
        return None
    t_to = terrain(state, to)
    if not spectral:
        if t_to == "inaccessible":
            return None
        if t_to == "obstacle" and not flying:
            return None
        if to in occ and not flying and not mover.get("elusive"):
            return None
        if t_to == "stairs" and mover.get("large") and not flying:
            return None  # "Miniatures with bases larger than 1 square cannot fit in" stairs
    # Only flying moves "between squares at different heights as if they were adjacent"; spectral
    # movement passes through terrain but changes height by stairs and ladders like walking.
    h_from, h_to = height(state, frm), height(state, to)
    if h_from != h_to and not flying:
        if abs(h_from - h_to) != 1 or mover.get("large"):
            return None
        low = frm if h_from < h_to else to
        if terrain(state, low) != "stairs":
            return None
    (fx, fy), (tx, ty) = xy(frm), xy(to)
    if fx != tx and fy != ty and not spectral:
        for corner in (key(fx, ty), key(tx, fy)):
            ct = terrain(state, corner)
            if ct == "inaccessible":
                return None
            if flying:
                continue
            if ct == "obstacle":
                return None
            if corner in occ and not mover.get("elusive"):
                return None
    if not (flying or spectral) and terrain(state, frm) == "difficult":
        return 2
    if not (flying or spectral) and terrain(state, frm) == "special":
        return 1 + special_rule(state, frm).get("move_cost", 0)
    return 1


def reachable(state, start: str, mp: int, mover: dict, occ: set) -> dict:
    """{square: [cost, steps]} for every square reachable with ``mp`` movement points.

    Dijkstra on (cost, steps): the cheapest way there, and among those the fewest steps."""
    best = {start: [0, 0]}
    heap = [(0, 0, start)]
    while heap:
        cost, steps, sq = heapq.heappop(heap)
        if best.get(sq) != [cost, steps]:
            continue
        for nb in neighbours(sq):
            c = step_cost(state, sq, nb, mover, occ)
            if c is None or cost + c > mp:
                continue
            cand = [cost + c, steps + 1]
            if nb not in best or cand < best[nb]:
                best[nb] = cand
                heapq.heappush(heap, (cand[0], cand[1], nb))
    return best


def fewest_moves(state, start: str, mp: int, mover: dict, occ: set) -> dict:
    """{square: moves} for every square reachable with ``mp`` movement points: the fewest steps
    of any path costing at most ``mp`` (not the steps of the cheapest path, which may take a
    longer way round costly terrain). Breadth-first by steps; a path is extended only while it
    reaches its square more cheaply than any path of fewer or as many steps."""
    moves = {start: 0}
    cheapest = {start: 0}
    frontier = [(start, 0)]
    steps = 0
    while frontier:
        steps += 1
        nxt = []
        for sq, cost in frontier:
            for nb in neighbours(sq):
                c = step_cost(state, sq, nb, mover, occ)
                if c is None or cost + c > mp or cost + c >= cheapest.get(nb, mp + 1):
                    continue
                cheapest[nb] = cost + c
                moves.setdefault(nb, steps)
                nxt.append((nb, cost + c))
        frontier = nxt
    return moves


# -- line of sight ------------------------------------------------------------------------


def _segment_square(p, q, x: int, y: int):
    """How the centre-to-centre segment p->q meets square [x,x+1]x[y,y+1].

    Returns "through" (positive-length overlap with the square), "corner" (a single point) or
    None. Liang-Barsky clipping in exact rational arithmetic."""
    t0, t1 = Fraction(0), Fraction(1)
    dx, dy = q[0] - p[0], q[1] - p[1]
    for d, lo, hi, p0 in ((dx, x, x + 1, p[0]), (dy, y, y + 1, p[1])):
        if d == 0:
            if p0 < lo or p0 > hi:
                return None
            continue
        ta, tb = (lo - p0) / d, (hi - p0) / d
        if ta > tb:
            ta, tb = tb, ta
        t0, t1 = max(t0, ta), min(t1, tb)
        if t0 > t1:
            return None
    if t0 < t1:
        # Positive length: inside the square unless it runs along an edge (impossible for
        # centre-to-centre lines, whose coordinates are half-integers when constant).
        mid = ((p[0] + dx * (t0 + t1) / 2), (p[1] + dy * (t0 + t1) / 2))
        if x < mid[0] < x + 1 and y < mid[1] < y + 1:
            return "through"
        return "corner"
    return "corner"


def los_blockers(state, a: str, b: str, occupied: set) -> dict:
    """Squares the line a->b passes through and corners it touches, among ``occupied``."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    p = (Fraction(2 * ax + 1, 2), Fraction(2 * ay + 1, 2))
    q = (Fraction(2 * bx + 1, 2), Fraction(2 * by + 1, 2))
    through, corners = [], []
    for x in range(min(ax, bx), max(ax, bx) + 1):
        for y in range(min(ay, by), max(ay, by) + 1):
            sq = key(x, y)
            if sq in (a, b) or sq not in occupied:
                continue
            how = _segment_square(p, q, x, y)
            if how == "through":
                through.append(sq)
            elif how == "corner":
                corners.append(sq)
    return {"through": through, "corners": corners}


def has_los(state, a: str, b: str, occupied: set) -> bool:
    """Rulebook "Determining Line of Sight": blocked by passing through an occupied square or
    by touching the corners of 2 or more occupied squares."""
    if a == b:
        return True
    blk = los_blockers(state, a, b, occupied)
    return not blk["through"] and len(blk["corners"]) < 2


def terrain_los_occupied(state, a: str, b: str) -> set:
    """Static terrain that blocks LOS between a and b (walls, inaccessible, closed doors,
    obstacles; obstacles do not block between different height levels)."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    diff_heights = height(state, a) != height(state, b)
    out = set()
    for x in range(min(ax, bx), max(ax, bx) + 1):
        for y in range(min(ay, by), max(ay, by) + 1):
            sq = key(x, y)
            t = terrain(state, sq)
            if t == "inaccessible" or (t == "obstacle" and not diff_heights):
                out.add(sq)
            elif t == "special" and not diff_heights and special_rule(state, sq).get("blocks_los"):
                out.add(sq)
    return out
