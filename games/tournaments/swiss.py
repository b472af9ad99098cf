"""Swiss pairing for 2-entrant tables (2 players, or two 2v2 teams) as a maximum weight matching (PURE).

Input: the entrants to pair, best first (points, then seeding), each with its points, byes so far and
opponents met. Output: the tables and at most one bye.

1. Bye (odd count): the lowest-ranked entrant among those with the fewest byes - so nobody has a
   second bye while someone has none.
2. Score groups: entrants with equal points, best group first. Every pair has a cost, compared
   lexicographically: (a) a rematch (met before, however often), (b) the squared distance between the two score groups (so the
   matching floats as few entrants as it can, as short a way as it can), (c) the Dutch half split:
   inside a group of m, member k should meet member k + m//2; across groups, the floater should be the
   lowest of the upper group and meet the highest of the lower one. The weights are integers scaled
   so that each criterion dominates everything after it.
3. Blocks: the field is cut into one block per score group, each of even size: a group left with an
   odd count takes the top member of the group below along (the Dutch opponent of its floater). Each
   block is paired on its own by networkx's ``max_weight_matching(maxcardinality=True)``: among the
   matchings that pair everybody in it, the cheapest. The graph is sparse first (each entrant's rank
   neighbours and the members around its ideal half-split partner, rematches left out), then a wider
   window, then every non-rematch pair of the block. A block that cannot be paired without a rematch
   takes in the next block and tries again; at the bottom of the field it reopens the blocks above
   it, nearest first, up to the whole field.
4. Only if the whole field cannot be paired without a rematch are rematches allowed, at a cost larger
   than every other weight put together: a rematch happens only when no pairing of the field avoids
   it, and then as few as possible.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx

WINDOW = 6


@dataclass(frozen=True)
class Candidate:
    entrant_id: str
    points: Fraction = Fraction(0)
    byes: int = 0
    met: Counter = field(default_factory=Counter)
    firsts: int = 0  # times seated first at a 2-entrant table, for the seat order


@dataclass(frozen=True)
class Pairing:
    tables: list[tuple[str, str]]
    bye: str | None


def choose_bye(candidates: list[Candidate]) -> str | None:
    """Odd field: the lowest-ranked among those with the fewest byes."""
    if len(candidates) % 2 == 0:
        return None
    fewest = min(c.byes for c in candidates)
    return [c for c in candidates if c.byes == fewest][-1].entrant_id


def pair(candidates: list[Candidate]) -> Pairing:
    """Pair ``candidates`` (best first; re-sorted by points, keeping the given order within equal points).
    Deterministic for a given input."""
    candidates = sorted(candidates, key=lambda c: -c.points)
    bye = choose_bye(candidates)
    field_ = [c for c in candidates if c.entrant_id != bye]
    if not field_:
        return Pairing([], bye)
    costs = _Costs(field_)
    blocks = costs.blocks()
    done: list[tuple[int, set[tuple[int, int]]]] = []  # (first position, matching) of each paired block
    b = 0
    while b < len(blocks):
        lo, hi = blocks[b]
        found = _pair_block(costs, lo, hi)
        while found is None and b + 1 < len(blocks):  # no pairing without a rematch: take in the next block
            b += 1
            hi = blocks[b][1]
            found = _pair_block(costs, lo, hi)
        while found is None and done:  # the bottom of the field cannot: reopen the blocks above, nearest first
            lo = done.pop()[0]
            found = _pair_block(costs, lo, hi)
        if found is None:  # no pairing of the whole field avoids a rematch: as few as possible
            found = _match(costs, costs.all_edges(0, costs.n, rematches=True))
        done.append((lo, found))
        b += 1
    matching = set().union(*(m for _, m in done))
    tables = sorted((tuple(sorted(p)) for p in matching))
    return Pairing([_seat(field_[a], field_[b]) for a, b in tables], bye)


def _pair_block(costs: _Costs, lo: int, hi: int) -> set[tuple[int, int]] | None:
    """A perfect matching of positions lo..hi-1 without rematches, or None if there is none."""
    for edges in (costs.window_edges(WINDOW, lo, hi), costs.window_edges(WINDOW * 4, lo, hi),
                  costs.all_edges(lo, hi, rematches=False)):
        found = _match(costs, edges)
        if len(found) * 2 == hi - lo:
            return found
    return None


def _seat(a: Candidate, b: Candidate) -> tuple[str, str]:
    """``a`` is the better ranked; it sits first unless it has sat first more often than ``b``."""
    return (b.entrant_id, a.entrant_id) if a.firsts > b.firsts else (a.entrant_id, b.entrant_id)


def _match(costs: _Costs, edges) -> set[tuple[int, int]]:
    graph = nx.Graph()
    graph.add_nodes_from(sorted({v for e in edges for v in e}))
    top = costs.ceiling
    graph.add_weighted_edges_from((i, j, top - costs.cost(i, j)) for i, j in edges)
    return {tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True)}


class _Costs:
    """Integer pair costs for positions 0..n-1 of the field (best first)."""

    def __init__(self, field_: list[Candidate]):
        self.field = field_
        self.n = n = len(field_)
        distinct = sorted({c.points for c in field_}, reverse=True)
        group_of_points = {p: g for g, p in enumerate(distinct)}
        self.group = [group_of_points[c.points] for c in field_]
        self.members: list[list[int]] = [[] for _ in distinct]
        for i, g in enumerate(self.group):
            self.members[g].append(i)
        self.index = [0] * n
        for members in self.members:
            for k, i in enumerate(members):
                self.index[i] = k
        self.ids = [c.entrant_id for c in field_]
        self.dutch_scale = 1
        self.group_scale = (n + 1) * (n // 2 + 1)  # > every Dutch penalty of a matching put together
        groups = len(distinct)
        per_pair = self.group_scale * (groups * groups) + n
        self.rematch_scale = per_pair * (n // 2 + 1)  # > every other cost of a matching put together
        self.ceiling = self.rematch_scale * 2 + 1

    def met(self, i: int, j: int) -> int:
        return self.field[i].met.get(self.ids[j], 0)

    def cost(self, i: int, j: int) -> int:
        if i > j:
            i, j = j, i
        gi, gj = self.group[i], self.group[j]
        ki, kj = self.index[i], self.index[j]
        if gi == gj:
            dutch = abs((kj - ki) - len(self.members[gi]) // 2)
        else:
            dutch = (len(self.members[gi]) - 1 - ki) + kj
        return (self.rematch_scale if self.met(i, j) else 0) + (gj - gi) ** 2 * self.group_scale + dutch

    def blocks(self) -> list[tuple[int, int]]:
        """Consecutive position ranges of even size, one per score group: a group left with an odd
        count takes the top member of the group below (the floater's Dutch opponent) along."""
        out, start = [], 0
        for members in self.members:
            end = members[-1] + 1
            if end <= start:  # this group's only member went up with the group above
                continue
            if (end - start) % 2:
                end += 1  # never past the field: blocks are even and so is the field
            out.append((start, end))
            start = end
        return out

    def window_edges(self, width: int, lo: int, hi: int):
        edges = set()
        for i in range(lo, hi):
            for j in range(i + 1, min(hi, i + width + 1)):
                edges.add((i, j))
            members = self.members[self.group[i]]
            k, m = self.index[i], len(members)
            ideal = k + m // 2 if k < m // 2 else k - m // 2
            for t in range(max(0, ideal - width), min(m, ideal + width + 1)):
                j = members[t]
                if j != i and lo <= j < hi:
                    edges.add((min(i, j), max(i, j)))
        return sorted((i, j) for i, j in edges if not self.met(i, j))

    def all_edges(self, lo: int, hi: int, *, rematches: bool):
        return [(i, j) for i in range(lo, hi) for j in range(i + 1, hi) if rematches or not self.met(i, j)]
