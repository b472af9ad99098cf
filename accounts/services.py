"""Accounts: registration, rate-limited authentication, logout, and the cheap "is this login
still valid?" check that live sockets call every few seconds.

The login lockout (separate limits per account + IP, per account and per IP) is ``accounts.lockout``;
usernames are normalized and checked for lookalikes by ``accounts.identity``.
"""

import logging
from functools import lru_cache
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, authenticate, get_user_model, logout
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from rest_framework.authtoken.models import Token

from games.eventstore import sql as plain_sql

from . import lockout
from .emails import email_claim
from .errors import PasswordRequired, TooManyAttempts, WrongPassword
from .identity import TAKEN, username_claim_lock, username_clean, username_normalize, username_taken
from .models import Profile
from .tokens import token_ttl, token_valid

log = logging.getLogger(__name__)


# -- authentication --------------------------------------------------------------------------


def client_ip(request) -> str:
    """The peer address. X-Forwarded-For is not trusted here: a client could forge it to dodge
    the per-IP limit; a deployment behind a proxy should set REMOTE_ADDR from it in the proxy."""
    meta = getattr(request, "META", None) or {}
    return str(meta.get("REMOTE_ADDR") or "unknown")


def login_attempts_reset(username: str | None = None, ip: str | None = None) -> None:
    """Unlock: the failed logins of ``username`` and/or address ``ip``, and that account's failed
    password re-checks (changing the password or the e-mail, deleting the account)."""
    user = get_user_model().objects.filter(username=username).first() if username is not None else None
    lockout.attempts_reset(username=username, ip=ip, user_id=user.pk if user else None)


def user_authenticate(request, username, password):
    """Check credentials under the login lockout (``accounts.lockout``).

    Returns the user, or None for wrong credentials or a deactivated account; raises
    ``TooManyAttempts`` (429) when a limit refuses the attempt (its password is then not checked).
    """
    username = username_normalize(str(username or ""))
    password = str(password or "")
    ip = client_ip(request)
    attempt = lockout.attempt_begin(username, ip)
    if attempt.refused is not None:
        log.warning("login refused (%s limit) for username=%r ip=%s", attempt.refused, username[:150], ip)
        raise TooManyAttempts(retry_after=lockout.window())
    user = None
    if username and password:
        django_request = getattr(request, "_request", request)
        user = authenticate(django_request, username=username, password=password)
    if user is None:
        return None
    lockout.attempt_succeeded(attempt)
    return user


RECHECK_REFUSED = "too many wrong passwords for this account; try again in a few minutes"


def password_recheck(user, password, *, ip: str | None = None) -> None:
    """Check a signed-in user's password again (before changing the password or the e-mail
    address, or deleting the account) under the same lockout as a login (``lockout.recheck_begin``:
    per account + IP, per account, per IP). Raises ``TooManyAttempts`` (429; the password is then not
    checked) or ``WrongPassword`` (400)."""
    ip = ip or "unknown"
    attempt = lockout.recheck_begin(user.pk, ip)
    if attempt.refused is not None:
        log.warning("password re-check refused (%s limit) for user_id=%s ip=%s", attempt.refused, user.pk, ip)
        raise TooManyAttempts(retry_after=lockout.window(), message=RECHECK_REFUSED)
    if not user.check_password(str(password or "")):
        raise WrongPassword()
    lockout.attempt_succeeded(attempt)


# -- registration, tokens, logout ---------------------------------------------------------------


def _username_error(message: str = TAKEN) -> ValidationError:
    return ValidationError({"username": [message]})


def user_register(*, username: str, password: str, email: str = ""):
    """Create the user (username normalized and checked for lookalikes, password validated by
    AUTH_PASSWORD_VALIDATORS) and its profile. Raises ValidationError ({"username": ...} when
    the name is taken, a plain one for the password), ``EmailTaken`` (409) when another account has
    the e-mail address, case aside (``accounts.emails``)."""
    User = get_user_model()
    try:
        username = username_clean(username)
    except ValidationError as err:
        raise _username_error(err.messages[0])
    if username_taken(username):
        raise _username_error()
    user = User(username=username, email=email or "")
    validate_password(password, user)
    try:
        with transaction.atomic():
            username_claim_lock(username)  # PostgreSQL: a concurrent lookalike waits, then is refused
            if username_taken(username):
                raise _username_error()
            email_claim(user.email)
            user.set_password(password)
            user.save()  # signals.keep_username_key creates the profile with its unique key
    except IntegrityError:  # a concurrent registration took the name (or a lookalike of it)
        raise _username_error()
    return user


