"""Beat for the embedded mode: fire decision clocks, re-drive stalled automated steps, run the
tournaments' clocks (``starts_at``, round time limits) and send the "your turn" e-mails.

Distributed deployments run ``celery beat`` (config/settings.py CELERY_BEAT_SCHEDULE), which calls the
same tasks; the embedded mode has no beat, so ``dev.py serve`` runs this loop next to the server.
With eager Celery the timeout commands are submitted right here, through the one write path.
"""

import time

from django.conf import settings
from django.core.management.base import BaseCommand

from workers.tasks import sweep_stalled, sweep_timers, sweep_tournaments, sweep_turn_emails

STALLED_EVERY = 30.0
TOURNAMENTS_EVERY = 10.0


class Command(BaseCommand):
    help = "Fire due decision clocks (and stalled automated steps) every --every seconds; --once for one sweep."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, default=2.0, help="seconds between clock sweeps (default 2)")
        parser.add_argument("--once", action="store_true", help="sweep once and exit")

    def handle(self, *args, every: float, once: bool, **options):
        if every <= 0:
            self.stderr.write("--every must be positive")
            raise SystemExit(2)
        last_stalled = last_tournaments = last_emails = 0.0
        emails_every = settings.CELERY_BEAT_SCHEDULE["sweep-turn-emails"]["schedule"]
        while True:
            fired = sweep_timers()
            if time.monotonic() - last_stalled >= STALLED_EVERY:
                sweep_stalled()
                last_stalled = time.monotonic()
            if time.monotonic() - last_tournaments >= TOURNAMENTS_EVERY:
                sweep_tournaments()
                last_tournaments = time.monotonic()
            if time.monotonic() - last_emails >= emails_every:
                sweep_turn_emails()
                last_emails = time.monotonic()
            if once:
                self.stdout.write(f"{fired} clock(s) fired")
                return
            time.sleep(every)
