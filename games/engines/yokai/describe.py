"""Yokai Battle events in words: ``describe(event, seat, names)`` (docs/engines.md, "describe").

A pure function of one event as ``redact_event`` left it for ``seat``: a card another seat drew is
never named because its redacted payload no longer holds it. Monsters are named from the content
pack, players by ``names``; ``PendingChanged`` is bookkeeping (``""``).
"""

from games.kernel.narration import coords, listing, seat_name, sentence

from .content import MONSTERS

BOOKKEEPING = frozenset({"PendingChanged"})

_LIFE_REASONS = {
    "fire_burn": "is burned by {source}",
    "wood_drop": "is withered by {source}",
    "water_summon_heal": "is healed by {source}",
}
_DRAW_REASONS = {"turn": "", "refill": " to refill the hand", "colorless_draw": " (ability)"}


def monster(key) -> str:
    return MONSTERS.get(key, {}).get("name", "a monster")


def _who(names, seat) -> str:
    return seat_name(names, seat)


def _game_started(p, seat, names):
    mine = p.get("hand")
    start = f"The game starts: {p.get('seats', '?')} players on a {len(p.get('rows') or [])}-row board"
    if mine:
        return f"{start}; your hand: {listing(monster(c.get('card')) for c in mine)}"
    return start


def _cards_drawn(p, seat, names):
    cards = p.get("cards")
    how = _DRAW_REASONS.get(p.get("reason"), "")
    if cards:
        return f"{_who(names, p['seat'])} draws {listing(monster(c.get('card')) for c in cards)}{how}"
    n = p.get("count", 0)
    return f"{_who(names, p['seat'])} draws {n} card{'s' if n != 1 else ''}{how}"


def _summoned(p, seat, names):
    extra = "" if p.get("ability_active", True) else " (its ability does not apply)"
    return (f"{_who(names, p['seat'])} summons {monster(p.get('key'))} on {coords(p.get('at'))} "
            f"for {p.get('cost', 0)} chakra, {p.get('lp')} LP{extra}")


def _fought(p, seat, names):
    verb = "summons and attacks" if p.get("summoning") else "attacks"
    if "attacker_card" not in p:  # logs recorded before fights named their monsters
        return (f"{_who(names, p['seat'])}'s monster on {coords(p.get('attacker'))} {verb} the monster on "
                f"{coords(p.get('defender'))}: deals {p.get('attacker_deals')}, takes {p.get('defender_deals')} "
                f"(LP {p.get('attacker_lp')} and {p.get('defender_lp')})")
    attacker, defender = monster(p["attacker_card"]), monster(p.get("defender_card"))
    return (f"{_who(names, p['seat'])}'s {attacker} on {coords(p.get('attacker'))} {verb} "
            f"{_who(names, p.get('defender_seat'))}'s {defender} on {coords(p.get('defender'))}: deals "
            f"{p.get('attacker_deals')}, takes {p.get('defender_deals')}; {attacker} is left with "
            f"{p.get('attacker_lp')} LP, {defender} with {p.get('defender_lp')}")


def _life(p, seat, names):
    if "card" not in p:  # logs recorded before life changes named their monsters
        how = _LIFE_REASONS.get(p.get("reason"), "changes LP").format(source=f"the monster on {coords(p.get('source'))}")
        return f"The monster on {coords(p.get('at'))} {how}: {p.get('lp')} LP"
    source = f"{_who(names, p.get('source_seat'))}'s {monster(p.get('source_card'))} on {coords(p.get('source'))}"
    how = _LIFE_REASONS.get(p.get("reason"), "changes LP").format(source=source)
    return f"{_who(names, p.get('owner'))}'s {monster(p['card'])} on {coords(p.get('at'))} {how}: {p.get('lp')} LP left"


def _died(p, seat, names):
    return f"{_who(names, p.get('owner'))}'s {monster(p.get('card'))} on {coords(p.get('at'))} dies"


def _transferred(p, seat, names):
    if "card" not in p:  # logs recorded before transfers named their monsters
        return (f"The monster on {coords(p.get('from'))} gives {p.get('amount')} LP to the monster on "
                f"{coords(p.get('to'))} ({p.get('from_lp')} and {p.get('to_lp')} LP)")
    giver, taker = monster(p["card"]), monster(p.get("to_card"))
    return (f"{_who(names, p.get('seat'))}'s {giver} on {coords(p.get('from'))} gives {p.get('amount')} LP to "
            f"{taker} on {coords(p.get('to'))}; {giver} is left with {p.get('from_lp')} LP, {taker} has "
            f"{p.get('to_lp')}")


def _draw_blocked(p, seat, names):
    """The wood "cannot draw" ability: ``target`` is the barred player's seat (never a square)."""
    return (f"The death of {_who(names, p.get('seat'))}'s monster on {coords(p.get('origin'))} stops "
            f"{_who(names, p.get('target'))} from drawing cards on their next turn")


def _won(p, seat, names):
    seats = p.get("winners") or []
    winners = listing(_who(names, s) for s in seats)
    win = "wins" if len(seats) == 1 else "win"
    if p.get("reason") == "deck_out":
        return f"{_who(names, p.get('loser'))} cannot draw from an empty deck: {winners} {win}"
    if p.get("reason") == "time_limit":  # docs/games/yokai.md, "Time limit (tournaments)"
        if not seats:
            return "The round's time is up with every side equally near to conquest: a draw"
        return f"The round's time is up: {winners} {win}, nearest to conquest"
    if p.get("reason") == "last_standing":  # everyone else resigned (docs/games/yokai.md, "Resigning")
        return f"{winners} {win}: every other player has left the game"
    return f"{winners} {win} by conquest"


def _conceded(p, seat, names):
    removed = p.get("removed") or []
    gone = f": {len(removed)} monster{'s' if len(removed) != 1 else ''} leave{'s' if len(removed) == 1 else ''} the board" \
        if removed else ""
    return f"{_who(names, p.get('seat'))} leaves the game{gone}"


SENTENCES = {
    "GameStarted": _game_started,
    "ScenarioLoaded": lambda p, seat, names: "The game starts from a prepared position",
    "RoundStarted": lambda p, seat, names: f"Round {p.get('round')} begins (chakra meter {p.get('meter')})",
    "RoundEnded": lambda p, seat, names: f"Round {p.get('round')} ends",
    "TurnStarted": lambda p, seat, names: f"{_who(names, p.get('seat'))}'s turn",
    "TurnEnded": lambda p, seat, names: f"{_who(names, p.get('seat'))} ends the turn",
    "CardsDrawn": _cards_drawn,
    "DrawPrevented": lambda p, seat, names: f"{_who(names, p.get('seat'))} may not draw this turn",
    "DrawBlocked": _draw_blocked,
    "MonsterSummoned": _summoned,
    "Fought": _fought,
    "LifeChanged": _life,
    "LpTransferred": _transferred,
    "MonsterDied": _died,
    "GameWon": _won,
    "PlayerConceded": _conceded,
}


def describe(event: dict, seat, names=()) -> str:
    """One sentence about ``event`` (already redacted for ``seat``); ``""`` for bookkeeping."""
    return sentence(event, names, SENTENCES, BOOKKEEPING, seat)
