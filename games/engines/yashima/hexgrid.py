"""Axial hex geometry for Yashima. Cells are "q,r" strings; facings are 0..5 clockwise.

Facing 0 points along DIRS[0]; an attack pattern is written for facing 0 ("the top of the card")
and rotated by the master's facing. The relic board is a radius-2 hexagon at the origin; terrain
boards are radius-2 hexagons placed in one of six slots around it (each slot touches the relic
board and its two neighbouring slots).
"""

DIRS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
SLOTS = [(5, -2), (2, 3), (-3, 5), (-5, 2), (-2, -3), (3, -5)]
BOARD_RADIUS = 2


def key(q: int, r: int) -> str:
    return f"{q},{r}"


def parse(cell: str) -> tuple:
    q, r = cell.split(",")
    return int(q), int(r)


def rotate(q: int, r: int, steps: int) -> tuple:
    """Rotate an offset clockwise by ``steps`` sixths of a turn."""
    for _ in range(steps % 6):
        q, r = -r, q + r
    return q, r


def add(cell: str, dq: int, dr: int) -> str:
    q, r = parse(cell)
    return key(q + dq, r + dr)


def neighbours(cell: str) -> list:
    q, r = parse(cell)
    return [key(q + dq, r + dr) for dq, dr in DIRS]


def distance(a: str, b: str) -> int:
    aq, ar = parse(a)
    bq, br = parse(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hexagon(radius: int, centre=(0, 0)) -> list:
    out = []
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if abs(q) + abs(r) + abs(q + r) <= 2 * radius:
                out.append((q, r))
    return [key(q + centre[0], r + centre[1]) for q, r in out]


def direction_to(a: str, b: str):
    """Facing index from a to an adjacent cell b, or None if not adjacent."""
    aq, ar = parse(a)
    bq, br = parse(b)
    try:
        return DIRS.index((bq - aq, br - ar))
    except ValueError:
        return None


def pattern_cells(origin: str, facing: int, offsets) -> list:
    out = []
    for dq, dr in offsets:
        rq, rr = rotate(dq, dr, facing)
        out.append(add(origin, rq, rr))
    return out


def slots_adjacent(a: int, b: int) -> bool:
    return (a - b) % 6 in (1, 5)


def board_cells(slot: int, rotation: int, layout: dict) -> dict:
    """Absolute cells of a terrain board side placed in ``slot`` with ``rotation``.

    ``layout`` maps local "q,r" (radius-2 hexagon around 0,0) to a terrain type; missing = blank.
    """
    cq, cr = SLOTS[slot]
    out = {}
    for local in hexagon(BOARD_RADIUS):
        lq, lr = parse(local)
        rq, rr = rotate(lq, lr, rotation)
        out[key(cq + rq, cr + rr)] = layout.get(local, "blank")
    return out
