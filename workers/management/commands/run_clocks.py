"""Beat for the embedded mode: run every entry of the beat schedule (``CELERY_BEAT_SCHEDULE``) at
its own interval: the decision clocks, stalled automated steps, the tournaments' clocks
(``starts_at``, round time limits), lost campaign policies and the "your turn" e-mails.

Distributed deployments run ``celery beat``, which calls the same tasks from the same schedule; the
embedded mode has no beat, so ``dev.py serve`` runs this loop next to the server. With eager Celery
the tasks run right here, through the one write path.
"""

import time

from celery import current_app
from django.conf import settings
from django.core.management.base import BaseCommand

CLOCKS = "sweep-match-timers"  # the decision clocks: swept every --every seconds


def due_entries(last_run: dict, now: float, every: float) -> list[str]:
    """The schedule's entries whose interval has passed since they last ran (all of them at first)."""
    due = []
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        interval = every if name == CLOCKS else float(entry["schedule"])
        if name not in last_run or now - last_run[name] >= interval:
            due.append(name)
    return due


def load_tasks() -> None:
    """Import the task modules (Celery's autodiscovery runs only when a worker or beat starts)."""
    current_app.loader.import_default_modules()


def run_entry(name: str):
    return current_app.tasks[settings.CELERY_BEAT_SCHEDULE[name]["task"]]()


class Command(BaseCommand):
    help = "Run the beat schedule in this process (decision clocks every --every seconds); --once for one sweep."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, default=2.0, help="seconds between clock sweeps (default 2)")
        parser.add_argument("--once", action="store_true", help="sweep once and exit")

    def handle(self, *args, every: float, once: bool, **options):
        if every <= 0:
            self.stderr.write("--every must be positive")
            raise SystemExit(2)
        load_tasks()
        last_run: dict[str, float] = {}
        while True:
            fired = 0
            for name in due_entries(last_run, time.monotonic(), every):
                result = run_entry(name)
                last_run[name] = time.monotonic()
                if name == CLOCKS:
                    fired = result
            if once:
                self.stdout.write(f"{fired} clock(s) fired")
                return
            time.sleep(every)
