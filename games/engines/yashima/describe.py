"""Yashima events in words: ``describe(event, seat, names, facts)`` (docs/engines.md, "describe").

A pure function of one event as ``redact_event`` left it for ``seat``: a card moved between hidden
zones is named only when the redacted payload still holds it, and another seat's destiny token is
never named. Cards, masters, kami and statuses are named from the content pack, players by
``names``, spaces as the board names them (``spaces.name``: "the road space E4", its terrain from
the public map ``facts["cells"]``, the engine's ``narration_facts``); ``ControlSet`` (the rules
engine's control stack) is bookkeeping (``""``).
"""

from functools import partial

from games.kernel.narration import and_listing, listing, seat_name, sentence

from . import spaces
from .content import BOARDS, CARDS, KAMI, MASTERS

BOOKKEEPING = frozenset({"ControlSet"})
DIRECTIONS = ["up", "upper right", "lower right", "down", "lower left", "upper left"]
ZONE_NAMES = {"deck": "deck", "hand": "hand", "discard": "discard pile", "karma": "karma pool",
              "equip": "equipment", "aside": "set-aside cards", "tome": "tome"}
# (from zone, to zone) -> verb, when the card stays with its owner
_VERBS = {("deck", "hand"): "draws", ("hand", "discard"): "discards", ("hand", "karma"): "puts {card} into karma",
          ("deck", "karma"): "puts {card} into karma", ("hand", "aside"): "plays",
          ("deck", "discard"): "discards {card} from the deck", ("hand", "equip"): "equips",
          ("tome", "equip"): "equips {card} from the tome", ("karma", "discard"): "discards {card} from karma"}
_END_REASONS = {"last_standing": "{winners} {win} as the last master standing", "tie": "The game ends in a tie",
                "round_cap": "The game ends at the round limit with no winner"}


def card_name(card) -> str:
    """A card object ``{"d": ...}`` (or a design id) by name; ``"a card"`` when the payload hides it."""
    d = card.get("d") if isinstance(card, dict) else card
    if not d:
        return "a card"
    if isinstance(d, str) and d.startswith("tome:"):
        try:
            _, m, i, face = d.split(":")
            return MASTERS[m]["tome"][int(i)]["faces"][face].get("name", "a tome page")
        except (KeyError, ValueError, IndexError, TypeError):
            return "a tome page"
    return CARDS.get(d, {}).get("name") or "a card"


def _who(names, seat) -> str:
    return seat_name(names, seat)


def _facing(f) -> str:
    return DIRECTIONS[f] if isinstance(f, int) and 0 <= f < 6 else "somewhere"


def _card_moved(p, seat, names):
    who, card = _who(names, p.get("seat")), card_name(p.get("card"))
    frm, to = p.get("zone"), p.get("to")
    if p.get("to_seat") == p.get("seat") and (frm, to) in _VERBS:
        verb = _VERBS[(frm, to)]
        return f"{who} {verb.format(card=card)}" if "{card}" in verb else f"{who} {verb} {card}"
    owner = "their" if p.get("to_seat") == p.get("seat") else f"{_who(names, p.get('to_seat'))}'s"
    where = f"the {p.get('at')} of {owner}" if to == "deck" and p.get("at") in ("top", "bottom") else owner
    return f"{who} moves {card} from the {ZONE_NAMES.get(frm, frm)} to {where} {ZONE_NAMES.get(to, to)}"


def _player_set(p, seat, names):
    who, changed = _who(names, p.get("seat")), p.get("set") or {}
    if "master" in changed:
        m = MASTERS.get(changed["master"], {}).get("name", "a master")
        k = KAMI.get(changed.get("kami"), {}).get("name", "a kami")
        # core "Setting up the Game" 1: each player chooses a kami master and a kami
        return f"{who} chooses the kami master {m} and the {k} kami"
    if changed.get("dead"):
        return f"{who}'s master is defeated"
    if changed.get("restored"):
        return f"{who} is restored"
    if changed.get("pending"):
        return f"{who}'s master falls and awaits restoration"
    if changed.get("discard") == []:
        return f"{who} shuffles the discard pile back into the deck"
    return f"{who}'s cards change" if p.get("set") is None else ""


