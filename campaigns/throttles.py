"""Per-user rate limit on creating campaigns (429 ``{code: "throttled"}`` with ``Retry-After``; the
page's form uses it too, through ``games.api.throttles.allow``). Rate: ``campaign_create``
(CAMPAIGN_CREATE_RATE) in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``. Starting a campaign opens a
match, so it counts against the match creation rate (``games.api.throttles.MatchCreateThrottle``)."""

from games.api.throttles import ScopedUserThrottle


class CampaignCreateThrottle(ScopedUserThrottle):
    scope = "campaign_create"
