"""Faults, with real processes: a stack of its own (two uvicorn servers, a Celery worker and beat) on a
Redis and a PostgreSQL that this module starts on free ports and restarts at will, never the
machine's shared ones. Each test plays bot, REST and socket clients through one fault, then checks
that no command the service acknowledged is missing from the log, that every log is gapless, and
that ``rebuild_projections`` (and ``rebuild_tournaments``) report no difference. Each records its
row of the fault scoreboard (scoreboard.py) before it asserts."""

import time
import uuid

import pytest
import requests
from celery import Celery

from workers.tasks import task_command_id

from .checks import assert_logs_sound
from .client import Ledger, LiveSocket, Player, Table, new_pebbles, probe_socket, socket_pool, wait_until
from .conftest import Stack
from .scoreboard import record
from .services import PrivatePostgres, PrivateRedis

pytestmark = pytest.mark.distributed



class Faulty:
    def __init__(self, stack: Stack, redis: PrivateRedis, postgres: PrivatePostgres):
        self.stack, self.redis, self.postgres = stack, redis, postgres


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("faults")
    redis_server, postgres = PrivateRedis(tmp), PrivatePostgres()
    redis_server.start()
    try:
        postgres.init()
        postgres.start()
        stack = Stack(tmp, pg_admin_url=postgres.admin_url, redis_url=redis_server.url, extra_env={
            # the sweeps that re-drive lost work, fast enough for a short test
            "STALLED_SWEEP_SECONDS": "1", "STALLED_AFTER_SECONDS": "3", "CAMPAIGN_SWEEP_SECONDS": "2",
        })
        stack.start()
        try:
            yield Faulty(stack, redis_server, postgres)
        finally:
            stack.stop()
    finally:
        postgres.stop()
        postgres.remove()
        redis_server.stop()


def _users(stack, ledger, *names):
    tag = uuid.uuid4().hex[:6]
    return [Player(stack, i % 2, f"{name}-{tag}", ledger) for i, name in enumerate(names)]


def _automated_after(stack, match_id, seq) -> int:
    return stack.sql("SELECT count(*) FROM eventstore_matchevent WHERE match_id = %s AND seq > %s "
                     "AND actor->>'kind' = 'worker'", (match_id, seq))[0][0]


def _begin(faulty) -> tuple:
    """(the stack, a fresh ledger, how many supervisor restarts happened before this test)."""
    return faulty.stack, Ledger(), len(faulty.stack.restarts)


def _settle(request, fault: str, stack, ledger: Ledger, restarts_before: int):
    """The scoreboard row first (so a loss shows there), then the checks every fault test makes."""
    lost = ledger.lost(stack)
    restarted = [name for name, _status in stack.restarts[restarts_before:]]
    note = ", ".join(f"{name} exited and was restarted by its supervisor" for name in restarted)
    record(request.node, fault, ledger.sent, len(ledger.acks), len(lost), note)
    assert not lost, f"acknowledged commands missing from the log: {lost}"
    assert not ledger.bad_answers, ledger.bad_answers
    assert_logs_sound(stack)
    assert stack.sql("SELECT count(*) FROM workers_deadletter")[0][0] == 0


def _assert_caught_up(sockets, head):
    wait_until(lambda: all(s.caught_up(head) for s in sockets), timeout=60, what="every socket at the head")
    for s in sockets:
        assert not s.missing(head), f"socket missed {s.missing(head)}"


def _log_since(stack, name: str, offset: int) -> str:
    path = stack.tmp / f"{name}.log"
    with open(path, "rb") as log:
        log.seek(offset)
        return log.read().decode(errors="replace")


def _log_sizes(stack) -> dict:
    return {p.stem: p.stat().st_size for p in stack.tmp.glob("*.log")}


