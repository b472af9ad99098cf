import copy
import json

import orjson

# orjson hands these to ``_not_plain_json`` instead of writing them its own way (a str or int
# subclass, a dataclass, a datetime), so that only JSON values take orjson's road.
_JSON_ONLY = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def canonical(value):
    """The same JSON value with every object's keys in sorted order.

    States reach engines from three places: the in-process fold (insertion order), snapshots and
    PostgreSQL ``jsonb`` (which reorders keys). The platform hands engines canonical states so a
    decision never depends on where the state came from, even when an engine iterates a dict.

    Every command and every push makes a whole game state canonical, so plain JSON goes through
    orjson (written with sorted keys and read back: 3 to 4 times faster than sorting in Python on a
    game's state); anything orjson refuses (keys that are not strings, integers past 64 bits, other
    objects) is sorted here, and kept as it is. As a reload from the store would, the fast road
    gives tuples back as lists, enum members as their values, and NaN or an infinity (which JSON
    cannot hold) as None.
    """
    try:
        return orjson.loads(orjson.dumps(value, default=_not_plain_json, option=_JSON_ONLY | orjson.OPT_SORT_KEYS))
    except orjson.JSONEncodeError:
        return sorted_keys(value)


def _not_plain_json(value):
    raise TypeError(f"not plain JSON: {type(value).__name__}")


def json_copy(value):
    """A deep copy of a JSON value, keys in the same order: orjson writes it and reads it back,
    several times faster than ``copy.deepcopy`` or a recursive copy on a game's state; what orjson
    refuses (keys that are not strings, integers past 64 bits, other objects) goes to
    ``copy.deepcopy``. As in ``canonical``, tuples come back as lists and NaN as None."""
    if not isinstance(value, (dict, list)):
        return copy.deepcopy(value)
    try:
        return orjson.loads(orjson.dumps(value, default=_not_plain_json, option=_JSON_ONLY))
    except orjson.JSONEncodeError:
        return copy.deepcopy(value)


def sorted_keys(value):
    """``canonical`` for any value: dicts and lists rebuilt with sorted keys, anything else as it is."""
    if isinstance(value, dict):
        return {k: sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sorted_keys(v) for v in value]
    return value


def dicts_in(value):
    """Every object inside a JSON value (itself included), each before the objects inside it, in
    document order."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from dicts_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from dicts_in(v)


def normalise(value):
    """JSON round trip: what a JSONField would store (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


MISSING = "<missing>"


def first_difference(stored, rebuilt, path: str = "state"):
    """(path, stored, rebuilt) of the first place two JSON values differ, or None if equal."""
    if isinstance(stored, dict) and isinstance(rebuilt, dict):
        for key in sorted(set(stored) | set(rebuilt), key=str):
            sub = f"{path}.{key}"
            if key not in stored:
                return sub, MISSING, rebuilt[key]
            if key not in rebuilt:
                return sub, stored[key], MISSING
            found = first_difference(stored[key], rebuilt[key], sub)
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(rebuilt, list):
        for i, (a, b) in enumerate(zip(stored, rebuilt)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(stored) != len(rebuilt):
            return f"{path}.length", len(stored), len(rebuilt)
        return None
    if stored != rebuilt or type(stored) is not type(rebuilt):
        return path, stored, rebuilt
    return None


def _as_json(value) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def json_member(value, options) -> bool:
    """Whether ``value`` is one of ``options`` as JSON values: ``true``, ``1`` and ``1.0`` are three
    different values, where Python's ``True == 1 == 1.0`` would let a lookalike pass for a listed
    command or seat (engines check a submitted command against ``legal_commands`` with this)."""
    wanted = _as_json(value)
    return any(_as_json(option) == wanted for option in options)
