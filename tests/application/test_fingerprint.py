"""A command's fingerprint, which decides whether a repeated command id is a replay: the same
hash as the fingerprints already stored (``json.dumps`` with sorted keys, compact, ASCII only),
whichever road makes its text."""

import enum
import hashlib
import json
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.application.services import fingerprint
from games.kernel import SYSTEM

# What a client's JSON body or a worker's step can carry, and more: floats, big integers, any
# text (accents, quotes, control characters, DEL), keys in any order.
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=30,
)
SEATS = st.none() | st.integers(min_value=0, max_value=7) | st.just(SYSTEM)


def stored_fingerprint(seat, type_, args) -> str:
    """How every stored fingerprint was made."""
    text = json.dumps({"seat": seat, "type": type_, "args": args}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@settings(max_examples=400, deadline=None)
@given(seat=SEATS, type_=st.text(max_size=12), args=st.dictionaries(st.text(max_size=6), VALUES, max_size=5))
def test_the_fingerprint_is_the_stored_one_for_any_command(seat, type_, args):
    assert fingerprint(seat, type_, args) == stored_fingerprint(seat, type_, args)


class Colour(str, enum.Enum):
    RED = "red"


@pytest.mark.parametrize("value", [
    1.5e16, 1e-07, 2**70, (1, 2), Colour.RED, uuid.UUID(int=5), "caf\u00e9", "a\x7fb", 'say "hi"', "tab\there",
    {"b": 1, "a": [None, True]}, {1: "an integer key"},
], ids=repr)
def test_each_value_is_written_as_before(value):
    """Floats (``1.5e+16``, not ``1.5e16``), big integers, tuples, str subclasses, UUIDs, text
    that is not plain ASCII or has escapes, keys that are not strings: ``json.dumps``'s text."""
    args = {"value": value}
    assert fingerprint(0, "play", args) == stored_fingerprint(0, "play", args)


def test_a_different_command_has_a_different_fingerprint():
    assert fingerprint(0, "add", {"n": 1}) != fingerprint(0, "add", {"n": 2})
    assert fingerprint(0, "add", {"n": 1}) != fingerprint(1, "add", {"n": 1})
    assert fingerprint(0, "add", {"n": 1}) == fingerprint(0, "add", {"n": 1})
