"""Whole numbers typed by people (form fields, query strings): ASCII digits only.

``str.isdigit()`` is also true for "²" or "٣", which ``int()`` then refuses (a 500) or reads as a
digit of another script; ``int()`` alone also takes " 7", "+7" and "7_000", and refuses more than
4300 digits with a ValueError. Every place that reads a number from a request's text uses
``ascii_int`` and refuses, in words or with a 400, what it answers None for: the tournament and replay
pages, the staff pages and the admin's filters and views. (In the kernel, the bottom layer, so that
every app may use it; it imports nothing.)
"""

MAX_DIGITS = 18  # any seq, seat, round or number of seconds fits; an int64 column takes it


def ascii_int(raw) -> int | None:
    """``raw`` (a str, taken as it is: strip it first if spaces are allowed) as a non-negative int when
    it is 1 to MAX_DIGITS of the ASCII digits 0-9, else None."""
    if not isinstance(raw, str) or not 0 < len(raw) <= MAX_DIGITS or not (raw.isascii() and raw.isdigit()):
        return None
    return int(raw)
