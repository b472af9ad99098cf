"""A match's chat: two channels, who may read and post in each, and the messages as clients see them.

Channels (``CHAT_CHANNELS``), as board-game sites have them:

- ``players``: the seated players only. Spectators neither read nor post there, not even after
  the end (it is the players' table talk).
- ``spectators``: everyone watching. While the match runs (open or active) its players neither read
  nor post there: a player must not be coached through the chat (fair play, tournaments above
  all). Once the match is over (finished or abandoned) its players may read it and post there too.

Posting needs a signed-in user; reading a channel you may read needs nothing more (an anonymous
spectator reads the spectators' channel). Messages are stored append-only beside the match log
(``ChatMessage``), cleaned (control and bidirectional-override characters removed, at most
``CHAT_MAX_CHARS`` characters) and never rendered as HTML by the pages. Staff hide a message with a
recorded reason (``ChatHide``): it then disappears for players and spectators, staff still see it.
A message shows its author's current name, or "deleted player" once the account is deleted (``identities``). New and hidden messages are pushed
to the sockets that may read the channel (``social``); the REST API is the only way to post.
"""

import re
import unicodedata

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.eventstore.models import CHAT_CHANNELS, ChatHide, ChatMessage, Match

from . import social, watch
from .errors import SocialRefused
from .identities import name_shown, names_among
from .lobby import ABANDONED_STATUS, DONE
from .selectors import match_get, seat_for_user, state_load

PLAYERS, SPECTATORS = CHAT_CHANNELS
PAGE_DEFAULT = 50
PAGE_MAX = 200
HIDE_REASON_MAX = 500

# Bidirectional overrides and isolates reorder how the text around them is displayed.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_BLANK_LINES = re.compile(r"\n{3,}")


def is_over(status: str) -> bool:
    return status in (DONE, ABANDONED_STATUS)


def access(status: str, seat, signed_in: bool) -> dict:
    """``{channel: {"read": bool, "post": bool}}`` for a viewer at ``seat`` (None: not seated) of a
    match whose lobby status is ``status``."""
    seated = seat is not None
    spectators = not seated or is_over(status)
    return {
        PLAYERS: {"read": seated, "post": seated and signed_in},
        SPECTATORS: {"read": spectators, "post": spectators and signed_in},
    }


def audience(channel: str, status: str) -> str:
    """Which sockets a new message of ``channel`` goes to (``social`` audiences)."""
    if channel == PLAYERS:
        return social.SEATED
    return social.ALL if is_over(status) else social.UNSEATED


def max_chars() -> int:
    return int(getattr(settings, "CHAT_MAX_CHARS", 500))


def clean_text(text) -> str:
    """The text as stored: NFC, no control characters but line breaks, no bidirectional overrides,
    at most two blank lines in a row, trimmed. Refuses an empty or too long message."""
    if not isinstance(text, str):
        raise SocialRefused("malformed", "text must be a string", 400)
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\t", " ")
    text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) != "Cc")
    text = _BLANK_LINES.sub("\n\n", _BIDI.sub("", text)).strip()
    if not text:
        raise SocialRefused("message_empty", "the message is empty", 400)
    if len(text) > max_chars():
        raise SocialRefused("message_too_long", f"a message has at most {max_chars()} characters", 400)
    return text


def _viewer(match: Match, user):
    state = state_load(match)
    # a user barred from watching the match live (another player of its tournament) reads and posts
    # none of its chat while it runs: the spectators' commentary is the live game in words
    watch.viewer_for(match, user, state)
    signed_in = bool(user is not None and getattr(user, "is_authenticated", False))
    seat = seat_for_user(match, user, state) if signed_in else None
    status = state["lobby"]["status"]
    return seat, status, access(status, seat, signed_in)


def message_doc(row: ChatMessage, names=None, *, staff: bool = False) -> dict:
    """``names``: ``names_among`` the authors (the name each reads as now; as written when not given)."""
    doc = {
        "id": row.pk,
        "channel": row.channel,
        "user_id": row.author_id,
        "username": name_shown(row.author_id, row.author_name, names or {}),
        "seat": row.seat,
        "text": row.text,
        "at": row.at.isoformat(),
    }
    if staff:
        hide = row.hide if _has_hide(row) else None
        doc["hidden"] = None if hide is None else {
            "reason": hide.reason, "by": hide.by.get_username() if hide.by_id else None, "at": hide.at.isoformat()}
    return doc


def _has_hide(row) -> bool:
    try:
        row.hide
    except ChatHide.DoesNotExist:
        return False
    return True


def _docs(rows, *, staff=False) -> list[dict]:
    names = names_among({r.author_id for r in rows})
    return [message_doc(r, names, staff=staff) for r in rows]


# -- writes ---------------------------------------------------------------------------------------


