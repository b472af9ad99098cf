"""Board geometry: terrain squares keyed "r,c", rows left-aligned, cross-shaped distances."""

LAYOUTS = {2: [3, 3, 3], 3: [3, 4, 4], 4: [3, 4, 4, 4]}
TERRAIN_PER_ELEMENT = {2: 2, 3: 3, 4: 3}

DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
# Which printed side of the card faces each board direction.
# vertical: upright card; horizontal: the card turned a quarter turn clockwise (its top faces east).
FACING = {
    "vertical": {"N": "top", "E": "right", "S": "bottom", "W": "left"},
    "horizontal": {"E": "top", "S": "right", "W": "bottom", "N": "left"},
}
ORIENTATIONS = ("vertical", "horizontal")


def key(r: int, c: int) -> str:
    return f"{r},{c}"


def parse(pos) -> tuple[int, int] | None:
    if not isinstance(pos, str):
        return None
    parts = pos.split(",")
    if len(parts) != 2:
        return None
    try:
        r, c = int(parts[0]), int(parts[1])
    except ValueError:
        return None
    if key(r, c) != pos:
        return None
    return r, c


def squares(rows: list) -> list[str]:
    return [key(r, c) for r, length in enumerate(rows) for c in range(length)]


def cross(terrain: dict, pos: str, distance: int) -> list[str]:
    """Squares within ``distance`` of ``pos`` in a straight line (no diagonals), ``pos`` excluded."""
    r, c = parse(pos)
    out = []
    for dr, dc in DIRS.values():
        for step in range(1, distance + 1):
            k = key(r + dr * step, c + dc * step)
            if k in terrain:
                out.append(k)
    return out


def direction(src: str, dst: str) -> str | None:
    (r1, c1), (r2, c2) = parse(src), parse(dst)
    for name, (dr, dc) in DIRS.items():
        if (r1 + dr, c1 + dc) == (r2, c2):
            return name
    return None
