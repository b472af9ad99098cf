"""The work queue and decisions: the step machinery every procedure runs on.

Multi-step procedures (revealing events, building the initiative, an enemy activation, a skill's
choice, the victory aftermath, the failure procedure, travel) are work items in ``state["work"]``.
A procedure that needs someone's choice opens a decision (``open_decision``) and stops; the answer
is written into the work item at the front of the queue (``answer``) and the procedure, run again,
takes it (``take_choice``). Which procedure runs an item is the round structure's business
(``flow.advance``); this module knows only the queue's shape and the decision events.
"""

from . import leaving

# Work the enemies and the oracle do: only ever taken by the SYSTEM seat (the platform's worker),
# so a player's command that lands in front of it (a party decision in the middle of an enemy's
# activation or of the events, a character ending its turn before Yomi's Servant) stops there.
AUTOMATED_WORK = {"events", "effect", "initiative", "enemy"}


def automated_work_next(s) -> bool:
    """The next step is the enemies' or the oracle's, and nobody has to decide anything first."""
    return bool(s["work"]) and s["work"][0]["op"] in AUTOMATED_WORK and not s["pending"] and not s["attack"]


def open_decision(w, kind, by, options, prompt, extra=None):
    pending = {"kind": kind, "by": by, "options": options, "votes": {}, "prompt": prompt}
    if extra:
        pending.update(extra)
    w.emit("DecisionOpened", pending=pending)


def answer(w, option):
    """Store the chosen option into the current work item and close the decision."""
    w.emit("DecisionMade", kind=w.s["pending"]["kind"], option=option)
    item = dict(w.s["work"][0])
    item["choice"] = option
    w.emit("WorkUpdated", item=item)


def take_choice(w):
    item = w.s["work"][0]
    if "choice" not in item:
        return None
    item = dict(item)
    choice = item.pop("choice")
    w.emit("WorkUpdated", item=item)
    return choice


def update_item(w, **changes):
    item = dict(w.s["work"][0])
    item.update(changes)
    w.emit("WorkUpdated", item=item)
    return item


def voting(s) -> bool:
    """The party's decision is put to a vote: the option is on and more than one player is left."""
    return bool(s["party_vote"]) and len(leaving.in_play(s)) > 1


def vote_result(s) -> int | None:
    """The option the party's vote chose once every player left has voted (the leader's vote breaks
    a tie, else the lowest option), None while a vote is missing."""
    votes = {k: v for k, v in s["pending"]["votes"].items() if int(k) in leaving.in_play(s)}
    if len(votes) < len(leaving.in_play(s)):
        return None
    tally = {}
    for v in votes.values():
        tally[v] = tally.get(v, 0) + 1
    top = max(tally.values())
    tied = sorted(o for o, n in tally.items() if n == top)
    leader_vote = votes.get(str(s["leader"]))
    return leader_vote if leader_vote in tied else tied[0]