def _status(p, seat, names, cells=None):
    status = str(p.get("status", "a status"))
    on_space = p.get("on") == "space"
    where = spaces.name(cells, p.get("who")) if on_space else f"{_who(names, p.get('who'))}'s master"
    if p.get("delta", 0) > 0:
        if not on_space and p.get("owner") is not None and p.get("owner") == p.get("who"):
            where = "their own master"  # "dave places WIND on dave's master" reads as two people
        return f"{_who(names, p.get('owner'))} places {status} on {where}"
    return f"{status} is removed from {where}"


def _attack(p, seat, names):
    """The attack as declared: its damage is what the attack brings before any defense (a defense and
    the LOSE that follows are told after it, so "hits X for 4" would overstate a defended attack)."""
    targets = p.get("targets") or []
    how = f"with {card_name(p.get('card'))} facing {_facing(p.get('facing'))}"
    if not targets:
        return f"{_who(names, p.get('seat'))} attacks {how}: no target in reach"
    damage = [t.get("atk") for t in targets]
    each = f"{damage[0]} damage{' each' if len(targets) > 1 else ''}" if len(set(damage)) == 1 else \
        f"{and_listing(damage)} damage"
    return (f"{_who(names, p.get('seat'))} attacks {and_listing(_who(names, t.get('seat')) for t in targets)} {how}: "
            f"{each} before defenses")


# what each defense does (core / Fairytale glossary; OCCUPY, SPIRIT SHIELD and COUNTER are project
# definitions, docs/games/yashima.md "Keywords"), as told after "X defends with CARD (KIND): "
_DEFENSES = {
    "BLOCK": "it prevents 3 of the attack's damage",
    "RIPOSTE": "it prevents 2 of the attack's damage and the attacker must LOSE 3",
    "CLASH": "the defender and the attacker each EXERT; a higher karma for the defender prevents all of the "
             "attack's damage, otherwise 4",
    "DODGE": "the defender EXERTs and moves one space; ending outside the attack prevents all its damage",
    "BARRIER": "it prevents 1 of the attack's damage for each card in the defender's karma pool",
    "OCCUPY": "it prevents 2 of the attack's damage and the attacker must EXERT",
    "SPIRIT_SHIELD": "it prevents 2 of the attack's damage and the defender HEALs 1",
    "COUNTER": "it prevents 2 of the attack's damage and the defender gains CHI",
}


def _revealed(p, seat, names):
    """A revealed card; a defense says what it does to the attack and to the attacker (``why``
    ``"defense:KIND"``, emitted by ``attack.defend`` when the card is played)."""
    who, card = _who(names, p.get("seat")), card_name(p.get("card"))
    why = p.get("why")
    if isinstance(why, str) and why.startswith("defense:"):
        kind = why.split(":", 1)[1]
        effect = _DEFENSES.get(kind)
        shown = kind.replace("_", " ")
        return f"{who} defends with {card} ({shown})" + (f": {effect}" if effect else "")
    return f"{who} reveals {card}"


def _initiative(p, seat, names):
    tired = " (exhausted)" if p.get("exhausted") else ""
    return (f"{_who(names, p.get('seat'))} reveals {card_name(p.get('card'))} for initiative: karma "
            f"{p.get('karma')}, attack {p.get('atk')}{tired}")


def _moved(p, seat, names, cells=None):
    who, where = _who(names, p.get("seat")), spaces.name(cells, p.get("pos"))
    if p.get("pos") is None:
        return ""  # the line before says why: the master is defeated, or their player resigned
    if "from" in p and p["from"] is None:
        # core "Setting up the Game" 5: always a blank space of the board the seat placed
        return f"{who} places their master on {where} of their own board, facing {_facing(p.get('facing'))}"
    if "from" in p and p["from"] == p.get("pos"):
        return f"{who}'s master turns to face {_facing(p.get('facing'))}"
    return f"{who}'s master moves to {where}, facing {_facing(p.get('facing'))}"


def _board(p) -> str:
    name = BOARDS.get(p.get("board"), {}).get("name")
    side = str(p.get("side") or "?").upper()
    return f"the {name} board, side {side}" if name else f"a terrain board, side {side}"


def _board_placed(p, seat, names):
    slot, rotation = p.get("slot"), p.get("rotation")
    where = f", in slot {slot + 1}" if isinstance(slot, int) else ""
    turned = f", turned {rotation * 60}°" if isinstance(rotation, int) and rotation else ""
    return f"{_who(names, p.get('seat'))} places {_board(p)}{where}{turned}"


