"""How a socket authenticates and what it may cost (issue #14 findings 2, 5 and 8, and the Origin rule).

- No long-lived credential in a URL: single-use tickets, an Authorization header, or a first
  ``auth`` message; ``?token=`` still works for the deprecation period and says so.
- Cookie sockets need an exact allowed Origin; ticket/token sockets need none (scripts).
- ``sync`` is answered in pages; a socket that sends too many messages is closed with 4429.
"""

import uuid
from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts import tokens
from config.asgi import application
from games.application import services

from .conftest import HOST, ORIGIN, close_all, db, login_session, open_socket, recv, send, token_key

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(path, headers=()):
    comm = WebsocketCommunicator(application, path, headers=[(b"host", HOST.encode()), *headers])
    connected, code = await comm.connect(timeout=5)
    assert connected, code
    return comm


def ticket_from_token(user) -> str:
    return tokens.ticket_issue(user_id=user.pk, token_key=token_key(user))[0]


def ticket_from_session(user) -> str:
    return tokens.ticket_issue(user_id=user.pk, session_key=login_session(user))[0]


@pytest.fixture
async def match(started_pebbles):
    return await db(started_pebbles)()


# -- credentials ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("issue", [ticket_from_token, ticket_from_session])
async def test_a_ticket_opens_a_socket_once_without_an_origin(match, issue):
    m, (u0, _) = match
    ticket = await db(issue)(u0)
    comm = await connect(f"/ws/matches/{m.pk}/?ticket={ticket}")  # a script: no Origin
    hello = await recv(comm)
    assert hello["type"] == "hello" and hello["seat"] == 0 and "deprecated" not in hello
    await comm.disconnect()
    again = await connect(f"/ws/matches/{m.pk}/?ticket={ticket}")
    assert (await recv(again))["code"] == "not_authenticated"
    assert await recv(again) == {"type": "__close__", "code": 4401}


async def test_a_ticket_socket_ends_with_the_login_it_came_from(match):
    m, (u0, _) = match
    ticket = await db(ticket_from_token)(u0)
    comm = await connect(f"/ws/matches/{m.pk}/?ticket={ticket}")
    assert (await recv(comm))["seat"] == 0
    await db(lambda: Token.objects.filter(user=u0).delete())()
    assert (await recv(comm))["code"] == "session_ended"
    assert await recv(comm) == {"type": "__close__", "code": 4401}


async def test_the_authorization_header_carries_a_token_without_an_origin(match):
    m, (_, u1) = match
    key = await db(token_key)(u1)
    comm = await connect(f"/ws/matches/{m.pk}/", [(b"authorization", f"Token {key}".encode())])
    hello = await recv(comm)
    assert hello["seat"] == 1 and "deprecated" not in hello
    await comm.disconnect()
    bad = await connect(f"/ws/matches/{m.pk}/", [(b"authorization", b"Token nope")])
    assert (await recv(bad))["code"] == "not_authenticated"


async def test_the_query_token_still_works_without_an_origin_but_is_deprecated(match):
    """The README promised scripts could connect with ?token= and no Origin; they were refused."""
    m, (u0, _) = match
    key = await db(token_key)(u0)
    comm = await connect(f"/ws/matches/{m.pk}/?token={key}")
    hello = await recv(comm)
    assert hello["seat"] == 0 and "socket-ticket" in hello["deprecated"]
    await comm.disconnect()


async def test_the_query_token_can_be_switched_off(match, settings):
    settings.SOCKET_QUERY_TOKEN_ALLOWED = False
    m, (u0, _) = match
    comm = await connect(f"/ws/matches/{m.pk}/?token={await db(token_key)(u0)}")
    assert (await recv(comm))["code"] == "not_authenticated"
    assert await recv(comm) == {"type": "__close__", "code": 4401}


async def test_an_expired_token_opens_no_socket(match, settings):
    m, (u0, _) = match
    key = await db(token_key)(u0)
    await db(lambda: Token.objects.filter(key=key).update(
        created=timezone.now() - timedelta(seconds=settings.API_TOKEN_TTL_SECONDS + 1)))()
    comm = await connect(f"/ws/matches/{m.pk}/", [(b"authorization", f"Token {key}".encode())])
    assert (await recv(comm))["code"] == "not_authenticated"


