"""The distributed shape for real: two ASGI servers fanning out through Redis, a Celery worker
taking every automated step, and a worker killed mid-task."""

import asyncio
import contextlib
import json
import uuid

import pytest

from workers.tasks import task_command_id

from .client import Ledger, Player, SocketRecorder, Table, new_pebbles, socket_pool, wait_until
from .scoreboard import record

pytestmark = pytest.mark.distributed



@contextlib.contextmanager
def sockets(urls: dict):
    recorders = {name: SocketRecorder(url) for name, url in urls.items()}
    with socket_pool(recorders.values()):
        yield recorders


def _canaries(stack, match_id: str):
    """Every tile secret in the log, which seat ever held it, and which were played face up."""
    held, public, every = {}, set(), set()
    for type_, payload in stack.sql("SELECT type, payload FROM eventstore_matchevent WHERE match_id = %s ORDER BY seq", (match_id,)):
        if type_ == "TilesDealt":
            for seat, tiles in payload["hands"].items():
                for t in tiles:
                    held.setdefault(int(seat), set()).add(t["secret"])
            every |= {t["secret"] for tiles in payload["hands"].values() for t in tiles}
            every |= {t["secret"] for t in payload["pile"]}
        if type_ in ("TilePlayed", "TurnPassed") and payload.get("drawn"):
            held.setdefault(payload["seat"], set()).add(payload["drawn"]["secret"])
        if type_ == "TilePlayed":
            public.add(payload["tile"]["secret"])
    return held, public, every


def test_two_servers_fan_out_live_and_the_worker_rolls(stack):
    tag = uuid.uuid4().hex[:6]
    alice, bob = Player(stack, 0, f"alice-{tag}"), Player(stack, 1, f"bob-{tag}")
    match_id = new_pebbles(alice, 2, {"target": 30}, joiners=[bob])

    urls = {0: stack.ws_url(0, match_id, alice.token), 1: stack.ws_url(1, match_id, bob.token), None: stack.ws_url(1, match_id)}
    with sockets(urls) as rec:
        final = Table(match_id, {0: alice, 1: bob}, seed=1).play()
        assert not alice.ledger.bad_answers + bob.ledger.bad_answers
        head = final["seq"]
        wait_until(lambda: all(r.last_seq() >= head for r in rec.values()), timeout=30, what="every socket at the head")

    assert final["status"]["finished"]
    for seat, r in rec.items():
        hello = next(m for m in r.messages if m["type"] == "hello")
        assert r.seqs() == list(range(hello["seq"] + 1, head + 1)), f"seat {seat}: contiguous live events"

    held, public, every = _canaries(stack, match_id)
    assert every, "the log holds canaries"
    for seat, r in rec.items():
        allowed = public | held.get(seat, set())
        leaked = {c for c in every - allowed if any(c in raw for raw in r.raw)}
        assert not leaked, f"seat {seat} saw hidden tiles {leaked}"

    rolls = stack.sql("SELECT actor FROM eventstore_matchevent WHERE match_id = %s AND type = 'BonusRolled'", (match_id,))
    assert rolls and all(actor["kind"] == "worker" for (actor,) in rolls), "every SYSTEM roll came from the worker"


