"""Pure rating arithmetic: OpenSkill's Plackett-Luce model, ranks from a finished match, and the
conservative display rating. No database, no clock: the live policy and ``rebuild_ratings`` both
call these, which is what makes a rebuild reproduce the stored floats exactly.
"""

from dataclasses import dataclass

from openskill.models import PlackettLuce

# OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (sigma grows by tau before every
# match so long-idle ratings can move again).
MODEL = PlackettLuce()
MU0, SIGMA0 = MODEL.mu, MODEL.sigma

# Display: 1000 + 40 * (mu - 3 sigma), rounded. A newcomer shows 1000 (25 - 3 * 25/3 = 0); the
# 3-sigma margin means a rating only climbs once the system is fairly sure of it.
DISPLAY_Z, DISPLAY_SCALE, DISPLAY_BASE = 3.0, 40.0, 1000.0


def display(mu: float, sigma: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - DISPLAY_Z * sigma))


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: int
    side: int  # index into the match's sides (a team, or the seat alone)
    rank: int  # 1 = won; equal ranks tie


def side_ranks(sides: list[list[int]], winners) -> list[int]:
    """Rank per side from MatchFinished's winners: a side with a winning seat ranks 1, the rest 2.
    No winner at all (a draw, or everyone out together) ties every side at 1."""
    won = set(winners)
    if not won:
        return [1] * len(sides)
    return [1 if won & set(side) else 2 for side in sides]


def match_seats(sides: list[list[int]], seat_users: list[int], winners) -> list[Seat]:
    """Every seat of a rated match with its user, side and rank."""
    ranks = side_ranks(sides, winners)
    return [Seat(seat, seat_users[seat], i, ranks[i]) for i, side in enumerate(sides) for seat in side]


def rate(priors: dict[int, tuple[float, float]], seats: list[Seat]) -> dict[int, tuple[float, float]]:
    """Posterior (mu, sigma) per user after one match; ``priors`` holds every seated user's."""
    n_sides = 1 + max(s.side for s in seats)
    teams = [[] for _ in range(n_sides)]
    ranks = [0] * n_sides
    for s in seats:
        mu, sigma = priors[s.user_id]
        teams[s.side].append((s.user_id, MODEL.rating(mu=mu, sigma=sigma)))
        ranks[s.side] = s.rank
    rated = MODEL.rate([[r for _, r in team] for team in teams], ranks=ranks)
    return {user_id: (r.mu, r.sigma) for team, new in zip(teams, rated) for (user_id, _), r in zip(team, new)}
