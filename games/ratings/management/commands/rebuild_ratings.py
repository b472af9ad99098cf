"""Recompute every rating from the match logs, in finish order, and report what differs.

    manage.py rebuild_ratings [--fix]

Without --fix nothing is written and the exit status is 1 when anything differs. With --fix the
differing rows are rewritten from the replay and the check runs again.
"""

from django.core.management.base import BaseCommand, CommandError

from games.ratings.rebuild import report_run


class Command(BaseCommand):
    help = "Replay every rated match from the logs in finish order and compare the ratings; --fix rewrites them."

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="rewrite the ratings that differ")

    def handle(self, *args, fix=False, **options):
        remaining = report_run(self.stdout, fix)
        if remaining:
            raise CommandError(f"{remaining} difference(s) between the ratings and the logs", returncode=1)
