"""The pairing core is pure (no Django, no clock, no randomness) and pairs the same in any process:
whole runs of every format (Swiss 2-player, pods and teams, round robin, single elimination, Swiss
with a top cut; with drops) give the same log and standings whatever the process's hash seed."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE = ["records", "scoring", "state", "standings", "swiss", "pods", "roundrobin", "elimination", "rounds", "outcomes"]
FORBIDDEN = ("django", "rest_framework", "channels", "celery", "random", "time", "datetime", "secrets", "games.application",
             "games.eventstore", "games.projections", "games.api", "games.realtime", "workers", "accounts")


def test_pure_modules_import_nothing_impure():
    for name in PURE:
        tree = ast.parse((ROOT / "games" / "tournaments" / f"{name}.py").read_text())
        imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        imported += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
        bad = [m for m in imported if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
        assert not bad, f"games.tournaments.{name} imports {bad}"


SCRIPT = """
import json
from tests.tournaments.helpers import play_out, standings_of
from games.tournaments.records import Settings, record_to_dict
out = []
shapes = [dict(format="swiss", rounds=5, table_size=2), dict(format="swiss", rounds=5, table_size=4),
          dict(format="swiss", rounds=5, table_size=4, teams=True), dict(format="round_robin", table_size=2),
          dict(format="round_robin", table_size=4, teams=True), dict(format="single_elimination", table_size=2),
          dict(format="single_elimination", table_size=4, teams=True),
          dict(format="swiss_top_cut", table_size=2, rounds=3, top_cut=8)]
for shape in shapes:
    s = Settings(draw_key="h", **shape)
    log, _ = play_out(s, 11 if shape["format"] == "round_robin" else 23, seed=5, drops={2: ["e03", "e07"]})
    out.append([record_to_dict(r) for r in log] + [row.to_dict() for row in standings_of(s, log)])
print(json.dumps(out))
"""


def test_pairings_and_standings_do_not_depend_on_the_process_hash_seed():
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
