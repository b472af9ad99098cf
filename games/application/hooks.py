"""What happens after a commit: publish to the match's channel group and schedule follow-up work.

The application layer must not import ``workers`` (workers call the application, not the other
way round), so the workers app registers its scheduler here when Django starts.
"""

import asyncio
import logging
import os

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

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
    logged, never raised (every push names what changed, and readers recover from the store).

    On a server's thread (a request's or a socket's database call) the send is handed to the
    server's event loop without waiting for it: the thread's work is committed and answered, and
    the loop starts the sends in the order it was handed them. Elsewhere (a worker, a shell) it waits."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer) and not layer.groups.get(group):
        return  # nobody is listening in this process: skip the event-loop round trip
    loop = _serving_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_send_soon, layer, group, message)
        return
    try:
        async_to_sync(_send_within)(layer, group, message)
    except Exception as exc:
        _send_failed(group, exc)


def send_to_group_on_commit(group: str, message: dict) -> None:
    """``send_to_group`` once the surrounding transaction commits (never for a rolled-back write)."""
    transaction.on_commit(lambda: send_to_group(group, message))


def _serving_loop():
    """The running event loop this thread does sync work for (asgiref's ``sync_to_async`` records
    it on the thread, as its ``async_to_sync`` uses it), else None."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


_sending: set = set()  # the loop keeps only weak references to its tasks


def _send_soon(layer, group: str, message: dict) -> None:
    task = asyncio.get_running_loop().create_task(_send_within(layer, group, message))
    _sending.add(task)
    task.add_done_callback(lambda done: _sent(done, group))


def _sent(task, group: str) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        _send_failed(group, task.exception())


def _send_failed(group: str, exc: BaseException) -> None:
    if as_unavailable(exc) is not None or isinstance(exc, asyncio.TimeoutError):
        log.warning("publish to %s failed: %s: %s", group, type(exc).__name__, str(exc).strip()[:200])
    else:
        log.error("publish to %s failed", group, exc_info=exc)


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
