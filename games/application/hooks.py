"""What happens after a commit: publish to the match's channel group and schedule follow-up work.

The application layer must not import ``workers`` (workers call the application, not the other
way round), so the workers app registers its scheduler here when Django starts.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)

_followup_scheduler = None
_finished_listeners = []


def set_followup_scheduler(fn) -> None:
    global _followup_scheduler
    _followup_scheduler = fn


def add_finished_listener(fn) -> None:
    """``fn(match_id)`` runs after the commit that finished a match (e.g. the campaigns app's
    policy, which the application layer must not import)."""
    if fn not in _finished_listeners:
        _finished_listeners.append(fn)


def match_finished(match_id) -> None:
    for fn in list(_finished_listeners):
        try:
            fn(match_id)
        except Exception:  # a listener must not fail the request that finished the match
            log.exception("finished listener %r failed for %s", fn, match_id)


def match_group(match_id) -> str:
    return f"match.{match_id}"


def publish_appended(match_id, seq: int) -> None:
    """Tell every socket on the match that the log grew. No payload travels: each consumer reads
    its own redacted events from the store, so hidden data never crosses the channel layer."""
    layer = get_channel_layer()
    if layer is None:
        return
    group = match_group(match_id)
    if isinstance(layer, InMemoryChannelLayer) and not layer.groups.get(group):
        return  # nobody is listening in this process: skip the event-loop round trip
    try:
        async_to_sync(layer.group_send)(group, {"type": "match.appended", "seq": seq})
    except Exception:  # the layer is at-most-once; clients recover from the log
        log.exception("publish to %s failed", match_group(match_id))


def schedule_followups(match_id, seq: int, awaiting: list, bot_seats: list) -> None:
    if _followup_scheduler is not None:
        _followup_scheduler(match_id, seq, awaiting, bot_seats)
