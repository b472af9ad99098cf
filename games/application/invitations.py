"""Invitations to a match's free seats.

A seated player of an open match invites

- **one user by name** (``invitation_create(..., username=...)``): the invitation shows in that
  user's lobby ("Invitations for you") until they accept it (they take a free seat), decline it, the
  inviter revokes it, or it lapses (the match started, ended or was abandoned, or they sat down
  another way);
- **whoever opens a link** (no username): ``/invite/<token>/`` seats any signed-in user who opens
  it while the match is open and has a free seat. Asking again gives the same link (one open link
  per inviter and match) until the inviter revokes it.

Every invitation has a token, the secret part of its link; a user's invitation seats only that
user. Records: ``Invitation`` (who invited whom, or a link, and when) and ``InvitationAnswer``
(accepted with the seat taken, declined, revoked: by whom, when), append-only beside the match log.
A seat is taken through the one write path (``services.match_join``), so the lobby's own rules
(open, a free seat, not seated twice) have the last word; accepts of one invitation are serialized
on its row lock.

Services: ``invitation_create``, ``invitation_accept`` (by id: the invitee), ``invitation_join``
(by token: whoever opens the link), ``invitation_decline``, ``invitation_revoke``. Selectors:
``invitations_received``, ``invitations_sent``, ``invitation_by_token``, ``invitation_status``,
``invitations_of_user`` (the account export).
"""

import secrets
import uuid

from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils import timezone

from games.eventstore.models import Invitation, InvitationAnswer, Match
from games.kernel import RuleViolation, registry

from . import services
from .accounts_lock import accounts_entering
from .errors import InvitationRefused
from .identities import deleted_among, names_among, seat_label, seats_display, username_key
from .lobby import ABANDONED_STATUS, ACTIVE, DONE, OPEN, SEAT_TAKEN, seat_of_user
from .selectors import match_get, state_load

LINK_PATH = "/invite/{token}/"  # the page that opens an invitation (frontend/urls.py serves it)
LIST_LIMIT = 50

ACCEPTED, DECLINED, REVOKED = "accepted", "declined", "revoked"

# What ``invitation_status`` says of an invitation, and what a page tells the person who opens it.
STATUS_OPEN = "open"
STATUS_FULL = "full"  # the match is open but every seat is taken (a seat may free up again)
STATUS_SEATED = "seated"  # the invitee (or the caller) already sits in the match
STATUS_INVITER_LEFT = "inviter_left"  # the inviter left the open match: their invitations lapse with their seat
STATUS_WORDS = {
    STATUS_OPEN: "There is a free seat for you.",
    STATUS_FULL: "Every seat of this match is taken just now.",
    STATUS_SEATED: "You already have a seat in this match.",
    ACTIVE: "This match has already started.",
    DONE: "This match is over.",
    ABANDONED_STATUS: "This match was abandoned before it started.",
    ACCEPTED: "This invitation was accepted.",
    DECLINED: "This invitation was declined.",
    REVOKED: "This invitation was withdrawn by the player who sent it.",
    STATUS_INVITER_LEFT: "The player who sent this invitation has left the match.",
}


def _refuse(code: str, message: str, status: int):
    raise InvitationRefused(code, message, status)


def _new_token() -> str:
    return secrets.token_urlsafe(24)


def _now():
    return timezone.now()


def _game_name(slug: str) -> str:
    try:
        return registry.get(slug).name
    except RuleViolation:
        return slug


def _user_by_name(username: str):
    """The active account called ``username`` (exactly, else the one whose name has the same key,
    ``identities.username_key``: NFKC + case-folding, as names are matched everywhere else, so ``ＡＬＩＣＥ``
    and ``STRASSE`` find alice and straße), or 404 ``unknown_user``; a deleted account is unknown too."""
    User = get_user_model()
    name = str(username or "").strip()
    user = None
    if name:
        users = User.objects.filter(is_active=True)
        user = users.filter(**{User.USERNAME_FIELD: name}).first()
        if user is None:
            user = users.filter(profile__username_key=username_key(name)).first()
    if user is None or deleted_among([user.pk]):
        _refuse("unknown_user", f"no player is called {name!r}" if name else "a username is required", 404)
    return user


