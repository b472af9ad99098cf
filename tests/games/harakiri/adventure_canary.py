"""Canaries for the Adventure Phase's hidden deck orders in API responses: no response may list
three cards of the travel or influence deck in their dealt order, and none may name a travel-event or
influence card before the seq at which the match's log reveals it (drawn, or already removed from
the campaign)."""

import json

from games.application import selectors
from games.eventstore.models import Match


def _log(match_id):
    return selectors.events_unredacted(Match.objects.get(pk=match_id))


def deck_runs(match_id) -> set[str]:
    """Three cards in a row of the travel and influence decks as dealt (drawn one at a time; the
    market reveals its top 3 together, so it is left out)."""
    dealt = next(ev for ev in _log(match_id) if ev["type"] == "AdventureStarted")["payload"]["state"]
    runs = set()
    for name, cards in dealt["decks"].items():
        if name != "market":
            runs |= {json.dumps(cards[i:i + 3])[1:-1] for i in range(len(cards) - 2)}
    return runs


def revealed_at(match_id) -> tuple[dict, set]:
    """({card: seq from which it is known}, every card of the match's travel and influence decks)."""
    known, cards = {}, set()
    for ev in _log(match_id):
        p = ev["payload"]
        if ev["type"] == "AdventureStarted":
            cards = set(p["state"]["decks"]["travel"]) | set(p["state"]["decks"]["influence"])
        elif ev["type"] in ("TravelEventDrawn", "InfluenceCardDrawn"):
            known.setdefault(p["card"], ev["seq"])
    return known, cards


def _text(body) -> str:
    return body.decode() if isinstance(body, bytes) else body


def leaked_runs(runs, bodies) -> list[str]:
    return [run for body in bodies for run in runs if run in _text(body)]


def seen_before_drawn(match_id, records) -> list[tuple]:
    """(card, seat, seq) for each card a ``(seat, seq, body)`` response named before it was revealed."""
    known, cards = revealed_at(match_id)
    return [(card, seat, seq) for seat, seq, body in records for card in cards
            if f'"{card}"' in _text(body) and known.get(card, float("inf")) > seq]