def chat_post(*, match_id, user, channel: str, text) -> dict:
    """Post ``text`` to ``channel`` of the match as ``user``; returns the message as clients see it."""
    match = match_get(match_id)
    if channel not in CHAT_CHANNELS:
        raise SocialRefused("malformed", f"channel must be one of {', '.join(CHAT_CHANNELS)}", 400)
    seat, status, rules = _viewer(match, user)
    if not rules[channel]["post"]:
        raise SocialRefused("chat_forbidden", _forbidden(channel, seat, status, "post"), 403)
    body = clean_text(text)
    with transaction.atomic():
        row = ChatMessage.objects.create(match=match, channel=channel, author=user, author_name=user.get_username(),
                                         seat=seat, text=body, at=timezone.now())
        doc = message_doc(row)
        social.publish_on_commit(match.pk, audience(channel, status), {"type": "chat", "message": doc})
    return doc


def _forbidden(channel: str, seat, status: str, verb: str) -> str:
    if channel == PLAYERS:
        return f"only the seated players {verb} in the players' chat"
    if seat is not None:
        return f"players {verb} in the spectators' chat only once the match is over"
    return "sign in to post" if verb == "post" else "you may not read this channel"


def chat_hide(*, message_id, user, reason: str, match: Match | None = None) -> dict:
    """Staff hide a message (of ``match``, when given) with a reason (recorded; once per message).
    Returns the staff view of it."""
    if not (user is not None and user.is_authenticated and user.is_active and user.is_staff):
        raise SocialRefused("permission_denied", "staff only", 403)
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise SocialRefused("reason_required", "say why the message is hidden", 400)
    if len(reason) > HIDE_REASON_MAX:
        raise SocialRefused("reason_too_long", f"a reason has at most {HIDE_REASON_MAX} characters", 400)
    try:
        row = ChatMessage.objects.select_related("match").get(pk=int(message_id))
    except (ChatMessage.DoesNotExist, TypeError, ValueError, OverflowError):
        raise SocialRefused("not_found", "no such chat message", 404)
    if match is not None and row.match_id != match.pk:
        raise SocialRefused("not_found", "no such chat message in this match", 404)
    try:
        with transaction.atomic():
            ChatHide.objects.create(message=row, by=user, reason=reason, at=timezone.now())
            status = state_load(row.match)["lobby"]["status"]
            social.publish_on_commit(row.match_id, audience(row.channel, status),
                                     {"type": "chat_hidden", "id": row.pk, "channel": row.channel})
    except IntegrityError:
        raise SocialRefused("already_hidden", "this message is already hidden", 409)
    row = ChatMessage.objects.select_related("hide", "hide__by").get(pk=row.pk)
    return _docs([row], staff=True)[0]


# -- reads ----------------------------------------------------------------------------------------


def chat_page(match: Match, user, *, channel: str | None = None, after: int = 0, limit: int = PAGE_DEFAULT) -> dict:
    """One page of the messages ``user`` may read (of ``channel``, or of every channel they may
    read), oldest first, with ids above ``after``: ``{messages, channels, max_chars, last_id, more}``. Hidden
    messages are left out."""
    seat, status, rules = _viewer(match, user)
    readable = [c for c in CHAT_CHANNELS if rules[c]["read"]]
    if channel is not None:
        if channel not in CHAT_CHANNELS:
            raise SocialRefused("malformed", f"channel must be one of {', '.join(CHAT_CHANNELS)}", 400)
        if channel not in readable:
            raise SocialRefused("chat_forbidden", _forbidden(channel, seat, status, "read"), 403)
        readable = [channel]
    limit = max(1, min(int(limit), PAGE_MAX))
    rows = list(ChatMessage.objects.filter(match=match, channel__in=readable, id__gt=max(int(after), 0),
                                           hide__isnull=True).order_by("id")[:limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    return {
        "messages": _docs(rows),
        "channels": {c: rules[c] for c in CHAT_CHANNELS},
        "max_chars": max_chars(),
        "last_id": rows[-1].pk if rows else max(int(after), 0),
        "more": more,
    }


def chat_for_staff(match: Match) -> list[dict]:
    """Every message of both channels, hidden ones with their reason (the caller records the read)."""
    rows = list(ChatMessage.objects.filter(match=match).select_related("hide", "hide__by").order_by("id"))
    return _docs(rows, staff=True)


def chat_of_user(user) -> list[dict]:
    """The messages ``user`` wrote, in every match (their data export), with whether staff hid them."""
    rows = list(ChatMessage.objects.filter(author=user).select_related("hide").order_by("id"))
    out = []
    for row in rows:
        hide = row.hide if _has_hide(row) else None
        out.append({"match_id": str(row.match_id), "channel": row.channel, "seat": row.seat, "text": row.text,
                    "at": row.at.isoformat(), "hidden_reason": hide.reason if hide else None})
    return out
