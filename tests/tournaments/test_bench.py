"""``manage.py bench tournament`` prints JSON figures for every field size and table shape (not timed),
for the pure layer and through the services on a database."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.benchmarks import tournament_services


def test_bench_tournament_prints_pairing_and_standings_figures_as_json():
    out = StringIO()
    call_command("bench", "tournament", "--entrants", "8", "13", "--late-round", "3", "--service-entrants", "0",
                 stdout=out)
    report = json.loads(out.getvalue())
    assert report["benchmark"] == "tournament" and "services" not in report
    assert [(r["entrants"], r["table_size"]) for r in report["runs"]] == [(8, 2), (8, 4), (13, 2), (13, 4)]
    for run in report["runs"]:
        assert {"pair_round_1_s", "pair_round_3_s", "pair_slowest_round_s", "pair_slowest_round_cpu_s",
                "rebuild_standings_s", "rebuild_standings_cpu_s", "records"} <= set(run)
        assert run["records"] > run["entrants"]


@pytest.mark.django_db
def test_the_service_path_benchmark_pairs_rounds_through_the_services():
    report = tournament_services.run_services(sizes=(12,), shapes=(2, 4), rounds=3, match_sample=2)
    assert [(r["entrants"], r["table_size"]) for r in report["runs"]] == [(12, 2), (12, 4)]
    for run in report["runs"]:
        assert {"register_all_s", "pair_round_1_s", "pair_round_2_s", "pair_round_3_s", "pair_slowest_round_cpu_s",
                "record_result_avg_ms", "record_result_log_unread_avg_ms", "round_still_played_check_avg_ms",
                "standings_s", "create_match_per_table_ms"} <= set(run)
        assert run["records"] > 12 + 3  # registrations, start, three pairings and the results