def test_redis_restarted_during_play(faulty, request):
    """Redis is SIGKILLed and started again empty (no persistence): queued tasks, channel groups and
    cache entries are gone. Sockets reconnect and sync from their last seq, pushes resume, and the
    automated steps whose tasks were lost are re-driven by the stalled-match sweep."""
    stack, ledger, restarts = _begin(faulty)
    alice, bob = _users(stack, ledger, "alice", "bob")
    match_id = new_pebbles(alice, 3, {"target": 40, "tiles": 30}, joiners=[bob], bots=[2])
    sockets = [LiveSocket(stack, match_id, [0, 1], alice.token, ledger), LiveSocket(stack, match_id, [1, 0], bob.token, ledger),
               LiveSocket(stack, match_id, [1, 0])]
    with socket_pool(sockets):
        table = Table(match_id, {0: alice, 1: bob}, sockets={1: sockets[1]}, seed=11, pace=0.1).start()
        wait_until(lambda: table.moves >= 4, timeout=120, what="play before the fault")
        seq_at_fault = alice.view(match_id)["seq"]
        faulty.redis.kill()
        time.sleep(2)  # play goes on meanwhile: commands commit, their pushes and tasks cannot
        faulty.redis.start()
        final = table.join()
        _assert_caught_up(sockets, final["seq"])
    assert final["status"]["finished"]
    assert _automated_after(stack, match_id, seq_at_fault) > 0, "the worker kept taking the bot's and SYSTEM's steps"
    for s in sockets:
        assert s.hellos >= 2, "every socket was dropped by the restart and reconnected"
        assert s.pushed > 0, "after reconnecting, events were pushed live again (channels resumed)"
    _settle(request, "Redis restarted during play", stack, ledger, restarts)


def test_postgres_restarted_during_play(faulty, request):
    """PostgreSQL crashes (immediate shutdown) and comes back: in the gap every request gets 503
    ``unavailable`` (JSON under /api/, a plain page elsewhere), a socket handshake gets the error
    and close 1013, and afterwards everything recovers by itself (persistent connections reconnect)."""
    stack, ledger, restarts = _begin(faulty)
    alice, bob = _users(stack, ledger, "alice", "bob")
    match_id = new_pebbles(alice, 3, {"target": 40, "tiles": 30}, joiners=[bob], bots=[2])
    sockets = [LiveSocket(stack, match_id, [0, 1], alice.token, ledger), LiveSocket(stack, match_id, [1, 0], bob.token, ledger)]
    logs_before = _log_sizes(stack)
    with socket_pool(sockets):
        table = Table(match_id, {0: alice, 1: bob}, sockets={1: sockets[1]}, seed=12, pace=0.1).start()
        wait_until(lambda: table.moves >= 4, timeout=120, what="play before the fault")
        faulty.postgres.crash()
        try:
            api = alice.request("GET", f"/api/matches/{match_id}/view/", server=1)
            login = requests.post(stack.url(0, "/api/auth/token/"), json={"username": alice.username, "password": "x"},
                                  timeout=20)
            page = requests.get(stack.url(1, f"/matches/{match_id}/"), timeout=20)
            lobby = requests.get(stack.url(0, "/"), timeout=20)
            handshake, close_code = probe_socket(stack, 0, match_id, alice.token)
            time.sleep(1)  # the table keeps trying meanwhile
        finally:
            faulty.postgres.start()
        final = table.join()
        _assert_caught_up(sockets, final["seq"])
    for r in (api, login):
        assert r.status_code == 503 and r.json()["code"] == "unavailable" and r.json()["message"], r.text
        assert r.headers["Retry-After"]
    for r in (page, lobby):
        assert r.status_code == 503 and r.headers["content-type"].startswith("text/html"), (r.status_code, r.text[:300])
        assert "Traceback" not in r.text and "back in a moment" in r.text
    assert [m["code"] for m in handshake] == ["unavailable"] and close_code == 1013, (handshake, close_code)
    assert ledger.unavailable > 0, "the clients met the gap"
    assert final["status"]["finished"], "the service recovered by itself"
    for name in ("asgi0", "asgi1"):
        during = _log_since(stack, name, logs_before.get(name, 0))
        assert "Exception in ASGI application" not in during and "Traceback" not in during, during[-3000:]
    _settle(request, "PostgreSQL restarted during play", stack, ledger, restarts)


def test_one_uvicorn_server_killed(faulty, request):
    """Server 0 is SIGKILLed mid-play: its sockets reconnect to server 1 and sync, REST clients
    resend their unanswered command (same command_id) to server 1, and nothing is missed."""
    stack, ledger, restarts = _begin(faulty)
    alice, bob = _users(stack, ledger, "alice", "bob")
    match_id = new_pebbles(alice, 3, {"target": 40, "tiles": 30}, joiners=[bob], bots=[2])
    sockets = [LiveSocket(stack, match_id, [0, 1], alice.token, ledger), LiveSocket(stack, match_id, [0, 1], bob.token, ledger),
               LiveSocket(stack, match_id, [0, 1])]
    try:
        with socket_pool(sockets):
            table = Table(match_id, {0: alice, 1: bob}, sockets={1: sockets[1]}, seed=13, pace=0.1).start()
            wait_until(lambda: table.moves >= 4, timeout=120, what="play before the fault")
            stack.kill_server(0)
            final = table.join()
            _assert_caught_up(sockets, final["seq"])
    finally:
        stack.start_server(0)
    for s in sockets:
        assert s.hellos >= 2 and s.server == 1, "every socket of the killed server reconnected to the other"
    _settle(request, "one of two uvicorn servers killed", stack, ledger, restarts)


