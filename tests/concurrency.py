"""Running writers side by side in threads, each on its own database connection."""

import threading

from django.db import connections


def run_threads(n, target):
    """Run ``target(i)`` for i in 0..n-1, each in a thread of its own; fail with every error raised."""
    errors = []

    def wrapped(i):
        try:
            target(i)
        except Exception as exc:  # surfaced below; a thread must not die silently
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
