"""Per-user rate limits on the tournament writes a player can repeat at will (429 ``{code: "throttled"}``
with ``Retry-After`` on the API; a message on the pages, which use the same throttles through
``games.api.throttles.allow``). Rates: ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``.

- ``tournament_report`` (TOURNAMENT_REPORT_RATE): filing a match report, from the API, the tournament
  page or the replay page; each is a record, an entry in the judges' queue and a push to every watcher.
- ``tournament_entry`` (TOURNAMENT_ENTRY_RATE): registering and withdrawing, and accepting or
  declining a team invitation; one count for all of them, so cycling through them is limited too.
"""

from games.api.throttles import ScopedUserThrottle


class TournamentReportThrottle(ScopedUserThrottle):
    scope = "tournament_report"


class TournamentEntryThrottle(ScopedUserThrottle):
    scope = "tournament_entry"
