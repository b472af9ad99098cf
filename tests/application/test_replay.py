"""Replay: for 200 seeds of random legal play on the test engine, the state rebuilt from the
events equals the live state the write path computed, with and without snapshots, and the
projections rebuilt from scratch equal the ones maintained incrementally."""

import uuid

import pytest

from games.application import selectors, services
from games.application.lobby import aggregate_fold
from games.eventstore import store
from games.eventstore.models import Snapshot
from games.kernel import SYSTEM, Rng
from games.projections.models import MatchSummary, PlayerRecord
from games.projections.updaters import summary_values

SEEDS = int(__import__("os").environ.get("REPLAY_SEEDS", "200"))

pytestmark = pytest.mark.django_db(transaction=True)


def _play_randomly(match, users, seed: int, max_commands: int = 400):
    rng = Rng(f"replay-{seed}".encode(), "test")
    engine = selectors.engine_of(match)
    for _ in range(max_commands):
        match.refresh_from_db()
        state = selectors.state_load(match)
        status = engine.status(state["game"])
        if status.finished:
            return
        seat = rng.choice(status.awaiting)
        if seat == SYSTEM:
            command = engine.system_command(state["game"])
            actor = services.Actor.worker("test")
        else:
            command = rng.choice(engine.legal_commands(state["game"], seat))
            actor = services.Actor.user(users[seat])
        services.match_submit_command(
            match_id=match.pk, seat=seat, actor=actor, command_id=uuid.uuid4(),
            expected_seq=match.head_seq, type_=command["type"], args=command["args"],
        )
    raise AssertionError("the random game did not end")


def test_rebuilt_state_equals_live_state_for_200_seeds(started_pebbles, settings):
    settings.SNAPSHOT_EVERY = 7
    mismatches = []
    for seed in range(SEEDS):
        seats = 2 + seed % 3
        match, users = started_pebbles(seats=seats, options={"target": 25 + seed % 10, "tiles": 18 + seed % 12})
        selectors.cache_clear()
        _play_randomly(match, users, seed)
        match.refresh_from_db()
        live = selectors._cache_get(match.pk, match.head_seq)  # what the write path folded incrementally
        assert live is not None, "the write path caches the state it computed on commit"
        engine = selectors.engine_of(match)
        from_scratch = aggregate_fold(engine, store.events_load(match))
        with_snapshots = selectors.state_load(match, use_cache=False, use_snapshots=True)
        without = selectors.state_load(match, use_cache=False, use_snapshots=False)
        assert Snapshot.objects.filter(match=match).exists()
        if not (live == from_scratch == with_snapshots == without):
            mismatches.append(seed)
        summary = MatchSummary.objects.get(match=match)
        assert summary.as_dict() == summary_values(engine, from_scratch, match.head_seq)
        assert summary.status == "finished"
    assert mismatches == []


def test_player_records_equal_a_recount(started_pebbles):
    for seed in range(6):
        match, users = started_pebbles(seats=2)
        _play_randomly(match, users, seed)
    recount = {}
    for summary in MatchSummary.objects.filter(status="finished"):
        for i, seat in enumerate(summary.seats):
            key = (seat["user_id"], summary.match.game)
            played, won = recount.get(key, (0, 0))
            recount[key] = (played + 1, won + int(i in summary.winners))
    stored = {(r.user_id, r.game): (r.played, r.won) for r in PlayerRecord.objects.all()}
    assert stored == recount and len(stored) == 12
