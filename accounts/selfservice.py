"""What an account holder can do to their own account: change or reset the password, list and end
their web sessions and API token, export their data, delete the account.

Shared by the API (accounts.views_account) and the pages (frontend). Every change that ends logins
also ends the live sockets opened with them: those re-check ``services.user_is_active_session``.
"""

import hashlib
import uuid
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from rest_framework.authtoken.models import Token

from games.application import chat, invitations, selectors
from games.application import services as match_services
from games.application.identities import DELETED_PLAYER, seats_display
from games.application.lobby import ACTIVE, OPEN
from games.eventstore import sql as plain_sql
from games.eventstore.models import Match
from games.projections.models import MatchSummary, PlayerRecord
from games.tournaments.services import tournaments_leave_deleted_account

from .errors import InActiveMatch, InvalidResetLink, NotFound
from .forms import PasswordResetForm
from .models import LoginSession, Profile, RetiredUsername
from .services import password_recheck

EXPORT_FORMAT = "kamiza-account-export/1"
RESET_EMAIL = "accounts/email/password_reset_email.txt"
RESET_SUBJECT = "accounts/email/password_reset_subject.txt"


# -- sessions and tokens -------------------------------------------------------------------------


def _session_engine():
    return import_module(settings.SESSION_ENGINE).SessionStore


def sessions_list(user, current_key: str | None = None) -> list[dict]:
    """The account's live web logins, newest first. Records of sessions that ended on their own
    (expired, flushed) are dropped on the way."""
    rows = list(LoginSession.objects.filter(user=user))
    if not rows:
        return []
    live = set(Session.objects.filter(session_key__in=[r.session_key for r in rows], expire_date__gt=timezone.now())
               .values_list("session_key", flat=True))
    dead = [r.pk for r in rows if r.session_key not in live]
    if dead:
        LoginSession.objects.filter(pk__in=dead).delete()
    return [
        {"id": r.pk, "created_at": r.created_at.isoformat(), "ip": r.ip, "user_agent": r.user_agent,
         "current": r.session_key == current_key}
        for r in rows if r.session_key in live
    ]


def _end_session_keys(keys) -> None:
    store = _session_engine()
    for key in keys:
        store(key).delete()
    LoginSession.objects.filter(session_key__in=list(keys)).delete()


def session_end(user, session_id) -> None:
    """End one of the account's web logins (a socket opened with it closes within the re-check)."""
    try:
        row = LoginSession.objects.get(pk=int(session_id), user=user)
    except (LoginSession.DoesNotExist, TypeError, ValueError):
        raise NotFound("no such session of this account")
    _end_session_keys([row.session_key])


def sessions_end_all(user, except_key: str | None = None) -> None:
    keys = set(LoginSession.objects.filter(user=user).values_list("session_key", flat=True)) - {except_key}
    _end_session_keys(keys)


def token_public_id(key: str) -> str:
    """What clients see of a token: enough to tell it apart, nothing to log in with."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def tokens_list(user, current_key: str | None = None) -> list[dict]:
    """The account's API tokens (DRF authtoken: at most one)."""
    return [
        {"id": token_public_id(t.key), "created_at": t.created.isoformat(), "current": t.key == current_key}
        for t in Token.objects.filter(user=user)
    ]


def token_revoke(user, token_id: str) -> None:
    for t in Token.objects.filter(user=user):
        if token_public_id(t.key) == str(token_id):
            t.delete()
            return
    raise NotFound("no such token of this account")


# -- passwords ------------------------------------------------------------------------------------


def logins_end_after_password_change(user, keep_session: str | None) -> None:
    """A new password ends every other login: the API token and every other web session."""
    Token.objects.filter(user=user).delete()
    sessions_end_all(user, except_key=keep_session)


def password_change(user, *, old_password: str, new_password: str, keep_session: str | None = None,
                    ip: str | None = None) -> None:
    """Raises WrongPassword (400), TooManyAttempts (429: the lockout of password re-checks,
    ``services.password_recheck``; ``ip`` is the caller's address) or ValidationError
    (AUTH_PASSWORD_VALIDATORS). The caller keeps its own web session alive with
    ``update_session_auth_hash``."""
    password_recheck(user, old_password, ip=ip)
    validate_password(new_password, user)
    with transaction.atomic():
        user.set_password(new_password)
        user.save(update_fields=["password"])
        logins_end_after_password_change(user, keep_session)


