"""The match socket: ``ws /ws/matches/{id}/``.

Server -> client (every message carries the match ``seq``):
  hello           on connect: {"type": "hello", "seq", "seat", "state": view_for_seat document,
                  "spectators": how many watch the match, as this server last knew it}
  events, state   after each append, or on ``sync``: this seat's redacted events after the last seq
                  this socket was sent (contiguous), then the fresh view_for_seat document
  command_result  {"type", "command_id", "seq", "events"} for a command sent on this socket (always
                  before the pushes of the append it caused)
  error           {"type", "code", "message", "extra"?, "command_id"?, "resync"?}
  pong
  chat, chat_hidden, rematch   chat and rematch news, to the sockets allowed to read them (social.py)
  watchers        {"type": "watchers", "spectators": N} when the number of sockets without a seat on the
                  match, summed over every server, changes (a count only: nobody's name)
Client -> server: {"type": "ping"} | {"type": "sync", "after": N} |
  {"type": "command", "command_id": "<uuid>", "expected_seq": N, "command": {"type": ..., "args": {...}}} |
  {"type": "auth", "token" | "ticket": ...} (first message of an anonymous socket only; a new hello follows)

A message over MAX_MESSAGE_CHARS (64 Ki characters) is answered ``frame_too_large`` (its ``extra``:
``max_chars`` and ``size``) and not read; the socket stays open. Both servers hand every frame up to
SOCKET_TRANSPORT_MAX_BYTES (16 MiB) to the application, so that answer is the same in both run modes;
a larger frame is refused by the server itself, which closes the socket (1009, message too big).

Reads are bounded: an ``events`` message (a ``sync`` answer or a push) carries at most
SOCKET_SYNC_PAGE seqs; when more remain it says ``"more": true`` (and no ``state`` follows): send
``sync`` again from the last seq. Each socket may send SOCKET_RATE_MESSAGES messages per
SOCKET_RATE_SECONDS; beyond that it gets ``throttled`` and is closed with 4429.

Pushes come from this process's hub for the match (``games.realtime.fanout``): the channel layer
carries only ``{"type": "match.appended", "match", "seq"}``, the hub reads what each seat (and the
spectators) may see from the store once for all its sockets, so hidden data never crosses the
layer. The layer is at-most-once; a client that misses a push recovers with ``sync``.

Spectators of a match with a watch policy (a running tournament match) see it with the delay the
policy sets, on the hello, every push and every ``sync``; a user the policy bars (another player
of the tournament) gets ``live_view_refused`` and the socket is closed with 4403, until the match
is over.

When the database or Redis cannot be reached (at the handshake, on a message, on a push, or when
the server loses Redis) the socket gets ``{"type": "error", "code": "unavailable"}`` and is closed
with 1013 (try again later): reconnect, ``sync`` from the last seq held, and resend an unanswered
command with its same ``command_id``.

Every incoming message is checked against the login the socket was opened with (and the process
re-checks all its sockets every SOCKET_AUTH_RECHECK_SECONDS): once it is gone the socket gets
``session_ended`` and is closed with 4401. The seat is re-resolved from the store for every
command and push. A message costs at most one hop to a database thread.
"""

import json
import logging
import uuid

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from games.application import selectors, services
from games.application.errors import MatchNotFound, NotYourDecision, as_unavailable
from games.application.social import reaches
from games.application.watch import LiveViewRefused

from .auth import resolve_first_message, still_authorised_many
from .errors import CLOSE_UNAVAILABLE, close_code_for, error_for_exception, error_message, frame_too_large
from .dbthreads import db
from .fanout import Fanout, Outbox, encode
from .middleware import FRAME_SEND
from .ratelimit import CLOSE_RATE_LIMITED, MessageRate, throttled

log = logging.getLogger(__name__)

CLOSE_UNAUTHORISED = 4401
CLOSE_REFUSED = 4403
CLOSE_NOT_FOUND = 4404
MAX_MESSAGE_CHARS = 64 * 1024


