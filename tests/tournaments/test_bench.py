"""``manage.py bench tournament`` prints JSON figures for every field size and table shape (not timed)."""

import json
from io import StringIO

from django.core.management import call_command


def test_bench_tournament_prints_pairing_and_standings_figures_as_json():
    out = StringIO()
    call_command("bench", "tournament", "--entrants", "8", "13", "--late-round", "3", stdout=out)
    report = json.loads(out.getvalue())
    assert report["benchmark"] == "tournament"
    assert [(r["entrants"], r["table_size"]) for r in report["runs"]] == [(8, 2), (8, 4), (13, 2), (13, 4)]
    for run in report["runs"]:
        assert {"pair_round_1_s", "pair_round_3_s", "pair_slowest_round_s", "pair_slowest_round_cpu_s",
                "rebuild_standings_s", "rebuild_standings_cpu_s", "records"} <= set(run)
        assert run["records"] > run["entrants"]