async def test_a_session_cookie_without_an_origin_is_not_trusted(match):
    m, (u0, _) = match
    session = await db(login_session)(u0)
    comm = await connect(f"/ws/matches/{m.pk}/", [(b"cookie", f"sessionid={session}".encode())])
    hello = await recv(comm)
    assert hello["type"] == "hello" and hello["seat"] is None  # an anonymous spectator, not u0
    await send(comm, {"type": "command", "command_id": str(uuid.uuid4()), "expected_seq": 1, "command": {"type": "pass"}})
    assert (await recv(comm))["code"] == "not_authenticated"
    await comm.disconnect()
    # With the page's Origin the same cookie is u0.
    comm, _ = await open_socket(m.pk, user=u0, via="session")
    assert (await recv(comm))["seat"] == 0
    await comm.disconnect()


@pytest.mark.parametrize("field,issue", [("token", token_key), ("ticket", ticket_from_session)])
async def test_an_anonymous_socket_can_authenticate_with_its_first_message(match, field, issue):
    m, (_, u1) = match
    comm = await connect(f"/ws/matches/{m.pk}/")
    assert (await recv(comm))["seat"] is None
    await send(comm, {"type": "auth", field: await db(issue)(u1)})
    hello = await recv(comm)
    assert hello["type"] == "hello" and hello["seat"] == 1
    await send(comm, {"type": "auth", "token": "again"})
    assert (await recv(comm))["code"] == "malformed"  # only once, and only first
    await comm.disconnect()


async def test_a_bad_first_message_credential_closes_the_socket(match):
    m, _ = match
    comm = await connect(f"/ws/matches/{m.pk}/")
    await recv(comm)
    await send(comm, {"type": "auth", "token": "nope"})
    assert (await recv(comm))["code"] == "not_authenticated"
    assert await recv(comm) == {"type": "__close__", "code": 4401}


async def test_auth_is_only_accepted_as_the_first_message(match):
    m, (u0, _) = match
    comm = await connect(f"/ws/matches/{m.pk}/")
    await recv(comm)
    await send(comm, {"type": "ping"})
    assert await recv(comm) == {"type": "pong"}
    await send(comm, {"type": "auth", "token": await db(token_key)(u0)})
    assert (await recv(comm))["code"] == "malformed"
    await comm.disconnect()


# -- command_id on the socket (finding 5: both transports alike) --------------------------------------


@pytest.mark.parametrize("command_id", [123, True, None])
async def test_a_socket_command_id_must_be_a_uuid_string(match, command_id):
    m, (u0, _) = match
    comm, _ = await open_socket(m.pk, user=u0)
    hello = await recv(comm)
    await send(comm, {"type": "command", "command_id": command_id, "expected_seq": hello["seq"], "command": {"type": "pass"}})
    assert (await recv(comm))["code"] == "malformed"
    await comm.disconnect()


# -- bounded reads (finding 8) ------------------------------------------------------------------------


def counter_match(make_user, adds):
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    for _ in range(adds):
        match.refresh_from_db()
        services.match_submit_command(match_id=match.pk, seat=0, actor=services.Actor.user(user),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq, type_="add", args={})
    match.refresh_from_db()
    return match


async def test_sync_is_answered_in_pages(make_user, settings):
    settings.SOCKET_SYNC_PAGE = 4
    m = await db(counter_match)(make_user, 6)  # seqs 1..10
    comm = await connect(f"/ws/matches/{m.pk}/", [(b"origin", ORIGIN.encode())])
    assert (await recv(comm))["seq"] == 10
    after, pages = 0, []
    while True:
        await send(comm, {"type": "sync", "after": after})
        page = await recv(comm)
        assert page["type"] == "events" and page["seq"] == 10 and len(page["events"]) <= 4
        pages.append([e["seq"] for e in page["events"]])
        after = pages[-1][-1]
        if not page.get("more"):
            break
    assert pages == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]
    state = await recv(comm)
    assert state["type"] == "state" and state["seq"] == 10  # the state follows the last page only
    await comm.disconnect()


async def test_a_flooding_socket_is_closed_with_4429(match, settings):
    settings.SOCKET_RATE_MESSAGES = 5
    settings.SOCKET_RATE_SECONDS = 3600  # the whole test lies inside one window
    m, _ = match
    comm = await connect(f"/ws/matches/{m.pk}/")
    await recv(comm)
    for _ in range(5):
        await send(comm, {"type": "ping"})
        assert await recv(comm) == {"type": "pong"}
    await send(comm, {"type": "sync", "after": 0})
    assert (await recv(comm))["code"] == "throttled"
    assert await recv(comm) == {"type": "__close__", "code": 4429}
    await close_all(comm)
