"""API tokens that expire, their rotation, and single-use socket tickets.

- A DRF token is valid for ``API_TOKEN_TTL_SECONDS`` after it was issued (``Token.created``);
  after that it authenticates nothing (REST: 401 ``authentication_failed``; sockets: refused) and
  ``POST /api/auth/token/`` (credentials) or ``POST /api/auth/token/rotate/`` issues a fresh one.
- A socket ticket (``POST /api/auth/socket-ticket/``) lets a client open ``ws ...?ticket=<ticket>``
  without putting a long-lived credential in the URL: it is random, lives
  ``SOCKET_TICKET_TTL_SECONDS`` and is redeemed once. Tickets are kept in the default cache
  (Redis in distributed mode, so a ticket issued by one server is redeemed by another) under a
  hash of their value; single use is an atomic ``cache.add`` of a "used" marker. A ticket carries
  the login it was issued from (session key or token key), so the socket ends when that login does.
"""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

# -- expiring API tokens ------------------------------------------------------------------------


def token_ttl() -> timedelta:
    return timedelta(seconds=settings.API_TOKEN_TTL_SECONDS)


def token_expired(token: Token, now=None) -> bool:
    return (now or timezone.now()) >= token.created + token_ttl()


def token_expires_in(token: Token, now=None) -> int:
    return max(0, int((token.created + token_ttl() - (now or timezone.now())).total_seconds()))


def token_valid(user) -> Token:
    """The user's token, replaced by a fresh one when it has expired (or missing)."""
    with transaction.atomic():
        token = Token.objects.select_for_update().filter(user=user).first()
        if token is not None and not token_expired(token):
            return token
        if token is not None:
            token.delete()
        return Token.objects.create(user=user)


def token_rotate(user) -> Token:
    """Revoke the user's token (sockets opened with it end on their next re-check) and issue a new one."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def user_for_token_key(key) -> tuple[object, Token] | None:
    """(active user, token) for an unexpired token ``key``, else None."""
    if not isinstance(key, str) or not key or len(key) > 64:
        return None
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active or token_expired(token):
        return None
    return token.user, token


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, refusing tokens older than API_TOKEN_TTL_SECONDS."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        if token_expired(token):
            raise AuthenticationFailed("token expired; get a new one from /api/auth/token/")
        return user, token


# -- socket tickets ------------------------------------------------------------------------------


def _ticket_key(ticket: str) -> str:
    return "socket-ticket:" + hashlib.sha256(ticket.encode("utf-8", "surrogatepass")).hexdigest()


def ticket_issue(*, user_id, session_key: str | None = None, token_key: str | None = None) -> tuple[str, int]:
    """A new single-use ticket for ``user_id`` and the login it came from -> (ticket, expires_in)."""
    if (session_key is None) == (token_key is None):
        raise ValueError("a ticket is issued from exactly one login: a session or a token")
    ttl = settings.SOCKET_TICKET_TTL_SECONDS
    ticket = secrets.token_urlsafe(32)
    cache.set(_ticket_key(ticket), {"user_id": user_id, "session_key": session_key, "token_key": token_key},
              timeout=ttl)
    return ticket, ttl


def ticket_redeem(ticket) -> dict | None:
    """The ticket's ``{"user_id", "session_key", "token_key"}`` the first time it is redeemed
    within its lifetime; None for an unknown, expired or already used ticket."""
    if not isinstance(ticket, str) or not ticket or len(ticket) > 128:
        return None
    key = _ticket_key(ticket)
    data = cache.get(key)
    if not isinstance(data, dict):
        return None
    # add() is atomic (SET NX on Redis): of two servers redeeming at once, exactly one wins.
    if not cache.add(key + ":used", 1, timeout=settings.SOCKET_TICKET_TTL_SECONDS):
        return None
    cache.delete(key)
    return data
