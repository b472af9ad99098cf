"""Commands over the socket: the same write path and error codes as REST."""

import uuid

import pytest

from games.application import services

from .conftest import assert_quiet, close_all, collect_until, db, head_of, open_socket, recv, seat_events, send

pytestmark = pytest.mark.django_db(transaction=True)


def command(cid, expected_seq, type_, args=None):
    body = {"type": type_}
    if args is not None:
        body["args"] = args
    return {"type": "command", "command_id": str(cid), "expected_seq": expected_seq, "command": body}


@pytest.fixture
async def sockets(started_pebbles):
    m, (u0, u1) = await db(started_pebbles)()
    c0, _ = await open_socket(m.pk, user=u0)
    c1, _ = await open_socket(m.pk, user=u1, via="token")
    h0, h1 = await recv(c0), await recv(c1)
    yield m, c0, c1, h0, h1
    await close_all(c0, c1)


async def test_command_success_then_push(sockets):
    m, c0, c1, h0, _ = sockets
    head = h0["seq"]
    play = h0["state"]["legal_commands"][0]
    cid = uuid.uuid4()
    await send(c0, command(cid, head, play["type"], play["args"]))
    result = await recv(c0)
    assert result["type"] == "command_result" and result["command_id"] == str(cid)
    assert result["seq"] == head + 1
    assert [e["seq"] for e in result["events"]] == [head + 1]
    assert result["events"] == await db(seat_events)(m.pk, 0, after=head)
    assert result["events"][0]["payload"]["tile"]["id"] == play["args"]["tile"]
    # ...and both sockets get the push (seat 1 sees the played tile, not seat 0's draw).
    legal = {}
    for comm, seat in ((c0, 0), (c1, 1)):
        msgs = await collect_until(comm, head + 1)
        assert [m_["type"] for m_ in msgs] == ["events", "state"]
        assert msgs[0]["events"] == await db(seat_events)(m.pk, seat, after=head)
        legal[seat] = msgs[1]["state"]["legal_commands"]
    assert legal[0] == [] and legal[1], "now seat 1 may act"


async def test_repeated_command_id_returns_the_same_outcome(sockets):
    m, c0, c1, h0, _ = sockets
    head = h0["seq"]
    play = h0["state"]["legal_commands"][0]
    cid = uuid.uuid4()
    await send(c0, command(cid, head, play["type"], play["args"]))
    first = await recv(c0)
    await collect_until(c0, head + 1)
    await send(c0, command(cid, head, play["type"], play["args"]))
    assert await recv(c0) == first
    await assert_quiet(c0)  # nothing appended, nothing pushed
    assert await db(head_of)(m.pk) == head + 1
    # The same id for a different command is refused.
    other = h0["state"]["legal_commands"][1]
    await send(c0, command(cid, head, other["type"], other["args"]))
    err = await recv(c0)
    assert err["type"] == "error" and err["code"] == "command_id_reused" and err["command_id"] == str(cid)


async def test_stale_expected_seq_is_a_version_conflict_with_resync(sockets):
    m, c0, c1, h0, _ = sockets
    head = h0["seq"]
    play = h0["state"]["legal_commands"][0]
    await send(c0, command(uuid.uuid4(), head - 1, play["type"], play["args"]))
    err = await recv(c0)
    assert err["type"] == "error" and err["code"] == "version_conflict"
    assert err["extra"] == {"current_seq": head} and err["resync"] is True
    assert await db(head_of)(m.pk) == head


async def test_not_your_decision_rule_violations_and_spectators(sockets, make_user):
    m, c0, c1, h0, h1 = sockets
    head = h0["seq"]
    cid = uuid.uuid4()
    await send(c1, command(cid, head, "pass", {}))
    err = await recv(c1)
    assert (err["code"], err["command_id"]) == ("not_your_decision", str(cid))
    await send(c0, command(uuid.uuid4(), head, "play", {"tile": "not-mine"}))
    assert (await recv(c0))["code"] == "illegal_tile"
    await send(c0, command(uuid.uuid4(), head, "fly"))
    assert (await recv(c0))["code"] == "unknown_command"
    # A logged-in user without a seat: not their decision; an anonymous spectator: not authenticated.
    other, _ = await open_socket(m.pk, user=await db(make_user)())
    await recv(other)
    await send(other, command(uuid.uuid4(), head, "pass", {}))
    assert (await recv(other))["code"] == "not_your_decision"
    # ...refused before the write path, as on REST: a stale seq must not answer version_conflict with the
    # live head (a delayed spectator of a tournament match would learn it)
    await send(other, command(uuid.uuid4(), 0, "pass", {}))
    refused = await recv(other)
    assert refused["code"] == "not_your_decision" and "current_seq" not in refused
    anon, _ = await open_socket(m.pk)
    await recv(anon)
    await send(anon, command(uuid.uuid4(), head, "pass", {}))
    assert (await recv(anon))["code"] == "not_authenticated"
    assert await db(head_of)(m.pk) == head
    await close_all(other, anon)


