"""Pushing a match's chat and rematch news to its sockets.

The write path's publish carries only a seq (each server reads what its sockets may see from the
store). Chat and rematch news hold no game information; what matters is who may read them, so the
message names its **audience** and each socket forwards it only when its seat belongs to it:

- ``seated``: the sockets of the seated players (the ``players`` chat channel);
- ``unseated``: everyone else watching (the ``spectators`` channel while the match runs);
- ``all``: every socket on the match (rematch news; the ``spectators`` channel once the match is over).

They travel on the match's channel group, ``{"type": "social.push", "match", "audience", "body"}``,
and each server's hub for the match (``games.realtime.fanout``) encodes ``body`` once and queues it
as it is on its sockets of that audience. Like every push, this is at-most-once: a client re-reads the chat
(``GET .../chat/?after=``) and the rematch status after it reconnects.
"""

from django.db import transaction

from .hooks import match_group, send_to_group

SEATED, UNSEATED, ALL = "seated", "unseated", "all"
AUDIENCES = (SEATED, UNSEATED, ALL)
PUSH_TYPE = "social.push"


def reaches(audience: str, seat) -> bool:
    """Does a socket of ``seat`` (None: not seated) belong to ``audience``?"""
    if audience == ALL:
        return True
    if audience == SEATED:
        return seat is not None
    if audience == UNSEATED:
        return seat is None
    return False


def publish(match_id, audience: str, body: dict) -> None:
    """Send ``body`` to the match's sockets of ``audience`` now (at most once)."""
    if audience not in AUDIENCES:
        raise ValueError(f"unknown audience {audience!r}")
    send_to_group(match_group(match_id), {"type": PUSH_TYPE, "match": str(match_id), "audience": audience, "body": body})


def publish_on_commit(match_id, audience: str, body: dict) -> None:
    transaction.on_commit(lambda: publish(match_id, audience, body))
