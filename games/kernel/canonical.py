import json


def canonical(value):
    """The same JSON value with every object's keys in sorted order.

    States reach engines from three places: the in-process fold (insertion order), snapshots and
    PostgreSQL ``jsonb`` (which reorders keys). The platform hands engines canonical states so a
    decision never depends on where the state came from, even when an engine iterates a dict.
    """
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def _as_json(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def json_member(value, options) -> bool:
    """Whether ``value`` is one of ``options`` as JSON values: ``true``, ``1`` and ``1.0`` are three
    different values, where Python's ``True == 1 == 1.0`` would let a lookalike pass for a listed
    command or seat (engines check a submitted command against ``legal_commands`` with this)."""
    wanted = _as_json(value)
    return any(_as_json(option) == wanted for option in options)
