"""``python manage.py bench platform|tournament|<game>``: print benchmark figures as JSON (never a timed test)."""

import json
import os

from django.core.management.base import BaseCommand, CommandError

from games.benchmarks import bots as bot_bench
from games.benchmarks import engines as engine_bench
from games.benchmarks import load as load_bench
from games.benchmarks import platform as platform_bench
from games.benchmarks import rest as rest_bench
from games.benchmarks import tournament_services as tournament_service_bench
from games.benchmarks import tournaments as tournament_bench
from games.kernel import registry


class Command(BaseCommand):
    help = ("Benchmarks: 'platform' (write path, rebuild, live latency vs bare baselines), 'load' (the distributed "
            "stack under many live matches), 'rest' (the server CPU of a REST command POST), 'tournament' (pairing, "
            "standings), 'bots' (the engines' bots against the random player) or a game slug.")

    def add_arguments(self, parser):
        games = ", ".join(engine.slug for engine in registry.all_engines())
        parser.add_argument("target", help=f"platform, load, rest, tournament, bots, writepath / writer / loadseed / "
                                           f"tournament-services (internal), or a game slug ({games})")
        parser.add_argument("--commands", type=int, default=2000, help="commands through the write path")
        parser.add_argument("--barrier", help="writer (internal): directory to wait at before submitting")
        parser.add_argument("--bare", action="store_true", help="writer (internal): bare one-row commits instead")
        parser.add_argument("--threads", type=int, default=1, help="writer (internal): writer threads in the process")
        parser.add_argument("--samples", type=int, default=200, help="latency samples")
        parser.add_argument("--games", type=int, default=50,
                            help="random games per seat count (engine benchmarks); seeded games per table (bots)")
        parser.add_argument("--game", action="append", help="bots: only this game (repeatable)")
        parser.add_argument("--entrants", type=int, nargs="+", default=list(tournament_bench.SIZES),
                            help="field sizes (tournament benchmark)")
        parser.add_argument("--late-round", type=int, default=6, help="the later Swiss round timed (tournament benchmark)")
        parser.add_argument("--service-entrants", type=int, nargs="+", default=list(tournament_service_bench.SIZES),
                            help="field sizes paired through the services and a database (tournament benchmark; 0: skip)")
        parser.add_argument("--service-rounds", type=int, default=3,
                            help="rounds paired through the services (tournament benchmark)")
        parser.add_argument("--shapes", type=int, nargs="+", default=list(tournament_service_bench.SHAPES),
                            help="table sizes (tournament-services, internal)")
        load = parser.add_argument_group("load")
        load.add_argument("--matches", type=int, default=500, help="active matches (0: skip that scenario)")
        load.add_argument("--spectators", type=int, default=1, help="spectator sockets per match")
        load.add_argument("--rate", type=float, default=250.0, help="commands/s over all matches, socket and REST")
        load.add_argument("--seconds", type=float, default=60.0, help="how long the commands run")
        load.add_argument("--fanout-spectators", type=int, default=1000, help="spectators of the one fan-out match (0: skip)")
        load.add_argument("--fanout-rate", type=float, default=5.0, help="commands/s on the fan-out match")
        load.add_argument("--fanout-seconds", type=float, default=20.0)
        load.add_argument("--settle", type=float, default=30.0,
                          help="at most this many seconds for the last deliveries to land; what has not is lost")
        rest = parser.add_argument_group("rest")
        rest.add_argument("--rounds", type=int, default=5, help="rest: rounds of --commands POSTs")
        rest.add_argument("--warmup", type=int, default=100, help="rest: POSTs before the rounds, not measured")
        rest.add_argument("--profile", help="rest: py-spy output (a flame graph; collapsed stacks for .txt)")
        rest.add_argument("--py-spy", help="rest: the py-spy executable (default: from the PATH)")
        load.add_argument("--out", help="loadseed (internal): where to write the seeded matches")
        parser.add_argument("--pg-admin-url", default=os.environ.get("KAMIZA_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
        parser.add_argument("--redis-url", default=os.environ.get("KAMIZA_REDIS_TEST_URL", "redis://127.0.0.1:6379/8"))

    def handle(self, target, **opts):
        if target == "platform":
            result = platform_bench.run_platform(commands=opts["commands"], latency_samples=opts["samples"],
                                                 pg_admin_url=opts["pg_admin_url"] or None, redis_url=opts["redis_url"] or None)
        elif target == "tournament":
            result = tournament_bench.run(sizes=opts["entrants"], late_round=opts["late_round"])
            sizes = [n for n in opts["service_entrants"] if n > 0]
            if sizes:
                result["services"] = tournament_service_bench.run(sizes=sizes, rounds=opts["service_rounds"],
                                                                  pg_admin_url=opts["pg_admin_url"] or None)
        elif target == "tournament-services":  # internal: in this process, on the configured database
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            result = tournament_service_bench.run_services(sizes=opts["entrants"], shapes=opts["shapes"],
                                                           rounds=opts["late_round"])
        elif target == "bots":
            result = bot_bench.run(registry, games=opts["games"], only=opts["game"])
        elif target == "writepath":
            result = platform_bench.run_writepath(opts["commands"])
        elif target == "writer":
            result = platform_bench.run_writer(opts["barrier"], bare=opts["bare"], threads=opts["threads"])
        elif target == "load":
            result = load_bench.run_load(
                pg_admin_url=opts["pg_admin_url"], redis_url=opts["redis_url"], matches=opts["matches"],
                spectators=opts["spectators"], rate=opts["rate"], seconds=opts["seconds"],
                fanout_spectators=opts["fanout_spectators"], fanout_rate=opts["fanout_rate"],
                fanout_seconds=opts["fanout_seconds"], settle=opts["settle"])
        elif target == "rest":
            result = rest_bench.run_rest(pg_admin_url=opts["pg_admin_url"], redis_url=opts["redis_url"],
                                         commands=opts["commands"], rounds=opts["rounds"], warmup=opts["warmup"],
                                         profile=opts["profile"], py_spy=opts["py_spy"])
        elif target == "loadseed":
            result = load_bench.run_seed(opts["matches"], opts["out"])
        else:
            try:
                engine = registry.get(target)
            except Exception:
                raise CommandError(f"unknown benchmark {target!r}: platform, tournament or one of {[e.slug for e in registry.all_engines()]}")
            configs = [(seats, {}) for seats in range(engine.min_seats, engine.max_seats + 1)]
            if "teams" in engine.options_schema.get("properties", {}) and engine.max_seats >= 4:
                configs.append((4, {"teams": True}))
            result = {"benchmark": target, "runs": [
                {**engine_bench.bench_engine(engine, games=opts["games"], seats=seats, options=options), "options": options}
                for seats, options in configs
            ]}
        self.stdout.write(json.dumps(result))