def _destiny_chosen(p, seat, names):
    token = p.get("token")
    return f"{_who(names, p.get('seat'))} chooses the {token} token" if token else \
        f"{_who(names, p.get('seat'))} chooses a destiny token"


def _destiny_revealed(p, seat, names):
    chosen = p.get("chosen") or {}
    return "Destiny tokens: " + listing(f"{_who(names, int(s))} {tok}" for s, tok in sorted(chosen.items(), key=lambda kv: int(kv[0])))


def _reordered(p, seat, names):
    if "cards" in p:
        return f"{_who(names, p.get('seat'))} puts the top of the deck in order: {listing(card_name(c) for c in p['cards'])}"
    return f"{_who(names, p.get('seat'))} puts the top {p.get('count')} cards of the deck in order"


def _ended(p, seat, names):
    seats = p.get("winners") or []
    winners = listing(_who(names, s) for s in seats)
    win = "wins" if len(seats) == 1 else "win"
    return _END_REASONS.get(p.get("reason"), "The game ends: {winners} {win}").format(winners=winners, win=win)


def _open_pages(p) -> str:
    """The pages face up after a turn, as the board says them: "pages 2 and 3", "page 1". A payload
    stored before it carried ``pages`` gives only the place (``spread``: tome cards turned, removed
    ones included): read as a whole tome, page 1 alone closed, else the back of the card turned last
    and the front of the next."""
    pages = p.get("pages")
    if not isinstance(pages, list):
        spread = p.get("spread")
        if not isinstance(spread, int) or spread < 0:
            return "another page"
        pages = [1] if spread == 0 else [2 * spread, 2 * spread + 1]
    if not pages:
        return "its cover"
    return f"page{'s' if len(pages) > 1 else ''} {and_listing(str(n) for n in pages)}"


def _tome_turned(p, seat, names):
    # the tome's owner (a relic's FOCUS may turn another master's tome): "alice's tome turns to pages 2 and 3"
    return f"{_who(names, p.get('seat'))}'s tome turns to {_open_pages(p)}"


SENTENCES = {
    "GameSetUp": lambda p, seat, names: "The game is set up",
    "ScenarioLoaded": lambda p, seat, names: "The game starts from a prepared position",
    "PlayerSet": _player_set,
    "Note": lambda p, seat, names: f"Round {p.get('round')}: {_who(names, p.get('turn'))}'s turn",
    "InitiativeRevealed": _initiative,
    "InitiativeWon": lambda p, seat, names: f"{_who(names, p.get('seat'))} wins the initiative",
    "DestinyChosen": _destiny_chosen,
    "DestinyRevealed": _destiny_revealed,
    "MasterMoved": _moved,
    "BoardChosen": lambda p, seat, names: f"{_who(names, p.get('seat'))} chooses {_board(p)}",
    "BoardPlaced": _board_placed,
    "AttackDeclared": _attack,
    "CardRevealed": _revealed,
    "CardMoved": _card_moved,
    # a seat reads the redacted ``count``; the stored payload (the staff log review) has the cards themselves
    "DeckShuffled": lambda p, seat, names: (f"{_who(names, p.get('seat'))} shuffles the deck "
                                            f"({p.get('count', len(p.get('deck') or ()))} cards)"),
    "DeckReordered": _reordered,
    "StatusChanged": _status,
    "TomeTurned": _tome_turned,
    "GameEnded": _ended,
    # the platform's line says it ("carol resigns and leaves the game"), before any master is chosen too
    "MasterConceded": lambda p, seat, names: "",
}


# the sentences that name a space, given the map as well (``describe``'s ``facts["cells"]``)
ON_THE_MAP = {"MasterMoved": _moved, "StatusChanged": _status}


def describe(event: dict, seat, names=(), facts=None) -> str:
    """One sentence about ``event`` (already redacted for ``seat``); ``""`` for bookkeeping. ``facts``:
    the engine's ``narration_facts``, the public map ``{"cells": {"q,r": terrain}}``; without it a
    space is named by its label alone ("space E4")."""
    cells = facts.get("cells") if isinstance(facts, dict) else None
    say = ON_THE_MAP.get(event.get("type"))
    sentences = {event["type"]: partial(say, cells=cells)} if say and cells else SENTENCES
    return sentence(event, names, sentences, BOOKKEEPING, seat)
