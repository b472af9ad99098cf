"""The writers of ``bench platform``'s ``writers_8_vs_1`` and of its bare baseline, in this process
(the benchmark starts them as ``manage.py bench writer`` processes): each waits at the barrier,
does its work, and reports when it started and ended. Figures are printed, never asserted."""

import os

import pytest
from django.db import connection

from games.benchmarks import platform
from games.eventstore.models import Match


def _ready(barrier) -> bool:
    return (barrier / f"{os.getpid()}.ready").exists()


@pytest.mark.django_db
def test_a_bare_writer_commits_one_row_at_a_time_to_a_table_of_its_own(tmp_path):
    (tmp_path / "go").touch()
    report = platform.run_writer(25, str(tmp_path), bare=True)
    assert _ready(tmp_path)
    assert report["commands"] == 25 and report["start"] <= report["end"]
    if connection.vendor == "postgresql":  # dropped with the baseline's connection
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_regclass(%s)", [f"bench_rows_{os.getpid()}"])
            assert cursor.fetchone()[0] is None


@pytest.mark.django_db(transaction=True)
def test_a_writer_submits_its_commands_to_a_match_of_its_own(tmp_path):
    (tmp_path / "go").touch()
    report = platform.run_writer(12, str(tmp_path))
    assert _ready(tmp_path)
    assert report["commands"] == 12 and report["start"] <= report["end"]
    (match,) = Match.objects.filter(game="counter")
    assert match.head_seq >= 12
