"""Live tournament updates: after a write commits, tell the sockets watching the tournament.

Only ``{"type": "tournament.changed"}`` crosses the channel layer; each socket reads the public
pairings and standings itself through the selectors (``games.realtime.tournaments``). The layer is
at-most-once: a client that misses a push gets the current state on reconnect.
"""

from django.db import transaction

from games.application.hooks import send_to_group


def tournament_group(tournament_id) -> str:
    return f"tournament.{tournament_id}"


def publish_changed(tournament_id) -> None:
    send_to_group(tournament_group(tournament_id), {"type": "tournament.changed"})


def publish_on_commit(tournament_id) -> None:
    """Publish once the surrounding transaction commits (never for a rolled-back write)."""
    transaction.on_commit(lambda: publish_changed(tournament_id))
