"""What every fault test checks afterwards, on the stack's own database: every match log is gapless
(seqs 1..head, the head the match row says) and ``manage.py rebuild_projections`` (and
``rebuild_tournaments``) report no difference."""


def gaps(stack) -> list[tuple]:
    """(match id, head_seq, events, min seq, max seq) of every match whose log is not 1..head."""
    rows = stack.sql("SELECT m.id, m.head_seq, count(e.seq), coalesce(min(e.seq), 0), coalesce(max(e.seq), 0) "
                     "FROM eventstore_match m LEFT JOIN eventstore_matchevent e ON e.match_id = m.id "
                     "GROUP BY m.id, m.head_seq")
    return [r for r in rows if not (r[2] == r[4] == r[1] and r[3] == (1 if r[1] else 0))]


REBUILD = """
import io
from django.core.management import CommandError, call_command
for name in ("rebuild_projections", "rebuild_tournaments"):
    out = io.StringIO()
    try:
        call_command(name, stdout=out)
        print("CLEAN", name)
    except CommandError as exc:
        print("DIFFERS", name, exc)
        print(out.getvalue())
"""


def rebuild_report(stack) -> str:
    """'' when ``manage.py rebuild_projections`` (matches, ratings, campaigns) and
    ``rebuild_tournaments`` find no difference, else what they printed (both run in one process:
    a Django start-up costs seconds on a busy machine)."""
    run = stack.manage("shell", "-c", REBUILD)
    clean = [line for line in run.stdout.splitlines() if line.startswith("CLEAN ")]
    if run.returncode == 0 and len(clean) == 2:
        return ""
    return f"exit {run.returncode}:\n{run.stdout[-4000:]}\n{run.stderr[-3000:]}"


def assert_logs_sound(stack):
    assert not gaps(stack), f"logs with gaps: {gaps(stack)}"
    report = rebuild_report(stack)
    assert not report, report
