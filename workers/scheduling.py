"""Turning "the engine awaits the system / a bot" into tasks, enqueued only on commit.

In the embedded default Celery runs tasks eagerly; running a follow-up inside the commit hook of
the command that caused it would recurse once per automated move (a bot-vs-bot match is hundreds
deep). So eager follow-ups go on a per-thread queue drained in a loop by the outermost caller.
"""

import logging
import threading

from django.conf import settings

_local = threading.local()
log = logging.getLogger(__name__)


def schedule_followups(match_id, seq: int, awaiting: list, bot_seats: list) -> None:
    from .tasks import advance_match_task

    if not settings.CELERY_TASK_ALWAYS_EAGER:
        advance_match_task.delay(str(match_id), seq)
        return
    queue = getattr(_local, "queue", None)
    if queue is not None:  # already draining further up the stack
        queue.append((str(match_id), seq))
        return
    _local.queue = [(str(match_id), seq)]
    try:
        while _local.queue:
            mid, s = _local.queue.pop(0)
            # throw=False: a failing automated step must not fail the request that caused it
            # (its command already committed); it retries, then lands in the dead letters.
            result = advance_match_task.apply(args=(mid, s), throw=False)
            if result.failed():
                log.error("automated step for %s at %s failed: %r", mid, s, result.result)
    finally:
        _local.queue = None
