"""Rebuild tournament projections from their record logs and report every difference.

    manage.py rebuild_tournaments [--tournament ID] [--fix]

Without --fix nothing is written and the exit status is 1 when anything differs; with --fix the
differences are rewritten from the log, then checked again.
"""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import Tournament
from games.tournaments.rebuild import check


class Command(BaseCommand):
    help = "Fold every tournament's record log, compare status, round, entrants and tables; --fix rewrites them."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", dest="tournament_id", help="only this tournament")
        parser.add_argument("--fix", action="store_true", help="rewrite the projections that differ")

    def handle(self, *args, tournament_id=None, fix=False, **options):
        try:
            ids = [Tournament.objects.get(pk=tournament_id).pk] if tournament_id else \
                list(Tournament.objects.order_by("created_at").values_list("pk", flat=True))
        except (Tournament.DoesNotExist, ValidationError):
            raise CommandError(f"no such tournament: {tournament_id}")
        remaining = 0
        for pk in ids:
            try:
                diffs = check(pk, fix=fix)
            except TournamentServiceError as err:
                self.stdout.write(f"{pk}: {err.message}")
                remaining += 1
                continue
            for diff in diffs:
                self.stdout.write(f"{pk}: {diff.line()}")
            if fix and diffs:
                remaining += len(check(pk, fix=False))
            elif not fix:
                remaining += len(diffs)
        self.stdout.write(f"checked {len(ids)} tournament(s)")
        if remaining:
            raise CommandError(f"{remaining} difference(s) between tournament projections and their logs", returncode=1)