@pytest.mark.parametrize("raw, code", [
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    ('"ping"', "malformed"),
    ("{}", "malformed"),
    ('{"type": 7}', "malformed"),
    ('{"type": "dance"}', "malformed"),
    ('{"type": "command"}', "malformed"),
    ('{"type": "command", "command_id": "x", "expected_seq": 1, "command": {"type": "pass"}}', "malformed"),
    ('{"type": "command", "command_id": "6c0a0d1e-8a4b-4c51-9f2c-5a1d0e7f1b2a", "expected_seq": true, "command": {"type": "pass"}}', "malformed"),
    ('{"type": "command", "command_id": "6c0a0d1e-8a4b-4c51-9f2c-5a1d0e7f1b2a", "expected_seq": 1, "command": "pass"}', "malformed"),
    ('{"type": "command", "command_id": "6c0a0d1e-8a4b-4c51-9f2c-5a1d0e7f1b2a", "expected_seq": 1, "command": {"type": "pass", "args": [1]}}', "malformed"),
    ('{"type": "sync", "after": -1}', "malformed"),
    ('{"type": "sync", "after": "3"}', "malformed"),
    ("x" * 70000, "frame_too_large"),  # over MAX_MESSAGE_CHARS: said as such (it was a bare malformed)
    ("[" * 20000, "malformed"),
    ('{"type": "command", "command_id": "6c0a0d1e-8a4b-4c51-9f2c-5a1d0e7f1b2a", "expected_seq": NaN, "command": {"type": "pass"}}', "malformed"),
    ('{"type": "sync", "after": 1e400}', "malformed"),
])
async def test_bad_messages_get_an_error_and_the_socket_lives_on(sockets, raw, code):
    m, c0, *_ = sockets
    await send(c0, raw)
    err = await recv(c0)
    assert err["type"] == "error" and err["code"] == code, err
    await send(c0, {"type": "ping"})
    assert await recv(c0) == {"type": "pong"}


async def test_binary_frames_are_malformed(sockets):
    m, c0, *_ = sockets
    await c0.send_to(bytes_data=b"\x00\x01")
    assert (await recv(c0))["code"] == "malformed"
    await send(c0, {"type": "ping"})
    assert await recv(c0) == {"type": "pong"}


async def test_unexpected_failure_is_server_error_without_disconnect(sockets, monkeypatch):
    m, c0, c1, h0, _ = sockets

    def boom(**kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(services, "match_submit_command", boom)
    cid = uuid.uuid4()
    await send(c0, command(cid, h0["seq"], "pass", {}))
    err = await recv(c0)
    assert (err["code"], err["command_id"]) == ("server_error", str(cid))
    assert "kaboom" not in err["message"]
    await send(c0, {"type": "ping"})
    assert await recv(c0) == {"type": "pong"}


async def test_the_seat_is_resolved_again_for_every_command(make_user):
    """A socket opened before its user took a seat acts for that seat once it has it."""
    creator, joiner = await db(make_user)(), await db(make_user)()
    m = await db(services.match_create)(game="pebbles", seats=2, options={}, creator=creator)
    comm, _ = await open_socket(m.pk, user=joiner, via="token")
    hello = await recv(comm)
    assert hello["seat"] is None
    await send(comm, command(uuid.uuid4(), hello["seq"], "pass", {}))
    assert (await recv(comm))["code"] == "not_your_decision"  # no seat yet: refused before the write path, as on REST
    await db(services.match_join)(match_id=m.pk, user=joiner, seat=1)
    await db(services.match_start)(match_id=m.pk, user=creator)
    from .conftest import seat_view, submit

    play = (await db(seat_view)(m.pk, 0))["legal_commands"][0]
    await db(submit)(m.pk, creator, 0, play, await db(head_of)(m.pk))
    head = await db(head_of)(m.pk)
    msgs = await collect_until(comm, head)
    assert msgs[-1]["state"]["seat"] == 1 and msgs[-1]["state"]["legal_commands"]
    await send(comm, command(uuid.uuid4(), head, "pass", {}))
    result = await recv(comm)
    assert result["type"] == "command_result" and result["events"][0]["actor"]["seat"] == 1
    await comm.disconnect()


async def test_a_move_while_the_round_is_paused_is_refused_with_the_reason(sockets):
    # given a running match whose organizer paused the round (the clock is held)
    m, c0, c1, h0, _ = sockets
    head = h0["seq"]
    organizer = services.Actor("worker", extra={"task": "test", "purpose": "tournament_pause"})
    await db(services.match_hold_clock)(match_id=m.pk, actor=organizer, reason="power cut")
    await collect_until(c0, head + 1)
    # when the player whose turn it is moves over the socket
    play = h0["state"]["legal_commands"][0]
    cid = uuid.uuid4()
    await send(c0, command(cid, head + 1, play["type"], play["args"]))
    # then the move is refused as on REST, naming the pause's reason, and nothing is written
    err = await recv(c0)
    assert (err["type"], err["code"], err["command_id"]) == ("error", "match_paused", str(cid))
    assert err["message"] == "the round is paused: power cut"
    assert await db(head_of)(m.pk) == head + 1