def test_gap_catch_up_after_reconnect_on_the_other_server(stack):
    tag = uuid.uuid4().hex[:6]
    alice, bob = Player(stack, 0, f"alice-{tag}"), Player(stack, 1, f"bob-{tag}")
    match_id = new_pebbles(alice, 2, {"target": 60, "bonus_rolls": False}, joiners=[bob])
    seen = bob.view(match_id)["seq"]
    for _ in range(4):  # bob is offline while four moves happen
        for player in (alice, bob):
            v = player.view(match_id)
            if v["legal_commands"]:
                assert player.submit(match_id, v["legal_commands"][0], v["seq"]).status_code == 201

    async def reconnect():
        import websockets
        async with websockets.connect(stack.ws_url(0, match_id, bob.token), origin=stack.url(0, "")) as ws:
            hello = json.loads(await ws.recv())
            assert hello["type"] == "hello"
            await ws.send(json.dumps({"type": "sync", "after": seen}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                if msg["type"] == "events":
                    return hello["seq"], [e["seq"] for e in msg["events"]]

    head, replayed = asyncio.run(reconnect())
    assert replayed == list(range(seen + 1, head + 1))


def test_worker_killed_mid_task_loses_and_duplicates_nothing(stack, request):
    """Two bots and the SYSTEM's rolls are the worker's: it is SIGKILLed twice inside an automated
    step (the state read, the move chosen, not yet submitted; workers.chaos), and the match still
    finishes with every automated step appended once, by the task scheduled for it."""
    ledger = Ledger()
    alice = Player(stack, 0, f"alice-{uuid.uuid4().hex[:6]}", ledger)
    match_id = new_pebbles(alice, 3, {"target": 40}, bots=[1, 2])
    seen = stack.marks("advance")
    stack.arm("advance", 3)
    try:
        table = Table(match_id, {0: alice}, seed=2, timeout=300).start()
        stack.kill_worker_at("advance", after=seen)
        stack.start_worker()  # the redelivered step (or the stall sweep's) pauses again: killed again
        stack.kill_worker_at("advance", after=seen + 1)
    finally:
        stack.disarm("advance")
        stack.ensure_worker()
    final = table.join()
    assert final["status"]["finished"], "nothing was lost: redelivery or the stall sweep finished the match"

    seqs = [s for (s,) in stack.sql("SELECT seq FROM eventstore_matchevent WHERE match_id = %s ORDER BY seq", (match_id,))]
    assert seqs == list(range(1, len(seqs) + 1))
    commands = stack.sql("SELECT command_id, seat, first_seq FROM eventstore_matchcommand WHERE match_id = %s", (match_id,))
    worker_cmds = [(cid, seat, first) for cid, seat, first in commands if seat in (1, 2, "system")]
    assert worker_cmds
    for cid, seat, first in worker_cmds:
        purpose = "system" if seat == "system" else f"bot:{seat}"
        expected = task_command_id(match_id, first - 1, purpose)
        assert uuid.UUID(str(cid)) == expected, "each automated step was appended once, by the task scheduled for it"
    lost = ledger.lost(stack)
    record(request.node, "worker killed mid-task: bot move / SYSTEM step", ledger.sent, len(ledger.acks), len(lost))
    assert not lost
    assert stack.sql("SELECT count(*) FROM workers_deadletter")[0][0] == 0


def test_sockets_survive_idling_and_take_commands_and_end_after_logout(stack):
    """Over the real servers: a socket idle for longer than the Redis poll still gets pushes, a
    command sent over the socket lands, and logging out (on the other server) ends the socket."""
    import websockets

    tag = uuid.uuid4().hex[:6]
    alice, bob = Player(stack, 0, f"alice-{tag}"), Player(stack, 1, f"bob-{tag}")
    match_id = new_pebbles(alice, 2, {"target": 60, "bonus_rolls": False}, joiners=[bob])

    async def scenario():
        async with websockets.connect(stack.ws_url(1, match_id, alice.token), origin=stack.url(1, "")) as ws:
            hello = json.loads(await ws.recv())
            await asyncio.sleep(12)  # idle past channels_redis's 5 s BRPOP poll
            legal = hello["state"]["legal_commands"]
            await ws.send(json.dumps({"type": "command", "command_id": str(uuid.uuid4()), "expected_seq": hello["seq"],
                                      "command": legal[0]}))
            kinds = []
            while "command_result" not in kinds or "events" not in kinds:
                kinds.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"])
            await asyncio.to_thread(alice.call, "POST", "/api/auth/logout/", 0)
            t0 = asyncio.get_running_loop().time()
            while True:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
                except websockets.ConnectionClosed as closed:
                    return hello["seq"], kinds, closed.rcvd.code if closed.rcvd else None, asyncio.get_running_loop().time() - t0
                assert msg.get("type") in ("events", "state", "error"), msg

    seq, kinds, close_code, waited = asyncio.run(scenario())
    assert "command_result" in kinds
    assert bob.view(match_id)["seq"] > seq, "the socket's command landed"
    assert close_code == 4401 and waited < 5.5, (close_code, waited)
