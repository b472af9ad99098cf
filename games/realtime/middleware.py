"""The websocket stack: exact Origin check -> outage guard -> cookies/session/user -> credential -> router.

Credentials, in order (the first one present decides; a bad one is refused, never downgraded):

1. ``?ticket=<ticket>``: a single-use ticket from ``POST /api/auth/socket-ticket/`` (accounts.tokens).
2. ``Authorization: Token <key>`` header (API clients that can set handshake headers).
3. ``?token=<key>``: deprecated (a long-lived credential in the URL, and so in access logs);
   accepted during the 1.x API while ``SOCKET_QUERY_TOKEN_ALLOWED`` (the hello then carries a
   ``deprecated`` note). The access log redacts query strings (config.logging).
4. The session cookie, only when the handshake carried an allowed Origin: a browser always sends
   one, so a cookie without an Origin is ignored (the socket is anonymous), never trusted.

Anonymous sockets may still authenticate with their first message, ``{"type": "auth", "token"}``
or ``{"type": "auth", "ticket"}`` (games.realtime.consumers).

Origin: a handshake with an Origin header must come from an exact allowed origin (scheme, host
and port): the page's own origin (the socket's scheme and Host, the Host being one of
ALLOWED_HOSTS) or one listed in SOCKET_ALLOWED_ORIGINS / CSRF_TRUSTED_ORIGINS. Any other is
refused at the handshake. Scripts that send no Origin get in, with a ticket or token.

Outages: the session, ticket or token lookup reads the database (and the cache, Redis) before any
consumer runs, and a consumer's channel layer reads Redis all along. ``OutageGuard`` turns an
unreachable database or Redis met anywhere below it into what the consumer itself says: the
``unavailable`` error and close 1013 (try again later), never a handshake that fails as a server
error with a traceback in uvicorn's log. Any other exception still propagates.
"""

import contextlib
import json
import logging
from urllib.parse import parse_qs

import channels.auth as channels_auth
from channels.middleware import BaseMiddleware
from channels.auth import AuthMiddleware, CookieMiddleware, SessionMiddleware
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http.request import split_domain_port, validate_host

from games.application.errors import as_unavailable

from .auth import auth_for_ticket, user_for_token
from .dbthreads import db
from .errors import CLOSE_UNAVAILABLE, error_for_exception

log = logging.getLogger(__name__)


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin1")
    return None


def _normalise(origin: str) -> str:
    return origin.strip().rstrip("/").lower()


def allowed_origins(scope) -> set[str]:
    """The exact origins a browser socket may come from."""
    origins = {_normalise(o) for o in [*settings.SOCKET_ALLOWED_ORIGINS, *settings.CSRF_TRUSTED_ORIGINS] if o}
    host = _header(scope, b"host")
    if host:
        domain, _port = split_domain_port(host.lower())
        allowed_hosts = list(settings.ALLOWED_HOSTS)
        if domain and validate_host(domain, allowed_hosts):
            scheme = "https" if scope.get("scheme") == "wss" else "http"
            origins.add(f"{scheme}://{host.lower()}")
    return origins


def origin_allowed(scope, origin: str) -> bool:
    return _normalise(origin) in allowed_origins(scope)


