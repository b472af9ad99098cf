"""Live tournament updates: after a write commits, tell the sockets watching the tournament.

Only ``{"type": "tournament.changed"}`` crosses the channel layer; each socket reads the public
pairings and standings itself through the selectors (``games.realtime.tournaments``). The layer is
at-most-once: a client that misses a push gets the current state on reconnect.
"""

from games.application.hooks import send_to_group_on_commit


def tournament_group(tournament_id) -> str:
    return f"tournament.{tournament_id}"


def publish_on_commit(tournament_id) -> None:
    """Publish ``tournament.changed`` once the surrounding transaction commits (never for a rolled-back write)."""
    send_to_group_on_commit(tournament_group(tournament_id), {"type": "tournament.changed"})
