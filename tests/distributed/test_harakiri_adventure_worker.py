"""The Adventure Phase's own steps are taken by a real Celery worker: a solo chapter 1 played through
the API from the weapon choices to round 2's character turns, the party's decisions sent by the
player, every SYSTEM step (the Shōgun's turn: round token, influence, influence card; the enemy
activations and their arrival tests; the travel-event draw and its return to the deck) taken by the
worker, with duplicated tasks for each. No view a player receives holds a deck's order, and the
logs stay sound."""

import uuid

import pytest
from celery import Celery

from games.kernel import SYSTEM

from .checks import assert_logs_sound
from .client import Player, wait_until

pytestmark = pytest.mark.distributed

# the game's own steps: each must come from the worker
WORKER_EVENTS = ("RoundStarted", "InfluenceStepSkipped", "InfluenceMoved", "InfluenceCardDrawn", "EnemiesTurnStarted",
                 "EnemyMoved", "CombatTested", "CharactersTurnStarted", "TravelEventDrawn", "TravelEventReturned",
                 "RoundEnded")
KAMI = {"akira": "hachiman", "hattori": "inari", "hikaru": "amaterasu", "tomoe": "dosojin"}


class Party:
    """The player's policy: the first listed choice for the party's decisions, one character who
    travels two locations (so a travel event is due), every other activation ended at once."""

    def __init__(self):
        self.moves = 0
        self.traveller = None

    def pick(self, view, legal) -> dict:
        kinds = {c["type"] for c in legal}
        flow = view["flow"]
        if "choose" in kinds or flow["stage"] != "activation":
            return next(c for c in legal if c["type"] != "end_activation")
        if flow["travel"]:
            moves = [c for c in legal if c["type"] == "move"]
            if self.moves < 2 and moves:
                self.moves += 1
                return moves[0]
            return next(c for c in legal if c["type"] == "end_travel")
        travel = [c for c in legal if c["type"] == "travel" and not c["args"]["group"] and not c["args"].get("kami")]
        if self.traveller is None and travel:
            self.traveller = flow["active"]
            return travel[0]
        return next(c for c in legal if c["type"] == "end_activation")


def test_an_adventure_round_is_played_with_the_worker_taking_the_shoguns_turn_enemies_and_travel_events(stack):
    broker = Celery(broker=stack.redis_url)
    player = Player(stack, 0, f"jirobo-{uuid.uuid4().hex[:6]}")
    r = player.call("POST", "/api/matches/", json={"game": "harakiri", "seats": 1,
                                                   "options": {"phase": "adventure", "chapter": 1, "kami": KAMI}})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    assert player.call("POST", f"/api/matches/{match_id}/start/", json={}).status_code == 200
    party, views, duplicates = Party(), [], []

    def step():
        v = player.view(match_id, server=len(views) % 2)  # both ASGI servers
        views.append(v)
        game = v["view"]
        assert not v["status"]["finished"], game.get("result")
        if game["round"] >= 2 and game["flow"]["stage"] in ("characters", "activation"):
            return True  # round 1 played, and round 2's Shōgun's turn taken
        if SYSTEM in v["status"]["awaiting"]:
            if v["seq"] not in duplicates:  # a duplicate of the worker's task: taken once all the same
                duplicates.append(v["seq"])
                broker.send_task("workers.tasks.advance_match", args=[match_id, v["seq"]])
            return False
        if v["legal_commands"]:
            r = player.submit(match_id, party.pick(game, v["legal_commands"]), v["seq"])
            assert r.status_code in (201, 409), r.text
        return False

    stack.arm("advance", 0.3)  # the worker pauses before each step: the player sees SYSTEM awaited and duplicates the task
    try:
        wait_until(step, timeout=600, interval=0.05, what="round 1 and round 2's Shōgun's turn")
    finally:
        stack.disarm("advance")

    rows = stack.sql("SELECT seq, type, payload, actor FROM eventstore_matchevent WHERE match_id = %s ORDER BY seq", (match_id,))
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    events = [{"seq": s, "type": t, "payload": p, "actor": a} for s, t, p, a in rows]
    kinds = [e["type"] for e in events]
    # rules: Harakiri, "Shōgun's Turn": advance the round token, update the influence (not in round 1), draw an influence card, activate enemies
    for kind in ("RoundStarted", "InfluenceStepSkipped", "InfluenceMoved", "InfluenceCardDrawn", "EnemiesTurnStarted",
                 "EnemyMoved", "CharactersTurnStarted", "TravelEventDrawn", "TravelEventReturned", "RoundEnded"):
        assert kind in kinds, kind
    assert [e["payload"]["round"] for e in events if e["type"] == "RoundStarted"] == [1, 2]
    by_worker = [e for e in events if e["type"] in WORKER_EVENTS]
    assert all(e["actor"].get("seat") == SYSTEM and e["actor"]["kind"] == "worker" for e in by_worker), \
        [(e["seq"], e["type"], e["actor"]) for e in by_worker if e["actor"].get("kind") != "worker"]
    players = [e for e in events if e["actor"].get("seat") != SYSTEM]
    assert {"WeaponChosen", "CharacterActivated", "TravelStarted", "Moved", "ActivationEnded"} <= {e["type"] for e in players}
    drawn = next(e for e in events if e["type"] == "TravelEventDrawn")
    assert drawn["payload"]["character"] == party.traveller and drawn["payload"]["drawn_by"] == 0
    assert len(duplicates) >= 5
    # hidden information: the decks' orders never reach a player (sizes only)
    assert all(isinstance(n, int) for v in views for n in v["view"]["decks"].values())
    assert all(isinstance(v["view"]["queue"], int) for v in views)
    assert not player.ledger.lost(stack)
    assert_logs_sound(stack)
