"""A tournament run by the real worker and beat: the worker creates and starts round 1's matches,
beat's sweep ends the round when its time limit passes (the engine's SYSTEM ``time_limit``), the
MatchFinished reactions pair and start round 2, and duplicated task deliveries plus a worker SIGKILLed
between pairing a round and creating its matches leave exactly one pairing per round and one match per
table (the redelivered task, or beat's backstop, creates them once). The players' moves in round 1
(acknowledged before the kill) are all in the logs afterwards. A worker SIGKILLed inside the pairing's
own transaction (before its commit) leaves nothing of the round, and it is then paired exactly once."""

import subprocess
import sys
import textwrap
import uuid

from .checks import assert_logs_sound
from .client import Ledger, Player, wait_until
from .conftest import ROOT
from .scoreboard import record

SETUP = """
from django.contrib.auth import get_user_model
from games.tournaments import services
User = get_user_model()
tag = "{tag}"
organizer = User.objects.create_user(username="org-" + tag, password="x-pass-1234567", is_staff=True)
t = services.tournament_create(creator=organizer, name="Dist " + tag, game="yokai", format="swiss", table_size=2,
                               rounds=2, round_minutes=30, match_options={{"turn_seconds": 60}})
for i in range(4):
    services.tournament_register(tournament_id=t.pk, user=User.objects.create_user(username=f"p{{i}}-" + tag,
                                                                                  password="x-pass-1234567"))
services.tournament_start(tournament_id=t.pk, user=organizer)  # pairs round 1; the worker makes the matches
print("TID", t.pk)
"""

DELIVER = """
from workers import tasks
for _ in range({times}):
    tasks.tournament_advance_task.delay("{tid}")
    for match_id in {matches!r}:
        tasks.tournament_match_finished_task.delay(match_id)
"""


def _shell(stack, code: str) -> str:
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", textwrap.dedent(code)], cwd=ROOT, env=stack.env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _tables(stack, tid, round_no):
    return stack.sql("SELECT \"table\", match_id FROM tournaments_tournamenttable WHERE tournament_id = %s AND round = %s "
                     "ORDER BY \"table\"", (tid, round_no))


def _expire(stack, tid):
    stack.sql("UPDATE tournaments_rounddeadline SET due_at = now() - interval '1 second' WHERE tournament_id = %s "
              "RETURNING round", (tid,))


def _one_per_round(stack, tid):
    paired = stack.sql("SELECT round, count(*) FROM tournaments_tournamentrecord WHERE tournament_id = %s "
                       "AND kind = 'paired' GROUP BY round ORDER BY round", (tid,))
    results = stack.sql("SELECT round, \"table\", count(*) FROM tournaments_tournamentrecord WHERE tournament_id = %s "
                        "AND kind = 'result' GROUP BY round, \"table\"", (tid,))
    assert all(n == 1 for _r, n in paired), paired
    assert all(n == 1 for _r, _t, n in results), results
    return [r for r, _n in paired]


def _first_moves(stack, tables, ledger) -> None:
    """In each of round 1's matches, the player to move makes one move (before time runs out)."""
    players = {}
    for _t, match_id in tables:
        awaiting, seats = wait_until(lambda: next(
            ((a, s) for a, s in stack.sql("SELECT awaiting, seats FROM projections_matchsummary WHERE match_id = %s",
                                          (match_id,)) if a and isinstance(a[0], int)), None),
            timeout=30, what="a player to move")
        username = seats[awaiting[0]]["username"]
        if username not in players:
            players[username] = Player(stack, len(players) % 2, username, ledger, password="x-pass-1234567")
        player = players[username]
        v = player.view(match_id)
        assert player.submit(match_id, v["legal_commands"][0], v["seq"]).status_code == 201


