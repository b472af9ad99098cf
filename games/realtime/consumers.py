"""The match socket: ``ws /ws/matches/{id}/``.

Server -> client (every message carries the match ``seq``):
  hello           on connect: {"type": "hello", "seq", "seat", "state": view_for_seat document}
  events, state   after each append, or on ``sync``: this seat's redacted events after the last seq
                  this socket was sent (contiguous), then the fresh view_for_seat document
  command_result  {"type", "command_id", "seq", "events"} for a command sent on this socket
  error           {"type", "code", "message", "extra"?, "command_id"?, "resync"?}
  pong
Client -> server: {"type": "ping"} | {"type": "sync", "after": N} |
  {"type": "command", "command_id": "<uuid>", "expected_seq": N, "command": {"type": ..., "args": {...}}} |
  {"type": "auth", "token" | "ticket": ...} (first message of an anonymous socket only; a new hello follows)

Reads are bounded: an ``events`` message (a ``sync`` answer or a push) carries at most
SOCKET_SYNC_PAGE seqs; when more remain it says ``"more": true`` (and no ``state`` follows): send
``sync`` again from the last seq received. Each socket may send SOCKET_RATE_MESSAGES messages per
SOCKET_RATE_SECONDS; beyond that it gets ``throttled`` and is closed with 4429.

The channel layer carries only ``{"type": "match.appended", "seq"}``: each socket reads what its
own seat may see from the store, so hidden data never crosses the layer. The layer is
at-most-once; a client that misses a push recovers with ``sync``.

When the database or Redis cannot be reached (at the handshake, on a message, on a push, or when
the channel layer loses Redis) the socket gets ``{"type": "error", "code": "unavailable"}`` and
is closed with 1013 (try again later): reconnect, ``sync`` from the last seq held, and resend an
unanswered command with its same ``command_id``.

Every incoming message is checked against the login the socket was opened with (and a timer
re-checks every SOCKET_AUTH_RECHECK_SECONDS): once it is gone the socket gets ``session_ended``
and is closed with 4401. The seat is re-resolved from the store for every command and push.
"""

import asyncio
import json
import logging
import time
import uuid
from collections import deque

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from games.application import selectors, services
from games.application.errors import MatchNotFound, as_unavailable
from games.application.hooks import match_group

from .auth import resolve_first_message, still_authorised
from .errors import close_code_for, error_for_exception, error_message

log = logging.getLogger(__name__)

CLOSE_UNAUTHORISED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_RATE_LIMITED = 4429
MAX_MESSAGE_CHARS = 64 * 1024


class BadMessage(Exception):
    def __init__(self, code: str, message: str, command_id=None):
        super().__init__(message)
        self.code, self.message, self.command_id = code, message, command_id


def _reject_constant(name):
    raise ValueError(f"{name} is not valid JSON")  # strict JSON, like the REST parser


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_command(msg: dict) -> tuple[str, int, str, dict]:
    """Validate a ``command`` message -> (command_id, expected_seq, type, args); raises BadMessage."""
    command_id = msg.get("command_id")
    echo = command_id if isinstance(command_id, str) and len(command_id) <= 64 else None
    if not isinstance(command_id, str):
        raise BadMessage("malformed", "command_id must be a UUID string", echo)
    try:
        uuid.UUID(command_id)
    except ValueError:
        raise BadMessage("malformed", "command_id must be a UUID string", echo)
    expected_seq = msg.get("expected_seq")
    if not _is_int(expected_seq) or expected_seq < 0:
        raise BadMessage("malformed", "expected_seq must be a non-negative integer", echo)
    command = msg.get("command")
    if not isinstance(command, dict) or not isinstance(command.get("type"), str) or not command["type"]:
        raise BadMessage("malformed", 'command must be an object {"type": "...", "args": {...}}', echo)
    args = command.get("args", {})
    if not isinstance(args, dict):
        raise BadMessage("malformed", "command.args must be an object", echo)
    return command_id, expected_seq, command["type"], args


