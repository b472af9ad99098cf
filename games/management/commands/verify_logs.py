"""Re-fold every match log under its own engine version and the current engine, and decide every
recorded command again with the current engine (games.application.verify).

    manage.py verify_logs [--game SLUG] [--since YYYY-MM-DD] [--all]

Prints one line per match that differs, is rejected by the current engine, or no longer folds (with
the first seq and the reason), then a summary: how many commands were decided again, and how many
matches (from before commands were kept with their rows) could be checked by re-fold only. Exit
status 1 when any match was reported: run it before a deploy that changes rules.
"""

from datetime import datetime, timezone

from django.core.management.base import BaseCommand, CommandError

from games.application.verify import logs_verify


def _since(value: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--since wants an ISO date or date-time, not {value!r}")
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed


class Command(BaseCommand):
    help = ("Re-fold every match log under its recorded engine version and the current engine, decide every "
            "recorded command again with the current engine; report differences and rejections.")

    def add_arguments(self, parser):
        parser.add_argument("--game", help="only matches of this game (slug)")
        parser.add_argument("--since", help="only matches created at or after this ISO date/date-time (UTC)")
        parser.add_argument("--all", action="store_true", help="also print a line for every match that is the same")

    def handle(self, *args, game=None, since=None, all=False, **options):
        report = logs_verify(game=game, since=_since(since) if since else None)
        for check in report.checks:
            if all or not check.ok:
                self.stdout.write(check.line())
        problems = report.problems
        self.stdout.write(f"verified {len(report.checks)} match(es): {len(problems)} reported")
        redecided = sum(c.commands_redecided for c in report.checks)
        only, partly = len(report.refold_only), len(report.partly_refold_only)
        self.stdout.write(f"decided {redecided} recorded command(s) again with the current engine")
        if only or partly:
            self.stdout.write(
                f"{only} match(es) recorded before commands were kept with their rows: checked by re-fold only"
                + (f"; {partly} more in part (events no kept command accounts for)" if partly else ""))
        if problems:
            raise CommandError(f"{len(problems)} match(es) differ or are rejected by the current engine", returncode=1)
