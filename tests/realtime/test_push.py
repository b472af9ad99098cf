"""Live push after appends, contiguity, hidden events, seat changes, and catch-up with sync."""

import pytest

from games.application import hooks, services

from .conftest import assert_quiet, close_all, collect_until, db, head_of, open_socket, recv, seat_events, seat_view, send, submit

pytestmark = pytest.mark.django_db(transaction=True)


def _check_stream(messages, start_seq):
    """events/state pairs, each events batch continuing exactly where the last one ended."""
    expected = start_seq
    events = []
    for ev_msg, st_msg in zip(messages[::2], messages[1::2]):
        assert ev_msg["type"] == "events" and st_msg["type"] == "state", (ev_msg, st_msg)
        assert ev_msg["seq"] == st_msg["seq"] == ev_msg["events"][-1]["seq"]
        assert [e["seq"] for e in ev_msg["events"]] == list(range(expected + 1, ev_msg["seq"] + 1))
        expected = ev_msg["seq"]
        events.extend(ev_msg["events"])
    assert len(messages) % 2 == 0
    return events


async def test_live_push_reaches_every_socket_redacted_for_its_seat(started_pebbles):
    m, (u0, u1) = await db(started_pebbles)()
    c0, _ = await open_socket(m.pk, user=u0, via="session")
    c1, _ = await open_socket(m.pk, user=u1, via="token")
    spec, _ = await open_socket(m.pk)
    hellos = [await recv(c) for c in (c0, c1, spec)]
    start = hellos[0]["seq"]

    # A full round through the write path (no socket): seat 0 plays, seat 1 passes; the round's
    # end makes the SYSTEM seat roll a bonus (eager worker), a third append nobody submitted.
    play = hellos[0]["state"]["legal_commands"][0]
    await db(submit)(m.pk, u0, 0, play, start)
    v1 = await db(seat_view)(m.pk, 1)
    await db(submit)(m.pk, u1, 1, {"type": "pass"}, v1["seq"])
    head = await db(head_of)(m.pk)
    assert head == start + 3, "play, pass, bonus roll"

    for comm, seat in ((c0, 0), (c1, 1), (spec, None)):
        msgs = await collect_until(comm, head)
        got = _check_stream(msgs, start)
        assert [e["seq"] for e in got] == [start + 1, start + 2, start + 3]
        assert got == await db(seat_events)(m.pk, seat, after=start)
        assert msgs[-1]["state"] == await db(seat_view)(m.pk, seat)
        assert [e["type"] for e in got] == ["TilePlayed", "TurnPassed", "BonusRolled"]
        drawn_by_0, drawn_by_1 = got[0]["payload"]["drawn"], got[1]["payload"]["drawn"]
        assert isinstance(drawn_by_0, dict) == (seat == 0), "only the drawer sees the drawn tile"
        assert isinstance(drawn_by_1, dict) == (seat == 1)
        await assert_quiet(comm)
    await close_all(c0, c1, spec)


async def test_hidden_events_advance_seq_and_seat_changes_follow_the_lobby(make_user):
    creator, joiner = await db(make_user)(), await db(make_user)()
    m = await db(services.match_create)(game="pebbles", seats=2, options={}, creator=creator)
    c_creator, _ = await open_socket(m.pk, user=creator)
    c_joiner, _ = await open_socket(m.pk, user=joiner, via="token")
    assert (await recv(c_creator))["seat"] == 0
    hello = await recv(c_joiner)
    assert hello["seat"] is None and hello["state"]["status"]["phase"] == "lobby"
    start = hello["seq"]

    await db(services.match_join)(match_id=m.pk, user=joiner, seat=1)
    msgs = await collect_until(c_joiner, start + 1)
    assert msgs[-1]["state"]["seat"] == 1, "the joiner's socket now speaks for seat 1"

    scenario = {"seats": 2, "hands": {"0": [{"id": "a", "value": 5, "secret": "canary-aa"}], "1": []}, "pile": []}
    await db(services.match_load_scenario)(match_id=m.pk, user=creator, document=scenario)
    head = await db(head_of)(m.pk)
    msgs = await collect_until(c_joiner, head)
    events = [e for msg in msgs if msg["type"] == "events" for e in msg["events"]]
    assert [e["seq"] for e in events] == list(range(start + 2, head + 1))
    hidden = [e for e in events if e["type"] == "ScenarioLoaded"]
    assert hidden == [{**hidden[0], "payload": None, "hidden": True}]
    assert "canary-aa" not in str(msgs), "seat 0's hand never reaches seat 1"
    creator_msgs = await collect_until(c_creator, head)
    assert "canary-aa" in str(creator_msgs[-1]["state"]), "...but seat 0 sees it in its own view"
    await close_all(c_creator, c_joiner)