class MatchConsumer(AsyncWebsocketConsumer):
    # -- lifecycle ------------------------------------------------------------------------
    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:  # e.g. the channel layer lost Redis (middleware.OutageGuard tells the client)
            self._stop_recheck()

    def _stop_recheck(self):
        self.ended = True
        task, self._recheck_task = getattr(self, "_recheck_task", None), None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def connect(self):
        self.match_id = None
        self.group = None
        self.last_sent = 0
        self.ended = False  # no more acting or pushing
        self.closed = False  # close frame sent: nothing more goes out
        self._recheck_task = None
        self.received = deque()  # monotonic times of recent incoming messages (rate limit)
        self.messages_seen = 0
        self.user = self.scope.get("user")
        self.auth = self.scope.get("kamiza_auth")
        await self.accept()

        if self.auth and self.auth.get("error"):
            await self._send(error_message("not_authenticated", "the ticket or token is not valid"))
            await self._close(CLOSE_UNAUTHORISED)
            return
        raw_id = self.scope["url_route"]["kwargs"]["match_id"]
        try:
            match = await database_sync_to_async(selectors.match_get)(raw_id)
        except MatchNotFound as exc:
            await self._send(error_for_exception(exc))
            await self._close(CLOSE_NOT_FOUND)
            return
        except Exception as exc:  # e.g. the database is down: say so, close "try again later" (1013)
            await self._fail(exc)
            return
        self.match_id = str(match.pk)
        try:
            # Join before reading, so an append landing in between is pushed, not lost.
            if self.channel_layer is not None:
                self.group = match_group(self.match_id)
                await self.channel_layer.group_add(self.group, self.channel_name)
            snap = await database_sync_to_async(self._read)(None)
        except Exception as exc:
            await self._fail(exc)
            return
        await self._hello(snap)

    async def _fail(self, exc, command_id=None):
        """Say what went wrong and close: 1013 when the database or Redis is unreachable (the
        client reconnects and syncs), else 1011."""
        await self._send(error_for_exception(exc, command_id=command_id))
        await self._close(close_code_for(exc))

    async def _hello(self, snap):
        if snap is None:
            await self._end_session()
            return
        self.last_sent = snap["seq"]
        hello = {"type": "hello", "seq": snap["seq"], "seat": snap["seat"], "state": snap["state"]}
        if self.scope.get("kamiza_deprecated"):
            hello["deprecated"] = self.scope["kamiza_deprecated"]
        await self._send(hello)
        if self.authenticated and self._recheck_task is None:
            self._recheck_task = asyncio.create_task(self._recheck_loop())

    async def disconnect(self, code):
        self._stop_recheck()
        if self.group is not None and self.channel_layer is not None:
            group, self.group = self.group, None
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as exc:  # Redis is gone: the membership expires with the group
                if as_unavailable(exc) is None:
                    raise

    @property
    def authenticated(self) -> bool:
        return bool(self.auth and self.auth.get("user_id") is not None)

    # -- sync helpers (each runs in database_sync_to_async) -------------------------------------
    def _authorised(self) -> bool:
        return still_authorised(self.auth)

    def _read(self, after):
        """Under one head: seat, seq, one page of events after ``after`` (or None) and the state.
        ``until`` is the last seq of the page, ``more`` whether the head lies beyond it.
        None = session ended."""
        if self.authenticated and not self._authorised():
            return None
        match = selectors.match_get(self.match_id)
        state = selectors.state_load(match)
        seat = selectors.seat_for_user(match, self.user if self.authenticated else None, state)
        events, until = None, match.head_seq
        if after is not None:
            until = min(match.head_seq, max(after, 0) + settings.SOCKET_SYNC_PAGE)
            events = selectors.events_for_seat(match, seat, after=after, until=until)
        return {"seq": match.head_seq, "seat": seat, "events": events, "until": until,
                "more": until < match.head_seq, "state": selectors.view_for_seat(match, seat, state)}

    def _submit(self, command_id, expected_seq, type_, args):
        if not self._authorised():
            return None
        match = selectors.match_get(self.match_id)
        seat = selectors.seat_for_user(match, self.user)
        return services.match_submit_command(
            match_id=match.pk, seat=seat, actor=services.Actor.user(self.user), command_id=command_id,
            expected_seq=expected_seq, type_=type_, args=args,
        ).as_dict()

    # -- outgoing ------------------------------------------------------------------------
    async def _send(self, payload: dict):
        if self.closed:  # e.g. a handler finishing after the re-check timer closed the socket
            return
        await self.send(text_data=json.dumps(payload, separators=(",", ":"), default=str))

    async def _close(self, code: int):
        self.ended = True
        if not self.closed:
            self.closed = True
            await self.close(code=code)

    async def _end_session(self):
        if self.ended:
            return
        self.ended = True
        await self._send(error_message("session_ended", "your login has ended; sign in again"))
        await self._close(CLOSE_UNAUTHORISED)
        task, self._recheck_task = self._recheck_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _push_since(self, after: int, *, always: bool = False):
        """Send one page of this seat's events after ``after`` (then the state, once the page
        reaches the head), and advance ``last_sent``."""
        snap = await database_sync_to_async(self._read)(after)
        if snap is None:
            await self._end_session()
            return
        if not snap["events"] and not always and not snap["more"]:
            return  # nothing new for us (a duplicate or stale publish)
        page = {"type": "events", "events": snap["events"], "seq": snap["seq"]}
        if snap["more"]:
            page["more"] = True
        await self._send(page)
        if not snap["more"]:
            await self._send({"type": "state", "seq": snap["seq"], "state": snap["state"]})
        self.last_sent = max(self.last_sent, snap["until"]) if not always else snap["until"]

    # -- channel layer -----------------------------------------------------------------------
    async def match_appended(self, message):
        if self.ended or self.match_id is None:
            return
        seq = message.get("seq")
        if _is_int(seq) and seq <= self.last_sent:
            return
        try:
            await self._push_since(self.last_sent)
        except Exception as exc:
            if as_unavailable(exc) is not None:  # close 1013: the client reconnects and syncs what it missed
                await self._fail(exc)
                return
            log.exception("push to a socket on match %s failed; the client recovers with sync", self.match_id)

    # -- periodic auth re-check --------------------------------------------------------------
    async def _recheck_loop(self):
        interval = float(getattr(settings, "SOCKET_AUTH_RECHECK_SECONDS", 2.0))
        while not self.ended:
            await asyncio.sleep(interval)
            if self.ended:
                return
            try:
                ok = await database_sync_to_async(self._authorised)()
            except Exception as exc:  # a transient DB error must not drop every socket; commands fail closed
                if as_unavailable(exc) is None:
                    log.exception("socket auth re-check failed")
                continue
            if not ok:
                await self._end_session()
                return

    # -- incoming ------------------------------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if self.ended or self.match_id is None:
            return
        if self._over_rate():
            await self._send(error_message("throttled", "too many messages on this socket"))
            await self._close(CLOSE_RATE_LIMITED)
            return
        self.messages_seen += 1
        command_id = None
        try:
            msg = self._decode(text_data)
            kind = msg["type"]
            if kind == "auth":
                await self._on_auth(msg)
                return
            if kind == "command" and isinstance(msg.get("command_id"), str) and len(msg["command_id"]) <= 64:
                command_id = msg["command_id"]
            if self.authenticated and not await database_sync_to_async(self._authorised)():
                await self._end_session()
                return
            if kind == "ping":
                await self._send({"type": "pong"})
            elif kind == "sync":
                await self._on_sync(msg)
            elif kind == "command":
                await self._on_command(msg)
            else:
                raise BadMessage("malformed", f"unknown message type {kind[:40]!r}")
        except BadMessage as exc:
            await self._send(error_message(exc.code, exc.message, command_id=exc.command_id))
        except Exception as exc:
            if as_unavailable(exc) is not None:
                await self._fail(exc, command_id=command_id)  # resend it (same command_id) after reconnecting
                return
            await self._send(error_for_exception(exc, command_id=command_id))

    def _over_rate(self) -> bool:
        """Sliding window: more than SOCKET_RATE_MESSAGES messages within SOCKET_RATE_SECONDS?"""
        now = time.monotonic()
        window = settings.SOCKET_RATE_SECONDS
        while self.received and now - self.received[0] > window:
            self.received.popleft()
        self.received.append(now)
        return len(self.received) > settings.SOCKET_RATE_MESSAGES

    async def _on_auth(self, msg):
        """Authenticate an anonymous socket with its first message, then greet it again."""
        if self.authenticated or self.messages_seen != 1:
            raise BadMessage("malformed", "auth must be the first message of an anonymous socket")
        if not isinstance(msg.get("token"), str) and not isinstance(msg.get("ticket"), str):
            raise BadMessage("malformed", 'auth needs a "token" or a "ticket" string')
        auth, user = await database_sync_to_async(resolve_first_message)(msg)
        if auth is None:
            await self._send(error_message("not_authenticated", "the ticket or token is not valid"))
            await self._close(CLOSE_UNAUTHORISED)
            return
        self.auth, self.user = auth, user
        await self._hello(await database_sync_to_async(self._read)(None))

    @staticmethod
    def _decode(text_data) -> dict:
        if text_data is None:
            raise BadMessage("malformed", "send JSON text frames")
        if len(text_data) > MAX_MESSAGE_CHARS:
            raise BadMessage("malformed", "message too large")
        try:
            msg = json.loads(text_data, parse_constant=_reject_constant)
        except (ValueError, RecursionError):  # RecursionError: absurdly nested JSON
            raise BadMessage("malformed", "not JSON")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise BadMessage("malformed", 'a message is a JSON object with a "type"')
        return msg

    async def _on_sync(self, msg):
        after = msg.get("after", 0)
        if not _is_int(after) or after < 0:
            raise BadMessage("malformed", "after must be a non-negative integer")
        await self._push_since(after, always=True)

    async def _on_command(self, msg):
        command_id, expected_seq, type_, args = parse_command(msg)
        if not self.authenticated:
            await self._send(error_message("not_authenticated", "sign in to play", command_id=command_id))
            return
        result = await database_sync_to_async(self._submit)(command_id, expected_seq, type_, args)
        if result is None:
            await self._end_session()
            return
        await self._send({"type": "command_result", "command_id": command_id, **result})
