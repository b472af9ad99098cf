"""Handshake: hello per seat, spectators, unknown matches, Origin and token refusals."""

import uuid

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

from .conftest import HOST, ORIGIN, close_all, db, open_socket, recv, seat_view

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def match(started_pebbles):
    return started_pebbles()


async def test_hello_gives_each_seat_its_own_view(match, make_user):
    m, (u0, u1) = match
    stranger = await db(make_user)()
    c0, _ = await open_socket(m.pk, user=u0, via="session")
    c1, _ = await open_socket(m.pk, user=u1, via="token")
    spec, _ = await open_socket(m.pk)
    other, _ = await open_socket(m.pk, user=stranger)  # logged in, no seat: a spectator
    hellos = [await recv(c) for c in (c0, c1, spec, other)]
    assert [h["type"] for h in hellos] == ["hello"] * 4
    assert [h["seat"] for h in hellos] == [0, 1, None, None]
    assert {h["seq"] for h in hellos} == {m.head_seq}
    for h, seat in zip(hellos, (0, 1, None, None)):
        assert h["state"] == await db(seat_view)(m.pk, seat)
    assert hellos[0]["state"]["legal_commands"], "seat 0 moves first"
    assert hellos[1]["state"]["legal_commands"] == []
    assert hellos[0]["state"]["view"]["my_hand"] != hellos[1]["state"]["view"]["my_hand"]
    assert hellos[2]["state"]["view"]["my_hand"] == []
    await close_all(c0, c1, spec, other)


@pytest.mark.parametrize("match_id", ["0b9a3c1e-5d2f-4a57-9a0e-3f1c7d2b8e64", "not-a-uuid", "x" * 300])
async def test_unknown_match_is_not_found_then_closed(match_id):
    comm = WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=[(b"host", HOST.encode()), (b"origin", ORIGIN.encode())])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    err = await recv(comm)
    assert err["type"] == "error" and err["code"] == "not_found"
    assert await recv(comm) == {"type": "__close__", "code": 4404}
    await comm.disconnect()


async def test_foreign_origin_is_refused(match):
    m, _ = match
    # Exact origins only: another host, a lookalike host, and the site's own host on another scheme
    # or port are all refused (before: any scheme and port of an allowed host got in).
    for origin in ("http://evil.example", "https://kamiza.test.evil.example", "https://kamiza.test",
                   "http://kamiza.test:8443", "null"):
        headers = [(b"host", HOST.encode()), (b"origin", origin.encode())]
        comm = WebsocketCommunicator(application, f"/ws/matches/{m.pk}/", headers=headers)
        connected, _ = await comm.connect(timeout=5)
        assert not connected, origin
    # ...while the page's own origin (the socket's scheme and Host) gets in.
    comm = WebsocketCommunicator(application, f"/ws/matches/{m.pk}/", headers=[(b"host", HOST.encode()), (b"origin", ORIGIN.encode())])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert (await recv(comm))["type"] == "hello"
    await comm.disconnect()


async def test_listed_origins_get_in_exactly(match, settings):
    m, _ = match
    settings.SOCKET_ALLOWED_ORIGINS = ["https://play.kamiza.test:8443"]
    for origin, ok in (("https://play.kamiza.test:8443", True), ("https://play.kamiza.test", False),
                       ("http://play.kamiza.test:8443", False)):
        comm = WebsocketCommunicator(application, f"/ws/matches/{m.pk}/", headers=[(b"host", HOST.encode()), (b"origin", origin.encode())])
        connected, _ = await comm.connect(timeout=5)
        assert connected is ok, origin
        if connected:
            await comm.disconnect()


async def test_wildcard_allowed_hosts_still_needs_the_exact_origin(match, settings):
    m, _ = match
    settings.ALLOWED_HOSTS = ["*"]
    comm = WebsocketCommunicator(application, f"/ws/matches/{m.pk}/", headers=[(b"host", HOST.encode()), (b"origin", b"http://anything.example")])
    connected, _ = await comm.connect(timeout=5)
    assert not connected
    comm = WebsocketCommunicator(application, f"/ws/matches/{m.pk}/", headers=[(b"host", HOST.encode()), (b"origin", ORIGIN.encode())])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert (await recv(comm))["type"] == "hello"
    await comm.disconnect()


async def test_bad_token_is_refused_not_downgraded(match):
    m, _ = match
    comm = WebsocketCommunicator(application, f"/ws/matches/{m.pk}/?token=nope", headers=[(b"host", HOST.encode()), (b"origin", ORIGIN.encode())])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    err = await recv(comm)
    assert err["type"] == "error" and err["code"] == "not_authenticated"
    assert await recv(comm) == {"type": "__close__", "code": 4401}
    await comm.disconnect()


async def test_token_of_a_deactivated_user_is_refused(match):
    m, (u0, _) = match
    comm, _ = await open_socket(m.pk, user=u0, via="token")
    assert (await recv(comm))["seat"] == 0
    await comm.disconnect()
    u0.is_active = False
    await db(u0.save)()
    comm, _ = await open_socket(m.pk, user=u0, via="token")
    assert (await recv(comm))["code"] == "not_authenticated"
    assert (await recv(comm))["code"] == 4401


async def test_other_paths_are_refused():
    comm = WebsocketCommunicator(application, "/ws/elsewhere/", headers=[(b"host", HOST.encode()), (b"origin", ORIGIN.encode())])
    connected, _ = await comm.connect(timeout=5)
    assert not connected


async def test_a_failing_store_at_connect_is_a_server_error_not_a_crash(match, monkeypatch):
    from games.application import selectors

    m, (u0, _) = match

    def down(*args, **kwargs):
        raise RuntimeError("database unavailable")

    monkeypatch.setattr(selectors, "match_get", down)
    comm = WebsocketCommunicator(application, f"/ws/matches/{m.pk}/", headers=[(b"host", HOST.encode()), (b"origin", ORIGIN.encode())])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    err = await recv(comm)
    assert err["code"] == "server_error" and "unavailable" not in err["message"]
    assert await recv(comm) == {"type": "__close__", "code": 1011}
    await comm.disconnect()