class BadMessage(Exception):
    def __init__(self, code: str, message: str, command_id=None, extra: dict | None = None):
        super().__init__(message)
        self.code, self.message, self.command_id, self.extra = code, message, command_id, extra


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
    # No channel per socket: the process's fanout listens for the match and feeds its hub.
    channel_layer_alias = None

    async def dispatch(self, message):
        """As Channels dispatches, without its database-connection clean-up before every message
        (a thread hop each): every database call here goes through ``dbthreads.db``, which cleans up
        around the call itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # -- lifecycle ------------------------------------------------------------------------
    async def connect(self):
        self.match_id = None
        self.hub = None
        self.seat = None
        self.last_sent = 0
        self.ended = False  # no more acting or pushing
        self.closed = False  # close frame sent: nothing more goes out
        self.rate = MessageRate()  # this socket's incoming messages (rate limit, .ratelimit)
        self.messages_seen = 0
        self.user = self.scope.get("user")
        self.auth = self.scope.get("kamiza_auth")
        await self.accept()
        self.outbox = Outbox(self._send_text, self._close_now)

        if self.auth and self.auth.get("error"):
            self._send(error_message("not_authenticated", "the ticket or token is not valid"))
            self._close(CLOSE_UNAUTHORISED)
            return
        raw_id = self.scope["url_route"]["kwargs"]["match_id"]
        try:
            match = await db(selectors.match_get)(raw_id)
        except MatchNotFound as exc:
            self._send(error_for_exception(exc))
            self._close(CLOSE_NOT_FOUND)
            return
        except Exception as exc:  # e.g. the database is down: say so, close "try again later" (1013)
            self.fail(exc)
            return
        self.match_id = str(match.pk)
        await self._attach()

    async def _attach(self):
        try:
            self.hub = await Fanout.get().attach(self.match_id, self)
        except LiveViewRefused as exc:
            self._send(error_for_exception(exc))
            self._close(CLOSE_REFUSED)
        except Exception as exc:
            self.fail(exc)

    def fail(self, exc, command_id=None) -> None:
        """Say what went wrong and close: 1013 when the database or Redis is unreachable (the
        client reconnects and syncs), else 1011."""
        self._send(error_for_exception(exc, command_id=command_id))
        self._close(close_code_for(exc))

    def social(self, audience: str, text: str) -> None:
        """Chat or rematch news (``games.application.social``), when this socket's seat is in the audience."""
        if not self.ended and reaches(audience, self.seat):
            self.outbox.put(text)

    def hello(self, page, spectators: int = 0) -> None:
        """Called by the hub, under its lock, once this socket is in it (``spectators``: the match's, as
        the hub last knew them)."""
        hello = {"type": "hello", "seq": page.until, "seat": self.seat, "state": page.doc, "spectators": spectators}
        if self.scope.get("kamiza_deprecated"):
            hello["deprecated"] = self.scope["kamiza_deprecated"]
        self._send(hello)

    async def disconnect(self, code):
        self.ended = True
        self.outbox.stop()
        hub, self.hub = self.hub, None
        if hub is not None:
            await hub.leave(self)

    @property
    def authenticated(self) -> bool:
        return bool(self.auth and self.auth.get("user_id") is not None)

    @property
    def user_id(self):
        return self.auth["user_id"] if self.authenticated else None

    # -- sync helpers (each runs on the socket database threads, dbthreads.db) ------------------
    def _authorised(self) -> bool:
        return still_authorised_many([self.auth])[0]

    def _submit(self, command_id, expected_seq, type_, args):
        if not self._authorised():
            return None
        seat = selectors.seat_now(self.match_id, self.user)
        if seat is None:  # refused before the write path, as on REST: its version_conflict would tell the live head
            raise NotYourDecision("you have no seat in this match")
        return services.match_submit_command(
            match_id=self.match_id, seat=seat, actor=services.Actor.user(self.user), command_id=command_id,
            expected_seq=expected_seq, type_=type_, args=args,
        ).as_dict()

    # -- outgoing ------------------------------------------------------------------------
    def _send(self, payload: dict) -> None:
        if not self.closed:
            self.outbox.put(encode(payload))

    async def _send_text(self, text: str) -> None:
        frame_send = self.scope.get(FRAME_SEND)
        if frame_send is None:  # a stack without OutageGuard, which config.asgi never builds
            await self.send(text_data=text)
        else:
            await frame_send({"type": "websocket.send", "text": text})

    def _close(self, code: int) -> None:
        """Close once everything queued before has been sent."""
        self.ended = True
        if not self.closed:
            self.closed = True
            self.outbox.close(code)

    async def _close_now(self, code: int) -> None:
        await self.close(code=code)

    async def end_session(self):
        if self.ended:
            return
        self._send(error_message("session_ended", "your login has ended; sign in again"))
        self._close(CLOSE_UNAUTHORISED)

    # -- incoming ------------------------------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if self.ended or self.match_id is None:
            return
        if self.rate.over():
            self._send(throttled())
            self._close(CLOSE_RATE_LIMITED)
            return
        self.messages_seen += 1
        command_id = None
        try:
            msg = self._decode(text_data, bytes_data)
            kind = msg["type"]
            if kind == "auth":
                await self._on_auth(msg)
            elif kind == "command":
                if isinstance(msg.get("command_id"), str) and len(msg["command_id"]) <= 64:
                    command_id = msg["command_id"]
                await self._on_command(msg)
            elif kind == "ping":
                if self.authenticated and not await db(self._authorised)():
                    await self.end_session()
                    return
                self._send({"type": "pong"})
            elif kind == "sync":
                after = msg.get("after", 0)
                if not _is_int(after) or after < 0:
                    raise BadMessage("malformed", "after must be a non-negative integer")
                if self.hub is not None:
                    await self.hub.sync(self, after)
            else:
                raise BadMessage("malformed", f"unknown message type {kind[:40]!r}")
        except BadMessage as exc:
            self._send(error_message(exc.code, exc.message, command_id=exc.command_id, extra=exc.extra))
        except LiveViewRefused as exc:
            self._send(error_for_exception(exc))
            self._close(CLOSE_REFUSED)
        except Exception as exc:
            if as_unavailable(exc) is not None:
                self.fail(exc, command_id=command_id)  # resend it (same command_id) after reconnecting
                return
            self._send(error_for_exception(exc, command_id=command_id))

    async def _on_auth(self, msg):
        """Authenticate an anonymous socket with its first message, then greet it again."""
        if self.authenticated or self.messages_seen != 1:
            raise BadMessage("malformed", "auth must be the first message of an anonymous socket")
        if not isinstance(msg.get("token"), str) and not isinstance(msg.get("ticket"), str):
            raise BadMessage("malformed", 'auth needs a "token" or a "ticket" string')
        auth, user = await db(resolve_first_message)(msg)
        if auth is None:
            self._send(error_message("not_authenticated", "the ticket or token is not valid"))
            self._close(CLOSE_UNAUTHORISED)
            return
        hub, self.hub = self.hub, None
        if hub is not None:
            await hub.leave(self)
        self.auth, self.user = auth, user
        await self._attach()

    @staticmethod
    def _decode(text_data, bytes_data=None) -> dict:
        size = len(text_data) if text_data is not None else len(bytes_data or b"")
        if size > MAX_MESSAGE_CHARS:  # said before anything reads it, whatever kind of frame it came in
            error = frame_too_large(size, MAX_MESSAGE_CHARS)
            raise BadMessage(error["code"], error["message"], extra=error["extra"])
        if text_data is None:
            raise BadMessage("malformed", "send JSON text frames")
        try:
            msg = json.loads(text_data, parse_constant=_reject_constant)
        except (ValueError, RecursionError):  # RecursionError: absurdly nested JSON
            raise BadMessage("malformed", "not JSON")
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise BadMessage("malformed", 'a message is a JSON object with a "type"')
        return msg

    async def _on_command(self, msg):
        """The answer takes the outbox's next place, ahead of the pushes the append causes."""
        try:
            command_id, expected_seq, type_, args = parse_command(msg)
        except BadMessage as exc:
            self._send(error_message(exc.code, exc.message, command_id=exc.command_id))
            return
        if not self.authenticated:
            self._send(error_message("not_authenticated", "sign in to play", command_id=command_id))
            return
        gate = self.outbox.hold()
        answer, down = None, False
        try:
            result = await db(self._submit)(command_id, expected_seq, type_, args)
            if result is not None:
                answer = {"type": "command_result", "command_id": command_id, **result}
        except Exception as exc:
            answer, down = error_for_exception(exc, command_id=command_id), as_unavailable(exc) is not None
        finally:
            self.outbox.release(gate, encode(answer) if answer is not None and not self.closed else None)
        if down:  # resend it (same command_id) after reconnecting
            self._close(CLOSE_UNAVAILABLE)
        elif answer is None:
            await self.end_session()
