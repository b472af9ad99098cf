"""Helpers for ``EngineBase.describe``: seat names and the generic sentence.

``names`` is the list of seat display names (a player's username, or ``None`` for an empty seat),
indexed by seat; a seat without a known name reads "Seat N" (1-based, as players count).
"""

import re

_WORD = re.compile(r"[A-Z][a-z0-9]*|[a-z0-9]+")


def seat_name(names, seat) -> str:
    """The name ``seat`` goes by in a sentence."""
    if isinstance(seat, int) and names and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"Seat {seat + 1}" if isinstance(seat, int) else "Someone"


def humanize(event_type: str) -> str:
    """``"MonsterSummoned"`` -> ``"monster summoned"``."""
    return " ".join(w.lower() for w in _WORD.findall(event_type or "")) or "event"


def generic_sentence(event: dict, names=()) -> str:
    """A sentence built from the event type and its seat alone (never from other payload fields, so
    it cannot reveal anything a redaction kept). What a game without its own ``describe`` shows."""
    payload = event.get("payload")
    what = humanize(event.get("type", ""))
    what = what[0].upper() + what[1:]
    seat = payload.get("seat") if isinstance(payload, dict) else None
    if isinstance(seat, int) and not isinstance(seat, bool):
        return f"{seat_name(names, seat)}: {what.lower()}"
    return what


def coords(key) -> str:
    """A board key such as ``"0,1"`` as players read it: ``(0,1)``."""
    return f"({key})" if key is not None else "(?)"


def listing(items) -> str:
    items = [str(i) for i in items if i]
    return ", ".join(items) if items else "nothing"


def and_listing(items) -> str:
    """"a", "a and b", "a, b and c" ("nothing" for none)."""
    items = [str(i) for i in items if i or i == 0]
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else listing(items)


def sentence(event: dict, names, sentences: dict, bookkeeping=frozenset(), seat=None) -> str:
    """A game's ``describe`` from its table: ``sentences[type](payload, seat, names)``, the generic
    sentence for a type without one, ``""`` for a bookkeeping or hidden (payload-less) event."""
    t, p = event.get("type"), event.get("payload")
    if t in bookkeeping or p is None:
        return ""
    say = sentences.get(t)
    text = say(p, seat, names) if say else generic_sentence(event, names)
    if any(n and text.startswith(str(n)) for n in names or ()):
        return text  # a player's name is written as they chose it ("bob's turn", not "Bob's turn")
    return text[:1].upper() + text[1:]
