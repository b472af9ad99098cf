"""A player who resigns leaves the party's table and the party plays on (docs/games/harakiri.md,
"Resigning"; docs/games/harakiri-adventure.md for the Adventure Phase).

The rulebook lets one to four players share the four characters ("If playing with fewer than four
players, divide the characters between yourselves as you choose. If playing solo, you control all
four characters", The Characters), so a resignation changes who plays, never the party:
``PlayerLeftParty`` passes the seat's characters (and the party's lead) to the first player left, the
lowest seat still in play, as a campaign does between two phases; every decision that waited on
the leaver now waits on that player (the fold moves it: a character's turn, attack roll or choice
follows its controller). What the leaver alone still held up goes on at once: a vote they had not
cast (their vote, cast or not, no longer counts), the exchange of items before the Exploration
Phase, a group travel's question. When the last player leaves, ``PartyLeft`` ends the match: there
is nobody left to play, the party has failed and no one wins.
"""

from games.kernel import RuleViolation

from . import flow, leaving, sharing, work_queue
from .adventure import actions as adventure_actions, effects as adventure_effects
from .state import W


def refusal(state, seat) -> RuleViolation | None:
    """Why ``seat`` cannot resign now; None when it can."""
    if not isinstance(state, dict) or _finished(state):
        return RuleViolation("game_over", "the match is finished")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
        return RuleViolation("bad_seat", "no such seat")
    if seat in leaving.out(state):
        return RuleViolation("already_out", "this player has already left the party")
    return None


def out_of_play(state, seat) -> bool:
    return isinstance(state, dict) and seat in leaving.out(state)


def concede(state, seat, rng) -> list:
    """The events of ``seat`` leaving the table now."""
    refused = refusal(state, seat)
    if refused is not None:
        raise refused
    if "flow" in state:
        return _adventure(state, seat, None)
    return _exploration(state, seat, rng, None)


def take_over(state, seat, by, rng) -> list:
    """The events of ``by`` (a player still in play) taking over the characters of ``seat``, an
    absent player the match has waited on for long (docs/games/harakiri.md, "An absent player"):
    ``seat`` leaves as if it resigned, its characters passing to ``by`` rather than to the first
    player left. Whether it waited long enough is the platform's to say (the engine knows no time)."""
    refused = refusal(state, seat) or refusal(state, by)
    if refused is not None:
        raise refused
    if by == seat:
        raise RuleViolation("bad_seat", "a player cannot take over their own characters")
    if "flow" in state:
        return _adventure(state, seat, by)
    return _exploration(state, seat, rng, by)


def _finished(state) -> bool:
    if "flow" in state:
        return state["flow"]["stage"] == "finished"
    return state.get("phase") == "ended"


def _exploration(state, seat, rng, by) -> list:
    w = W(state, rng)
    payload = leaving.left_payload(w.s, seat, by)
    w.emit(leaving.SEAT_LEFT, **payload)
    if payload["to"] is None:
        w.emit(leaving.PARTY_LEFT, seat=seat)
        return w.finish()
    s = w.s
    if s["phase"] == "share" and not sharing.share_awaiting(s):
        w.emit("ShareEnded", reason="every player left is done exchanging")
    elif s["pending"] and s["pending"]["by"] == "party" and s["party_vote"]:
        pick = work_queue.vote_result(s)
        if pick is not None:  # the leaver's was the last vote missing (or one voter is left, who voted)
            work_queue.answer(w, s["pending"]["options"][pick])
            flow.advance(w, by_player=True)
    return w.finish()


def _adventure(state, seat, by) -> list:
    em = adventure_effects.Emitter(state)
    payload = leaving.left_payload(state, seat, by)
    proposal = state["flow"].get("proposal")
    if payload["to"] is not None and proposal and seat in proposal["waiting"]:
        payload["waiting"] = _waiting_after(state, proposal, seat, payload["to"])
    em.emit(leaving.SEAT_LEFT, payload)
    if payload["to"] is None:
        em.emit(leaving.PARTY_LEFT, {"seat": seat})
    elif "waiting" in payload:
        adventure_actions.settle_group(em)
    return em.events


def _waiting_after(state, proposal, seat, to) -> list[int]:
    """A group travel's question the leaver had not answered: their characters are the heir's now,
    so the heir's answer covers them. The heir who proposed the travel, or already answered it,
    has said; an heir never asked is asked now."""
    waiting = [x for x in proposal["waiting"] if x != seat]
    proposer = state["control"][state["flow"]["active"]]
    asked = {state["control"][c] for c in proposal["group"]} - {proposer}
    if to != proposer and to not in asked and to not in waiting:
        waiting.append(to)
    return sorted(waiting)
