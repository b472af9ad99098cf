"""Template filters for the staff pages (registered as builtins of the staff template backend).

Times are shown with the site's ``when`` filter (``{% load when %}``, found among the installed apps'
template libraries); ``iso`` gives the exact moment beside it, for a ``<time datetime>`` and its title."""

import json
from datetime import datetime

from django import template

from . import words

register = template.Library()


@register.filter
def pretty(value) -> str:
    """Readable JSON for a <pre> block (escaped by the template like any other string)."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)


@register.filter
def compact(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


@register.filter
def iso(value) -> str:
    """A moment's exact ISO text: a datetime's, or the stored text as it is."""
    if isinstance(value, datetime):
        return value.isoformat()
    return "" if value is None else str(value)


@register.filter
def actor_words(actor, who=None) -> str:
    """Who appended an event, in words: ``admin (user #3), seat 1 (alice)``, ``worker advance_match``,
    ``system``; ``who`` is the page's ``{"names": seat names, "users": {user id: username}}``."""
    who = who or {}
    return words.actor_text(actor, who.get("names", ()), who.get("users", {}))


@register.filter
def seat_words(seat, names=()) -> str:
    """A stored (0-based) seat as players read it: ``seat 1 (alice)``."""
    return words.seat_words(seat, names or ())
