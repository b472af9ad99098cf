"""What happens after a commit: publish to the match's channel group and schedule follow-up work.

The application layer must not import ``workers`` (workers call the application, not the other
way round), so the workers app registers its scheduler here when Django starts.
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from .errors import as_unavailable

log = logging.getLogger(__name__)

# A publish waits at most this long: the write it announces is committed, and a hung Redis must
# not hold the request (clients recover from the log on their next push or sync).
PUBLISH_TIMEOUT_SECONDS = 2.0

_followup_scheduler = None
_finished_listeners: list = []


def set_followup_scheduler(fn) -> None:
    global _followup_scheduler
    _followup_scheduler = fn


def add_finished_listener(fn) -> None:
    """Register ``fn(match_id, winners, actor)``, called after the commit that appended a match's
    ``MatchFinished`` (``actor`` is the finishing command's actor as recorded in the log). Apps above
    the application (e.g. workers scheduling tournament and rating reactions) register here, so the
    application never imports them."""
    if fn not in _finished_listeners:
        _finished_listeners.append(fn)


def match_group(match_id) -> str:
    return f"match.{match_id}"


def send_to_group(group: str, message: dict) -> None:
    """Send ``message`` to ``group`` at most once, within ``PUBLISH_TIMEOUT_SECONDS``; a failure is
    logged, never raised (every push names what changed, and readers recover from the store)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer) and not layer.groups.get(group):
        return  # nobody is listening in this process: skip the event-loop round trip
    try:
        async_to_sync(_send_within)(layer, group, message)
    except Exception as exc:
        if as_unavailable(exc) is not None or isinstance(exc, asyncio.TimeoutError):
            log.warning("publish to %s failed: %s: %s", group, type(exc).__name__, str(exc).strip()[:200])
        else:
            log.exception("publish to %s failed", group)


async def _send_within(layer, group: str, message: dict) -> None:
    await asyncio.wait_for(layer.group_send(group, message), timeout=PUBLISH_TIMEOUT_SECONDS)


def publish_appended(match_id, seq: int) -> None:
    """Tell every server with sockets on the match that the log grew. No game data travels: each
    server reads what its sockets may see from the store, so hidden data never crosses the layer."""
    send_to_group(match_group(match_id), {"type": "match.appended", "match": str(match_id), "seq": seq})


def schedule_followups(match_id, seq: int, awaiting: list, bot_seats: list) -> None:
    """Enqueue the automated step the match now awaits. The command is committed: a broker that
    cannot take the task (Redis down) must not turn its answer into an error; the beat sweep of
    stalled matches enqueues the step again."""
    if _followup_scheduler is None:
        return
    try:
        _followup_scheduler(match_id, seq, awaiting, bot_seats)
    except Exception:
        log.exception("scheduling the automated step of %s at %s failed; the stalled-match sweep retries it",
                      match_id, seq)


def match_finished(match_id, winners: list, actor: dict) -> None:
    for fn in list(_finished_listeners):
        try:
            fn(match_id, list(winners), dict(actor))
        except Exception:  # the finish is committed: a failing reaction must not fail the request
            log.exception("match-finished reaction %r failed for %s", fn, match_id)
