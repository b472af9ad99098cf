"""What a seat shows of its player.

A seat records the username it was taken with (in the ``SeatTaken`` event: the match log is never
rewritten). When that account is deleted afterwards, every read (match detail and list, the
``/view/`` document, the events, the pages) shows the seat as ``deleted player`` instead. Which
users are deleted is the accounts app's business: it registers the lookup when Django starts (the
application layer must not import it, as with the follow-up scheduler in ``hooks``).
"""

import threading
import unicodedata
from collections import OrderedDict

DELETED_PLAYER = "deleted player"

_deleted_lookup = None

# deleted_among's answers for running matches, by (match id, user ids): see deleted_in_running.
_running: "OrderedDict[tuple, frozenset]" = OrderedDict()
_running_lock = threading.Lock()
_RUNNING_SIZE = 4096


def username_normalize(value: str) -> str:
    """A username's stored form: NFKC (what Django's AbstractBaseUser.normalize_username does)."""
    return unicodedata.normalize("NFKC", str(value or ""))


def username_key(value: str) -> str:
    """A username's comparison form: NFKC, case-folded, NFKC again (Unicode's "NFKC_Casefold" in
    practice). The accounts app keeps it unique (``Profile.username_key``); names are matched by it."""
    return unicodedata.normalize("NFKC", username_normalize(value).casefold())


def set_deleted_users_lookup(fn) -> None:
    """``fn(user_ids) -> set`` of the ids among them whose accounts were deleted."""
    global _deleted_lookup
    _deleted_lookup = fn


def human_ids(seats) -> set:
    return {s["user_id"] for s in seats or [] if isinstance(s, dict) and s.get("user_id") and not s.get("bot")}


def deleted_among(user_ids) -> frozenset:
    ids = {i for i in user_ids if i}
    if not ids or _deleted_lookup is None:
        return frozenset()
    return frozenset(_deleted_lookup(ids))


def deleted_in_running(match_id, user_ids, running: bool) -> frozenset:
    """``deleted_among(user_ids)`` for the players of a match, kept while it is ``running``: none
    of a running match's players can delete their account (``account_anonymize`` refuses), so the
    answer holds until the match ends. Every command's answer and every live push names the seats:
    this saves them a look-up each."""
    ids = frozenset(i for i in user_ids if i)
    if not running:
        return deleted_among(ids)
    key = (str(match_id), ids)
    with _running_lock:
        gone = _running.get(key)
    if gone is None:
        gone = deleted_among(ids)
        with _running_lock:
            _running[key] = gone
            _running.move_to_end(key)
            while len(_running) > _RUNNING_SIZE:
                _running.popitem(last=False)
    return gone


def running_clear() -> None:
    with _running_lock:
        _running.clear()


def seat_display(seat, gone: frozenset):
    if isinstance(seat, dict) and seat.get("user_id") in gone and not seat.get("bot"):
        return {**seat, "username": DELETED_PLAYER}
    return seat


def seat_label(seat) -> str | None:
    """A seat's name as people read it, said once: a bot's own name ("Bot 2") already says it is a bot,
    so " (bot)" is added only to a bot whose name does not. ``None`` for a free seat."""
    if not isinstance(seat, dict):
        return None
    name = str(seat.get("username") or "")
    if seat.get("bot") and "bot" not in name.lower():
        return f"{name} (bot)"
    return name


def seats_display(seats, gone: frozenset | None = None) -> list:
    """``seats`` as clients see them; ``gone`` may be passed when a caller shows many matches."""
    seats = list(seats or [])
    if gone is None:
        gone = deleted_among(human_ids(seats))
    return [seat_display(s, gone) for s in seats] if gone else seats


def deleted_among_seat_lists(seat_lists) -> frozenset:
    """One lookup for a page of matches."""
    ids = set()
    for seats in seat_lists:
        ids |= human_ids(seats)
    return deleted_among(ids)
