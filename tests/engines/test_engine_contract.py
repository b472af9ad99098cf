"""Contract checks every registered engine must pass, whatever the game.

The store hands engines states rebuilt from JSON; PostgreSQL's jsonb does not keep object key
order. So ``decide``, ``legal_commands``, ``status`` and ``view_for`` must not depend on the order
of keys in the state, or a worker retrying a step after a reload would decide differently from
the first attempt (and a replay from the revealed seed could not be verified)."""

import copy
import json

import pytest

from games.kernel import SYSTEM, Command, Rng, fold, registry

ENGINES = [e for e in registry.all_engines()]
STEPS = 120


def reorder(value):
    """The same JSON value with every object's keys in reverse order."""
    if isinstance(value, dict):
        return {k: reorder(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reorder(v) for v in value]
    return value


def _seat_counts(engine):
    return sorted({engine.min_seats, min(engine.max_seats, max(engine.min_seats, 2)), engine.max_seats})


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_decisions_do_not_depend_on_state_key_order(engine):
    for seats in _seat_counts(engine):
        for seed in range(3):
            state = fold(engine, engine.setup({}, seats, Rng(f"order-{seed}".encode(), "setup")))
            for step in range(STEPS):
                status = engine.status(state)
                shuffled = reorder(state)
                assert engine.status(shuffled) == status
                if status.finished:
                    break
                seat = status.awaiting[step % len(status.awaiting)]
                if seat == SYSTEM:
                    cmd = engine.system_command(state)
                    assert engine.system_command(shuffled) == cmd
                else:
                    legal = engine.legal_commands(state, seat)
                    assert engine.legal_commands(shuffled, seat) == legal, f"{engine.slug} step {step}"
                    assert engine.view_for(shuffled, seat) == engine.view_for(state, seat)
                    cmd = Rng(f"order-{seed}".encode(), f"pick-{step}").choice(legal)
                    cmd = {"type": cmd["type"], "args": cmd["args"]}
                context = f"step-{step}"
                command = Command(type=cmd["type"], args=cmd["args"], seat=seat)
                events = engine.decide(copy.deepcopy(state), command, Rng(b"same", context))
                again = engine.decide(shuffled, command, Rng(b"same", context))
                assert again == events, (
                    f"{engine.slug}: decide depends on key order at step {step} ({cmd['type']})")
                state = fold(engine, events, state)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_states_and_events_round_trip_through_json(engine):
    seats = _seat_counts(engine)[0]
    events = engine.setup({}, seats, Rng(b"json", "setup"))
    assert json.loads(json.dumps(events)) == events
    state = fold(engine, events)
    assert json.loads(json.dumps(state)) == state, "state must be JSON-shaped (string keys, no tuples)"
