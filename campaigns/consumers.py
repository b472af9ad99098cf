"""The campaign socket: ``ws /ws/campaigns/{id}/`` (read-only, anonymous welcome: a campaign's page is
public). It tells a campaign's page that the campaign changed (a player joined or left, it started,
was cancelled or abandoned, a phase ended or opened); the page then fetches its own server-rendered
fragment, as it does when its current phase match moves (one rendering path, nothing more to redact).

Server -> client:
  hello    {"type": "hello"} once listening (a page refreshes then: whatever changed before is caught up)
  changed  {"type": "changed"} after each committed campaign write (``campaigns.live``)
  error    {"type": "error", "code", "message"} (then close 4404 for an unknown campaign)
  pong
Client -> server: {"type": "ping"}.

Like the match and tournament sockets, each socket may send SOCKET_RATE_MESSAGES messages per
SOCKET_RATE_SECONDS; beyond that it gets ``throttled`` and is closed with 4429.
"""

import json
import logging

from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.exceptions import ValidationError

from games.realtime.dbthreads import db
from games.realtime.errors import close_code_for, error_for_exception, error_message, frame_too_large
from games.realtime.ratelimit import CLOSE_RATE_LIMITED, MessageRate, throttled

from .domain import CampaignRefused
from .live import campaign_group
from .models import Campaign

log = logging.getLogger(__name__)

CLOSE_NOT_FOUND = 4404
MAX_MESSAGE_CHARS = 4096


def campaign_exists(raw_id) -> str:
    """The campaign's id as text; raises ``CampaignRefused(not_found)`` for an unknown or malformed one
    (a database outage raises as it is: the socket says so and closes 1011)."""
    try:
        return str(Campaign.objects.only("pk").get(pk=raw_id).pk)
    except (Campaign.DoesNotExist, ValueError, TypeError, ValidationError):
        raise CampaignRefused("not_found", "no such campaign", 404)


class CampaignConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = None
        self.gone = False
        self.rate = MessageRate()
        await self.accept()
        try:
            campaign_id = await db(campaign_exists)(self.scope["url_route"]["kwargs"]["campaign_id"])
        except Exception as exc:  # not_found, or the database is down (1013, or 1011)
            await self._send(error_message(exc.code, exc.message) if isinstance(exc, CampaignRefused)
                             else error_for_exception(exc))
            await self.close(code=CLOSE_NOT_FOUND if isinstance(exc, CampaignRefused) else close_code_for(exc))
            return
        if self.channel_layer is not None:
            self.group = campaign_group(campaign_id)
            await self.channel_layer.group_add(self.group, self.channel_name)
        await self._send({"type": "hello"})

    async def disconnect(self, code):
        if self.group is not None and self.channel_layer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def _send(self, doc: dict) -> None:
        """A push can race the client's leaving: the frame is refused, and nothing more can reach it."""
        if self.gone:
            return
        try:
            await self.send(text_data=json.dumps(doc))
        except Exception as exc:
            self.gone = True
            log.debug("campaign socket gone mid-send: %s: %s", type(exc).__name__, exc)

    async def campaign_changed(self, message):
        if self.group is not None:
            await self._send({"type": "changed"})

    async def receive(self, text_data=None, bytes_data=None):
        if self.group is None or self.gone:
            return
        if self.rate.over():
            await self._send(throttled())
            self.gone = True
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        size = len(text_data) if text_data is not None else len(bytes_data or b"")
        if size > MAX_MESSAGE_CHARS:
            await self._send(frame_too_large(size, MAX_MESSAGE_CHARS))
            return
        try:
            msg = json.loads(text_data) if text_data else None
        except (ValueError, RecursionError):
            msg = None
        if isinstance(msg, dict) and msg.get("type") == "ping":
            await self._send({"type": "pong"})
        else:
            await self._send(error_message("malformed", 'send {"type": "ping"}'))
