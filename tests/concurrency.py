"""Running writers side by side in threads, each on its own database connection."""

import threading
import time

from django.db import connection, connections


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


def waiting_on_a_lock(timeout: float = 10.0) -> bool:
    """Whether another backend of this PostgreSQL database is waiting for a lock (polled)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
            if cursor.fetchone()[0]:
                return True
        time.sleep(0.02)
    return False
