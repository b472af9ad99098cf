""""Your turn" e-mails: a player who opted in (``Profile.turn_email``, off by default; the account page
and ``PATCH /api/auth/me/ {turn_email}``) gets one e-mail when a decision of theirs has waited
``TURN_EMAIL_AFTER_MINUTES`` in a running match.

A waiting decision is a seat awaited since its own last command (the end seq of that command; 0
before it has acted), so another seat moving meanwhile (a simultaneous choice) does not make it a
new one. It has waited long enough when the match has not moved for the delay (the summary's last
change): a lower bound, never too early. Beat sweeps for them (``sweep_turn_emails``, every
``TURN_EMAIL_SWEEP_SECONDS``, like the clock sweep: no far-future task ETAs) and enqueues one task
per decision; the task claims the decision's ``TurnEmail`` row (unique) before it sends, so a decision
is mailed at most once however often sweeps and tasks run. Decisions that started waiting more than
``TURN_EMAIL_MAX_AGE_HOURS`` ago are left alone (a sweep never digs up old matches). The mail goes
through Django's e-mail backend (the console in the embedded default).
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.eventstore.models import MatchCommand
from games.kernel import RuleViolation, registry
from games.projections.models import MatchSummary

from .emails import holds_its_address
from .models import Profile, TurnEmail

log = logging.getLogger(__name__)

SWEEP_LIMIT = 500


def _delay() -> timedelta:
    return timedelta(minutes=settings.TURN_EMAIL_AFTER_MINUTES)


def waiting_since(match_id, seat: int) -> int:
    """The end seq of ``seat``'s last command in the match (0: none yet)."""
    last = (MatchCommand.objects.filter(match_id=match_id, seat=seat).order_by("-last_seq")
            .values_list("last_seq", flat=True).first())
    return last or 0


def _human_user(summary: MatchSummary, seat) -> int | None:
    seats = summary.seats or []
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats):
        return None
    occupant = seats[seat]
    if not occupant or occupant.get("bot"):
        return None
    return occupant.get("user_id")


def _opted_in(user_ids) -> set:
    """Those of ``user_ids`` who want the e-mail and can get it (active, an address, not deleted),
    and whose address is their own: of accounts that shared one before addresses were unique, only
    its first holder's turns are mailed there (``emails.holds_its_address``)."""
    users = get_user_model().objects.filter(
        pk__in=Profile.objects.filter(user_id__in=list(user_ids), turn_email=True, deleted_at__isnull=True,
                                      user__is_active=True).exclude(user__email="").values("user_id"))
    return {u.pk for u in users if holds_its_address(u)}


def due(now=None) -> list[tuple[str, int, int]]:
    """(match id, seat, since seq) of every waiting decision to mail now, not yet claimed."""
    now = now or timezone.now()
    horizon = now - _delay() - timedelta(hours=settings.TURN_EMAIL_MAX_AGE_HOURS)
    summaries = list(MatchSummary.objects.filter(
        status="active", updated_at__lte=now - _delay(), updated_at__gte=horizon,
        players__profile__turn_email=True).distinct().order_by("updated_at")[:SWEEP_LIMIT])
    waiting = [(s, seat, _human_user(s, seat)) for s in summaries for seat in s.awaiting or []]
    waiting = [(s, seat, uid) for s, seat, uid in waiting if uid is not None]
    opted = _opted_in({uid for _, _, uid in waiting})
    out = []
    for summary, seat, uid in waiting:
        if uid not in opted:
            continue
        since = waiting_since(summary.match_id, seat)
        if not TurnEmail.objects.filter(match_id=summary.match_id, seat=seat, since_seq=since).exists():
            out.append((str(summary.match_id), seat, since))
    return out


def send(match_id, seat: int, since_seq: int, now=None) -> str:
    """Mail the decision if it still waits: "sent", or why not ("stale", "early", "off", "already",
    "failed"). Claims the decision first, so it is never mailed twice."""
    now = now or timezone.now()
    summary = MatchSummary.objects.select_related("match").filter(match_id=match_id).first()
    if summary is None or summary.status != "active" or seat not in (summary.awaiting or []):
        return "stale"
    if waiting_since(match_id, seat) != since_seq:
        return "stale"
    if summary.updated_at > now - _delay():
        return "early"  # the match moved since the sweep looked
    user_id = _human_user(summary, seat)
    if user_id is None or user_id not in _opted_in([user_id]):
        return "off"
    user = get_user_model().objects.get(pk=user_id)
    try:
        with transaction.atomic():
            claim = TurnEmail.objects.create(match_id=summary.match_id, seat=seat, since_seq=since_seq,
                                             seq=summary.seq, user=user, claimed_at=now)
    except IntegrityError:
        return "already"
    try:
        send_mail(*_message(summary, user, now), settings.DEFAULT_FROM_EMAIL, [user.email])
    except Exception:  # claimed: at most once, even if the mail server refused it
        log.exception("the turn e-mail for %s seat %s could not be sent", match_id, seat)
        return "failed"
    TurnEmail.objects.filter(pk=claim.pk).update(sent_at=timezone.now())
    return "sent"


def _message(summary: MatchSummary, user, now) -> tuple[str, str]:
    match = summary.match
    try:
        game = registry.get(match.game).name
    except RuleViolation:
        game = match.game
    minutes = max(1, int((now - summary.updated_at).total_seconds() // 60))
    base = settings.SITE_URL.rstrip("/")
    subject = f"Your turn in {game}"
    body = (f"Hello {user.get_username()},\n\n"
            f"it has been your turn in your {game} match for {minutes} minute{'s' if minutes != 1 else ''}.\n"
            f"Play on: {base}/matches/{match.pk}/\n\n"
            f"You get this e-mail because you asked for it. Turn it off on your account page: {base}/account/\n")
    return subject, body
