"""Short English labels for the commands a seat may send, and titles for its prompts.

Labels only name what the seat may already see: its own hand, karma pool, equipment and the deck
cards a prompt shows it; public cards, masters, spaces and statuses. The commands themselves are
never changed: a client sends back the listed command dict, the label only describes it.
"""

from . import queries as q
from . import spaces
from .content import BOARDS, KAMI, MASTERS

DIRECTIONS = ["up", "upper right", "lower right", "down", "lower left", "upper left"]


def facing(f) -> str:
    return f"facing {DIRECTIONS[f]}" if isinstance(f, int) and 0 <= f < 6 else f"facing {f}"


def master(s, who) -> str:
    pl = s["players"][who] if isinstance(who, int) and 0 <= who < len(s["players"]) else None
    name = MASTERS[pl["master"]]["name"] if pl and pl.get("master") in MASTERS else "unknown master"
    return f"{name} (seat {who})" if pl else f"seat {who}"  # seats numbered as in the views


def _own_card(s, seat, cid, zones=("hand", "karma", "equip", "aside", "discard")):
    pl = s["players"][seat]
    for zone in zones:
        for c in pl[zone]:
            if c["id"] == cid:
                return c
    return None


def card_name(s, d) -> str:
    try:
        return q.card_def(s, d).get("name", d)
    except (KeyError, ValueError, IndexError):
        return str(d)


def own(s, seat, cid, zones=("hand", "karma", "equip", "aside", "discard")) -> str:
    c = _own_card(s, seat, cid, zones)
    return card_name(s, c["d"]) if c else "an unknown card"


