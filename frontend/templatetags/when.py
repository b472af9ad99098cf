"""``{{ value|when }}``: a moment as a player reads it ("6 Dec 2026, 17:36 UTC"), from a datetime or
the ISO text the account services return; anything else is shown as it is. ``{{ value|when:"seconds" }}``
keeps the seconds ("6 Dec 2026, 17:36:05 UTC"), for logs where the order of close moments matters."""

from datetime import datetime, timezone

from django import template
from django.utils.dateparse import parse_datetime

register = template.Library()


@register.filter
def when(value, precision: str = "") -> str:
    moment = value if isinstance(value, datetime) else parse_datetime(value) if isinstance(value, str) else None
    if moment is None:
        return "" if value is None else str(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    clock = "%H:%M:%S" if precision == "seconds" else "%H:%M"
    return f"{moment.day} {moment.strftime(f'%b %Y, {clock}')} UTC"