def _timeouts(stack, match_id, seat) -> list[tuple]:
    """(first_seq, command id matches the clock it answers) of the seat's worker timeouts."""
    rows = stack.sql("SELECT c.command_id, c.first_seq FROM eventstore_matchcommand c JOIN eventstore_matchevent e "
                     "ON e.match_id = c.match_id AND e.seq = c.first_seq WHERE c.match_id = %s AND c.seat = %s "
                     "AND e.actor->>'task' = 'workers.tasks.timeout_match' ORDER BY c.first_seq",
                     (match_id, str(seat)))
    return [(first, uuid.UUID(str(cid)) == task_command_id(match_id, first - 1, f"timeout:{seat}"))
            for cid, first in rows]


def _turns(stack, match_id, seat) -> list[int]:
    return [s for (s,) in stack.sql("SELECT seq FROM eventstore_matchevent WHERE match_id = %s AND type IN "
                                    "('TilePlayed', 'TurnPassed') AND (payload->>'seat')::int = %s ORDER BY seq",
                                    (match_id, seat))]


def test_beat_killed_and_restarted_fires_each_due_clock_once(faulty, request):
    """Bob never moves: each of his turns ends by its clock (1 s). Beat is SIGKILLed after his first
    clock fired and restarted once his next one is overdue: that clock fires late, once, and so do
    the rest; alice plays her own turns."""
    stack, ledger, restarts = _begin(faulty)
    alice, bob = _users(stack, ledger, "alice", "bob")
    match_id = new_pebbles(alice, 2, {"turn_seconds": 1, "bonus_rolls": False, "tiles": 6}, joiners=[bob])
    table = Table(match_id, {0: alice}, seed=14).start()
    wait_until(lambda: _timeouts(stack, match_id, 1), timeout=60, what="bob's first clock")
    stack.kill_beat()
    killed_at = time.time()
    wait_until(lambda: stack.sql("SELECT due_at < now() - interval '1 second' FROM projections_matchdeadline "
                                 "WHERE match_id = %s", (match_id,)) == [(True,)], timeout=30,
               what="a clock overdue while beat is down")
    overdue_seq = stack.sql("SELECT seq FROM projections_matchdeadline WHERE match_id = %s", (match_id,))[0][0]
    assert len(_timeouts(stack, match_id, 1)) == 1, "nothing fires while beat is down"
    stack.start_beat()
    final = table.join()
    assert final["status"]["finished"]
    fired = _timeouts(stack, match_id, 1)
    assert [first for first, _ok in fired] == _turns(stack, match_id, 1), "every turn of bob's ended by one timeout"
    assert all(ok for _first, ok in fired), "each timeout is the one its clock scheduled"
    assert overdue_seq + 1 in [first for first, _ok in fired], "the clock overdue while beat was down fired"
    late = stack.sql("SELECT extract(epoch from at) FROM eventstore_matchevent WHERE match_id = %s AND seq = %s",
                     (match_id, overdue_seq + 1))[0][0]
    assert float(late) > killed_at
    _settle(request, "beat killed and restarted", stack, ledger, restarts)


def test_worker_killed_mid_clock_fires_it_once(faulty, request):
    """A worker is SIGKILLed inside bob's timeout task (it has read the state and chosen the
    timeout command, not submitted it): the clock still fires, once, by the redelivered task or
    beat's next sweep of the overdue deadline."""
    stack, ledger, restarts = _begin(faulty)
    alice, bob = _users(stack, ledger, "alice", "bob")
    seen = stack.marks("timeout")
    stack.arm("timeout")
    try:
        match_id = new_pebbles(alice, 2, {"turn_seconds": 1, "bonus_rolls": False, "tiles": 6}, joiners=[bob])
        table = Table(match_id, {0: alice}, seed=15).start()
        stack.kill_worker_at("timeout", after=seen)
        assert not _timeouts(stack, match_id, 1), "killed before its command"
    finally:
        stack.disarm("timeout")
        stack.ensure_worker()
    final = table.join()
    assert final["status"]["finished"]
    fired = _timeouts(stack, match_id, 1)
    assert [first for first, _ok in fired] == _turns(stack, match_id, 1) and all(ok for _first, ok in fired)
    _settle(request, "worker killed mid-task: decision clock", stack, ledger, restarts)


