"""The match socket's one handler for chat and rematch news (``games.application.social``).

A ``social.push`` on the match's group names its audience; the socket forwards the body only when
its seat (as of the last push or sync it sent) belongs to that audience: the players' chat never
reaches a spectator's socket, and the spectators' chat reaches a player's socket only once the match
is over. The body is sent as it is: ``{"type": "chat", "message"}``, ``{"type": "chat_hidden", "id",
"channel"}`` or ``{"type": "rematch", ...}``.
"""

from games.application.social import reaches


class SocialPushMixin:
    seat = None  # the consumer keeps it current: the seat its last push or sync was read for

    async def social_push(self, message):
        if self.ended or self.match_id is None:
            return
        body = message.get("body")
        if isinstance(body, dict) and reaches(message.get("audience"), self.seat):
            await self._send(body)
