"""The market deck during the Exploration Phase (its order is hidden: views and redacted events
show a count).

Rulebook "Exploration Phase Setup": "if you just completed an Adventure Phase, leave the market
deck ... in the play area": a campaign hands the Adventure Phase's market deck on as the option
``market`` (the cards, in no order; setup shuffles them). Without it (a match on its own) the deck
holds every market card of the catalogue. Cards come back to it: "If the item has the tag
"consumable", discard it after use by returning it to the market deck, which is then shuffled"
(and a "Uses: X" item with no tokens left); an item sold goes back to it; an item over the limit
goes "to the bottom of the market deck"; the failure procedure's Market action reveals 3 from the
top and shuffles the unbought ones back.
"""

from . import content


def deck(s) -> list[str]:
    """The market deck, top first (a state from before the deck existed: every market card)."""
    found = s.get("market")
    return list(found) if found is not None else content.market_cards()


def _set(w, cards, reason):
    w.emit("MarketDeckSet", deck=list(cards), reason=reason)


def returned(w, ids, reason):
    """Cards back into the market deck, which is then shuffled."""
    _set(w, w.shuffled(deck(w.s) + list(ids)), reason)


def to_bottom(w, ids, reason):
    """Cards put at the bottom of the market deck (an item over the limit)."""
    _set(w, deck(w.s) + list(ids), reason)


def reveal(w, n=3) -> list[str]:
    """The top ``n`` cards, taken off the deck (they are face up until bought or shuffled back)."""
    cards = deck(w.s)
    shown, rest = cards[:n], cards[n:]
    _set(w, rest, "market cards revealed")
    return shown
