"""The websocket stack: Origin check -> cookies/session/user -> optional ``?token=`` -> router."""

from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser

from .auth import user_for_token


class AllowedHostsOriginValidator(OriginValidator):
    """channels.security.websocket.AllowedHostsOriginValidator, but reading settings.ALLOWED_HOSTS
    per connection instead of once at import, so a settings override (tests, reloads) applies to
    the already-built ``config.asgi.application``. ``['*']`` lets anything in (dev default)."""

    def __init__(self, application):
        self.application = application

    @property
    def allowed_origins(self):
        hosts = list(settings.ALLOWED_HOSTS)
        if settings.DEBUG and not hosts:
            hosts = ["localhost", "127.0.0.1", "[::1]"]
        return hosts


class TokenAuthMiddleware(BaseMiddleware):
    """Runs inside AuthMiddlewareStack. ``?token=<key>`` (DRF token) wins over the session cookie.

    Sets ``scope["kamiza_auth"]``: ``{"user_id", "session_key"}`` / ``{"user_id", "token_key"}`` for
    an authenticated socket, ``{"error": "invalid_token"}`` for a token that does not resolve, or
    None (anonymous spectator).
    """

    async def __call__(self, scope, receive, send):
        scope = dict(scope)
        query = parse_qs(scope.get("query_string", b"").decode("latin1"))
        token_key = (query.get("token") or [None])[-1]
        if token_key:
            user = await database_sync_to_async(user_for_token)(token_key)
            if user is None:
                scope["user"] = AnonymousUser()
                scope["kamiza_auth"] = {"error": "invalid_token"}
            else:
                scope["user"] = user
                scope["kamiza_auth"] = {"user_id": user.pk, "token_key": token_key}
        else:
            user = scope.get("user")
            session = scope.get("session")
            if user is not None and user.is_authenticated and session is not None and session.session_key:
                scope["kamiza_auth"] = {"user_id": user.pk, "session_key": session.session_key}
            else:
                scope["user"] = AnonymousUser()
                scope["kamiza_auth"] = None
        return await self.inner(scope, receive, send)


def KamizaAuthMiddlewareStack(inner):
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))
