"""Invitation pages: the invite link (``/invite/<token>/``), the lobby's accept and decline buttons,
and the match page's invite forms. Thin: ``games.application.invitations`` decides; the pages work
without JavaScript (``static/js/invite.js`` and ``invitations.js`` only spare a reload)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games.api.throttles import InvitationThrottle, MatchJoinThrottle
from games.application import invitations, selectors
from games.application.errors import MatchNotFound, PlatformError
from games.kernel import RuleViolation

from .throttling import too_quick

# What a refusal tells the player (the codes stay in the API).
_WORDS = {
    "unknown_user": "There is no player called {username}.",
    "invite_self": "You cannot invite yourself.",
    "not_a_player": "Only the players seated at this table can invite others.",
}


def _table(match_id) -> str:
    return reverse("frontend:match", kwargs={"match_id": match_id})


def _lobby() -> str:
    return reverse("frontend:lobby")


def _seated(match_id, user) -> bool:
    """Does ``user`` sit in the match (open, running or over): the link then leads back to the table."""
    return selectors.seat_for_user(selectors.match_get(match_id), user) is not None


def _say(err, **words) -> str:
    return _WORDS.get(err.code, err.message[:1].upper() + err.message[1:]).format(**words)


def _attempt(request, step, words=None, **kwargs):
    """Run an invitation step; a refusal becomes an error message for the player and None."""
    try:
        return step(**kwargs)
    except (PlatformError, RuleViolation) as err:
        messages.error(request, _say(err, **(words or {})))
        return None


def _to_the_seat(request, seated: dict):
    messages.success(request, f"You took a seat at {seated['inviter']}'s {seated['game_name']} table.")
    return redirect(_table(seated["match_id"]))




@require_GET
def invite_link(request, token):
    """Open an invitation: sign in first if need be, then take a free seat and land at the table;
    a link that can no longer seat anyone says why."""
    try:
        doc = invitations.invitation_by_token(token, request.user)
    except PlatformError:
        raise Http404("no such invitation")
    context = {"invitation": doc, "next": request.path}
    if not request.user.is_authenticated:
        return render(request, "frontend/invite.html", context)
    if not doc["for_you"]:
        return render(request, "frontend/invite.html", {**context, "not_for_you": True}, status=403)
    if doc["status"] == invitations.STATUS_SEATED or _seated(doc["match_id"], request.user):
        messages.info(request, "You already have a seat at this table.")
        return redirect(_table(doc["match_id"]))
    if doc["status"] != invitations.STATUS_OPEN:
        return render(request, "frontend/invite.html", context, status=409)
    if too_quick(request, MatchJoinThrottle, "joining matches"):
        return render(request, "frontend/invite.html", context, status=429)
    try:
        seated = invitations.invitation_join(token=token, user=request.user)
    except (PlatformError, RuleViolation) as err:  # taken a moment ago
        messages.error(request, _say(err))
        return render(request, "frontend/invite.html", context, status=getattr(err, "status", 409))
    return _to_the_seat(request, seated)


@login_required
@require_POST
def invitation_accept(request, invitation_id):
    if too_quick(request, MatchJoinThrottle, "joining matches"):
        return redirect(_lobby())
    seated = _attempt(request, invitations.invitation_accept, invitation_id=invitation_id, user=request.user)
    return redirect(_lobby()) if seated is None else _to_the_seat(request, seated)


@login_required
@require_POST
def invitation_decline(request, invitation_id):
    doc = _attempt(request, invitations.invitation_decline, invitation_id=invitation_id, user=request.user)
    if doc is not None:
        messages.info(request, f"You declined {doc['inviter']}'s invitation.")
    return redirect(_lobby())


@login_required
@require_POST
def match_invite(request, match_id):
    """The match page's forms: with a username, invite that player; without, get the invite link
    (the page then shows it for copying)."""
    try:
        match = selectors.match_get(match_id)
    except MatchNotFound:
        raise Http404("no such match")
    username = (request.POST.get("username") or "").strip() or None
    if too_quick(request, InvitationThrottle, "sending invitations"):
        return redirect(_table(match.pk))
    created = _attempt(request, invitations.invitation_create, words={"username": username},
                       match_id=match.pk, user=request.user, username=username)
    if created is None:
        return redirect(_table(match.pk))
    doc, _ = created
    if doc["kind"] == "user":
        messages.success(request, f"Invitation sent to {doc['invitee']}: it shows in their lobby.")
    else:
        messages.success(request, "Your invite link is ready below: whoever opens it takes a free seat here.")
    return redirect(_table(match.pk) + "#invite")


@login_required
@require_POST
def invitation_revoke(request, invitation_id):
    doc = _attempt(request, invitations.invitation_revoke, invitation_id=invitation_id, user=request.user)
    if doc is None:
        return redirect(_lobby())
    messages.info(request, "Invitation withdrawn." if doc["kind"] == "user" else "Invite link withdrawn.")
    return redirect(_table(doc["match_id"]) + "#invite")


@require_GET
def invitations_fragment(request):
    """The lobby's "Invitations for you" list, re-read by static/js/invitations.js."""
    invites = invitations.invitations_received(request.user) if request.user.is_authenticated else []
    return render(request, "frontend/_invitations_list.html", {"invites": invites})
