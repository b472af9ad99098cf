"""The platform's canonical form of a state: sorted keys, whichever road computes it."""

import enum

from hypothesis import given, settings
from hypothesis import strategies as st

from games.kernel import canonical, json_copy
from games.kernel.canonical import sorted_keys

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=40,
)


def _shape(value):
    """The value with each dict's key order made visible."""
    if isinstance(value, dict):
        return ("dict", [(k, _shape(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_shape(v) for v in value])
    return (type(value).__name__, value)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_plain_json_comes_out_exactly_as_the_recursive_sort_gives_it(value):
    assert _shape(canonical(value)) == _shape(sorted_keys(value))


class Name(str):
    pass


class Kind(enum.Enum):
    SEAT = "seat"


def test_what_orjson_refuses_is_sorted_and_kept_as_it_is():
    for value in ({2: "b", 1: "a"}, {"b": 2**70, "a": 1}, {"b": Name("x"), "a": [(1, 2)]}):
        out = canonical(value)
        assert _shape(out) == _shape(sorted_keys(value))
        assert list(out) == sorted(value)
    assert type(canonical({"z": [Name("x")]})["z"][0]) is Name


def test_what_a_reload_would_change_the_fast_road_changes_alike():
    assert canonical({"b": (1, 2), "a": Kind.SEAT, "c": float("nan")}) == {"a": "seat", "b": [1, 2], "c": None}


def test_a_canonical_state_is_a_copy():
    state = {"b": {"deck": [1, 2]}, "a": []}
    out = canonical(state)
    out["b"]["deck"].append(3)
    assert state == {"b": {"deck": [1, 2]}, "a": []}


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_a_json_copy_is_equal_in_the_same_key_order_and_shares_nothing(value):
    copied = json_copy(value)
    assert _shape(copied) == _shape(value)
    if isinstance(value, (dict, list)):
        assert copied is not value
        copied_containers = {id(c) for c in _containers(copied)}
        assert not copied_containers & {id(c) for c in _containers(value)}


def _containers(value):
    if isinstance(value, (dict, list)):
        yield value
        for v in value.values() if isinstance(value, dict) else value:
            yield from _containers(v)


def test_a_json_copy_of_what_orjson_refuses_is_a_deep_copy_of_it_as_it_is():
    for value in ({2: ["b"], 1: "a"}, {"b": [2**70]}, [Name("x"), {"a": (1, 2)}]):
        copied = json_copy(value)
        assert _shape(copied) == _shape(value) and copied is not value
    assert type(json_copy([Name("x")])[0]) is Name
