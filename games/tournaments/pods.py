"""Swiss pairing for pods of 3 or 4 entrants (PURE).

1. Sizes: ``ceil(n / size)`` tables, as even as possible, larger tables first (at the top of the
   standings). A 4-player event of 10 plays 4 + 3 + 3, of 5 plays 3 + 2; a 3-player event of 4 plays
   2 + 2. Smaller tables replace byes: the only bye is a field of one.
2. A table's cost is, lexicographically: (a) repeat pairs (two entrants who already met, once per
   earlier meeting), (b) the squared spread of its score groups, (c) the spread of its members'
   ranks. The pairing minimises the sum over tables.
3. A field of up to ``EXACT_UP_TO`` entrants is solved exactly (every seating, pruned). A larger one
   starts from the standings cut in slices (best first) and swaps two entrants of different tables
   while the total cost falls - between tables up to ``REACH`` apart, and between a table that holds
   a repeat and every other table - until no such swap helps (a local minimum: in a large field
   there is room to avoid repeats, and an exact search would not be affordable).
4. Tables are listed best first (by their best-ranked member), each with its members best first.
Deterministic for a given input (fixed scan order, first improvement).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from games.tournaments.swiss import Candidate

REACH = 3
MAX_PASSES = 50
EXACT_UP_TO = 10


def table_sizes(n: int, size: int) -> list[int]:
    if n <= 0:
        return []
    tables = -(-n // size)
    q, r = divmod(n, tables)
    return [q + 1] * r + [q] * (tables - r)


@dataclass(frozen=True)
class PodPairing:
    tables: list[tuple[str, ...]]


def pair(candidates: list[Candidate], size: int) -> PodPairing:
    """Tables for ``candidates`` (best first), each listed best first, top table first."""
    n = len(candidates)
    sizes = table_sizes(n, size)
    search = _Search(candidates, sizes)
    if n <= EXACT_UP_TO:
        search.exact()
    else:
        search.improve()
    tables = sorted((sorted(t) for t in search.tables), key=lambda t: t[0])
    return PodPairing([tuple(candidates[i].entrant_id for i in t) for t in tables])


class _Search:
    def __init__(self, candidates: list[Candidate], sizes: list[int]):
        self.c = candidates
        n = len(candidates)
        distinct = sorted({c.points for c in candidates}, reverse=True)
        group_of = {p: g for g, p in enumerate(distinct)}
        self.group = [group_of[c.points] for c in candidates]
        self.ids = [c.entrant_id for c in candidates]
        self.tables: list[list[int]] = []
        start = 0
        for s in sizes:
            self.tables.append(list(range(start, start + s)))
            start += s
        count = len(sizes)
        self.rank_scale = 1
        self.spread_scale = n * count + 1
        self.repeat_scale = (len(distinct) ** 2 * self.spread_scale + n) * count + 1
        self.costs = [self.cost(t) for t in self.tables]

    def met(self, i: int, j: int) -> int:
        return self.c[i].met.get(self.ids[j], 0)

    def repeats(self, table) -> int:
        return sum(self.met(i, j) for i, j in combinations(table, 2))

    def cost(self, table) -> int:
        if not table:
            return 0
        groups = [self.group[i] for i in table]
        spread = max(groups) - min(groups)
        return self.repeats(table) * self.repeat_scale + spread * spread * self.spread_scale + max(table) - min(table)

    def exact(self):
        """Every way to seat the field at tables of the planned sizes (small fields), cheapest kept."""
        n = len(self.c)
        best: list = [None, None]

        def place(rest: list[int], sizes: list[int], chosen: list, cost: int):
            if best[0] is not None and cost >= best[0]:
                return
            if not rest:
                best[0], best[1] = cost, [list(t) for t in chosen]
                return
            first, others = rest[0], rest[1:]
            for size in sorted(set(sizes), reverse=True):
                left = list(sizes)
                left.remove(size)
                for mates in combinations(others, size - 1):
                    table = [first, *mates]
                    chosen.append(table)
                    place([i for i in others if i not in mates], left, chosen, cost + self.cost(table))
                    chosen.pop()

        place(list(range(n)), [len(t) for t in self.tables], [], 0)
        self.tables = best[1]
        self.costs = [self.cost(t) for t in self.tables]

    def improve(self):
        for _ in range(MAX_PASSES):
            if not self._pass():
                return

    def _pass(self) -> bool:
        improved = False
        count = len(self.tables)
        for a in range(count):
            if self.costs[a] >= self.repeat_scale:
                partners = [b for b in range(count) if b != a]
            else:
                partners = list(range(a + 1, min(count, a + 1 + REACH)))
            for b in partners:
                if self._try_swaps(a, b):
                    improved = True
        return improved

    def _try_swaps(self, a: int, b: int) -> bool:
        improved = False
        ta, tb = self.tables[a], self.tables[b]
        x_index = 0
        while x_index < len(ta):
            swapped = False
            for y_index in range(len(tb)):
                new_a = ta[:x_index] + [tb[y_index]] + ta[x_index + 1:]
                new_b = tb[:y_index] + [ta[x_index]] + tb[y_index + 1:]
                ca, cb = self.cost(new_a), self.cost(new_b)
                if ca + cb < self.costs[a] + self.costs[b]:
                    self.tables[a], self.tables[b] = ta, tb = new_a, new_b
                    self.costs[a], self.costs[b] = ca, cb
                    improved = swapped = True
                    break
            if not swapped:
                x_index += 1
        return improved
