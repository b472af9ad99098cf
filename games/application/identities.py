"""What a seat shows of its player.

A seat records the username it was taken with (in the ``SeatTaken`` event, and ``MatchFinished`` /
``SeatConceded`` repeat it: the match log is never rewritten). Every read (match detail and list, the
``/view/`` document, the events and their text, a command's answer, the live socket, the pages, a
profile's recent matches, the chat, a tournament's entrants) shows instead the name the account has
now, resolved from the seat's user id: its current username, or ``deleted player`` once the account
is deleted. So a rename shows everywhere at once, and a deleted account's name nowhere. Which names
the accounts have is the accounts app's business: it registers the lookup when Django starts (the
application layer must not import it, as with the follow-up scheduler in ``hooks``).

``names_among(user_ids)`` answers ``{user id: name shown}``; callers that show many seats ask once and
pass that mapping down (``seats_display(seats, names)``).
"""

import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Mapping

DELETED_PLAYER = "deleted player"

_names_lookup = None

# names_among's answers for running matches, by (match id, user ids): see names_in_running.
_running: "OrderedDict[tuple, dict]" = OrderedDict()
_running_lock = threading.Lock()
_RUNNING_SIZE = 4096


def username_normalize(value: str) -> str:
    """A username's stored form: NFKC (what Django's AbstractBaseUser.normalize_username does)."""
    return unicodedata.normalize("NFKC", str(value or ""))


def username_key(value: str) -> str:
    """A username's comparison form: NFKC, case-folded, NFKC again (Unicode's "NFKC_Casefold" in
    practice). The accounts app keeps it unique (``Profile.username_key``); names are matched by it."""
    return unicodedata.normalize("NFKC", username_normalize(value).casefold())


def set_names_lookup(fn) -> None:
    """``fn(user_ids) -> {user id: current username, or None for a deleted account}`` (ids with no
    account left out)."""
    global _names_lookup
    _names_lookup = fn


def human_ids(seats) -> set:
    return {s["user_id"] for s in seats or [] if isinstance(s, dict) and s.get("user_id") and not s.get("bot")}


def _looked_up(user_ids) -> dict:
    ids = {i for i in user_ids if i}
    if not ids or _names_lookup is None:
        return {}
    return _names_lookup(ids)


def names_among(user_ids) -> dict:
    """``{user id: the name shown}`` for these accounts: the current username, or ``deleted player``."""
    return {uid: DELETED_PLAYER if name is None else name for uid, name in _looked_up(user_ids).items()}


def deleted_among(user_ids) -> frozenset:
    """The ids among ``user_ids`` whose accounts were deleted."""
    return frozenset(uid for uid, name in _looked_up(user_ids).items() if name is None)


def names_in_running(match_id, user_ids, running: bool) -> dict:
    """``names_among(user_ids)`` for the players of a match, kept while it is ``running``: none
    of a running match's players can delete their account (``account_anonymize`` refuses), and a
    rename clears what this process kept (``running_clear``, from the accounts app's rename
    signal; another process keeps the name it looked up until the match ends: docs/platform.md),
    so the answer holds until the match ends. Every command's answer and every live push names the seats:
    this saves them a look-up each."""
    ids = frozenset(i for i in user_ids if i)
    if not running:
        return names_among(ids)
    key = (str(match_id), ids)
    with _running_lock:
        names = _running.get(key)
    if names is None:
        names = names_among(ids)
        with _running_lock:
            _running[key] = names
            _running.move_to_end(key)
            while len(_running) > _RUNNING_SIZE:
                _running.popitem(last=False)
    return dict(names)


def running_clear() -> None:
    with _running_lock:
        _running.clear()


def name_shown(user_id, recorded, names) -> str:
    """The name to show for ``user_id``, recorded as ``recorded``: ``names`` (``names_among``) may
    also be a set of deleted ids (callers that only know which accounts are gone)."""
    if isinstance(names, Mapping):
        return names.get(user_id, recorded)
    return DELETED_PLAYER if user_id in names else recorded


def seat_display(seat, names):
    """``seat`` as shown (``names``: see ``name_shown``); a bot's or a free seat as it is."""
    if not isinstance(seat, dict) or seat.get("bot") or not seat.get("user_id"):
        return seat
    shown = name_shown(seat["user_id"], seat.get("username"), names)
    return seat if shown == seat.get("username") else {**seat, "username": shown}


def seat_label(seat) -> str | None:
    """A seat's name as people read it, said once: a bot's own name ("Bot 2") already says it is a bot,
    so " (bot)" is added only to a bot whose name does not. ``None`` for a free seat."""
    if not isinstance(seat, dict):
        return None
    name = str(seat.get("username") or "")
    if seat.get("bot") and "bot" not in name.lower():
        return f"{name} (bot)"
    return name


def seats_display(seats, names=None) -> list:
    """``seats`` as clients see them; ``names`` (``names_among``) may be passed when a caller shows
    many matches."""
    seats = list(seats or [])
    if names is None:
        names = names_among(human_ids(seats))
    return [seat_display(s, names) for s in seats] if names else seats


def names_among_seat_lists(seat_lists) -> dict:
    """One lookup for a page of matches."""
    ids = set()
    for seats in seat_lists:
        ids |= human_ids(seats)
    return names_among(ids)
