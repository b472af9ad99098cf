"""The ratings policy: when a rated match finishes, move its players' ratings, exactly once.

It runs as a projector (``games.application.readmodels``) inside the very transaction that appends
``MatchFinished``: the ratings commit with the finish or not at all, under the match's row lock.
Exactly once is enforced by the data, not by hope: a match that already has RatingChange rows is
skipped, and RatingChange is unique per (match, user), so a second application can only fail.

``rated_seats`` (pure) decides what a finished match means for ratings from its lobby state alone;
``rebuild_ratings`` calls the same function on a from-scratch fold of each log. ``dropped_before_play``
(pure) sets aside a match a tournament drop ended before every side had moved (docs/ratings.md,
"Tournaments"); both paths give it the finish's actor and ``seats_that_moved`` from the same log.
"""

import logging

from django.db import transaction
from django.db.models import Q

from games.application import lobby as L
from games.eventstore.models import Match, MatchEvent
from games.kernel import registry

from . import skill
from .models import Rating, RatingChange

log = logging.getLogger(__name__)


def rated_seats(lobby: dict) -> list[skill.Seat] | None:
    """The seats (user, side, rank) of a finished rated match, or None when it is not rated: the
    rated flag off, a bot or empty seat, the same user twice, a cooperative game or a single side."""
    if lobby["status"] != L.DONE or not L.rated_match(lobby):
        return None
    engine = registry.get(lobby["game"], lobby["engine_version"])
    users = [s["user_id"] for s in lobby["seats"]]
    sides = engine.teams(lobby["options"], len(users))
    if engine.cooperative or len(sides) < 2 or len(set(users)) != len(users):
        return None
    return skill.match_seats(sides, users, lobby["winners"])


# The purpose a tournament drop's resignation is recorded with (games.tournaments.services._concede_running_match).
DROP_PURPOSE = "tournament_drop"


def dropped_before_play(lobby: dict, finish_actor: dict | None, moved: set[int]) -> bool:
    """Was this match ended by a tournament drop before every side had made a move? Like an aborted
    game it is then not rated: nothing was played. ``finish_actor``: the actor of its ``MatchFinished``
    (a drop's resignation carries ``purpose: tournament_drop``); ``moved``: the seats that made a move
    of their own (``seats_that_moved``). A drop once both sides have moved is a resignation, rated."""
    if "resigned" not in lobby or (finish_actor or {}).get("purpose") != DROP_PURPOSE:
        return False
    engine = registry.get(lobby["game"], lobby["engine_version"])
    sides = engine.teams(lobby["options"], len(lobby["seats"]))
    return not all(moved.intersection(side) for side in sides)


def seats_that_moved(match_id) -> set[int]:
    """The seats whose players made a move: a game event appended by a user's command at that seat
    (the start's events have no seat, a timeout's or a SYSTEM step's actor is no user)."""
    actors = (MatchEvent.objects.filter(match_id=match_id).exclude(type__in=L.PLATFORM_EVENTS)
              .values_list("actor", flat=True).iterator(chunk_size=2000))
    return {a["seat"] for a in actors
            if a.get("kind") == "user" and isinstance(a.get("seat"), int) and not isinstance(a.get("seat"), bool)}


def finish_actor(match_id) -> dict | None:
    return MatchEvent.objects.filter(match_id=match_id, type=L.FINISHED).values_list("actor", flat=True).first()


def aborted_by_drop(match_id, lobby: dict) -> bool:
    """``dropped_before_play`` read from the match's log (a query only when a seat resigned)."""
    if "resigned" not in lobby:
        return False
    actor = finish_actor(match_id)
    if (actor or {}).get("purpose") != DROP_PURPOSE:
        return False
    return dropped_before_play(lobby, actor, seats_that_moved(match_id))


def finished_at(match: Match):
    return MatchEvent.objects.filter(match=match, type=L.FINISHED).values_list("at", flat=True).first()


def ratings_apply(match: Match, game: str, seats: list[skill.Seat], at) -> list[RatingChange]:
    """Apply one finished match to its players' ratings (under their row locks). A match that was
    already applied changes nothing and returns []."""
    with transaction.atomic():
        if RatingChange.objects.filter(match=match).exists():
            return []
        user_ids = sorted({s.user_id for s in seats})
        initial = {"mu": skill.MU0, "sigma": skill.SIGMA0, "display": skill.display(skill.MU0, skill.SIGMA0),
                   "matches": 0, "updated_at": at}
        for user_id in user_ids:  # sorted: concurrent finishes lock shared players in one order
            Rating.objects.get_or_create(user_id=user_id, game=game, defaults=initial)
        rows = {r.user_id: r for r in Rating.objects.select_for_update().filter(game=game, user_id__in=user_ids)
                .order_by("user_id")}
        if applied_later(match, game, user_ids, at):
            # Another match of these players finished later in the logs but committed first (only
            # possible on PostgreSQL, within the same instant): the live values now follow commit
            # order, the rebuild the log's. Applied anyway (refusing would fail the finish).
            log.warning("ratings of match %s applied after a later-finishing match; "
                        "run manage.py rebuild_ratings --fix", match.pk)
        after = skill.rate({u: (r.mu, r.sigma) for u, r in rows.items()}, seats)
        changes = []
        for s in seats:
            row = rows[s.user_id]
            mu, sigma = after[s.user_id]
            changes.append(RatingChange(
                match=match, user_id=s.user_id, game=game, seat=s.seat, rank=s.rank, finished_at=at,
                mu_before=row.mu, sigma_before=row.sigma, mu_after=mu, sigma_after=sigma,
                display_before=row.display, display_after=skill.display(mu, sigma),
            ))
        RatingChange.objects.bulk_create(changes)
        for c in changes:
            Rating.objects.filter(pk=rows[c.user_id].pk).update(
                mu=c.mu_after, sigma=c.sigma_after, display=c.display_after, matches=rows[c.user_id].matches + 1,
                updated_at=at,
            )
        return changes


def applied_later(match: Match, game: str, user_ids, at) -> bool:
    """Has any of these players already been rated for a match that finishes after this one in
    finish order ``(at, match id)``?"""
    later = Q(finished_at__gt=at) | Q(finished_at=at, match_id__gt=match.pk)
    return RatingChange.objects.filter(game=game, user_id__in=list(user_ids)).filter(later).exists()


def ratings_writes(engine, match: Match, state: dict, events: list[dict], at, before: dict, head: int):
    """``ratings_project``'s writes planner: nothing to write unless the events finish the match,
    and then None (the ratings need reads: the locked path projects)."""
    return None if any(ev["type"] == L.FINISHED for ev in events) else []


def ratings_project(engine, match: Match, state: dict, events: list[dict], at=None, before: dict | None = None) -> None:
    """Projector: react to MatchFinished among the events just appended."""
    if not any(ev["type"] == L.FINISHED for ev in events):
        return
    seats = rated_seats(state["lobby"])
    if seats is not None and not aborted_by_drop(match.pk, state["lobby"]):
        ratings_apply(match, state["lobby"]["game"], seats, finished_at(match) or at)