def test_the_worker_runs_the_rounds_and_duplicates_or_a_kill_pair_nothing_twice(stack, request):
    tag = uuid.uuid4().hex[:6]
    tid = _shell(stack, SETUP.format(tag=tag)).split("TID", 1)[1].strip()
    # round 1 was paired by the start; beat's sweep (or the deliveries below) create its matches
    _shell(stack, DELIVER.format(times=3, tid=tid, matches=[]))
    first = wait_until(lambda: (rows := _tables(stack, tid, 1)) and all(m for _t, m in rows) and rows,
                       timeout=120, what="round 1's matches created by the worker")
    assert len(first) == 2
    statuses = stack.sql("SELECT status FROM projections_matchsummary WHERE match_id = ANY(%s)",
                         ([m for _t, m in first],))
    assert sorted(s for (s,) in statuses) == ["active", "active"]  # started for the players
    ledger = Ledger()
    _first_moves(stack, first, ledger)

    # the round's time runs out while a worker lingers between pairing round 2 and creating its
    # matches (the "tournament" chaos point): it is SIGKILLed right there, and duplicates of every
    # delivery pile up
    stack.arm("tournament", 3)
    try:
        _expire(stack, tid)
        wait_until(lambda: _tables(stack, tid, 2), timeout=120, interval=0.1, what="round 2 paired")
        stack.kill_worker()
    finally:
        stack.disarm("tournament")
    assert all(m is None for _t, m in _tables(stack, tid, 2)), "killed after pairing, before any match"
    _shell(stack, DELIVER.format(times=3, tid=tid, matches=[str(m) for _t, m in first]))
    stack.start_worker()
    second = wait_until(lambda: (rows := _tables(stack, tid, 2)) and all(m for _t, m in rows) and rows,
                        timeout=120, what="round 2 paired and started by the worker")
    assert len(second) == 2
    assert _one_per_round(stack, tid) == [1, 2]
    ended = stack.sql("SELECT e.payload->>'reason', e.actor->>'seat', e.actor->>'purpose' FROM eventstore_matchevent e "
                      "WHERE e.match_id = ANY(%s) AND e.type = 'GameWon'", ([m for _t, m in first],))
    assert sorted(ended) == [("time_limit", "system", "time_limit")] * 2  # one SYSTEM time_limit per match
    by = stack.sql("SELECT payload->>'by' FROM tournaments_tournamentrecord WHERE tournament_id = %s AND kind = 'result'",
                   (tid,))
    assert sorted(b for (b,) in by) == ["time", "time"]

    # round 2 ends by time too; the tournament finishes with exactly one of everything
    _expire(stack, tid)
    wait_until(lambda: stack.sql("SELECT status FROM tournaments_tournament WHERE id = %s", (tid,))[0][0] == "finished",
               timeout=120, what="the tournament finished")
    assert _one_per_round(stack, tid) == [1, 2]
    per_match = stack.sql("SELECT match_id, count(*) FROM tournaments_tournamenttable WHERE tournament_id = %s "
                          "AND match_id IS NOT NULL GROUP BY match_id", (tid,))
    assert len(per_match) == 4 and all(n == 1 for _m, n in per_match)
    assert stack.sql("SELECT count(*) FROM tournaments_rounddeadline WHERE tournament_id = %s", (tid,))[0][0] == 0
    lost = ledger.lost(stack)
    record(request.node, "worker killed mid-task: tournament round time, pairing, match creation", ledger.sent,
           len(ledger.acks), len(lost))
    assert not lost
    assert_logs_sound(stack)


def test_a_worker_killed_inside_the_pairing_transaction_leaves_no_half_round(stack):
    """The worker pairing round 2 is SIGKILLed inside the pairing's transaction (the
    ``tournament_pairing`` chaos point: the round's record and its table rows written, not committed).
    Nothing of round 2 survives; the redelivered tasks, three duplicates of every delivery and beat's
    backstop then pair it exactly once, create one match per table, and the log has no gap."""
    stack.ensure_worker()
    tag = uuid.uuid4().hex[:6]
    tid = _shell(stack, SETUP.format(tag=tag)).split("TID", 1)[1].strip()
    _shell(stack, DELIVER.format(times=2, tid=tid, matches=[]))
    first = wait_until(lambda: (rows := _tables(stack, tid, 1)) and all(m for _t, m in rows) and rows,
                       timeout=120, what="round 1's matches created by the worker")
    seen = stack.marks("tournament_pairing")
    stack.arm("tournament_pairing", 30)
    try:
        _expire(stack, tid)  # round 1 ends by time; the last reaction pairs round 2 and is killed doing it
        stack.kill_worker_at("tournament_pairing", after=seen)
    finally:
        stack.disarm("tournament_pairing")
    assert _one_per_round(stack, tid) == [1], "the killed pairing left a round 2 record"
    assert _tables(stack, tid, 2) == [], "the killed pairing left round 2 tables"
    by = stack.sql("SELECT payload->>'by' FROM tournaments_tournamentrecord WHERE tournament_id = %s AND kind = 'result'",
                   (tid,))
    assert sorted(b for (b,) in by) == ["time", "time"]  # round 1's results were committed before

    _shell(stack, DELIVER.format(times=3, tid=tid, matches=[str(m) for _t, m in first]))
    stack.start_worker()
    second = wait_until(lambda: (rows := _tables(stack, tid, 2)) and all(m for _t, m in rows) and rows,
                        timeout=120, what="round 2 paired and started after the kill")
    assert len(second) == 2 and len({m for _t, m in second}) == 2
    assert _one_per_round(stack, tid) == [1, 2]
    seqs = [s for (s,) in stack.sql("SELECT seq FROM tournaments_tournamentrecord WHERE tournament_id = %s ORDER BY seq",
                                    (tid,))]
    assert seqs == list(range(1, len(seqs) + 1))  # the rolled-back seq was taken again: no gap, no double
    head = stack.sql("SELECT head_seq, round, status FROM tournaments_tournament WHERE id = %s", (tid,))[0]
    assert head == (len(seqs), 2, "running")
    assert_logs_sound(stack)
