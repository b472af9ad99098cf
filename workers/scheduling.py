"""Turning "the engine awaits the system / a bot" and "a match finished" into tasks, enqueued only on
commit.

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

    _enqueue(advance_match_task, (str(match_id), seq))


def schedule_match_finished(match_id, winners: list, actor: dict) -> None:
    """A match finished (after its commit): let the tournament policy count it. Every finished match
    is offered; the task returns at once for a match that is no tournament table."""
    from .tasks import tournament_match_finished_task

    _enqueue(tournament_match_finished_task, (str(match_id),))


def schedule_tournament_advance(tournament_id) -> None:
    """Create a running tournament's missing matches and pair what is due (after the start, say)."""
    from .tasks import tournament_advance_task

    _enqueue(tournament_advance_task, (str(tournament_id),))


def _enqueue(task, args: tuple) -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        task.delay(*args)
        return
    queue = getattr(_local, "queue", None)
    if queue is not None:  # already draining further up the stack
        queue.append((task, args))
        return
    _local.queue = [(task, args)]
    try:
        while _local.queue:
            task_, args_ = _local.queue.pop(0)
            # throw=False: a failing follow-up must not fail the request that caused it
            # (its command already committed); it retries, then lands in the dead letters.
            result = task_.apply(args=args_, throw=False)
            if result.failed():
                log.error("follow-up %s%r failed: %r", task_.name, args_, result.result)
    finally:
        _local.queue = None
