"""Template filters for the staff pages (registered as builtins of the staff template backend)."""

import json

from django import template

register = template.Library()


@register.filter
def pretty(value) -> str:
    """Readable JSON for a <pre> block (escaped by the template like any other string)."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)


@register.filter
def compact(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