START_AND_PLAY_HERE = """
import contextlib
from django.conf import settings
from django.contrib.auth import get_user_model
from config.celery import app
from campaigns import services
from campaigns.tasks import schedule_policy
from games.application import hooks
from tests.campaigns.helpers import play_to_end

settings.CELERY_TASK_ALWAYS_EAGER = app.conf.task_always_eager = True  # this shell takes every SYSTEM step
hooks._finished_listeners.remove(schedule_policy)  # and leaves the campaign policy to the worker under test
campaign = services.campaign_get("{campaign_id}")
services.campaign_start(campaign_id=campaign["id"], user=get_user_model().objects.get(pk={user_id}))
match_id = services.campaign_get(campaign["id"])["current_match"]
print("ADVENTURE", match_id, play_to_end(match_id, "fault-campaign", lambda execute: contextlib.nullcontext()))
"""


def _campaign_records(stack, campaign_id) -> list[tuple]:
    return stack.sql("SELECT type, payload->>'chapter', payload->>'phase', payload->>'match_id' FROM campaigns_campaignrecord "
                     "WHERE campaign_id = %s ORDER BY seq", (campaign_id,))


def test_worker_killed_mid_campaign_policy_opens_one_next_match(faulty, request):
    """A solo campaign is started and its Adventure Phase played to its end by a shell (every step
    eager); the policy is left to the real worker, which is SIGKILLed inside it (the outcome written, the
    next match not yet opened, one transaction). The policy is enqueued again and again, and beat's
    sweep enqueues it too: the campaign ends up with one finished adventure and one exploration
    match, which the player then plays."""
    stack, ledger, restarts = _begin(faulty)
    broker = Celery(broker=stack.redis_url)
    (ronin,) = _users(stack, ledger, "ronin")
    r = ronin.call("POST", "/api/campaigns/", json={"game": "harakiri", "act": 1, "seats": 1})
    assert r.status_code == 201, r.text
    campaign_id = r.json()["id"]
    me = ronin.call("GET", "/api/auth/me/").json()
    seen = stack.marks("campaign_policy")
    stack.arm("campaign_policy")
    played = stack.manage("shell", "-c", START_AND_PLAY_HERE.format(campaign_id=campaign_id, user_id=me["id"]))
    assert played.returncode == 0 and "ADVENTURE" in played.stdout, played.stdout[-2000:] + played.stderr[-3000:]
    adventure_id = played.stdout.split("ADVENTURE", 1)[1].split()[0]
    assert ronin.view(adventure_id)["status"]["finished"]

    try:
        broker.send_task("campaigns.tasks.campaign_policy", args=[adventure_id])  # (beat's sweep enqueues it too)
        stack.kill_worker_at("campaign_policy", after=seen)
    finally:
        stack.disarm("campaign_policy")
        stack.ensure_worker()
    assert [t for t, *_ in _campaign_records(stack, campaign_id)][-1] == "PhaseStarted", "the killed run left nothing"
    for _ in range(3):
        broker.send_task("campaigns.tasks.campaign_policy", args=[adventure_id])
    doc = wait_until(lambda: (d := ronin.call("GET", f"/api/campaigns/{campaign_id}/").json())["phase"] == "exploration"
                     and d, timeout=120, what="the exploration match opened")
    wait_until(lambda: not _policy_runs_left(broker), timeout=60, what="every queued policy run done")
    records = _campaign_records(stack, campaign_id)
    assert [(t, c, p) for t, c, p, _m in records if t in ("PhaseStarted", "PhaseFinished")] == [
        ("PhaseStarted", "1", "adventure"), ("PhaseFinished", "1", "adventure"), ("PhaseStarted", "1", "exploration")]
    exploration_id = doc["current_match"]
    assert [m for t, _c, p, m in records if t == "PhaseStarted"] == [adventure_id, exploration_id]
    opened = stack.sql("SELECT id FROM eventstore_match WHERE created_by_id = %s", (me["id"],))
    assert sorted(str(m) for (m,) in opened) == sorted([adventure_id, exploration_id]), "no orphan match from the killed run"
    Table(exploration_id, {0: ronin}, seed=16, timeout=120, max_moves=4).play()  # the next phase is playable
    _settle(request, "worker killed mid-task: campaign policy", stack, ledger, restarts)


def _policy_runs_left(broker) -> list:
    """Campaign policy tasks still queued, or delivered but not acknowledged (tasks ack late, once
    they have run)."""
    with broker.connection_for_write() as conn:
        client = conn.default_channel.client
        raw = [*client.lrange("celery", 0, -1), *client.hvals("unacked")]
    return [m for m in raw if b"campaigns.tasks.campaign_policy" in m]
