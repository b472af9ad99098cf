"""Match points for one table's places (PURE).

- A draw (every entrant of the table shares first place: nobody won) is worth ``DRAW_POINTS`` (1, a
  third of a win) to each, at every table: 2 players, a 2v2 team table, a pod of 3 or 4, under
  either pod scoring. So a draw pays the same wherever it happens in one event (a pod event also
  seats 2-player tables), and always less than the table's average, as 3/1/0 means it to.
- 2-entrant tables (2 players, or two 2v2 teams): win 3, draw 1, loss 0, always.
- ``shared_win`` (pods): a sole winner takes 3; when the win is shared (several entrants in first
  place) each takes 1; everyone else 0.
- ``placement`` (pods): place p of a table of s entrants is worth 3 * (s - p) / (s - 1), so first
  always takes 3 and last 0 whatever the table size (a 4-table pays 3, 2, 1, 0; a 3-table 3, 1.5, 0).
  Entrants tied on a place share the average of the places they cover (a draw excepted, above).

A match's "score fraction" (1 for a win, 1/2 for a shared 2-way result, 0 for a loss) feeds
Sonneborn-Berger; ``MAX_POINTS`` (3) is the most one match can pay, the denominator of match-win %.
"""

from __future__ import annotations

from fractions import Fraction

from games.tournaments.records import DRAW_POINTS, WIN_POINTS, Settings, TournamentError

MAX_POINTS = WIN_POINTS


def validate_places(entrant_ids: tuple[str, ...], places: dict) -> None:
    """Places must name exactly the table's entrants, start at 1 and be 'competition ranked' (1, 1, 3)."""
    if set(places) != set(entrant_ids) or len(places) != len(entrant_ids):
        raise TournamentError("invalid_result", "a result must give a place to exactly the table's entrants")
    values = sorted(places.values())
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TournamentError("invalid_result", "places are integers")
    for index, value in enumerate(values):
        # competition ranking: a place equals 1 + the number of entrants strictly ahead
        if value != 1 + sum(1 for other in values if other < value):
            raise TournamentError("invalid_result", "places must be 1-based competition ranks (e.g. 1, 1, 3)")


def table_points(settings: Settings, places: dict) -> dict[str, Fraction]:
    """Points each entrant of a finished table earns."""
    size = len(places)
    if size == 1:
        return {entrant: Fraction(settings.bye_points) for entrant in places}
    if is_draw(places):
        return {entrant: Fraction(DRAW_POINTS) for entrant in places}
    if size == 2 or settings.pod_scoring == "shared_win":
        return _shared_win(places)
    return _placement(places)


def is_draw(places: dict) -> bool:
    """Nobody won: every entrant of a table of two or more shares first place."""
    return len(places) > 1 and all(place == 1 for place in places.values())


def _shared_win(places: dict) -> dict[str, Fraction]:
    winners = [e for e, p in places.items() if p == 1]
    first = Fraction(WIN_POINTS if len(winners) == 1 else DRAW_POINTS)
    return {e: (first if p == 1 else Fraction(0)) for e, p in places.items()}


def _placement(places: dict) -> dict[str, Fraction]:
    size = len(places)
    worth = [Fraction(WIN_POINTS * (size - p), size - 1) for p in range(1, size + 1)]
    out = {}
    for entrant, place in places.items():
        tied = sum(1 for p in places.values() if p == place)
        out[entrant] = sum(worth[place - 1: place - 1 + tied], Fraction(0)) / tied
    return out


def score_fraction(places: dict, entrant: str) -> Fraction:
    """1 for a sole first place, 1/k for a first place shared by k, 0 otherwise (for Sonneborn-Berger)."""
    winners = sum(1 for p in places.values() if p == 1)
    return Fraction(1, winners) if places[entrant] == 1 else Fraction(0)


def winners(places: dict) -> list[str]:
    return sorted(e for e, p in places.items() if p == 1)
