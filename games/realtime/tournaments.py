"""The tournament socket: ``ws /ws/tournaments/{id}/`` (read-only, anonymous welcome: tournament data
is public).

Server -> client:
  snapshot  on connect and whenever the tournament changed: {"type": "snapshot", "tournament": detail,
            "pairings": [...], "standings": [...]} (the REST shapes); a change that leaves all three
            as they were sends nothing
  error     {"type": "error", "code", "message"} (then close 4404 for an unknown tournament)
  pong
Client -> server: {"type": "ping"} | {"type": "sync"} (resend the snapshot).

Like the match socket (``.ratelimit``), each socket may send SOCKET_RATE_MESSAGES messages per
SOCKET_RATE_SECONDS; beyond that it gets ``throttled`` and is closed with 4429.

The channel layer carries only ``{"type": "tournament.changed"}`` (published by the services after
commit); the socket reads the current state itself through the selectors.
"""

import json
import logging

from channels.generic.websocket import AsyncWebsocketConsumer

from games.tournaments import selectors
from games.tournaments.live import tournament_group

from .dbthreads import db
from .errors import error_for_exception, error_message, frame_too_large
from .ratelimit import CLOSE_RATE_LIMITED, MessageRate, throttled

log = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404
MAX_MESSAGE_CHARS = 4096


def snapshot(tournament_id) -> dict:
    tournament = selectors.tournament_get(tournament_id)
    return {"type": "snapshot", "tournament": selectors.tournament_detail(tournament),
            "pairings": selectors.tournament_pairings(tournament), "standings": selectors.tournament_standings(tournament)}


class TournamentConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.tournament_id = None
        self.group = None
        self.last_text = None
        self.gone = False
        self.rate = MessageRate()
        await self.accept()
        raw_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        try:
            tournament = await db(selectors.tournament_get)(raw_id)
        except Exception as exc:  # not_found, or the database is down
            await self._send_text(json.dumps(error_for_exception(exc)))
            await self.close(code=CLOSE_NOT_FOUND if getattr(exc, "code", "") == "not_found" else 1011)
            return
        self.tournament_id = str(tournament.pk)
        if self.channel_layer is not None:  # join before reading: a change in between is pushed, not lost
            self.group = tournament_group(self.tournament_id)
            await self.channel_layer.group_add(self.group, self.channel_name)
        await self._push(always=True)

    async def disconnect(self, code):
        if self.group is not None and self.channel_layer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def _push(self, *, always: bool = False):
        try:
            doc = await db(snapshot)(self.tournament_id)
        except Exception as exc:
            await self._send_text(json.dumps(error_for_exception(exc)))
            return
        text = json.dumps(doc, separators=(",", ":"), default=str)
        if always or text != self.last_text:
            self.last_text = text
            await self._send_text(text)

    async def _send_text(self, text: str) -> None:
        """A push can race the client's leaving: the server then refuses the frame (Daphne raises,
        uvicorn too), and nothing more can reach that client, so it is not an error."""
        if self.gone:
            return
        try:
            await self.send(text_data=text)
        except Exception as exc:
            self.gone = True
            log.debug("tournament socket gone mid-send: %s: %s", type(exc).__name__, exc)

    async def tournament_changed(self, message):
        if self.tournament_id is not None and not self.gone:
            await self._push()

    async def receive(self, text_data=None, bytes_data=None):
        if self.tournament_id is None or self.gone:
            return
        if self.rate.over():
            await self._send_text(json.dumps(throttled()))
            self.gone = True  # nothing more goes out: no answer, no push
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        size = len(text_data) if text_data is not None else len(bytes_data or b"")
        if size > MAX_MESSAGE_CHARS:
            await self._send_text(json.dumps(frame_too_large(size, MAX_MESSAGE_CHARS)))
            return
        try:
            msg = json.loads(text_data) if text_data else None
        except (ValueError, RecursionError):
            msg = None
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "ping":
            await self._send_text(json.dumps({"type": "pong"}))
        elif kind == "sync":
            await self._push(always=True)
        else:
            await self._send_text(json.dumps(error_message("malformed", 'send {"type": "ping"} or {"type": "sync"}')))
