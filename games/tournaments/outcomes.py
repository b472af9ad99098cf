"""A finished match's outcome as a table result (PURE).

The platform's ``MatchFinished`` names the winning seats only, so a table's places are: every entrant
holding a winning seat shares first place, every other entrant shares the next place (a 4-player pod
with one winner gives 1, 2, 2, 2: under placement scoring the three losers share the average of second
to fourth). No winner at all (a draw) puts everyone first. Seats map to entrants as the matches were
seated: one entrant per seat in table order, or in a 2v2 event the first team on seats 0 and 2 and the
second on 1 and 3.
"""

from __future__ import annotations


def seat_owner(entrant_ids: list[str], teams: bool) -> dict[int, str]:
    if teams:
        first, second = entrant_ids
        return {0: first, 1: second, 2: first, 3: second}
    return dict(enumerate(entrant_ids))


def places_from_winners(entrant_ids: list[str], teams: bool, winner_seats: list[int]) -> dict[str, int]:
    owner = seat_owner(entrant_ids, teams)
    unknown = [s for s in winner_seats if s not in owner]
    if unknown:
        raise ValueError(f"no such seat at this table: {unknown}")
    winners = {owner[s] for s in winner_seats}
    if not winners:
        return {e: 1 for e in entrant_ids}
    return {e: 1 if e in winners else len(winners) + 1 for e in entrant_ids}
