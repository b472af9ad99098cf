"""What the write paths' tests share (test_unlocked_write.py on PostgreSQL, test_checked_write.py on
SQLite): a started Counter match whose fold this process holds, a command on it, writers racing on
it, and the log checked whole."""

import uuid

from games.application import selectors, services
from games.eventstore.models import Match, MatchCommand, MatchEvent
from games.projections import rebuild
from games.projections.models import MatchSummary
from tests.concurrency import run_threads


def started_counter(make_user):
    """A started one-seat Counter match (its start, a lobby command, cached the fold): (match, actor)."""
    selectors.cache_clear()
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, services.Actor.user(user)


def add(match, actor, *, expected=None, command_id=None, n=1):
    return services.match_submit_command(match_id=match.pk, seat=0, actor=actor, command_id=command_id or uuid.uuid4(),
                                         expected_seq=expected, type_="add", args={"n": n})


def write_concurrently(match, actor, writers: int, each: int) -> None:
    """``writers`` threads adding 1, ``each`` times each, with no expected seq."""
    def write(_):
        for _ in range(each):
            add(match, actor)

    run_threads(writers, write)


def assert_log_consistent(match_id, commands: int) -> Match:
    """Gapless seqs up to the head, the expected command rows, the summary at the head, and every
    read model equal to its rebuild."""
    match = Match.objects.get(pk=match_id)
    seqs = list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.head_seq + 1))
    assert MatchCommand.objects.filter(match=match, kind="game").count() == commands
    assert MatchSummary.objects.get(match=match).seq == match.head_seq
    report = rebuild.check(match.pk)
    assert report.clean, report.lines()
    return match