def user_rename(user, username: str) -> None:
    """Change a username through the same normalization and lookalike check as registration.
    Match logs and tournament records keep the name they were written with (they are never
    rewritten), but every read shows the new one (``games.application.identities``); the name
    given up is kept as a ``RetiredUsername`` (signals): no other account can take it or a
    lookalike of it, only this one can take it back."""
    User = get_user_model()
    try:
        username = username_clean(username)
    except ValidationError as err:
        raise _username_error(err.messages[0])
    if username == user.get_username():
        return
    old = user.get_username()
    try:
        with transaction.atomic():
            username_claim_lock(username)  # PostgreSQL: a concurrent lookalike waits, then is refused
            if username_taken(username, exclude_user_id=user.pk):
                raise _username_error()
            setattr(user, User.USERNAME_FIELD, username)
            user.save(update_fields=[User.USERNAME_FIELD])  # the signal moves the key
    except IntegrityError:
        setattr(user, User.USERNAME_FIELD, old)
        raise _username_error()


def token_for(user) -> str:
    """The user's API token; an expired one is replaced (accounts.tokens)."""
    return token_valid(user).key


def profile_get(user) -> Profile:
    """The user's profile, created on first use (users made by createsuperuser or the web signup)."""
    profile, _ = Profile.objects.get_or_create(user=user, defaults={"display_name": user.get_username()[:60]})
    return profile


def profile_update(*, user, display_name: str | None = None, email: str | None = None,
                   username: str | None = None, turn_email: bool | None = None,
                   password: str | None = None, ip: str | None = None) -> Profile:
    """Change what is given. A new ``email`` (another address, or none) is where a password reset
    link goes, so it needs the current ``password`` (``password_recheck``, under the lockout; ``ip``
    is the caller's address): without it ``PasswordRequired`` (400), wrong ``WrongPassword`` (400),
    too many wrong ones ``TooManyAttempts`` (429); then an address another account has (case aside)
    ``EmailTaken`` (409, ``accounts.emails``: asked only of who knows the password). A refusal
    changes nothing."""
    if email is not None and email != user.email:
        if not password:
            raise PasswordRequired()
        password_recheck(user, password, ip=ip)
    profile = profile_get(user)
    with transaction.atomic():
        if email is not None and email != user.email:
            email_claim(email, exclude_user_id=user.pk)  # first: nothing else is changed when it is refused
        if username is not None:
            user_rename(user, username)
        if display_name is not None:
            profile.display_name = display_name.strip()[:60] or user.get_username()[:60]
            profile.save(update_fields=["display_name"])
        if email is not None:
            user.email = email
            user.save(update_fields=["email"])
        if turn_email is not None:
            profile.turn_email = bool(turn_email)
            profile.save(update_fields=["turn_email"])
    return profile


def user_logout(request) -> None:
    """End the caller's login everywhere it is held by this client: its API token and its session.
    Sockets opened with either notice within SOCKET_AUTH_RECHECK_SECONDS (``user_is_active_session``)."""
    user = getattr(request, "user", None)
    if user is not None and getattr(user, "is_authenticated", False):
        Token.objects.filter(user=user).delete()
    logout(request)


def user_deactivate(user) -> None:
    """Deactivate an account: its tokens go, and its sockets stop acting on the next re-check."""
    with transaction.atomic():
        get_user_model().objects.filter(pk=user.pk).update(is_active=False)
        Token.objects.filter(user_id=user.pk).delete()
    user.is_active = False


# -- live-connection re-check ----------------------------------------------------------------


def _session_store(session_key: str):
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key)


