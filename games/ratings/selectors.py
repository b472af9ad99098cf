"""Reads: leaderboards, a player's ratings and rating history."""

from django.contrib.auth import get_user_model
from django.db.models import Q

from games.application.identities import username_key
from games.kernel import RuleViolation, registry

from . import skill
from .errors import NotFound
from .models import Rating, RatingChange

LEADERBOARD_ORDER = ("-display", "-mu", "user_id")


def rated_engine(game: str):
    """The engine of a rated game, or 404 (unknown_game / game_not_rated)."""
    try:
        engine = registry.get(game)
    except RuleViolation:
        raise NotFound("unknown_game", f"no game called {game!r}")
    if engine.cooperative:
        raise NotFound("game_not_rated", f"{engine.name} is cooperative: it has no ratings")
    return engine


def rated_games() -> list:
    return [e for e in registry.all_engines() if not e.cooperative]


def busiest_game() -> str | None:
    """The rated game with the most rated players (ties: by slug), or the first rated game."""
    games = [e.slug for e in rated_games()]
    counts = {g: Rating.objects.filter(game=g).count() for g in games}
    return min(games, key=lambda g: (-counts[g], g)) if games else None


def user_by_name(username: str):
    """An account's public page: none for a deleted (or deactivated) account. The exact name, else
    the account whose name has the same key (``identities.username_key``: NFKC + case-folding), so
    ``/users/ALICE/`` is alice's page as the name is matched case-insensitively everywhere else."""
    users = get_user_model().objects.filter(is_active=True)
    user = users.filter(username=username).first()
    if user is None and username:
        user = users.filter(profile__username_key=username_key(username)).first()
    if user is None:
        raise NotFound("unknown_user", f"no user called {username!r}")
    return user


def _entry(row: Rating, rank: int) -> dict:
    return {"rank": rank, "user_id": row.user_id, "username": row.user.get_username(), "rating": row.display,
            "mu": row.mu, "sigma": row.sigma, "matches": row.matches}


def leaderboard(game: str, limit: int = 100) -> list[dict]:
    rated_engine(game)
    rows = Rating.objects.filter(game=game, user__is_active=True).select_related("user").order_by(*LEADERBOARD_ORDER)[:limit]
    return [_entry(row, i) for i, row in enumerate(rows, start=1)]


def rank_of(row: Rating) -> int:
    """1 + how many ratings of the game sort before ``row`` on the leaderboard (which shows no deleted
    or deactivated account)."""
    ahead = Rating.objects.filter(game=row.game, user__is_active=True).filter(
        Q(display__gt=row.display) | Q(display=row.display, mu__gt=row.mu)
        | Q(display=row.display, mu=row.mu, user_id__lt=row.user_id)
    ).count()
    return ahead + 1


def history(user, game: str) -> list[dict]:
    """The user's rating after each rated match of ``game``, oldest first (starting point included)."""
    changes = list(RatingChange.objects.filter(user=user, game=game).order_by("finished_at", "match_id"))
    if not changes:
        return []
    first = changes[0]
    points = [{"match_id": None, "at": first.finished_at.isoformat(), "rating": first.display_before,
               "mu": first.mu_before, "sigma": first.sigma_before}]
    points += [{"match_id": str(c.match_id), "at": c.finished_at.isoformat(), "rating": c.display_after,
                "mu": c.mu_after, "sigma": c.sigma_after} for c in changes]
    return points


def user_ratings(user) -> dict:
    """{game: {rating, mu, sigma, matches, rank, history}} for every game the user has a rating in."""
    out = {}
    for row in Rating.objects.filter(user=user).select_related("user").order_by("game"):
        out[row.game] = {**{k: v for k, v in _entry(row, rank_of(row)).items() if k not in ("user_id", "username")},
                         "history": history(user, row.game)}
    return out


def changes_by_match(user, match_ids) -> dict:
    """{match_id: RatingChange} of ``user`` in those matches."""
    return {c.match_id: c for c in RatingChange.objects.filter(user=user, match_id__in=list(match_ids))}


def seeding_ratings(game: str, user_ids) -> dict:
    """The display rating of each user for ``game`` (a newcomer shows the starting value): what a
    tournament seeds its field by."""
    newcomer = skill.display(skill.MU0, skill.SIGMA0)
    shown = dict(Rating.objects.filter(game=game, user_id__in=list(user_ids)).values_list("user_id", "display"))
    return {uid: shown.get(uid, newcomer) for uid in user_ids}
