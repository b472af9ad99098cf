from .types import Command


def fold(engine, events, state=None):
    """The state after ``events``, starting from ``state`` (None = before the first event)."""
    return engine.evolve_all(state, events)


def apply_command(engine, state, command: Command, rng):
    """Decide and evolve in one step: ``(events, new_state)``. Raises RuleViolation."""
    events = engine.decide(state, command, rng)
    return events, fold(engine, events, state)
