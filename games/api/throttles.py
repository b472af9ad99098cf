"""Per-user rate limits on the lobby (429 ``{code: "throttled"}`` with ``Retry-After``).

Scopes and rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``: ``match_create``,
``match_join`` (also accepting an invitation: it takes a seat), ``invitation`` (sending one) and
``chat`` (the scope the match chat endpoint throttles with). Counters are in the
default cache, so every server shares them in distributed mode. Anonymous callers are counted per
IP (they are refused by the permissions anyway). The web pages' forms use the same throttles
(``allow``), so the lobby cannot be flooded around the API either.
"""

from rest_framework.settings import api_settings
from rest_framework.throttling import UserRateThrottle


class ScopedUserThrottle(UserRateThrottle):
    def get_rate(self):
        # Read the rates on every request (not once at import): settings overrides apply.
        return api_settings.DEFAULT_THROTTLE_RATES[self.scope]


class MatchCreateThrottle(ScopedUserThrottle):
    scope = "match_create"


class MatchJoinThrottle(ScopedUserThrottle):
    scope = "match_join"


class ChatThrottle(ScopedUserThrottle):
    scope = "chat"


class InvitationThrottle(ScopedUserThrottle):
    scope = "invitation"


def allow(throttle_class, request) -> float | None:
    """For a plain Django view: None when ``request`` may go on, else the seconds to wait."""
    throttle = throttle_class()
    if throttle.allow_request(request, None):
        return None
    return throttle.wait() or 1.0
