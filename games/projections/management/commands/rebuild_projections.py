"""Rebuild the read models from the event stream and report every difference from what is stored.

    manage.py rebuild_projections [--match ID] [--fix]

Without --fix nothing is written and the exit status is 1 when any difference exists (CI/ops can
run it as a check). With --fix every fixable difference is rewritten from the rebuild, then the
check runs again; the exit status is 1 only if something still differs (e.g. a stream that no
longer folds, which no projection rewrite can repair).

Without --match it also checks (and with --fix repairs) the ratings, as ``rebuild_ratings`` does:
ratings are a projection of every log in finish order, so one match alone cannot be checked.
"""

from django.core.management.base import BaseCommand, CommandError

from games.application.errors import MatchNotFound
from games.projections.rebuild import check
from games.ratings.rebuild import report_run as ratings_run


class Command(BaseCommand):
    help = "Fold every match from scratch, compare projections and snapshots with the stored ones; --fix rewrites them."

    def add_arguments(self, parser):
        parser.add_argument("--match", dest="match_id", help="only this match (and its players' records)")
        parser.add_argument("--fix", action="store_true", help="rewrite the projections that differ")

    def handle(self, *args, match_id=None, fix=False, **options):
        ratings_left = 0 if match_id is not None else ratings_run(self.stdout, fix)
        try:
            report = check(match_id, fix=fix)
        except MatchNotFound:
            raise CommandError(f"no such match: {match_id}")
        for line in report.lines():
            self.stdout.write(line)
        self.stdout.write(f"checked {report.matches} match(es): {len(report.differences)} difference(s)")
        if not fix:
            if report.differences or ratings_left:
                total = len(report.differences) + ratings_left
                raise CommandError(f"{total} difference(s) between projections and the log", returncode=1)
            return
        if report.differences:
            self.stdout.write(f"fixed {report.fixed} difference(s); checking again")
            after = check(match_id, fix=False)
            for line in after.lines():
                self.stdout.write(f"still differs: {line}")
            if after.differences:
                raise CommandError(f"{len(after.differences)} difference(s) remain after --fix", returncode=1)
            self.stdout.write("all projections now match the log")
        if ratings_left:
            raise CommandError(f"{ratings_left} rating difference(s) remain after --fix", returncode=1)