def _lobby_refusal(lobby: dict, user_id) -> tuple | None:
    """(code, message) why ``user_id`` cannot take a seat in this lobby now, or None."""
    status = lobby["status"]
    if status != OPEN:
        return "match_not_open", STATUS_WORDS.get(status, STATUS_WORDS[ACTIVE])
    if user_id is not None and seat_of_user(lobby, user_id) is not None:
        return "already_seated", STATUS_WORDS[STATUS_SEATED]
    if all(s is not None for s in lobby["seats"]):
        return "match_full", STATUS_WORDS[STATUS_FULL]
    return None


# -- selectors ------------------------------------------------------------------------------------


def _inviter_left(invitation: Invitation, lobby: dict) -> bool:
    """An invitation stands only while its inviter sits in the open match: one who left can no longer
    withdraw it (only the inviter may), so it must not keep seating people on their behalf."""
    return lobby["status"] == OPEN and seat_of_user(lobby, invitation.inviter_id) is None


def _closing_answer(invitation: Invitation, answers) -> InvitationAnswer | None:
    """The answer that closed ``invitation``: a user's invitation is closed by its first answer, a
    link by its revocation only."""
    for answer in answers:
        if answer.outcome == REVOKED or invitation.invitee_id is not None:
            return answer
    return None


def invitation_status(invitation: Invitation, lobby: dict, answers=None, viewer_id=None) -> str:
    """``open``, ``full``, ``seated`` (the invitee, or ``viewer_id`` for a link, sits in the match),
    a match status that ends it (``active``, ``finished``, ``abandoned``), or how it was answered
    (``accepted``, ``declined``, ``revoked``)."""
    if answers is None:
        answers = list(invitation.answers.all())
    closing = _closing_answer(invitation, answers)
    if closing is not None:
        return closing.outcome
    if _inviter_left(invitation, lobby):
        return STATUS_INVITER_LEFT
    who = invitation.invitee_id if invitation.invitee_id is not None else viewer_id
    refusal = _lobby_refusal(lobby, who)
    if refusal is None:
        return STATUS_OPEN
    code = refusal[0]
    if code == "match_not_open":
        return lobby["status"]
    return STATUS_SEATED if code == "already_seated" else STATUS_FULL


def _names(user_ids) -> dict:
    return names_among(user_ids)  # the current name, or "deleted player"


def _doc(inv: Invitation, lobby: dict, status: str, names: dict) -> dict:
    seats = seats_display(lobby["seats"])
    return {
        "id": str(inv.pk),
        "match_id": str(inv.match_id),
        "game": lobby["game"],
        "game_name": _game_name(lobby["game"]),
        "kind": "user" if inv.invitee_id is not None else "link",
        "inviter": names.get(inv.inviter_id),
        "invitee": names.get(inv.invitee_id) if inv.invitee_id is not None else None,
        "token": inv.token,
        "path": LINK_PATH.format(token=inv.token),
        "status": status,
        "status_text": STATUS_WORDS.get(status, ""),
        "seats": len(seats),
        "players": [seat_label(s) for s in seats if s],
        "free_seats": sum(1 for s in seats if s is None),
        "at": inv.at.isoformat(),
    }


def _docs(invitations, viewer_id=None, keep=None) -> list[dict]:
    """Documents of ``invitations`` (each match folded once), those whose status is in ``keep``."""
    invitations = list(invitations)
    answers: dict = {}
    for a in InvitationAnswer.objects.filter(invitation__in=invitations):
        answers.setdefault(a.invitation_id, []).append(a)
    names = _names([i.inviter_id for i in invitations] + [i.invitee_id for i in invitations])
    lobbies: dict = {}
    docs = []
    for inv in invitations:
        if inv.match_id not in lobbies:
            lobbies[inv.match_id] = state_load(inv.match)["lobby"]
        status = invitation_status(inv, lobbies[inv.match_id], answers.get(inv.pk, []), viewer_id)
        if keep is None or status in keep:
            docs.append(_doc(inv, lobbies[inv.match_id], status, names))
    return docs


def invitations_received(user, limit: int = LIST_LIMIT) -> list[dict]:
    """The invitations addressed to ``user`` that still mean something: their match is open and
    they do not sit in it (``open``, or ``full`` for now), newest first, one per match."""
    pending = (Invitation.objects.filter(invitee=user).exclude(answers__isnull=False)
               .select_related("match").order_by("-at")[: limit * 4])
    seen, newest = set(), []
    for inv in pending:
        if inv.match_id not in seen:
            seen.add(inv.match_id)
            newest.append(inv)
    return _docs(newest, keep={STATUS_OPEN, STATUS_FULL})[:limit]


