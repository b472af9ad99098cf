"""Single-elimination brackets (PURE): seeded by rating (or by Swiss rank for a top cut), with byes up
to a power of two.

The bracket has P = the smallest power of two >= n slots in the standard order (for 8: 1-8, 4-5, 2-7,
3-6), so seeds 1 and 2 can only meet in the final. Seeds above n do not exist: their opponents, the
best seeds, have a bye in round one. Each later round pairs the survivors of neighbouring slots. A
slot empties when its entrant is dropped (the neighbour then has a bye, a walkover). On a shared
first place the better seed advances.
"""

from __future__ import annotations

from collections.abc import Callable


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in slot order: [1, 2] -> [1, 4, 2, 3] -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        span = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, span - seed)]
    return order


def rounds_needed(n: int) -> int:
    return bracket_size(n).bit_length() - 1 if n > 1 else 0


def first_slots(seeds: list[str]) -> list[str | None]:
    return [seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(bracket_size(len(seeds)))]


def pair_slots(slots: list[str | None]) -> list[tuple[str, ...]]:
    """Tables for one round: neighbouring slots meet; a lone survivor has a bye; two empty slots, nothing."""
    tables = []
    for a, b in zip(slots[::2], slots[1::2]):
        present = tuple(e for e in (a, b) if e is not None)
        if present:
            tables.append(present)
    return tables


def advance(slots: list[str | None], winner_of: Callable[[tuple[str, ...]], str | None]) -> list[str | None]:
    """The next round's slots, given each table's winner (``winner_of(table)``; None if unfinished)."""
    out = []
    for a, b in zip(slots[::2], slots[1::2]):
        present = tuple(e for e in (a, b) if e is not None)
        out.append(winner_of(present) if present else None)
    return out
