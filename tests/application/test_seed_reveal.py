"""Recorded randomness: the seed's hash is public from the start, the seed is revealed in
MatchFinished, and anyone holding it can re-derive the shuffles recorded in the log."""

import hashlib
import json
import uuid

import pytest

from games.application import selectors, services
from games.eventstore import store
from games.kernel import Rng

pytestmark = pytest.mark.django_db


def test_seed_is_committed_then_revealed_and_reproduces_the_deal(started_pebbles):
    match, users = started_pebbles(seats=2, options={"target": 12, "bonus_rolls": False})
    created = store.events_load(match, until=1)[0]
    commitment = created["payload"]["seed_hash"]
    mid_game = json.dumps([selectors.view_for_seat(match, s) for s in (0, 1, None)]
                          + [selectors.events_for_seat(match, s) for s in (0, 1, None)])
    assert match.seed not in mid_game and commitment in mid_game

    for _ in range(200):
        match.refresh_from_db()
        state = selectors.state_load(match)
        if state["lobby"]["status"] == "finished":
            break
        seat = selectors.status_of(match, state)["awaiting"][0]
        cmd = selectors.view_for_seat(match, seat, state)["legal_commands"][0]
        services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=cmd["type"], args=cmd["args"])
    events = store.events_load(match)
    finished = events[-1]
    assert finished["type"] == "MatchFinished"
    revealed = bytes.fromhex(finished["payload"]["seed"])
    assert hashlib.sha256(revealed).hexdigest() == commitment

    # Verify the deal: the setup ran at the seq before MatchStarted with Rng(seed, "<match>:<seq>").
    started = next(e for e in events if e["type"] == "MatchStarted")
    engine = selectors.engine_of(match)
    redo = engine.setup(match.options, 2, Rng(revealed, f"{match.pk}:{started['seq'] - 1}"))
    dealt = next(e for e in events if e["type"] == "TilesDealt")
    assert redo[0]["payload"] == dealt["payload"]


class _Crashing:
    """Wraps an engine whose decide raises a non-rule exception (an engine bug)."""

    def __init__(self, engine):
        self._engine = engine

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def decide(self, state, command, rng):
        raise KeyError("bug in the engine")


def test_an_engine_bug_is_a_422_rejected_by_engine_and_appends_nothing(started_pebbles, monkeypatch):
    from games.kernel import RuleViolation

    match, users = started_pebbles(seats=2)
    engine = selectors.engine_of(match)
    monkeypatch.setattr(selectors, "engine_of", lambda m: _Crashing(engine))
    monkeypatch.setattr(services, "engine_of", lambda m: _Crashing(engine))
    head = match.head_seq
    with pytest.raises(RuleViolation) as caught:
        services.match_submit_command(match_id=match.pk, seat=0, actor=services.Actor.user(users[0]),
                                      command_id=uuid.uuid4(), expected_seq=head, type_="pass", args={})
    assert caught.value.code == "rejected_by_engine"
    match.refresh_from_db()
    assert match.head_seq == head