def invitations_sent(user, match_id=None, limit: int = LIST_LIMIT) -> list[dict]:
    """The invitations ``user`` sent that are still open (``open`` or ``full``), newest first; of
    one match with ``match_id``."""
    qs = Invitation.objects.filter(inviter=user).exclude(answers__outcome=REVOKED).select_related("match")
    if match_id is not None:
        qs = qs.filter(match_id=match_id)
    return _docs(qs.order_by("-at")[: limit * 4], keep={STATUS_OPEN, STATUS_FULL})[:limit]


def invitation_by_token(token: str, viewer=None) -> dict:
    """What the link ``token`` leads to, as its opener sees it (``status`` for ``viewer``), plus
    ``for_you``: False when it is another user's invitation. 404 ``not_found``."""
    inv = _find(token=token)
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    doc = _docs([inv], viewer_id)[0]
    doc["for_you"] = inv.invitee_id is None or inv.invitee_id == viewer_id
    return doc


def _find(*, pk=None, token=None) -> Invitation:
    try:
        if pk is not None:
            return Invitation.objects.select_related("match").get(pk=uuid.UUID(str(pk)))
        return Invitation.objects.select_related("match").get(token=str(token or ""))
    except (Invitation.DoesNotExist, ValueError, TypeError):
        _refuse("not_found", "no such invitation", 404)


# -- services -------------------------------------------------------------------------------------


def invitation_create(*, match_id, user, username: str | None = None) -> tuple[dict, bool]:
    """Invite ``username`` (or, with None, get this player's link) to the match. Returns the
    invitation's document and whether it was created (an open one is given again).
    Refusals: ``match_not_open``, ``not_a_player`` (403), ``unknown_user`` (404), ``invite_self``,
    ``already_seated``, ``match_full`` (409)."""
    match_get(match_id)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)  # one open invitation per invitee
        lobby = state_load(match)["lobby"]
        if lobby["status"] != OPEN:
            _refuse("match_not_open", STATUS_WORDS.get(lobby["status"], STATUS_WORDS[ACTIVE]), 409)
        if seat_of_user(lobby, user.pk) is None:
            _refuse("not_a_player", "only a player seated in the match can invite", 403)
        invitee = None
        if username is not None:
            invitee = _user_by_name(username)
            if invitee.pk == user.pk:
                _refuse("invite_self", "you cannot invite yourself", 409)
            if seat_of_user(lobby, invitee.pk) is not None:
                _refuse("already_seated", f"{invitee.get_username()} already has a seat in this match", 409)
        if all(s is not None for s in lobby["seats"]):
            _refuse("match_full", "every seat is taken: there is no seat to invite anyone to", 409)
        if invitee is None:
            existing = Invitation.objects.filter(match=match, inviter=user, invitee__isnull=True)
        else:
            existing = Invitation.objects.filter(match=match, invitee=invitee)
        existing = existing.exclude(answers__outcome__in=[REVOKED, DECLINED]).order_by("-at").first()
        if existing is not None and (invitee is None or not existing.answers.exists()):
            return _docs([existing])[0], False
        inv = Invitation.objects.create(match=match, inviter=user, invitee=invitee, token=_new_token(), at=_now())
        return _doc(inv, lobby, STATUS_OPEN, _names([user.pk, invitee.pk if invitee else None])), True


def _seat(inv: Invitation, user) -> dict:
    """Take a free seat for ``user`` through ``inv`` (locked) and record it; the document after."""
    lobby = state_load(inv.match)["lobby"]
    refusal = _lobby_refusal(lobby, user.pk)
    if refusal is None and _inviter_left(inv, lobby):
        refusal = "invitation_closed", STATUS_WORDS[STATUS_INVITER_LEFT]
    if refusal is not None:
        code, message = refusal
        _refuse(code, message, 409)
    result = services.match_join(match_id=inv.match_id, user=user)
    seat = next(ev["payload"]["seat"] for ev in result.events if ev["type"] == SEAT_TAKEN)
    InvitationAnswer.objects.create(invitation=inv, user=user, outcome=ACCEPTED, seat=seat, at=_now())
    inv.match.refresh_from_db()
    doc = _docs([inv], user.pk)[0]
    doc["seat"] = seat
    return doc