def password_reset_request(*, email: str, request) -> None:
    """Mail a one-use reset link (Django's token generator) for the account with ``email``, case
    aside: one mail at most, to the oldest such account that can reset (``forms.PasswordResetForm``).
    Says nothing about whether such an account exists."""
    form = PasswordResetForm(data={"email": email})
    if not form.is_valid():
        raise ValidationError({"email": form.errors.get("email", ["Enter a valid email address."])})
    form.save(request=request, use_https=request.is_secure(), email_template_name=RESET_EMAIL,
              subject_template_name=RESET_SUBJECT,
              extra_email_context={"valid_hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)})


def reset_link_user(uidb64: str, token: str):
    """The user a reset link is for, or None when the link is invalid, used or expired."""
    User = get_user_model()
    try:
        user = User.objects.get(pk=force_str(urlsafe_base64_decode(str(uidb64))))
    except (TypeError, ValueError, OverflowError, User.DoesNotExist, ValidationError):
        return None
    if not user.is_active or not default_token_generator.check_token(user, str(token)):
        return None
    return user


def password_reset_confirm(*, uidb64: str, token: str, new_password: str) -> None:
    user = reset_link_user(uidb64, token)
    if user is None:
        raise InvalidResetLink()
    form = SetPasswordForm(user, data={"new_password1": new_password, "new_password2": new_password})
    if not form.is_valid():
        raise ValidationError({"new_password": form.errors.get("new_password2") or form.errors.get("new_password1")})
    with transaction.atomic():
        form.save()  # a new password hash: the link's token no longer checks out
        password_reset_done(user)


def password_reset_done(user) -> None:
    logins_end_after_password_change(user, keep_session=None)


# -- export --------------------------------------------------------------------------------------


def export(user) -> dict:
    """Everything the service holds about the account, as JSON: the account, its records, its
    matches (what its seat may see of its own moves, redacted as on the API), the chat messages it
    wrote, the invitations it sent or received, its logins."""
    profile = Profile.objects.filter(user=user).first()
    matches = []
    summaries = MatchSummary.objects.filter(players=user).select_related("match").order_by("match__created_at")
    for summary in summaries:
        match = summary.match
        seats = summary.seats or []
        seat = next((i for i, s in enumerate(seats) if s and not s.get("bot") and s.get("user_id") == user.pk), None)
        mine = [ev for ev in selectors.events_for_seat(match, seat) if ev["actor"].get("user_id") == user.pk]
        matches.append({
            "id": str(match.pk), "game": match.game, "status": summary.status, "seat": seat,
            "seats": seats_display(seats), "winners": summary.winners, "created_at": match.created_at.isoformat(),
            "created_by_you": match.created_by_id == user.pk, "your_events": mine,
        })
    return {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "account": {
            "id": user.pk, "username": user.get_username(), "email": user.email,
            "display_name": profile.display_name if profile else "",
            "turn_email": profile.turn_email if profile else False,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
        "records": [{"game": r.game, "played": r.played, "won": r.won}
                    for r in PlayerRecord.objects.filter(user=user).order_by("game")],
        "matches": matches,
        "chat": chat.chat_of_user(user),
        "invitations": invitations.invitations_of_user(user),
        "sessions": sessions_list(user),
        "tokens": tokens_list(user),
    }


# -- deletion ------------------------------------------------------------------------------------


def account_delete(user, *, password: str, ip: str | None = None) -> None:
    """The account holder deletes their account: the password is asked again (under the lockout of
    password re-checks, ``services.password_recheck``: WrongPassword 400, TooManyAttempts 429), then
    ``account_anonymize``."""
    password_recheck(user, password, ip=ip)
    account_anonymize(user)


# Other apps' steps of a deletion (``add_deletion_step``): each ``step(user)`` runs in the deletion's
# transaction, after the account's row and its tournaments are locked and before its matches are.
_deletion_steps: list = []


def add_deletion_step(step) -> None:
    """Register ``step(user)``: what an app (one that accounts must not import, such as campaigns)
    does when an account is deleted. A deletion refused later rolls the step's writes back."""
    if step not in _deletion_steps:
        _deletion_steps.append(step)


def account_anonymize(user) -> None:
    """Delete an account the only way that keeps the match logs whole: refused while it sits in a
    running match; leaves its open matches; then anonymizes the user row (it stays: match logs
    refer to its id and are never rewritten), ends every login, and from then on its seats show
    "deleted player". Also the admin's "delete" (a hard delete is switched off there).

    All in one transaction. First the account leaves its tournaments under their locks
    (``tournaments_leave_deleted_account``): refused while it sits at a table of a round being
    played, whose match may not be created yet; else no later pairing seats it. Then the other
    apps' steps run (``add_deletion_step``: campaigns leave it the same way). Then its seats are
    read under their matches' locks (``_seated_locked``): a match that starts meanwhile has either
    started (refused) or waits, and then starts without this player. So a running match never seats
    a deleted account, which the names of running matches rely on (``identities.deleted_in_running``)."""
    User = get_user_model()
    with transaction.atomic():
        # FOR NO KEY UPDATE: it orders this with every other account lock (``accounts_lock``) but
        # not with a foreign key's check, so a worker that seats the account under a campaign's or a
        # tournament's lock while this waits for that lock is not waited for in turn (a deadlock).
        user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
        in_round = tournaments_leave_deleted_account(user)
        for step in _deletion_steps:
            step(user)
        seated = _seated_locked(user)
        running = sorted(str(match_id) for match_id, status in seated.items() if status == ACTIVE)
        if running or in_round:
            raise InActiveMatch(running, tournaments=in_round)
        for match_id in seated:
            match_services.match_leave(match_id=match_id, user=user)
        setattr(user, User.USERNAME_FIELD, f"deleted-{uuid.uuid4().hex[:16]}")
        user.email = ""
        user.first_name = user.last_name = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()  # the username key moves with the name: the old name is free again
        RetiredUsername.objects.filter(user=user).delete()  # and so are the names it gave up
        user.groups.clear()
        user.user_permissions.clear()
        Profile.objects.filter(user=user).update(display_name=DELETED_PLAYER, deleted_at=timezone.now())
        Token.objects.filter(user=user).delete()
        sessions_end_all(user)


def _seated_locked(user) -> dict:
    """{match id: status} of the open and running matches ``user`` sits in, read once their match
    rows are locked (in id order, so that two deletions never wait for each other in a circle): a
    lobby command on one of them (a start) has committed by then, and shows, or waits for this
    transaction."""
    ids = list(MatchSummary.objects.filter(players=user, status__in=(OPEN, ACTIVE))
               .values_list("match_id", flat=True))
    if not ids:
        return {}
    list(Match.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
    return dict(MatchSummary.objects.filter(players=user, match_id__in=ids, status__in=(OPEN, ACTIVE))
                .order_by("match_id").values_list("match_id", "status"))


def shown_usernames(user_ids) -> dict:
    """The lookup games.application.identities uses to name every seat, entrant and author by the
    account's id: ``{user id: its current username, or None once the account is deleted}`` (ids
    with no user row left out). Every command's answer names its seats, so this runs on the write
    path: plain SQL, whose cost is the database's (building the ORM query cost more than half of a
    whole command on SQLite)."""
    ids = list(user_ids)
    if not ids:
        return {}
    User = get_user_model()
    users, profiles = User._meta.db_table, Profile._meta.db_table
    name = User._meta.get_field(User.USERNAME_FIELD).column
    query = (f"SELECT u.{User._meta.pk.column}, u.{name}, p.deleted_at FROM {users} u"
             f" LEFT JOIN {profiles} p ON p.user_id = u.{User._meta.pk.column}"
             f" WHERE u.{User._meta.pk.column} IN ({', '.join(['%s'] * len(ids))})")
    return {row[0]: (None if row[2] is not None else row[1])
            for row in plain_sql.run(query, ids, fetch="all", prepare=True)}