class ExactOriginValidator:
    """Refuse a handshake whose Origin is not an exact allowed origin; note whether one was sent."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        origin = _header(scope, b"origin")
        if origin is not None and not origin_allowed(scope, origin):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application({**scope, "kamiza_origin": origin}, receive, send)


def _authorization_token(scope) -> str | None:
    value = _header(scope, b"authorization") or ""
    kind, _, key = value.partition(" ")
    return key.strip() if kind.lower() == "token" and key.strip() else None


class CredentialMiddleware(BaseMiddleware):
    """Runs inside AuthMiddlewareStack and sets ``scope["kamiza_auth"]``: ``{"user_id",
    "session_key"}`` / ``{"user_id", "token_key"}`` for an authenticated socket, ``{"error": ...}``
    for a credential that does not resolve, or None (an anonymous spectator)."""

    async def __call__(self, scope, receive, send):
        scope = dict(scope)
        query = parse_qs(scope.get("query_string", b"").decode("latin1"))
        ticket = (query.get("ticket") or [None])[-1]
        header_token = _authorization_token(scope)
        query_token = (query.get("token") or [None])[-1]
        scope["kamiza_deprecated"] = None
        if ticket:
            auth, user = await db(auth_for_ticket)(ticket)
            self._set(scope, auth, user, "invalid_ticket")
        elif header_token:
            self._set_token(scope, await db(user_for_token)(header_token), header_token)
        elif query_token:
            if not settings.SOCKET_QUERY_TOKEN_ALLOWED:
                self._set(scope, None, None, "query_token_refused")
            else:
                scope["kamiza_deprecated"] = ("?token= is deprecated: use a ticket from POST /api/auth/socket-ticket/, "
                                              "an Authorization header or an auth message")
                self._set_token(scope, await db(user_for_token)(query_token), query_token)
        else:
            user = scope.get("user")
            session = scope.get("session")
            if (scope.get("kamiza_origin") is not None and user is not None and user.is_authenticated
                    and session is not None and session.session_key):
                scope["kamiza_auth"] = {"user_id": user.pk, "session_key": session.session_key}
            else:  # no credential, or a cookie without an Origin: anonymous
                scope["user"] = AnonymousUser()
                scope["kamiza_auth"] = None
        return await self.inner(scope, receive, send)

    @staticmethod
    def _set(scope, auth, user, error):
        if auth is None or user is None:
            scope["user"] = AnonymousUser()
            scope["kamiza_auth"] = {"error": error}
        else:
            scope["user"] = user
            scope["kamiza_auth"] = auth

    @classmethod
    def _set_token(cls, scope, user, key):
        cls._set(scope, {"user_id": user.pk, "token_key": key} if user is not None else None, user, "invalid_token")


FRAME_SEND = "kamiza_frame_send"  # scope key: the server's own ``send``, for the consumer's text frames


class OutageGuard:
    """Answer an unreachable database or Redis below it with ``unavailable`` and close 1013: before
    the handshake is answered, by accepting it first (a refused handshake would read as 403); on
    an open socket, at once; on a closed one, not at all (and then it is not an error either)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        seen = {"connect": False, "accepted": False, "closed": False}

        async def tracked_receive():
            message = await receive()
            if message["type"] == "websocket.connect":
                seen["connect"] = True
            elif message["type"] == "websocket.disconnect":
                seen["closed"] = True
            return message

        async def tracked_send(message):
            if message["type"] == "websocket.accept":
                seen["accepted"] = True
            elif message["type"] == "websocket.close":
                seen["closed"] = True
            await send(message)

        # Text frames need none of the layers between here and the consumer (the session wrapper
        # acts on the handshake's answer only): a push's frames go straight to the server's send.
        scope = {**scope, FRAME_SEND: send}
        try:
            return await self.application(scope, tracked_receive, tracked_send)
        except Exception as exc:
            if as_unavailable(exc) is None:
                raise
            if seen["closed"]:  # already told and closed (e.g. by the consumer); the layer then failed too
                return None
            error = error_for_exception(exc)
        with contextlib.suppress(OSError, RuntimeError):  # the client may be gone already
            if not seen["accepted"]:
                if not seen["connect"]:
                    await tracked_receive()
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps(error, separators=(",", ":"))})
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})


class SessionUserMiddleware(AuthMiddleware):
    """Channels' AuthMiddleware, reading the session's user on the socket database threads
    (``dbthreads``) instead of Channels' one shared thread."""

    async def resolve_scope(self, scope):
        get_user = channels_auth.get_user
        scope["user"]._wrapped = await db(getattr(get_user, "func", get_user))(scope)


def KamizaAuthMiddlewareStack(inner):
    """Channels' AuthMiddlewareStack (cookie, session, user) with our credential check and outage guard."""
    return OutageGuard(CookieMiddleware(SessionMiddleware(SessionUserMiddleware(CredentialMiddleware(inner)))))
