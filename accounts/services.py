"""Accounts: registration, rate-limited authentication, logout, and the cheap "is this login
still valid?" check that live sockets call every few seconds.

Rate limiting counts attempts with an atomic counter in the Django cache (``cache.add`` then
``cache.incr``; Redis in distributed mode, so every server shares one count). Each attempt takes a
slot *before* the password is checked, so concurrent guesses cannot overshoot the limit; a
successful login gives its slot back. Counters are kept per username and per client IP; a window
starts with the first attempt and lasts ``LOGIN_RATE_WINDOW`` seconds.
"""

import hashlib
import logging
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, authenticate, get_user_model, logout
from django.contrib.auth.password_validation import validate_password
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from rest_framework.authtoken.models import Token

from .errors import TooManyAttempts
from .models import Profile
from .tokens import token_ttl, token_valid

log = logging.getLogger(__name__)


# -- rate limiting ----------------------------------------------------------------------------


def _limit() -> int:
    return settings.LOGIN_RATE_LIMIT


def _ip_limit() -> int:
    return getattr(settings, "LOGIN_RATE_LIMIT_PER_IP", settings.LOGIN_RATE_LIMIT)


def _window() -> int:
    return settings.LOGIN_RATE_WINDOW


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"login-attempts:{kind}:{digest}"


def client_ip(request) -> str:
    """The peer address. X-Forwarded-For is not trusted here: a client could forge it to dodge
    the per-IP limit; a deployment behind a proxy should set REMOTE_ADDR from it in the proxy."""
    meta = getattr(request, "META", None) or {}
    return str(meta.get("REMOTE_ADDR") or "unknown")


def _take_slot(key: str) -> int:
    """Atomically count one attempt in ``key`` and return the new count."""
    for _ in range(3):
        cache.add(key, 0, timeout=_window())
        try:
            return cache.incr(key)
        except ValueError:  # the key expired between add and incr: start a new window
            continue
    return 1


def _give_back(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:
        pass


def login_attempts_reset(username: str | None = None, ip: str | None = None) -> None:
    if username is not None:
        cache.delete(_key("user", username.lower()))
    if ip is not None:
        cache.delete(_key("ip", ip))


def user_authenticate(request, username, password):
    """Check credentials, rate-limited per username and per client IP.

    Returns the user, or None for wrong credentials or a deactivated account; raises
    ``TooManyAttempts`` (429) once ``LOGIN_RATE_LIMIT`` failed attempts were made within
    ``LOGIN_RATE_WINDOW`` seconds (further attempts are refused without checking the password).
    """
    username = str(username or "")
    password = str(password or "")
    user_key = _key("user", username.lower())
    ip_key = _key("ip", client_ip(request))
    n_user = _take_slot(user_key)
    n_ip = _take_slot(ip_key)
    if n_user > _limit() or n_ip > _ip_limit():
        log.warning("login rate limit hit for username=%r ip=%s", username[:150], client_ip(request))
        raise TooManyAttempts(retry_after=_window())
    user = None
    if username and password:
        django_request = getattr(request, "_request", request)
        user = authenticate(django_request, username=username, password=password)
    if user is None:
        return None
    # A success does not count as a failed attempt.
    _give_back(user_key)
    _give_back(ip_key)
    return user


# -- registration, tokens, logout ---------------------------------------------------------------


def user_register(*, username: str, password: str, email: str = ""):
    """Create the user (password validated by AUTH_PASSWORD_VALIDATORS) and its profile."""
    User = get_user_model()
    user = User(username=username, email=email or "")
    validate_password(password, user)
    with transaction.atomic():
        user.set_password(password)
        user.save()
        Profile.objects.create(user=user, display_name=username[:60])
    return user


def token_for(user) -> str:
    """The user's API token; an expired one is replaced (accounts.tokens)."""
    return token_valid(user).key


def profile_get(user) -> Profile:
    """The user's profile, created on first use (users made by createsuperuser or the web signup)."""
    profile, _ = Profile.objects.get_or_create(user=user, defaults={"display_name": user.get_username()[:60]})
    return profile


def profile_update(*, user, display_name: str | None = None, email: str | None = None) -> Profile:
    profile = profile_get(user)
    with transaction.atomic():
        if display_name is not None:
            profile.display_name = display_name.strip()[:60] or user.get_username()[:60]
            profile.save(update_fields=["display_name"])
        if email is not None:
            user.email = email
            user.save(update_fields=["email"])
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
