"""Per-address rate limits of the anonymous account endpoints, shared by the API and the pages.

``POST /api/auth/register/`` and the sign-up page share the ``register`` scope (``REGISTER_RATE``);
``POST /api/auth/password/reset/`` and the forgotten-password page share ``password_reset``
(``PASSWORD_RESET_RATE``). Renaming an account (``PATCH /api/auth/me/`` with a new ``username``, and the
account page's rename) is counted per account instead, in the ``username_change`` scope
(``USERNAME_CHANGE_RATE``): every name given up stays reserved for the account (``RetiredUsername``),
so unthrottled renames let one token reserve any number of names. Rates are ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``; counters live in
the default cache (one count for every server in distributed mode), one bucket per scope and client
address, whichever door the request came through. Over the rate the API answers 429 ``throttled``
and the page 429 with a form error, both with ``Retry-After``; neither acts.

The address is ``REMOTE_ADDR`` (``services.client_ip``), as for the login lockout: DRF's own
``get_ident`` believes a client's ``X-Forwarded-For`` unless ``NUM_PROXIES`` is set, which would let
anyone start a fresh bucket per request. Behind a load balancer run uvicorn with ``--proxy-headers``.
"""

import math

from rest_framework.throttling import ScopedRateThrottle

from games.api.throttles import ScopedUserThrottle, allow

from .services import client_ip

REGISTER = "register"
PASSWORD_RESET = "password_reset"


class ClientAddressThrottle(ScopedRateThrottle):
    """``ScopedRateThrottle`` (the view's ``throttle_scope``) counted per client address, signed in
    or not, so the API (which authenticates nobody on these views) and the pages share a bucket."""

    def get_ident(self, request):
        return client_ip(request)

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class _Scope:
    def __init__(self, scope: str):
        self.throttle_scope = scope


def page_wait(request, scope: str) -> int | None:
    """For a page's POST: None when it may go on (and it is counted), else the whole seconds to
    wait (at least 1). The same bucket as the API view with ``throttle_scope = scope``."""
    throttle = ClientAddressThrottle()
    if throttle.allow_request(request, _Scope(scope)):
        return None
    return max(1, math.ceil(throttle.wait() or 1))


class UsernameChangeThrottle(ScopedUserThrottle):
    scope = "username_change"


def rename_wait(request, username: str | None) -> float | None:
    """None when ``request.user`` may take ``username`` (counted when it changes the name; no name or
    the same one is not a rename), else the seconds to wait."""
    if username is None or username == request.user.get_username():
        return None
    return allow(UsernameChangeThrottle, request)
