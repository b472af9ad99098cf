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
import weakref
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from games.eventstore import sql as plain_sql

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


_token_queries: dict = {}


def _token_query(User) -> tuple[str, list, list]:
    """(SQL, token columns, user columns) of the token look-up, each column a (field, its Col);
    built once per database vendor and user model."""
    cache_key = (connection.vendor, User)
    if cache_key not in _token_queries:
        quote = connection.ops.quote_name
        token_cols = [(field, field.get_col("t")) for field in Token._meta.concrete_fields]
        user_cols = [(field, field.get_col("u")) for field in User._meta.concrete_fields]
        selected = [f"t.{quote(field.column)}" for field, _col in token_cols]
        selected += [f"u.{quote(field.column)}" for field, _col in user_cols]
        sql = (f"SELECT {', '.join(selected)} FROM {quote(Token._meta.db_table)} t"
               f" JOIN {quote(User._meta.db_table)} u ON u.{quote(User._meta.pk.column)} ="
               f" t.{quote(Token._meta.get_field('user').column)}"
               f" WHERE t.{quote(Token._meta.pk.column)} = %s")
        _token_queries[cache_key] = (sql, token_cols, user_cols)
    return _token_queries[cache_key]


# Each connection's converters per column list: asking the backend and the columns for them cost
# more than the conversions. Keyed by the connection (each thread has its own, and its backend's
# converters are bound to it).
_converters: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _column_converters(db, cols) -> list:
    """[(position, [converter, ...])] for the columns of ``cols`` that have converters on ``db``."""
    per_db = _converters.setdefault(db, {})
    key = id(cols)
    if key not in per_db:
        found = [(i, db.ops.get_db_converters(col) + col.get_db_converters(db)) for i, (_field, col) in enumerate(cols)]
        per_db[key] = [(i, converters) for i, converters in found if converters]
    return per_db[key]


def _instance(model, cols, values, db):
    """``model`` from its raw column values, converted as the ORM converts them (SQLite's text
    datetimes and integer booleans, fields' own ``from_db_value``)."""
    values = list(values)
    for i, converters in _column_converters(db, cols):
        for convert in converters:
            values[i] = convert(values[i], cols[i][1], db)
    return model.from_db(db.alias, [field.attname for field, _col in cols], values)


def token_with_user(key: str) -> Token | None:
    """The token ``key`` with its user loaded (``token.user``), whatever their state; None if there
    is no such token. One plain SELECT, as the ORM's ``select_related("user").get(key=key)`` reads
    it, prepared once per connection on PostgreSQL (every API request asks it)."""
    User = get_user_model()
    query, token_cols, user_cols = _token_query(User)
    db = plain_sql.database()
    row = plain_sql.run(query, [key], fetch="one", prepare=True, db=db)
    if row is None:
        return None
    token = _instance(Token, token_cols, row[:len(token_cols)], db)
    token.user = _instance(User, user_cols, row[len(token_cols):], db)
    return token


def user_for_token_key(key) -> tuple[object, Token] | None:
    """(active user, token) for an unexpired token ``key``, else None."""
    if not isinstance(key, str) or not key or len(key) > 64:
        return None
    token = token_with_user(key)
    if token is None or not token.user.is_active or token_expired(token):
        return None
    return token.user, token


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, refusing tokens older than API_TOKEN_TTL_SECONDS. The
    same checks and messages as DRF's, in the same order (no such token, inactive user), then expiry."""

    def authenticate_credentials(self, key):
        token = token_with_user(key)
        if token is None:
            raise AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        if token_expired(token):
            raise AuthenticationFailed("token expired; get a new one from /api/auth/token/")
        return token.user, token


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
