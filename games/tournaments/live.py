"""Live tournament updates: after a write commits, tell the sockets watching the tournament.

Only ``{"type": "tournament.changed"}`` crosses the channel layer; each socket reads the public
pairings and standings itself through the selectors (``games.realtime.tournaments``). The layer is
at-most-once: a client that misses a push gets the current state on reconnect.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def tournament_group(tournament_id) -> str:
    return f"tournament.{tournament_id}"


def publish_changed(tournament_id) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = tournament_group(tournament_id)
    if isinstance(layer, InMemoryChannelLayer) and not layer.groups.get(group):
        return  # nobody is listening in this process
    try:
        async_to_sync(layer.group_send)(group, {"type": "tournament.changed"})
    except Exception:  # at-most-once: clients recover on reconnect
        log.exception("publish to %s failed", group)


def publish_on_commit(tournament_id) -> None:
    """Publish once the surrounding transaction commits (never for a rolled-back write)."""
    transaction.on_commit(lambda: publish_changed(tournament_id))
