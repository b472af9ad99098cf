"""Template filters for the staff pages (registered as builtins of the staff template backend).

Times are shown with the site's ``when`` filter (``{% load when %}``, found among the installed apps'
template libraries); ``iso`` gives the exact moment beside it, for a ``<time datetime>`` and its title."""

import json
from datetime import datetime

from django import template

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
def actor_words(actor) -> str:
    """Who appended an event, in words: ``user #3, seat 1``, ``worker advance_match, seat 2``, ``system``;
    any other key of the actor follows as ``key=value``."""
    if not isinstance(actor, dict):
        return "" if actor is None else str(actor)
    words = str(actor.get("kind") or "unknown")
    if actor.get("user_id") is not None:
        words += f" #{actor['user_id']}"
    if actor.get("task"):
        words += f" {actor['task']}"
    if actor.get("seat") is not None:
        words += f", seat {actor['seat']}"
    rest = {k: v for k, v in actor.items() if k not in ("kind", "user_id", "task", "seat")}
    return words + "".join(f", {k}={compact(v)}" for k, v in sorted(rest.items()))
