"""Round robin by Berger tables (PURE), for 2-player and team events.

Entrants are numbered 1..n by seeding; an odd field adds a phantom n+1 whose opponent has the bye.
With N players (N even), round r (1..N-1) pairs i and j (both < N) when i + j = r + 1 (mod N-1), and
the player i with 2i = r + 1 (mod N-1) meets N: exactly FIDE's Berger tables. Table 1 is the game with
N, table k pairs the players k-1 steps either side of N's opponent. Seat order follows the Berger
colours: N sits first in even rounds; in the other games the lower number sits first when the two
numbers differ by an odd amount, the higher one otherwise. Everyone meets everyone exactly once.
"""

from __future__ import annotations


def rounds_needed(n: int) -> int:
    if n < 2:
        return 0
    return n - 1 if n % 2 == 0 else n


def berger_round(players: list[str], round_no: int) -> list[tuple[str, ...]]:
    """Round ``round_no`` (1-based) for ``players`` in seeding order: the games, then the bye if any,
    as tuples in seat order (a bye is a 1-tuple)."""
    n = len(players)
    if not 1 <= round_no <= rounds_needed(n):
        raise ValueError(f"a round robin of {n} has rounds 1..{rounds_needed(n)}")
    size = n if n % 2 == 0 else n + 1
    mod = size - 1

    def number(x: int) -> int:  # 1..mod
        return (x - 1) % mod + 1

    target = round_no + 1
    partner = next(i for i in range(1, size) if (2 * i - target) % mod == 0)
    games = [(partner, size) if round_no % 2 else (size, partner)]
    for k in range(1, size // 2):
        a, b = number(partner - k), number(partner + k)
        low, high = min(a, b), max(a, b)
        games.append((low, high) if (high - low) % 2 else (high, low))
    out, byes = [], []
    for a, b in games:
        if a > n or b > n:
            byes.append((players[(a if b > n else b) - 1],))
        else:
            out.append((players[a - 1], players[b - 1]))
    return out + byes


def schedule(players: list[str]) -> list[list[tuple[str, ...]]]:
    return [berger_round(players, r) for r in range(1, rounds_needed(len(players)) + 1)]
