"""A socket's incoming message rate, shared by the match and the tournament sockets.

Each socket may send SOCKET_RATE_MESSAGES messages per SOCKET_RATE_SECONDS (a sliding window over
the socket's own messages; pushes the server sends do not count). Beyond that it gets
``{"type": "error", "code": "throttled"}`` and is closed with 4429. A bottom module of
``games.realtime``: it imports only ``.errors``.
"""

import time
from collections import deque

from django.conf import settings

from .errors import error_message

CLOSE_RATE_LIMITED = 4429


def throttled() -> dict:
    """The error a socket gets before it is closed with CLOSE_RATE_LIMITED."""
    return error_message("throttled", "too many messages on this socket")


class MessageRate:
    """One socket's recent incoming messages; ``over()`` counts one more and says whether it is one too many."""

    def __init__(self):
        self.received = deque()  # monotonic times of the messages within the window

    def over(self) -> bool:
        """Sliding window: more than SOCKET_RATE_MESSAGES messages within SOCKET_RATE_SECONDS?"""
        now = time.monotonic()
        window = settings.SOCKET_RATE_SECONDS
        while self.received and now - self.received[0] > window:
            self.received.popleft()
        self.received.append(now)
        return len(self.received) > settings.SOCKET_RATE_MESSAGES
