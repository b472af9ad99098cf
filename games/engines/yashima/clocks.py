"""Decision clocks: which clock runs on the current decision, and what a seat does when it runs out.

Two match options (see docs/games/yashima.md, "Decision clocks"): ``defense_seconds`` runs on
prompts a seat answers during another master's turn (defense, LOSE, WEAKEN, forced relocation...),
``turn_seconds`` on every other decision (the turn player's own actions and prompts, setup, the
simultaneous destiny and reconcile steps, initiative FROST payments, restoration choices).
0 or null switches a clock off.
"""

from . import flow

CLOCK_OPTIONS = ("defense_seconds", "turn_seconds")
DEFAULT_SECONDS = {"defense_seconds": 60, "turn_seconds": None}
MAX_SECONDS = 86400


def clock_seconds(state, name):
    value = (state.get("options") or {}).get(name, DEFAULT_SECONDS[name])
    return value or None


def seat_prompt(state, seat):
    """The prompt awaiting ``seat`` (main stack, or a seat's own stack during reconcile), or None."""
    if state["phase"] == "reconcile":
        return flow.recon_prompt(state, seat)[1]
    pr = flow.main_prompt(state)
    return pr if pr and pr["seat"] == seat else None


def responding(state, seat) -> bool:
    """True when ``seat`` answers a prompt during another master's turn."""
    turn = state.get("turn")
    pr = flow.main_prompt(state)
    return bool(state["phase"] == "battle" and turn and pr and pr["seat"] == seat and turn["seat"] != seat)


def deadline_seconds(state, awaiting):
    seats = [s for s in awaiting if isinstance(s, int)]
    if not seats:
        return None
    if any(responding(state, s) for s in seats):
        return clock_seconds(state, "defense_seconds")
    return clock_seconds(state, "turn_seconds")


def decision_kind(state, seat):
    """The kind of decision ``seat`` faces: a prompt kind, or setup / destiny / reconcile / turn."""
    pr = seat_prompt(state, seat)
    if pr:
        return pr["kind"]
    if state["phase"] in ("setup", "destiny", "reconcile"):
        return state["phase"]
    return "turn"


def _first(state, seat, options):
    return options[0]


def _typed(*types):
    """The first listed command of the first of ``types`` that is offered."""
    def pick(state, seat, options):
        for typ in types:
            for c in options:
                if c["type"] == typ:
                    return c
        return options[0]
    return pick


def _lose(state, seat, options):
    """Lose the (unknown) top card of the battle deck rather than choose a card in hand."""
    for c in options:
        if c["args"].get("zone") == "deck":
            return c
    return options[0]


def _end_move(state, seat, options):
    """Stop where the miniature stands, keeping its facing."""
    facing = state["players"][seat]["facing"]
    for c in options:
        if c["type"] == "end_move" and c["args"]["facing"] == facing:
            return c
    return _typed("end_move")(state, seat, options)


def _empower(state, seat, options):
    """USE the attack card as if it had no EMPOWER."""
    for c in options:
        if c["args"].get("to") == "bottom":
            return c
    return options[0]


# The most passive choice for every kind of decision. "first" marks a choice the rules make
# compulsory (a payment, a forced relocation, a mandatory effect's target...): the first listed
# option is taken, which is deterministic because every option list is built in a fixed order.
ON_TIMEOUT = {
    # decisions outside prompts
    "setup": _first,
    "destiny": _first,  # the move token
    "reconcile": _typed("end_reconcile"),
    "turn": _typed("end_turn", "take_token"),  # takes a token (move first), then ends the turn
    # responses during another master's turn
    "defense": _typed("no_defense"),
    "lose": _lose,
    "weaken": _first,
    "dodge": _first,
    # the deciding master's own prompts
    "move": _end_move,
    "optional_effect": _typed("skip_effect"),
    "chain_followup": _typed("decline_chain"),
    "empower": _empower,
    "relic": _typed("relic_skip"),
    "rejuvenate": _typed("no_rejuvenate"),
    "frost": _typed("keep_frost"),
    "restore_statuses": _typed("restore_keep_statuses"),
    "restore_equipment": _typed("restore_keep_equipment"),
    "status_spaces": _typed("done"),
    "blaze_spaces": _typed("done"),
    "overrun": _typed("stay"),
    "feint": _typed("stay"),
    "relocate": _typed("stay"),
    "reorder": _first,  # the cards' present order
    "pay": _first,
    "place_status": _first,
    "forced_relocation": _first,
    "delve": _first,
    "bookmark": _first,
    "choose_master": _first,
    "bleed": _first,
    "fury": _first,
    "purify": _first,
    "remove_status": _first,
    "explode": _first,
    "grow": _first,
    "put_on_top": _first,
    "discard_karma": _first,
    "discard": _first,  # compulsory: the first card in hand
    "destroy": _first,
    "imprint_into": _first,
    "saru_place": _first,
    "saru_move": _typed("done"),  # SARU stays where it is
}


def timeout_choice(state, seat, options):
    if not options:
        return None
    rule = ON_TIMEOUT.get(decision_kind(state, seat), _first)
    return rule(state, seat, options)
