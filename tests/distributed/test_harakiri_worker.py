"""Harakiri's enemies and oracle are played by a real Celery worker: a scripted round (round_cap 1)
driven through the API while every SYSTEM step (oracle draw, events, initiative, enemy
activations) is taken by the worker; duplicated tasks and a worker killed mid-activation must leave
the log exactly as one clean run would (re-derived here from the revealed seed)."""

import uuid

import pytest
from celery import Celery

from games.application.lobby import FINISHED, STARTED, aggregate_fold
from games.kernel import SYSTEM, Command, Rng, canonical, registry
from games.kernel import event as make_event

from .client import Player, wait_until
from .scoreboard import record

pytestmark = pytest.mark.distributed


def _clean_run(match_id: str, seed: bytes, recorded: list[dict]) -> list[tuple]:
    """Replay the match as one fault-free run would: SYSTEM steps first, the party's first legal
    command otherwise (the driver's policy), each decided with the RNG at its seq."""
    engine = registry.get("harakiri")
    start = next(i for i, e in enumerate(recorded) if e["type"] == STARTED)
    lobby_events = recorded[:start]
    state = aggregate_fold(engine, lobby_events)
    head = lobby_events[-1]["seq"]
    lobby = state["lobby"]
    out = [make_event(STARTED, recorded[start]["payload"]),
           *engine.setup(lobby["options"], len(lobby["seats"]), Rng(seed, f"{match_id}:{head}"))]
    game = None
    for ev in out[1:]:
        game = engine.evolve(game, ev)
    game = canonical(game)  # the platform hands engines canonical states
    head += len(out)
    for _ in range(5000):
        status = engine.status(game)
        if status.finished:
            out.append(make_event(FINISHED, {"winners": list(status.winners), "seed": seed.hex()}))
            break
        if SYSTEM in status.awaiting:
            seat, cmd = SYSTEM, engine.system_command(game)
        else:
            seat = status.awaiting[0]
            cmd = engine.legal_commands(game, seat)[0]
        events = engine.decide(game, Command(type=cmd["type"], args=cmd["args"], seat=seat), Rng(seed, f"{match_id}:{head}"))
        for ev in events:
            game = engine.evolve(game, ev)
        game = canonical(game)
        out.extend(events)
        head += len(events)
    return [(e["type"], e["payload"]) for e in out]


def test_a_scripted_round_by_the_worker_survives_duplicates_and_a_killed_worker(stack, request):
    broker = Celery(broker=stack.redis_url)
    stack.arm("advance", 0.8)
    kills = duplicates = 0
    try:
        player = Player(stack, 0, f"ronin-{uuid.uuid4().hex[:6]}")
        r = player.call("POST", "/api/matches/", json={"game": "harakiri", "seats": 1, "options": {"round_cap": 1}})
        assert r.status_code == 201, r.text
        match_id = r.json()["id"]
        assert player.call("POST", f"/api/matches/{match_id}/start/", json={}).status_code == 200

        def step():
            nonlocal kills, duplicates
            v = player.view(match_id, server=duplicates % 2)
            if v["status"]["finished"]:
                return True
            if SYSTEM in v["status"]["awaiting"]:
                paused = stack.marks("advance")
                broker.send_task("workers.tasks.advance_match", args=[match_id, v["seq"]])  # a duplicate
                duplicates += 1
                # the duplicate (if not the task itself) reads the state at this seq and pauses: killed there
                if kills < 1 and duplicates >= 3 and stack.kill_worker_at("advance", after=paused, timeout=5, must=False):
                    kills += 1
                    stack.arm("advance", 0.1)
                    stack.start_worker()
                return False
            if v["legal_commands"]:
                r = player.submit(match_id, v["legal_commands"][0], v["seq"])
                assert r.status_code in (201, 409), r.text
            return False

        wait_until(step, timeout=600, interval=0.05, what="the scripted round to end")
    finally:
        stack.disarm("advance")
        stack.ensure_worker()
    assert kills == 1 and duplicates >= 3

    rows = stack.sql("SELECT seq, type, payload, actor FROM eventstore_matchevent WHERE match_id = %s ORDER BY seq", (match_id,))
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    recorded = [{"seq": s, "type": t, "payload": p, "actor": a} for s, t, p, a in rows]
    system_events = [e for e in recorded if e["actor"].get("seat") == SYSTEM]
    assert system_events and all(e["actor"]["kind"] == "worker" for e in system_events)
    # every enemy activation and oracle step of the round, not only some, came from the worker
    automated = [e for e in recorded if e["type"] in ("OracleDrawn", "EventRevealed", "EnemyActivated", "EnemyLineChosen")
                 or (e["type"] == "EnemyAttackRolled" and not e["payload"].get("counter"))]
    assert any(e["type"] == "EnemyActivated" for e in automated)
    assert all(e["actor"].get("seat") == SYSTEM and e["actor"]["kind"] == "worker" for e in automated), \
        [(e["seq"], e["type"], e["actor"]) for e in automated if e["actor"].get("seat") != SYSTEM]
    seed = bytes.fromhex(stack.sql("SELECT seed FROM eventstore_match WHERE id = %s", (match_id,))[0][0])
    start = next(i for i, e in enumerate(recorded) if e["type"] == STARTED)
    assert [(e["type"], e["payload"]) for e in recorded[start:]] == _clean_run(match_id, seed, recorded)
    lost = player.ledger.lost(stack)
    record(request.node, "worker killed mid-task: Harakiri enemy step", player.ledger.sent, len(player.ledger.acks),
           len(lost))
    assert not lost
