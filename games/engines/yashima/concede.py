"""A master whose player resigns leaves the game (docs/games/yashima.md, "Resigning").

The rulebooks know one way out of the game: a restored master with no life left is killed, "you
remove your miniature from the board. You are out of the game" (core, "Restoration and Winning the
Game"). A conceding master leaves the same way, at once and whatever their life: their statuses go
back to the supply, their miniature leaves the board, their destiny token leaves the pool, and
nothing waits on them any more. Cards of another master's that lie with them (a BLEED card, a trap
from Mulan's tome) return to their owner ("Returning cards"); their own cards leave play with them.
When the masters still in the game are all of one side, that side wins. During the setup the same
holds: the setup goes on with the others and deals the leaver nothing (``flow.leave_setup``).
"""

from games.kernel import RuleViolation

from . import clocks, flow, ops
from . import queries as q
from .stack import run, system_step
from .state import Sim, ZONES

CONCEDED = "MasterConceded"


def concede(state, seat, rng) -> list:
    """The events of ``seat``'s master leaving the game now (``rng``: the resign command's stream,
    for the hidden ids of cards returned to a deck and any step of another master's that resumes)."""
    refuse_unless_in_play(state, seat)
    sim = Sim(state, rng)
    leave_the_table(sim, seat)
    forget_their_steps(sim.s, seat)
    if not last_side_wins(sim):
        answer_their_prompts(sim, seat)
        resume_without(sim, seat)
    return sim.close()


def out_of_play(state, seat) -> bool:
    """Killed, or conceded: the master is out of the game."""
    return state is not None and 0 <= seat < len(state["players"]) and state["players"][seat]["dead"]


def refuse_unless_in_play(state, seat) -> None:
    refusal = refusal_of(state, seat)
    if refusal is not None:
        raise refusal


def refusal_of(state, seat) -> RuleViolation | None:
    """Why ``seat``'s master cannot leave the game now; None when they can."""
    if state is None or state["phase"] == "over":
        return RuleViolation("game_over", "the match is finished")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state["players"]):
        return RuleViolation("bad_seat", "no such seat")
    if state["players"][seat]["dead"]:
        return RuleViolation("already_out", "this master is already out of the game")
    return None


def leave_the_table(sim, seat) -> None:
    """As ``ops.kill``: statuses back to the supply, the miniature off the board; and what belongs to
    another master goes back to them (tome cards to the tome, battle cards under the battle deck)."""
    pl = q.player(sim.s, seat)
    for name in list(pl["st"]):
        while ops.lose_master(sim, seat, name):
            pass
    for zone in ZONES:
        for card in [c for c in pl[zone] if c["o"] != seat]:
            ops.return_card(sim, seat, zone, card)
    sim.emit(CONCEDED, {"seat": seat})
    if pl["pos"] is not None or sim.s["phase"] != "setup":  # a miniature not placed yet has no board to leave
        sim.emit("MasterMoved", {"seat": seat, "pos": None, "facing": pl["facing"], "from": pl["pos"]})


def forget_their_steps(s, seat) -> None:
    """Every step of the master's own (their move, attack, payment, LOSE, restoration...) is dropped,
    as is their reconcile; the steps of other masters that waited on one of them go on (a defense
    against an attack that is gone ends at once, ``attack.h_defense``)."""
    s["stacks"].pop(str(seat), None)
    s["recon"].pop(str(seat), None)
    for stack in s["stacks"].values():
        stack[:] = [t for t in stack if t.get("seat") != seat]
    for t in s["stacks"].get("main", []):
        if t["k"] == "initiative":
            leave_initiative(t, seat)


def leave_initiative(t, seat) -> None:
    """The master is no longer a contender: the FROST and reveal steps skip them (the positions
    already passed shift back by one) and their revealed value no longer counts."""
    if seat not in t["cont"]:
        return
    at = t["cont"].index(seat)
    t["cont"] = [x for x in t["cont"] if x != seat]
    for pos in ("fi", "i"):
        if at < t[pos]:
            t[pos] -= 1
    t["vals"].pop(str(seat), None)
    t["exh"].pop(str(seat), None)
    if (t.get("prompt") or {}).get("seat") == seat:  # their FROST choice: the step moves on to the next master
        t["prompt"] = None


def answer_their_prompts(sim, seat) -> None:
    """A question another master's step still puts to them (a defense, a card to LOSE) gets the
    answer their clock would give (``clocks.timeout_choice``, the most passive one); the step
    resumes, and a master out of the game takes nothing from it."""
    for _ in range(1000):
        key = next((k for k, st in sim.s["stacks"].items()
                    if st and (st[-1].get("prompt") or {}).get("seat") == seat), None)
        if key is None:
            return
        task = sim.s["stacks"][key][-1]
        task["ans"] = clocks.timeout_choice(sim.s, seat, list(task["prompt"]["cmds"]))
        task["prompt"] = None
        run(sim, key)
    raise RuntimeError("the conceding master's prompts did not end")


def last_side_wins(sim) -> bool:
    """When every master still in the game is of one side, that side wins now (a concession needs no
    end of turn: there is nobody left to play against)."""
    s = sim.s
    sides = {s["teams"][i] for i, pl in enumerate(s["players"]) if not pl["dead"]}
    if len(sides) != 1:
        return False
    side = sides.pop()
    sim.emit("GameEnded", {"winners": [i for i in range(len(s["players"])) if s["teams"][i] == side],
                           "reason": "last_standing"})
    return True


def resume_without(sim, seat) -> None:
    """The phase goes on as if the master had never been in it: the setup passes over them, destiny
    is revealed once everyone left has chosen, the reconcile step closes once everyone left is done,
    and a turn of theirs ends (``flow.settle``: the next master to the left plays)."""
    s = sim.s
    if s["phase"] == "setup":
        flow.leave_setup(sim, seat)
    elif s["phase"] == "destiny":
        alive = [i for i, pl in enumerate(s["players"]) if not pl["dead"]]
        queued = any(t["k"] == "destiny_reveal" for t in s["stacks"]["main"])
        if not queued and all(str(i) in s["destiny"] for i in alive):
            system_step(sim, {"k": "destiny_reveal"})
    elif s["phase"] == "reconcile":
        flow.close_reconcile(sim)
    elif s["phase"] == "battle":
        flow.settle(sim)
