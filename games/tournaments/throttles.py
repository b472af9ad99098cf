"""Per-user rate limits on the tournament writes a player can repeat at will (429 ``{code: "throttled"}``
with ``Retry-After`` on the API; a message on the pages, which use the same throttles through
``games.api.throttles.allow``). Rates: ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``.

- ``tournament_report`` (TOURNAMENT_REPORT_RATE): filing a match report, from the API, the tournament
  page or the replay page; each is a record, an entry in the judges' queue and a push to every watcher.
- ``tournament_entry`` (TOURNAMENT_ENTRY_RATE): registering and withdrawing, and accepting or
  declining a team invitation; one count for all of them, so cycling through them is limited too.
- ``tournament_manage`` (TOURNAMENT_MANAGE_RATE): the organizer's changes to the event's settings
  (``PATCH``, the settings form) and pausing or resuming the round; each is a record in the
  tournament's log (a pause or resume one in every running match of the round too) and a push to
  every watcher. One count for all of them.
"""

from games.api.throttles import ScopedUserThrottle


class TournamentReportThrottle(ScopedUserThrottle):
    scope = "tournament_report"


class TournamentEntryThrottle(ScopedUserThrottle):
    scope = "tournament_entry"


class TournamentManageThrottle(ScopedUserThrottle):
    scope = "tournament_manage"
