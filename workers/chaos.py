"""The distributed suite's chaos hook: a task lingers in the middle of its work so that a test can
SIGKILL the worker right there, deterministically (tests only; a no-op unless WORKER_CHAOS_DIR).

With WORKER_CHAOS_DIR set, a task reaching point P checks for the file ``<dir>/P`` (the test
"arms" P by writing a number of seconds into it): if it is there, the task appends ``"P <pid>"``
to ``<dir>/marks`` (the test waits for that line, then kills) and sleeps that long. The points:
``advance`` (an automated step, after reading the state), ``timeout`` (a decision clock, before
submitting), ``tournament`` (before creating a round's matches or ending a round's matches on
time), ``tournament_pairing`` (inside the transaction that pairs a round, once the round and its
tables are written, before the commit) and ``campaign_policy`` (after the phase's outcome is written, before the next phase's
match is opened, inside the policy's transaction)."""

import os
import time
from pathlib import Path

from django.conf import settings


def _armed(point: str) -> float:
    if not settings.WORKER_CHAOS_DIR:
        return 0.0
    try:
        return float((Path(settings.WORKER_CHAOS_DIR) / point).read_text() or 0)
    except (OSError, ValueError):
        return 0.0


def pause(point: str) -> None:
    seconds = _armed(point)
    if not seconds:
        return
    with open(Path(settings.WORKER_CHAOS_DIR) / "marks", "a") as marks:
        marks.write(f"{point} {os.getpid()}\n")
    time.sleep(seconds)


def hook(point: str):
    """``pause(point)`` as a callback for a policy's ``between=``, or None when chaos is off."""
    return (lambda: pause(point)) if settings.WORKER_CHAOS_DIR else None
