"""Contract checks every registered engine must pass, whatever the game: JSON-shaped states and
events, a pure ``evolve``, deterministic decisions, and decisions that do not depend on where the
state came from (the platform hands engines canonical, key-sorted states: see
``games.kernel.canonical``; PostgreSQL's jsonb does not keep key order)."""

import copy
import json

import pytest

from games.kernel import SYSTEM, Command, Rng, canonical, fold, registry

ENGINES = list(registry.all_engines())
STEPS = 120


def reorder(value):
    """The same JSON value with every object's keys in reverse order (as a jsonb reload might)."""
    if isinstance(value, dict):
        return {k: reorder(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reorder(v) for v in value]
    return value


def _seat_counts(engine):
    return sorted({engine.min_seats, min(engine.max_seats, max(engine.min_seats, 2)), engine.max_seats})


def _walk(engine, seats, seed):
    """Random legal play yielding (state, seat, command) at each step."""
    state = canonical(fold(engine, engine.setup({}, seats, Rng(f"contract-{seed}".encode(), "setup"))))
    for step in range(STEPS):
        status = engine.status(state)
        if status.finished:
            return
        seat = status.awaiting[step % len(status.awaiting)]
        if seat == SYSTEM:
            cmd = engine.system_command(state)
        else:
            cmd = Rng(f"contract-{seed}".encode(), f"pick-{step}").choice(engine.legal_commands(state, seat))
        command = Command(type=cmd["type"], args=cmd["args"], seat=seat)
        yield step, state, command
        events = engine.decide(state, command, Rng(b"contract", f"step-{step}"))
        state = canonical(fold(engine, events, state))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_decisions_are_deterministic_and_independent_of_the_states_source(engine):
    for seats in _seat_counts(engine):
        for seed in range(3):
            for step, state, command in _walk(engine, seats, seed):
                frozen = copy.deepcopy(state)
                first = engine.decide(state, command, Rng(b"contract", f"step-{step}"))
                assert state == frozen, "decide must not mutate the state"
                reloaded = canonical(reorder(state))  # what the platform hands over after a jsonb reload
                assert engine.decide(reloaded, command, Rng(b"contract", f"step-{step}")) == first
                assert engine.status(reloaded) == engine.status(state)
                if command.seat != SYSTEM:
                    assert engine.legal_commands(reloaded, command.seat) == engine.legal_commands(state, command.seat)
                    assert engine.view_for(reloaded, command.seat) == engine.view_for(state, command.seat)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_states_and_events_are_json_shaped_and_evolve_is_pure(engine):
    seats = _seat_counts(engine)[0]
    for step, state, command in _walk(engine, seats, 7):
        events = engine.decide(state, command, Rng(b"contract", f"step-{step}"))
        assert json.loads(json.dumps(events)) == events
        frozen = copy.deepcopy(state)
        after = fold(engine, events, state)
        assert state == frozen, "evolve must not mutate its input"
        assert json.loads(json.dumps(after)) == after, "state must be JSON-shaped (string keys, no tuples)"
