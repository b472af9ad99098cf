"""Contract checks every registered engine must pass, whatever the game: JSON-shaped states and
events, a pure ``evolve``, deterministic decisions, and decisions that do not depend on where the
state came from (the platform hands engines canonical, key-sorted states: see
``games.kernel.canonical``; PostgreSQL's jsonb does not keep key order)."""

import copy
import json

import pytest

from games.kernel import SYSTEM, Command, Rng, RuleViolation, canonical, fold, registry

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


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_evolving_a_run_of_events_at_once_is_evolving_them_one_by_one(engine):
    """``evolve_all`` (which ``fold`` and the platform's fold use) may copy the state once for many
    events; it must give what ``evolve`` gives event by event, and leave its input alone."""
    seats = _seat_counts(engine)[0]
    log = engine.setup({}, seats, Rng(b"contract-9", "setup"))
    for step, state, command in _walk(engine, seats, 9):
        log += engine.decide(state, command, Rng(b"contract", f"step-{step}"))
    one_by_one = None
    for ev in log:
        one_by_one = engine.evolve(one_by_one, ev)
    assert engine.evolve_all(None, log) == one_by_one
    halfway = engine.evolve_all(None, log[: len(log) // 2])
    frozen = copy.deepcopy(halfway)
    assert engine.evolve_all(halfway, log[len(log) // 2:]) == one_by_one
    assert halfway == frozen, "evolve_all must not mutate its input"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_every_redacted_event_reads_as_a_sentence_for_every_viewer(engine):
    """``describe`` (the kernel's generic sentence for a game without its own) answers a string for
    each event as each seat and a spectator see it; a seat's name is used when known."""
    seats = _seat_counts(engine)[-1]
    names = [f"player{i}" for i in range(seats)]
    events = engine.setup({}, seats, Rng(b"contract-describe", "setup"))
    for step, state, command in _walk(engine, seats, 11):
        events += engine.decide(state, command, Rng(b"contract", f"step-{step}"))
    for ev in events:
        for viewer in list(range(seats)) + [None]:
            seen = engine.redact_event(ev, viewer)
            if seen is not None:
                text = engine.describe(seen, viewer, names)
                assert isinstance(text, str) and "\n" not in text, (ev["type"], text)
                assert engine.describe(seen, viewer, names) == text, "describe must be a pure function"


# -- malformed and illegal commands ---------------------------------------------------------------

WRONG_VALUES = (None, "", "x", -1, -(10**18), 10**18, True, False, 1.5, [], [None], {}, {"x": 1})
FUZZ_SEEDS = 3
FUZZ_EVERY = 2  # mutate the command of every other step of the walk: broad coverage, bounded runtime


def _wrong_values(value):
    """Values of the wrong type (or absurd range) to put where ``value`` is expected."""
    out = list(WRONG_VALUES) + [str(value), [value], {"value": value}]
    if isinstance(value, int) and not isinstance(value, bool):
        out += [value + 1, -value - 1, float(value)]  # 1.0 == 1 (and True == 1): neither is an int
    return out


def _mutated_args(args):
    """Each argument replaced by wrong values (one level into list/dict arguments too), each
    argument missing, no arguments, an extra unknown argument, and args that are not an object."""
    if not isinstance(args, dict):
        return [{}]
    out = [{}, dict(args, bogus=1), None, [], "x", list(args.items())]
    for key, value in args.items():
        out.append({k: v for k, v in args.items() if k != key})
        out += [dict(args, **{key: wrong}) for wrong in _wrong_values(value)]
        if isinstance(value, dict):
            for inner in value:
                out.append(dict(args, **{key: {k: v for k, v in value.items() if k != inner}}))
                out += [dict(args, **{key: dict(value, **{inner: w})}) for w in _wrong_values(value[inner])]
        elif isinstance(value, list) and value:
            out += [dict(args, **{key: value[:-1]}), dict(args, **{key: value + value[-1:]})]
            out += [dict(args, **{key: [w] + value[1:]}) for w in _wrong_values(value[0])]
    return out


def _mutations(engine, state, seats, command):
    """Malformed or illegal variants of a legal ``command``: wrong args, unknown types, wrong seats."""
    for args in _mutated_args(command.args):
        yield Command(type=command.type, args=args, seat=command.seat)
    for type_ in ("no_such_command", "", None, 7, [command.type], command.type.upper()):
        yield Command(type=type_, args=command.args, seat=command.seat)
    awaiting = engine.status(state).awaiting
    for seat in [*range(seats), SYSTEM, -1, seats, 10**9, None, "0", str(command.seat), False, True, 0.0, 1.0]:
        if seat not in awaiting or _lookalike(seat, command.seat) or isinstance(seat, str) and seat != SYSTEM:
            yield Command(type=command.type, args=command.args, seat=seat)


def _lookalike(a, b) -> bool:
    """Equal in Python (True == 1 == 1.0) but different JSON values: an engine must not take one
    for the other, so a command that only looks like a legal one is refused."""
    return a == b and json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True)


def _fields(command):
    return [command.type, command.args, command.seat]


def _wrapped_crash(violation):
    """A catch-all that re-raises any exception as a RuleViolation (message "KeyError: ...") still
    hides an engine bug: the command should be refused where it is parsed, with its own message."""
    cause = violation.__context__
    return cause is not None and not isinstance(cause, RuleViolation) and violation.message.startswith(
        f"{type(cause).__name__}:")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_malformed_and_illegal_commands_are_rule_violations(engine):
    """decide() answers anything it cannot play with a RuleViolation and never mutates the state;
    a mutation that happens to be legal must give events the engine can fold."""
    for seats in _seat_counts(engine):
        for seed in range(FUZZ_SEEDS):
            for step, state, command in _walk(engine, seats, seed):
                if step % FUZZ_EVERY:
                    continue
                frozen = copy.deepcopy(state)
                for mutant in _mutations(engine, state, seats, command):
                    where = f"{engine.slug} seats={seats} seed={seed} step={step} {mutant}"
                    try:
                        events = engine.decide(state, mutant, Rng(b"contract", f"fuzz-{step}"))
                    except RuleViolation as violation:
                        assert isinstance(violation.code, str) and violation.code, where
                        assert not _wrapped_crash(violation), f"{where}: {violation}"
                    except Exception as exc:  # noqa: BLE001 - any other exception is the bug under test
                        raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
                    else:
                        assert isinstance(events, list), where
                        lookalike = _lookalike(_fields(mutant), _fields(command))
                        assert not lookalike, f"{where}: accepted as if it were {command}"
                        fold(engine, events, copy.deepcopy(state))
                    assert state == frozen, f"{where}: decide must not mutate the state"
