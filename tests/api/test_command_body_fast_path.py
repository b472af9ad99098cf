"""``serializers.command_body``: the REST command POST's cheap parse. Whatever it accepts, it gives
exactly what ``CommandSerializer`` gives; whatever else it leaves to the serializer (None), which
then answers as it always did."""

import uuid

from hypothesis import given, settings
from hypothesis import strategies as st

from games.api.serializers import CommandSerializer, command_body

_text = st.one_of(st.sampled_from(["move", " move", "move ", "", "x" * 60, "x" * 61, "a\x00b",
                                                           "\ud800", "place_tile", "1", "\t", "é", "mo\nve"]),
                  st.text(max_size=70))
_uuid = st.one_of(st.uuids().map(str), st.uuids().map(lambda u: u.hex), st.uuids().map(lambda u: str(u).upper()),
                  st.uuids().map(lambda u: "{" + str(u) + "}"), st.uuids().map(lambda u: " " + str(u)),
                  st.uuids().map(lambda u: u.int), _text)
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                     max_leaves=6)
_values = {"command_id": _uuid, "expected_seq": st.one_of(st.sampled_from([-1, -2, 0, 2**40, True, False, 5.0, 1.5, "5", "-1",
                                                                           "5.0", " 7", None]), st.integers()),
           "type": st.one_of(_text, st.integers(), st.none(), st.booleans()), "args": _json}


_valid = {"command_id": st.uuids().map(str), "expected_seq": st.integers(0, 10**6),
          "type": st.text(st.characters(codec="ascii"), min_size=1, max_size=60), "args": st.dictionaries(st.text(max_size=5), _json, max_size=3)}


@st.composite
def _bodies(draw):
    """Mostly valid bodies with some fields left out or replaced by odd values (and sometimes more)."""
    body = {key: draw(_valid[key]) for key in _valid}
    for key in draw(st.sets(st.sampled_from(sorted(_values)))):
        if draw(st.booleans()):
            body[key] = draw(_values[key])
        else:
            del body[key]
    if draw(st.booleans()):
        body["extra"] = draw(_json)
    return body


@settings(max_examples=800, deadline=None)
@given(st.one_of(_bodies(), _json))
def test_what_the_fast_path_accepts_the_serializer_validates_to_the_same(data):
    fast = command_body(data)
    if fast is None:
        return
    serializer = CommandSerializer(data=data)
    assert serializer.is_valid(), (data, serializer.errors)
    assert fast == dict(serializer.validated_data)
    assert type(fast["command_id"]) is uuid.UUID and type(fast["args"]) is dict


def test_an_ordinary_command_takes_the_fast_path():
    cid = uuid.uuid4()
    body = {"command_id": str(cid), "expected_seq": 12, "type": "move", "args": {"to": [1, 2]}}
    assert command_body(body) == {"command_id": cid, "expected_seq": 12, "type": "move", "args": {"to": [1, 2]}}
    assert command_body({k: v for k, v in body.items() if k != "args"})["args"] == {}


_ODD = {
    "command_id": [None, 5, True, "", "not-a-uuid", " " + str(uuid.UUID(int=7)), "{" + str(uuid.UUID(int=7)) + "}",
                   uuid.UUID(int=7).hex, str(uuid.UUID(int=7)).upper(), [str(uuid.UUID(int=7))]],
    "expected_seq": [None, -1, 0, 2**40, True, False, 5.0, 1.5, "5", "-1", " 7", [], {}],
    "type": [None, "", " move", "move ", "x" * 60, "x" * 61, "a\x00b", "\ud800", "\t", "é", "mo\nve", 7, True, []],
    "args": [None, [], "x", 5, {"k": [1, {"n": None}]}, {}],
}


def _cases():
    valid = {"command_id": str(uuid.UUID(int=7)), "expected_seq": 3, "type": "move", "args": {"n": 1}}
    for key, odd in _ODD.items():
        yield {k: v for k, v in valid.items() if k != key}
        for value in odd:
            yield {**valid, key: value}


def test_each_odd_field_is_left_to_the_serializer_or_validated_alike():
    for body in _cases():
        fast, serializer = command_body(body), CommandSerializer(data=body)
        if not serializer.is_valid():
            assert fast is None, body
        else:
            assert fast is None or fast == dict(serializer.validated_data), body