def _locked_unanswered(inv: Invitation) -> Invitation:
    """The invitation re-read under a row lock (inside the caller's transaction); one already
    accepted, declined or revoked is refused (``invitation_closed``, 409)."""
    inv = Invitation.objects.select_for_update().select_related("match").get(pk=inv.pk)
    closing = _closing_answer(inv, list(inv.answers.all()))
    if closing is not None:
        _refuse("invitation_closed", STATUS_WORDS[closing.outcome], 409)
    return inv


def _addressed_to(invitation_id, user, link_words: str) -> Invitation:
    """The invitation sent to ``user``: a link's own inviter is told ``link_words`` (``not_invitee``,
    403); anyone else's invitation is ``not_found`` (404)."""
    inv = _find(pk=invitation_id)
    if inv.invitee_id is None and inv.inviter_id == user.pk:
        _refuse("not_invitee", link_words, 403)
    if inv.invitee_id != user.pk:
        _refuse("not_found", "no such invitation", 404)
    return inv


def invitation_accept(*, invitation_id, user) -> dict:
    """The invitee accepts: they take a free seat (the first). Refusals: ``not_found`` (404; also
    someone else's invitation), ``not_invitee`` (403: a link is opened by its token),
    ``invitation_closed``, ``match_not_open``, ``already_seated``, ``match_full`` (409)."""
    inv = _addressed_to(invitation_id, user, "a link invites whoever opens it: open its link to take a seat")
    with accounts_entering([user]):
        inv = _locked_unanswered(inv)
        return _seat(inv, user)


def invitation_join(*, token: str, user) -> dict:
    """Whoever opens the link takes a free seat (a user's invitation: only that user). Refusals:
    ``not_found`` (404), ``not_invitee`` (403), ``invitation_closed``, ``match_not_open``,
    ``already_seated``, ``match_full`` (409)."""
    inv = _find(token=token)
    if inv.invitee_id is not None and inv.invitee_id != user.pk:
        _refuse("not_invitee", "this invitation is for another player", 403)
    with accounts_entering([user]):
        inv = _locked_unanswered(inv)
        return _seat(inv, user)


def invitation_decline(*, invitation_id, user) -> dict:
    """The invitee declines (recorded; it leaves their lobby). ``not_found`` (404),
    ``not_invitee`` (403: a link), ``invitation_closed`` (409)."""
    inv = _addressed_to(invitation_id, user, "a link has no one to decline it: revoke it instead")
    with transaction.atomic():
        inv = _locked_unanswered(inv)
        InvitationAnswer.objects.create(invitation=inv, user=user, outcome=DECLINED, at=_now())
    return _docs([inv])[0]


def invitation_revoke(*, invitation_id, user) -> dict:
    """The inviter withdraws an invitation or a link (recorded; the link no longer seats anyone).
    ``not_found`` (404), ``not_inviter`` (403: the invitee), ``invitation_closed`` (409)."""
    inv = _find(pk=invitation_id)
    if inv.inviter_id != user.pk:
        if inv.invitee_id == user.pk:
            _refuse("not_inviter", "only the player who sent an invitation can withdraw it", 403)
        _refuse("not_found", "no such invitation", 404)
    with transaction.atomic():
        inv = _locked_unanswered(inv)
        InvitationAnswer.objects.create(invitation=inv, user=user, outcome=REVOKED, at=_now())
    return _docs([inv])[0]


def invitations_of_user(user) -> list[dict]:
    """Every invitation ``user`` sent or received, with what became of it (their data export)."""
    rows = list(Invitation.objects.filter(models.Q(inviter=user) | models.Q(invitee=user)).order_by("at", "id"))
    answers: dict = {}
    for a in InvitationAnswer.objects.filter(invitation__in=rows).order_by("id"):
        answers.setdefault(a.invitation_id, []).append(a)
    names = _names([r.inviter_id for r in rows] + [r.invitee_id for r in rows]
                   + [a.user_id for found in answers.values() for a in found])
    return [{"id": str(r.pk), "match_id": str(r.match_id), "role": "sent" if r.inviter_id == user.pk else "received",
             "kind": "user" if r.invitee_id is not None else "link", "inviter": names.get(r.inviter_id),
             "invitee": names.get(r.invitee_id) if r.invitee_id is not None else None, "at": r.at.isoformat(),
             "answers": [{"outcome": a.outcome, "by": names.get(a.user_id), "seat": a.seat, "at": a.at.isoformat()}
                         for a in answers.get(r.pk, [])]}
            for r in rows]