def _source(s, seat, src):
    """(name, details) of an ability source: ``page:N``, ``avatar:I`` or ``equip:ID``."""
    kind, _, ref = str(src).partition(":")
    m = MASTERS.get(s["players"][seat]["master"], {})
    if kind == "page":
        page = int(ref)
        face = m["tome"][(page - 1) // 2]["faces"]["front" if page % 2 else "back"]
        return face["name"], f"tome page {page}, cost {face['cost']}"
    if kind == "avatar":
        ab = m["abilities"][int(ref)]
        cost = f", cost {ab['cost']}" if ab.get("cost") else ""
        exert = f", EXERT {ab['exert']}" if ab.get("exert") else ""
        return ab["name"], f"{m['name']}'s ability{cost}{exert}"
    return own(s, seat, ref, ("equip",)), "equipment"


def ability_name(s, seat, src) -> str:
    try:
        name, details = _source(s, seat, src)
    except (KeyError, ValueError, IndexError):
        return str(src)
    return f"{name} ({details})"


def _space(s, cell) -> str:
    return spaces.name(s.get("cells"), cell)  # as the history and the board name it: "the road space E4"


def plural(n, word) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _pages(n) -> str:
    return f"{plural(abs(n), 'page')} {'forward' if n > 0 else 'back'}"


def _open_pages(s, seat, spread) -> str:
    shown = [str(page) for page, _, _ in q.tome_pages(s, seat, spread)]
    return f"page{'s' if len(shown) > 1 else ''} {' and '.join(shown)}" if shown else "its cover"


def _reorder(s, seat, a, pr):
    names = {c["id"]: card_name(s, c["d"]) for c in ((pr or {}).get("info") or {}).get("cards", [])}
    return "Top to bottom: " + ", ".join(names.get(i, "an unknown card") for i in a["order"])


def _lose(s, seat, a, pr):
    if a["zone"] == "deck":
        return "Lose the top card of your battle deck"
    where = {"hand": "your hand", "karma": "your karma pool"}.get(a["zone"], a["zone"])
    return f"Lose {own(s, seat, a['card'], (a['zone'],))} from {where}"


def _defend(s, seat, a, pr):
    c = _own_card(s, seat, a["card"], ("hand",))
    if not c:
        return "Defend"
    kind = q.effective(s, seat, c["d"])["defense"] or "defense"
    return f"Defend with {card_name(s, c['d'])} ({kind.replace('_', ' ')})"


def _empower(s, seat, a, pr):
    return {"karma": "EMPOWER: put the attack card into your karma pool",
            "top": "EMPOWER: put the attack card on top of your battle deck",
            "bottom": "USE the attack card (beneath your battle deck)"}.get(a["to"], f"EMPOWER: {a['to']}")


def _remove_status(s, seat, a, pr):
    on = master(s, a["who"]) if a["on"] == "master" else _space(s, a["who"])
    return f"Remove {a['status']} from {on}"


def _destroy(s, seat, a, pr):
    c = next((x for x in s["players"][a["master"]]["equip"] if x["id"] == a["card"]), None)
    return f"DESTROY {card_name(s, c['d']) if c else 'an unknown card'} equipped by {master(s, a['master'])}"


def _place_status(s, seat, a, pr):
    name = ((pr or {}).get("info") or {}).get("status", "the status")
    on = master(s, a["who"]) if a["on"] == "master" else _space(s, a["who"])
    return f"Give {name} to {on} first"


def _pay_card(s, seat, a, pr):
    c = _own_card(s, seat, a["card"], ("karma",))
    if not c:
        return "Pay with an unknown card"
    return f"Pay with {card_name(s, c['d'])} (karma {q.card_def(s, c['d'])['karma']})"


def paid_for(s, seat, src) -> str | None:
    """What a karma payment is for: the ability's name, "removing FROST", or None when unknown."""
    if src == "frost":
        return "removing FROST"
    try:
        return _source(s, seat, src)[0] if src else None
    except (KeyError, ValueError, IndexError):
        return None


def _place_board(s, seat, a, pr):
    board = (s["setup"].get("choice") or [None])[0]
    name = f"the {BOARDS[board]['name']} board" if board in BOARDS else "the board"
    return f"Place {name} in slot {a['slot'] + 1}, turned {a['rotation'] * 60}°"


def _choose_space(s, seat, a, pr):
    name = ((pr or {}).get("info") or {}).get("status")
    return f"{name} on {_space(s, a['cell'])}" if name else f"Choose {_space(s, a['cell'])}"


LABELS = {
    # setup
    "pick": lambda s, seat, a, pr: f"{MASTERS[a['master']]['name']} with the {KAMI[a['kami']]['name']} kami",
    "choose_board": lambda s, seat, a, pr: f"{BOARDS[a['board']]['name']}, side {a['side'].upper()}",
    "place_board": _place_board,
    "place_miniature": lambda s, seat, a, pr: f"Place your miniature on {_space(s, a['cell'])}, {facing(a['facing'])}",
    # destiny and reconcile
    "choose_token": lambda s, seat, a, pr: f"Add a {a['token']} token to the action pool",
    "tuck": lambda s, seat, a, pr: f"Tuck {own(s, seat, a['card'], ('hand',))} beneath your battle deck",
    "draw": lambda s, seat, a, pr: "Draw a card",
    "end_reconcile": lambda s, seat, a, pr: "End reconcile",
    # the turn
    "focus": lambda s, seat, a, pr: "FOCUS (tome action)",
    "delve": lambda s, seat, a, pr: f"DELVE: turn your tome {_pages(a['dir'])} (tome action)",
    "ability": lambda s, seat, a, pr: f"Tome action: use {ability_name(s, seat, a['src'])}",
    "attack": lambda s, seat, a, pr: f"Attack with {own(s, seat, a['card'], ('hand',))}, {facing(a['facing'])}",
    "move_action": lambda s, seat, a, pr: "Move (move action)",
    "take_token": lambda s, seat, a, pr: f"Take the {a['token']} token without using it",
    "dash": lambda s, seat, a, pr: f"DASH: discard {own(s, seat, a['card'], ('hand',))} and move to {_space(s, a['to'])}",
    "quick": lambda s, seat, a, pr: f"Quick effect: use {ability_name(s, seat, a['src'])}",
    "wind": lambda s, seat, a, pr: "Remove WIND to move up to 2 spaces",
    "end_turn": lambda s, seat, a, pr: "End your turn",
    # prompts
    "defend": _defend,
    "no_defense": lambda s, seat, a, pr: "No defense",
    "lose_card": _lose,
    "pay_card": _pay_card,
    "dodge_to": lambda s, seat, a, pr: f"Dodge to {_space(s, a['to'])}",
    "step": lambda s, seat, a, pr: f"Step to {_space(s, a['to'])}",
    "end_move": lambda s, seat, a, pr: f"End the move {facing(a['facing'])}",
    "use_effect": lambda s, seat, a, pr: f"Use {a['effect'].replace('_', ' ')}",
    "skip_effect": lambda s, seat, a, pr: f"Skip {a['effect'].replace('_', ' ')}",
    "choose_space": _choose_space,
    "done": lambda s, seat, a, pr: "Done",
    "choose_master": lambda s, seat, a, pr: f"Choose {master(s, a['master'])}",
    "relocate_master": lambda s, seat, a, pr: f"Move {master(s, a['master'])} to {_space(s, a['to'])}",
    "relocate_to": lambda s, seat, a, pr: f"Relocate to {_space(s, a['to'])}",
    "stay": lambda s, seat, a, pr: "Stay where you are",
    "remove_status": _remove_status,
    "explode": lambda s, seat, a, pr: f"EXPLODE the {((pr or {}).get('info') or {}).get('status', 'status')} on {_space(s, a['cell'])}",
    "grow": lambda s, seat, a, pr: f"GROW the PLANT from {_space(s, a['frm'])} to {_space(s, a['to'])}",
    "discard_karma": lambda s, seat, a, pr: f"Discard {own(s, seat, a['card'], ('karma',))} from your karma pool",
    "discard_card": lambda s, seat, a, pr: f"DISCARD {own(s, seat, a['card'], ('hand',))} from your hand",
    "destroy_equipment": _destroy,
    "place_status": _place_status,
    "turn_page": lambda s, seat, a, pr: f"Turn your tome {_pages(a['dir'])}",
    "turn_to": lambda s, seat, a, pr: f"Open your tome at {_open_pages(s, seat, a['spread'])}",
    "reorder": _reorder,
    "put_on_top": lambda s, seat, a, pr: f"Put {own(s, seat, a['card'], ('hand',))} on top of your battle deck",
    "empower": _empower,
    "chain_attack": lambda s, seat, a, pr: f"Follow up with {own(s, seat, a['card'], ('hand',))}, {facing(a['facing'])}",
    "decline_chain": lambda s, seat, a, pr: "No follow-up attack",
    "relic_turn": lambda s, seat, a, pr: f"Turn {master(s, a['master'])}'s tome {_pages(a['delta'])}",
    "relic_skip": lambda s, seat, a, pr: "Turn no tome",
    "rejuvenate": lambda s, seat, a, pr: "HEAL (rejuvenating terrain)",
    "no_rejuvenate": lambda s, seat, a, pr: "Do not heal",
    "pay_frost": lambda s, seat, a, pr: "Pay 4 karma to remove FROST",
    "keep_frost": lambda s, seat, a, pr: "Keep FROST",
    "restore_remove_status": lambda s, seat, a, pr: f"Remove {a['status']}",
    "restore_keep_statuses": lambda s, seat, a, pr: "Keep the remaining statuses",
    "restore_unequip": lambda s, seat, a, pr: f"Return {own(s, seat, a['card'], ('equip',))} to your tome",
    "restore_keep_equipment": lambda s, seat, a, pr: "Keep the remaining equipment",
}


def label(s, seat, cmd, pr=None) -> str:
    fn = LABELS.get(cmd["type"])
    if fn is None:
        return cmd["type"].replace("_", " ").capitalize()
    try:
        return fn(s, seat, cmd["args"], pr)
    except (KeyError, TypeError, ValueError, IndexError):  # a malformed command still gets a plain name
        return cmd["type"].replace("_", " ").capitalize()


def _info(pr):
    return pr.get("info") or {}


def _lose_cause(s, info) -> str:
    """" (RIPOSTE from Rosamu (seat 2))", " (BURN)", " (damage from Akiko (seat 1))" or ""."""
    why, by = info.get("why"), info.get("by")
    if why and by is not None:
        return f" ({why} from {master(s, by)})"
    if why:
        return f" ({why})"
    return f" (damage from {master(s, by)})" if by is not None else ""


def _pay_title(s, pr):
    info = _info(pr)
    what = paid_for(s, pr["seat"], info.get("src"))
    cards, left = info.get("cards"), info.get("left", info.get("cards"))
    more = f" ({left} more to choose)" if isinstance(left, int) and left != cards else ""
    return f"Pay {info.get('cost')} karma{f' for {what}' if what else ''} with {plural(cards, 'card')}{more}"


# A prompt kind's title: a fixed text, a text with fields of the prompt's ``info`` (a missing one reads
# None), or a function of the state and the prompt.
TITLES = {
    "defense": lambda s, pr: f"{master(s, _info(pr).get('attacker'))} attacks you with "
                             f"{card_name(s, _info(pr).get('card'))} for {_info(pr).get('atk')}: defend?",
    "lose": lambda s, pr: (f"LOSE {_info(pr)['remaining']}{_lose_cause(s, _info(pr))}: choose a card to lose"
                           if "remaining" in _info(pr) else "LOSE: choose a karma pool card to lose"),
    "pay": _pay_title,
    "move": "Move: {speed_left} speed left",
    "optional_effect": "Use this effect of the card?",
    "chain_followup": "Follow up with another attack?",
    "empower": "EMPOWER: where does the attack card go?",
    "relic": "Relic: turn a master's tome up to two pages?",
    "rejuvenate": "Rejuvenating terrain: HEAL?",
    "frost": "FROST: pay 4 karma to remove it?",
    "restore_statuses": "Restoration: remove statuses",
    "restore_equipment": "Restoration: return equipment",
    "dodge": "DODGE: choose the space to move to",
    "forced_relocation": lambda s, pr: f"{master(s, _info(pr).get('master'))} must relocate: choose the space",
    "place_status": "Not enough {status} tokens: choose who gains one first",
    "status_spaces": "Choose spaces to gain {status}",
    "blaze_spaces": "Choose up to two targeted spaces to gain {status}",
    "choose_master": lambda s, pr: f"{_info(pr).get('effect', 'Effect')}: choose a master",
    "bleed": "BLEED: choose the master whose deck receives this card",
    "imprint_into": "IMPRINT: choose the master whose deck receives this card",
    "fury": "FURY: relocate each hit master",
    "overrun": "OVERRUN: relocate next to a hit master?",
    "feint": "FEINT: relocate one space?",
    "relocate": "RELOCATE?",
    "purify": "PURIFY: remove a status",
    "remove_status": "Remove a status",
    "explode": "EXPLODE: choose the {status} to explode",
    "grow": "GROW: move a PLANT next to you",
    "weaken": "WEAKEN: discard a card from your karma pool",
    "discard_karma": "Discard a card from your karma pool",
    "discard": "DISCARD: choose a card from your hand ({remaining} to go)",
    "destroy": "DESTROY: choose an equipped card to return to its owner's tome",
    "delve": "DELVE: turn your tome one page",
    "bookmark": "BOOKMARK: open your tome at any spread",
    "reorder": "Put these cards back on top of your deck in any order",
    "put_on_top": "Put a card from your hand on top of your battle deck",
    "saru_place": "SARU: choose a space next to you for it",
    "saru_move": "SARU: move it to a space up to 4 spaces away, or keep it where it is",
}

SETUP_TITLES = {"pick": "Setup: pick a master and a kami", "board": "Setup: choose and place a terrain board",
                "mini": "Setup: place your miniature on your board"}
PHASE_TITLES = {
    "destiny": "Destiny: secretly add a token to the action pool",
    "reconcile": "Reconcile: tuck cards beneath your deck, then draw up to your hand size",
    "battle": "Your turn: a tome action and a combat action, quick effects between them",
}


def decision_title(s, pr) -> str:
    """Title of the seat's current decision: its prompt's, else the phase's."""
    if pr:
        return title(s, pr)
    if s["phase"] == "setup":
        return SETUP_TITLES.get(s["setup"]["step"], "Setup")
    return PHASE_TITLES.get(s["phase"], s["phase"].capitalize())


class _OrNone(dict):
    def __missing__(self, key):
        return None


def title(s, pr) -> str:
    entry = TITLES.get(pr["kind"])
    try:
        if isinstance(entry, str):
            return entry.format_map(_OrNone(_info(pr)))
        if entry is not None:
            return entry(s, pr)
    except (KeyError, TypeError, ValueError, IndexError):
        pass
    return pr["kind"].replace("_", " ").capitalize()
