"""Rematch: once a match is finished, its players may play the same game again, seat for seat.

Each seated player accepts (``RematchVote``, once per user); bot seats accept by themselves. When
the last human seat accepts, a new match is created with the same game, seat count, options and
rated flag, the same users in the same seats and bots as bots, and started at once (the one write
path: create, join, add bot, start). It is created exactly once: accepts are serialized on the
finished match's row lock, and ``Rematch`` (one-to-one with the finished match) is the last word if
two got past it. Every socket on the finished match is told (``social``, audience ``all``) who has
accepted and, once it exists, the new match's id.

Some matches are not a player's to replay: other apps register a guard,
``rematch_guard_register(fn)``, ``fn(match_id) -> str | None`` (a sentence saying why not), e.g. a
tournament's tables (the tournament schedules its matches) or a campaign's chapters.
"""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.eventstore.models import Match, Rematch, RematchVote

from . import services, social
from .accounts_lock import lock_account_ids
from .errors import MatchNotFound, SocialRefused
from .identities import deleted_among
from .lobby import DONE, seat_of_user
from .selectors import match_get, state_load

_guards: list = []


def rematch_guard_register(fn) -> None:
    """Register ``fn(match_id) -> str | None``: a reason the match cannot be replayed, or None."""
    if fn not in _guards:
        _guards.append(fn)


def _humans(lobby: dict) -> dict:
    """{seat: user_id} of the human seats (a seat without a user, an imported copy's, maps to None)."""
    return {i: s.get("user_id") for i, s in enumerate(lobby["seats"]) if s and not s.get("bot")}


def _bots(lobby: dict) -> list[int]:
    return [i for i, s in enumerate(lobby["seats"]) if s and s.get("bot")]


def unavailable_reason(match: Match, lobby: dict) -> str | None:
    """Why this match has no rematch (a sentence), or None."""
    if lobby["status"] != DONE:
        return "The match is not over yet."
    humans = _humans(lobby)
    if not humans or None in humans.values():
        return "This match has no players who could accept a rematch."
    ids = set(humans.values())
    if deleted_among(ids) or get_user_model().objects.filter(pk__in=ids, is_active=False).exists():
        return "One of the players' accounts is no longer active."
    for guard in list(_guards):
        reason = guard(match.pk)
        if reason:
            return reason
    return None


def rematch_status(match: Match, state: dict | None = None) -> dict:
    """``{available, reason, accepted, waiting, match_id}``: seats that accepted (bots included) and
    seats still to accept, and the new match's id once it exists."""
    lobby = (state or state_load(match))["lobby"]
    new_id = Rematch.objects.filter(match=match).values_list("new_match_id", flat=True).first()
    voted = set(RematchVote.objects.filter(match=match).values_list("user_id", flat=True))
    humans = _humans(lobby)
    reason = None if new_id else unavailable_reason(match, lobby)
    return {
        "available": reason is None,
        "reason": reason,
        "accepted": sorted([s for s, uid in humans.items() if uid in voted] + _bots(lobby)),
        "waiting": sorted(s for s, uid in humans.items() if uid not in voted),
        "match_id": str(new_id) if new_id else None,
    }


def rematch_accept(*, match_id, user) -> dict:
    """Record ``user``'s acceptance of a rematch (idempotent); the last acceptance creates the new
    match. Returns the rematch status. Refusals: ``match_not_finished`` (409), ``not_a_player``
    (403), ``rematch_unavailable`` (409)."""
    match_get(match_id)  # not_found for a malformed or unknown id
    with transaction.atomic():
        try:
            match = Match.objects.select_for_update().get(pk=match_id)
        except Match.DoesNotExist:
            raise MatchNotFound("no such match")
        state = state_load(match)
        lobby = state["lobby"]
        if lobby["status"] != DONE:
            raise SocialRefused("match_not_finished", "a rematch can be accepted once the match is finished", 409)
        seat = seat_of_user(lobby, user.pk)
        if seat is None:
            raise SocialRefused("not_a_player", "only the match's players accept a rematch", 403)
        if Rematch.objects.filter(match=match).exists():
            return rematch_status(match, state)
        # The players' accounts are locked before their activity is read: an account's deletion
        # locks its row before looking where it sits, so it either committed before (and this
        # refuses) or sees the new match once this commits (and is refused itself).
        lock_account_ids(uid for uid in _humans(lobby).values() if uid is not None)
        reason = unavailable_reason(match, lobby)
        if reason:
            raise SocialRefused("rematch_unavailable", reason, 409)
        RematchVote.objects.get_or_create(match=match, user=user, defaults={"seat": seat, "at": timezone.now()})
        status = rematch_status(match, state)
        if not status["waiting"]:
            try:
                with transaction.atomic():
                    Rematch.objects.create(match=match, new_match=_replay_seats(lobby), at=timezone.now())
            except IntegrityError:  # another acceptance created it: that one stands
                pass
            status = rematch_status(match, state)
        social.publish_on_commit(match.pk, social.ALL, {"type": "rematch", **status})
    return status


def _replay_seats(lobby: dict) -> Match:
    """A new match of the same game and options with the same seats, started."""
    humans = _humans(lobby)
    users = get_user_model().objects.in_bulk(set(humans.values()))
    creator_id = lobby.get("creator_id")
    if creator_id not in users:
        creator_id = humans[min(humans)]
    creator = users[creator_id]
    new = services.match_create(game=lobby["game"], seats=len(lobby["seats"]), options=lobby["options"],
                                creator=creator, join=False, rated=bool(lobby.get("rated", False)))
    for seat, occupant in enumerate(lobby["seats"]):
        if occupant.get("bot"):
            services.match_add_bot(match_id=new.pk, user=creator, seat=seat)
        else:
            services.match_join(match_id=new.pk, user=users[occupant["user_id"]], seat=seat)
    services.match_start(match_id=new.pk, user=creator)
    return new
