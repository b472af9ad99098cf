"""rebuild_projections' check on PostgreSQL (CI runs this directory there): in a transaction of its
own, a match is read from one REPEATABLE READ, READ ONLY snapshot instead of under its row lock, so
a check neither waits for a writer nor holds one up, and still reports what differs; inside a
caller's transaction it takes the row lock as before."""

import psycopg
import pytest
from django.db import connection, transaction

from games.projections import rebuild
from games.projections.models import MatchSummary

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the snapshot read is PostgreSQL's"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def writer_mid_transaction():
    """Another session holding a match's row lock, as a writer between its lock and its commit."""
    params = connection.get_connection_params()
    other = psycopg.connect(**{k: v for k, v in params.items() if k in ("dbname", "user", "host", "port", "password")})

    def hold(match):
        other.execute("SELECT 1 FROM eventstore_match WHERE id = %s FOR UPDATE", [match.pk])

    yield hold
    other.close()


@pytest.fixture
def lock_timeout():
    """A check that waited for the row lock fails after a second instead of hanging the suite."""
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '1s'")
    yield
    with connection.cursor() as cursor:
        cursor.execute("RESET lock_timeout")


def test_a_check_reads_past_a_writers_lock_and_reports_the_difference(started_pebbles, writer_mid_transaction,
                                                                      lock_timeout):
    match, _ = started_pebbles()
    MatchSummary.objects.filter(match=match).update(phase="bogus")
    writer_mid_transaction(match)
    report = rebuild.check(match.pk)
    assert [line.split(" stored=")[0] for line in report.lines()] == [f"{match.pk} summary phase:"]
    with pytest.raises(Exception, match="lock timeout"):  # the fix, which writes, waits for the writer
        rebuild.check(match.pk, fix=True)


def test_inside_a_callers_transaction_the_check_takes_the_row_lock(started_pebbles, writer_mid_transaction,
                                                                  lock_timeout):
    match, _ = started_pebbles()
    assert rebuild.check(match.pk).clean
    writer_mid_transaction(match)
    with pytest.raises(Exception, match="lock timeout"):
        with transaction.atomic():
            rebuild.check(match.pk)
