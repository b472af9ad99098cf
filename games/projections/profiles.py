"""A player's profile: ratings (from ``games.ratings``), recent matches (match summaries) and the
tournaments they entered, the document both ``GET /api/users/{username}/`` and the profile page show.

``games.tournaments`` sits above this app, so it fills in its section from its ``AppConfig.ready()``
(``section_register("tournaments", fn)``); without it the section is an empty list."""

from games.application.identities import names_among_seat_lists, seats_display
from games.ratings import selectors as ratings

from .models import MatchSummary


def seat_of(seats: list, user) -> int | None:
    return next((i for i, x in enumerate(seats or []) if x and not x.get("bot") and x.get("user_id") == user.pk), None)


RECENT_MATCHES = 20
_sections: dict = {}


def section_register(name: str, fn) -> None:
    """``fn(user) -> list`` fills the profile's ``name`` section (an app above this one)."""
    _sections[name] = fn


def _result(summary: MatchSummary, seat) -> str | None:
    if summary.status != "finished" or seat is None:
        return None
    if not summary.winners:
        return "draw"
    return "won" if seat in summary.winners else "lost"


def recent_matches(user, limit: int = RECENT_MATCHES) -> list[dict]:
    """The user's latest matches (any status) with the rating each moved, the last played first (a
    match that just ended comes before one created later but finished earlier). The seats show each
    player's current name, or "deleted player" (``identities``), never the name the seat recorded."""
    rows = list(MatchSummary.objects.filter(players=user).select_related("match")
                .order_by("-updated_at", "-match__created_at")[:limit])
    changes = ratings.changes_by_match(user, [r.match_id for r in rows])
    names = names_among_seat_lists(r.seats for r in rows)  # the names the players have now
    out = []
    for row in rows:
        seat = seat_of(row.seats, user)
        change = changes.get(row.match_id)
        out.append({
            "id": str(row.match_id), "game": row.match.game, "status": row.status, "rated": row.match.rated,
            "created_at": row.match.created_at.isoformat(), "seat": seat, "seat_list": seats_display(row.seats, names),
            "winners": row.winners, "result": _result(row, seat),
            "rating_before": change.display_before if change else None,
            "rating_after": change.display_after if change else None,
        })
    return out


def profile(username: str) -> dict:
    user = ratings.user_by_name(username)
    return {
        "username": user.get_username(),
        "ratings": ratings.user_ratings(user),
        "recent_matches": recent_matches(user),
        "tournaments": _sections["tournaments"](user) if "tournaments" in _sections else [],
    }