async def test_catch_up_after_reconnect_with_sync(started_pebbles):
    m, (u0, u1) = await db(started_pebbles)()
    comm, _ = await open_socket(m.pk, user=u1)
    hello = await recv(comm)
    seen = hello["seq"]
    await comm.disconnect()

    # While the client is away: two full rounds (4 moves + 2 bonus rolls).
    for move in range(4):
        seat = move % 2
        st = await db(seat_view)(m.pk, seat)
        await db(submit)(m.pk, (u0, u1)[seat], seat, st["legal_commands"][-1], st["seq"])
    head = await db(head_of)(m.pk)
    assert head == seen + 6

    comm, _ = await open_socket(m.pk, user=u1)
    again = await recv(comm)
    assert again["type"] == "hello" and again["seq"] == head
    await send(comm, {"type": "sync", "after": seen})
    ev_msg, st_msg = await recv(comm), await recv(comm)
    assert ev_msg["type"] == "events" and ev_msg["seq"] == head
    assert [e["seq"] for e in ev_msg["events"]] == list(range(seen + 1, head + 1))
    assert ev_msg["events"] == await db(seat_events)(m.pk, 1, after=seen)
    assert st_msg == {"type": "state", "seq": head, "state": await db(seat_view)(m.pk, 1)}
    # Syncing at the head is an empty batch plus the state, not an error.
    await send(comm, {"type": "sync", "after": head})
    assert (await recv(comm)) == {"type": "events", "events": [], "seq": head}
    assert (await recv(comm))["type"] == "state"
    await assert_quiet(comm)
    await comm.disconnect()


async def test_a_lost_publish_is_healed_by_the_next_one(started_pebbles, monkeypatch):
    """The layer is at-most-once: drop one publish; the next push still carries the missed event."""
    m, (u0, u1) = await db(started_pebbles)()
    comm, _ = await open_socket(m.pk, user=u1)
    start = (await recv(comm))["seq"]
    real, dropped = hooks.publish_appended, []
    monkeypatch.setattr(hooks, "publish_appended", lambda match_id, seq: dropped.append(seq))
    play = (await db(seat_view)(m.pk, 0))["legal_commands"][0]
    await db(submit)(m.pk, u0, 0, play, start)
    assert dropped == [start + 1]
    await assert_quiet(comm)
    monkeypatch.setattr(hooks, "publish_appended", real)
    await db(submit)(m.pk, u1, 1, {"type": "pass"}, start + 1)
    head = await db(head_of)(m.pk)
    msgs = await collect_until(comm, head)
    events = _check_stream(msgs, start)
    assert [e["seq"] for e in events] == list(range(start + 1, head + 1))
    await comm.disconnect()


async def test_a_push_that_fails_for_one_socket_closes_that_socket_only(started_pebbles, monkeypatch, settings):
    """A socket that is not where the hub is gets a page read for it alone; when that read fails
    (a bug, not an outage), that socket is told and closed (1011: it reconnects and syncs), and the
    others still get the push."""
    from games.realtime import fanout

    # given a player's socket and a spectator's socket that synced back to an old page
    settings.SOCKET_SYNC_PAGE = 1
    m, (u0, u1) = await db(started_pebbles)()
    player, _ = await open_socket(m.pk, user=u0)
    spectator, _ = await open_socket(m.pk)
    start = (await recv(player))["seq"]
    assert (await recv(spectator))["type"] == "hello"
    await send(spectator, {"type": "sync", "after": 0})
    assert (await recv(spectator))["more"] is True  # it now stands at seq 1, behind the hub
    real_page_read = fanout._page_read

    def failing_for_spectators(match_id, sock, after):
        if not sock.authenticated and after is not None:
            raise RuntimeError("a bug in one socket's read")
        return real_page_read(match_id, sock, after)

    monkeypatch.setattr(fanout, "_page_read", failing_for_spectators)
    # when the player moves (one event)
    play = (await db(seat_view)(m.pk, 0))["legal_commands"][0]
    await db(submit)(m.pk, u0, 0, play, start)
    # then the spectator is told and closed, and the player still gets the push
    error = await recv(spectator)
    assert error["type"] == "error" and error["code"] == "server_error", error
    assert await recv(spectator) == {"type": "__close__", "code": 1011}
    msgs = await collect_until(player, start + 1)
    assert [e["seq"] for e in _check_stream(msgs, start)] == [start + 1]
    await close_all(player, spectator)


async def test_pushed_frames_skip_the_session_layer(started_pebbles, monkeypatch):
    """Text frames go from the consumer straight to the server's send (games.realtime.middleware
    FRAME_SEND): Channels' session wrapper, which only acts on the handshake's answer, sees the
    accept and nothing after it, and every frame still arrives."""
    from channels.sessions import InstanceSessionWrapper

    wrapped = []
    session_send = InstanceSessionWrapper.send

    async def counted(self, message):
        wrapped.append(message["type"])
        return await session_send(self, message)

    monkeypatch.setattr(InstanceSessionWrapper, "send", counted)
    m, (u0, _) = await db(started_pebbles)()
    comm, _ = await open_socket(m.pk, user=u0, via="session")
    hello = await recv(comm)
    await db(submit)(m.pk, u0, 0, hello["state"]["legal_commands"][0], hello["seq"])
    head = await db(head_of)(m.pk)
    _check_stream(await collect_until(comm, head), hello["seq"])
    assert wrapped == ["websocket.accept"]
    await comm.disconnect()
