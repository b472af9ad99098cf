"""Spaces named for players: the one naming of a space, used by the history (``describe``), the
command labels (``labels``) and the board (the content pack's ``geometry.labels``, the views'
``space_names``).

The board draws a label on every hex: a column letter and a row number, "E4", on a grid fixed for
the whole table (the relic board and the six terrain board slots of ``hexgrid.SLOTS``), so a space
keeps its label while boards are placed around it. Columns run west to east, A to O; rows run
north to south, 1 to 13, a hex of an odd column sitting half a row below its even neighbours. A
space is named by its terrain and its label: "the road space E4" (``name``).
"""

from functools import lru_cache

from . import hexgrid as hx

TABLE = sorted(set(hx.hexagon(hx.BOARD_RADIUS)).union(*(hx.hexagon(hx.BOARD_RADIUS, c) for c in hx.SLOTS)))
_WEST = min(hx.parse(cell)[0] for cell in TABLE)  # column A
_NORTH = min(2 * r + q for q, r in map(hx.parse, TABLE))  # the top of row 1, in half rows
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def label(cell) -> str:
    """The label the board draws on ``cell`` ("q,r"): "E4". A space off the table's grid (a scenario
    map larger than the table) keeps its coordinates, "(9,-2)"."""
    return _label(cell) if isinstance(cell, str) else "(?)"


@lru_cache(maxsize=1024)
def _label(cell: str) -> str:
    try:
        q, r = hx.parse(cell)
    except ValueError:
        return "(?)"
    column, row = q - _WEST, (2 * r + q - _NORTH) // 2 + 1
    if not 0 <= column < len(_LETTERS) or row < 1:
        return f"({cell})"
    return f"{_LETTERS[column]}{row}"


def name(cells, cell) -> str:
    """``cell`` in words, its terrain from the map ``cells`` ({"q,r": terrain}) and its label:
    "the road space E4", "the splice point space C7"; "space E4" when the map does not hold it."""
    terrain = (cells or {}).get(cell) if isinstance(cell, str) else None
    return _name(terrain if isinstance(terrain, str) else "", label(cell))


@lru_cache(maxsize=4096)
def _name(terrain: str, where: str) -> str:
    return f"the {terrain.replace('_', ' ')} space {where}" if terrain else f"space {where}"


def names(cells) -> dict:
    """Every space of the map ``cells`` by name (``name``)."""
    return {cell: name(cells, cell) for cell in cells}


def table_labels() -> dict:
    """Every space of the table by the label the board draws on it (``label``)."""
    return {cell: label(cell) for cell in TABLE}