def _session_hash_ok(user, stored_hash) -> bool:
    if not stored_hash:
        return False
    if constant_time_compare(stored_hash, user.get_session_auth_hash()):
        return True
    fallbacks = getattr(user, "get_session_auth_fallback_hash", None)  # SECRET_KEY_FALLBACKS
    return bool(fallbacks) and any(constant_time_compare(stored_hash, h) for h in fallbacks())


def user_is_active_session(user_id, session_key: str | None = None, token_key: str | None = None) -> bool:
    """Is the login a socket was opened with still valid?

    False once the user is deactivated or deleted, the session was logged out / flushed / expired
    (or its password changed, which invalidates the session hash), or the token was deleted.
    With neither key given only the account itself is checked. One or two indexed queries.
    """
    if user_id is None:
        return False
    try:
        user_id = get_user_model()._meta.pk.to_python(user_id)
    except Exception:  # not a valid primary key at all
        return False
    User = get_user_model()
    if token_key is not None:
        fresh = Token.objects.filter(key=str(token_key), user_id=user_id, user__is_active=True,
                                     created__gt=timezone.now() - token_ttl())  # expired tokens end sockets too
        if not fresh.exists():
            return False
        if session_key is None:
            return True
    user = User.objects.filter(pk=user_id, is_active=True).only("pk", "password", "is_active").first()
    if user is None:
        return False
    if session_key is None:
        return True
    try:
        data = _session_store(str(session_key)).load()
    except Exception:  # a corrupt/unknown session is simply not a valid login
        log.debug("session %s could not be loaded", session_key, exc_info=True)
        return False
    if str(data.get(SESSION_KEY)) != str(user_id):
        return False
    return _session_hash_ok(user, data.get(HASH_SESSION_KEY))


def _fresh_tokens(keys: list[str]) -> dict:
    """{key: user_id} of the unexpired tokens among ``keys`` whose user is active: one plain SELECT
    (a server asks this for all its sockets on every push), prepared once on PostgreSQL."""
    postgresql = connection.vendor == "postgresql"
    cutoff = connection.ops.adapt_datetimefield_value(timezone.now() - token_ttl())
    params = [list(keys), cutoff] if postgresql else [cutoff, *keys]
    return dict(plain_sql.run(_fresh_tokens_sql(None if postgresql else len(keys)), params, fetch="all", prepare=True))


@lru_cache(maxsize=64)
def _fresh_tokens_sql(count: int | None) -> str:
    """``_fresh_tokens``'s SELECT: for an array of keys (``count`` None: one text for any number,
    PostgreSQL; each key looked up by its index, whatever plan the statement is given) or for
    ``count`` placeholders."""
    meta, quote = get_user_model()._meta, connection.ops.quote_name
    key = quote("key")
    select = (f"SELECT t.{key}, t.user_id FROM {quote(Token._meta.db_table)} t"
              f" JOIN {quote(meta.db_table)} u ON u.{quote(meta.pk.column)} = t.user_id"
              f" WHERE u.{quote(meta.get_field('is_active').column)} AND t.created > %s AND t.{key}")
    if count is None:  # the keys' array comes first, then the cut-off
        return (f"SELECT f.{key}, f.user_id FROM unnest(%s::text[]) AS k(wanted)"
                f" CROSS JOIN LATERAL ({select} = k.wanted LIMIT 1) f")
    return f"{select} IN ({', '.join(['%s'] * count)})"


def logins_active(logins: list[dict]) -> list[bool]:
    """``user_is_active_session`` for many logins at once (``{user_id, session_key?, token_key?}``
    each), as a server re-checks all its sockets: every token-only login in one query, the others
    one by one."""
    out = [False] * len(logins)
    tokens = {}
    for i, login in enumerate(logins):
        if login.get("token_key") is not None and login.get("session_key") is None and login.get("user_id") is not None:
            tokens.setdefault(str(login["token_key"]), []).append(i)
        else:
            out[i] = user_is_active_session(login.get("user_id"), login.get("session_key"), login.get("token_key"))
    if tokens:
        fresh = _fresh_tokens(list(tokens))
        for key, where in tokens.items():
            for i in where:
                out[i] = key in fresh and str(fresh[key]) == str(logins[i]["user_id"])
    return out
