"""Tournament benchmark through the services and a real database (what a worker does, not the pure layer).

For each field size and table shape, on the configured database: register the field one service call
at a time, start it (seeding and pairing round 1 under the tournament's lock), then for each later
round count every table's result through ``tournament_record_result`` (a finished match's write) and
pair the next round through ``tournament_pair_next_round`` (what the last ``MatchFinished`` of a
round triggers). Also timed: the no-op pairing check every other finished match makes, the standings
read (fold, compute, store), and creating, seating and starting the match of a sample of tables
(``tournament_create_table_match``, one transaction per table). Results are drawn from a fixed-seed
RNG. ``record_result_log_unread_*``: the same write in a process that has not read the tournament's log
before (every row fetched and parsed), as every write was before the parsed records were kept.
Wall-clock seconds (``*_s``) and, since the machine may be shared, this process's CPU seconds
(``*_cpu_s``). Printed figures, never asserted.

``run_services`` runs in the current process on whatever DATABASES says; ``run`` (what
``manage.py bench tournament`` calls) runs it in a subprocess on a fresh SQLite file and, when a
PostgreSQL admin URL is given, on a temporary PostgreSQL database.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from .stack import ROOT, _base_env, _TempPostgres

SIZES = (256, 1000)
SHAPES = (2, 4)
MATCH_SAMPLE = 10  # tables whose match is created (each is a whole match setup through the write path)


class _Clock:
    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def done(self) -> tuple[float, float]:
        return round(time.perf_counter() - self.wall, 4), round(time.process_time() - self.cpu, 4)


def _places(rng: random.Random, entrants: list[str]) -> dict:
    if len(entrants) == 2 and rng.random() < 0.1:
        return {e: 1 for e in entrants}
    order = list(entrants)
    rng.shuffle(order)
    return {e: i + 1 for i, e in enumerate(order)}


def bench_field(n: int, table_size: int, rounds: int, match_sample: int = MATCH_SAMPLE, seed: int = 0) -> dict:
    from django.contrib.auth import get_user_model

    from games.tournaments import matches, selectors, services
    from games.tournaments.models import EntrantMember, TournamentTable

    users = get_user_model()
    rng = random.Random(f"bench-tournament-services-{n}-{table_size}-{seed}")
    tag = uuid.uuid4().hex[:8]
    organizer = users.objects.create_user(username=f"bench-org-{tag}", password=None, is_staff=True)
    players = users.objects.bulk_create([users(username=f"bench-{tag}-{i}", password="!") for i in range(n)])
    t = services.tournament_create(creator=organizer, name=f"Bench {n}/{table_size}", game="yokai", format="swiss",
                                   table_size=table_size, rounds=rounds, round_minutes=60,
                                   match_options={"turn_seconds": 60}, rated=False)
    out = {"entrants": n, "table_size": table_size}

    clock = _Clock()
    for player in players:
        services.tournament_register(tournament_id=t.pk, user=player)
    out["register_all_s"], out["register_all_cpu_s"] = clock.done()

    clock = _Clock()
    services.tournament_start(tournament_id=t.pk, user=organizer)  # seeds and pairs round 1
    pair_s, pair_cpu = {1: None}, {1: None}
    pair_s[1], pair_cpu[1] = clock.done()

    worker = services.Actor("worker", task="bench")
    record_s = record_cpu = cold_s = cold_cpu = 0.0
    recorded = noop_checks = cold = 0
    noop_s = noop_cpu = 0.0
    for round_no in range(1, rounds):
        tables = [(number, entrants) for number, entrants in TournamentTable.objects.filter(
            tournament=t, round=round_no).values_list("table", "entrant_ids") if len(entrants) > 1]
        for i, (number, entrants) in enumerate(tables):
            parse_all = round_no == rounds - 1 and i % 2 == 0 and cold < 10
            if parse_all:  # a process that has not read this tournament's log yet: every row parsed
                services.forget_records(t.pk)
            clock = _Clock()
            services.tournament_record_result(tournament_id=t.pk, round=round_no, table=number,
                                              places=_places(rng, entrants), by="play", actor=worker)
            wall, cpu = clock.done()
            if parse_all:
                cold_s, cold_cpu, cold = cold_s + wall, cold_cpu + cpu, cold + 1
            else:
                record_s, record_cpu, recorded = record_s + wall, record_cpu + cpu, recorded + 1
            if noop_checks < 20 and i < len(tables) - 1:  # what every other finished match asks next: is it over?
                clock = _Clock()
                services.tournament_pair_next_round(tournament_id=t.pk, actor=worker)
                wall, cpu = clock.done()
                noop_s, noop_cpu, noop_checks = noop_s + wall, noop_cpu + cpu, noop_checks + 1
        clock = _Clock()
        paired = services.tournament_pair_next_round(tournament_id=t.pk, actor=worker)
        pair_s[round_no + 1], pair_cpu[round_no + 1] = clock.done()
        assert paired is not None and paired.round == round_no + 1
    out.update({f"pair_round_{r}_s": s for r, s in pair_s.items()})
    out["pair_slowest_round_s"] = max(pair_s.values())
    out["pair_slowest_round_cpu_s"] = max(pair_cpu.values())
    out["record_result_avg_ms"] = round(1000 * record_s / max(recorded, 1), 2)
    out["record_result_avg_cpu_ms"] = round(1000 * record_cpu / max(recorded, 1), 2)
    out["record_result_log_unread_avg_ms"] = round(1000 * cold_s / max(cold, 1), 2)
    out["record_result_log_unread_avg_cpu_ms"] = round(1000 * cold_cpu / max(cold, 1), 2)
    out["round_still_played_check_avg_ms"] = round(1000 * noop_s / max(noop_checks, 1), 2)
    out["round_still_played_check_avg_cpu_ms"] = round(1000 * noop_cpu / max(noop_checks, 1), 2)

    clock = _Clock()
    rows = selectors.tournament_standings(t)
    out["standings_s"], out["standings_cpu_s"] = clock.done()
    assert len(rows) == n

    if match_sample:
        members: dict[str, list] = {}
        for m in EntrantMember.objects.filter(tournament=t).select_related("user").order_by("entrant", "id"):
            members.setdefault(str(m.entrant_id), []).append(m.user)
        sample = [pk for pk, entrants in TournamentTable.objects.filter(tournament=t, round=rounds)
                  .values_list("pk", "entrant_ids") if len(entrants) > 1][:match_sample]
        t.refresh_from_db()
        clock = _Clock()
        for pk in sample:
            assert matches.tournament_create_table_match(tournament=t, table_pk=pk, members=members) is not None
        wall, cpu = clock.done()
        out["create_match_per_table_ms"] = round(1000 * wall / len(sample), 1)
        out["create_match_per_table_cpu_ms"] = round(1000 * cpu / len(sample), 1)
    out["records"] = t.records.count()
    return out


def run_services(sizes=SIZES, shapes=SHAPES, rounds: int = 3, match_sample: int = MATCH_SAMPLE) -> dict:
    from django.db import connection

    return {"vendor": connection.vendor, "rounds": rounds,
            "runs": [bench_field(n, shape, rounds, match_sample) for n in sizes for shape in shapes]}


def _subprocess(env: dict, sizes, shapes, rounds: int) -> dict:
    args = [sys.executable, "manage.py", "bench", "tournament-services", "--entrants", *map(str, sizes),
            "--shapes", *map(str, shapes), "--late-round", str(rounds)]
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        return {"error": out.stderr[-2000:]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(sizes=SIZES, shapes=SHAPES, rounds: int = 3, pg_admin_url: str | None = None) -> dict:
    """The service path on a fresh SQLite file and (given an admin URL) a temporary PostgreSQL database."""
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        result["sqlite"] = _subprocess({**_base_env(), "SQLITE_PATH": str(Path(tmp) / "bench.sqlite3")}, sizes, shapes,
                                       rounds)
    if pg_admin_url:
        try:
            with _TempPostgres(pg_admin_url) as pg:
                result["postgresql"] = _subprocess({**_base_env(), "DATABASE_URL": pg.url}, sizes, shapes, rounds)
        except Exception as exc:  # report, don't crash: a missing server is a finding
            result["postgresql_error"] = repr(exc)
    return result
