"""SARU placement and movement for a master flagged ``places_saru`` in content (Mitsuo, Icy Peaks;
Fairytale glossary SARU): one SARU of his in play; at the start of the game and whenever it is
removed he puts it on a space adjacent to himself; when he takes a move action he may move it to a
space up to 4 spaces from where it is. Facing it at the end of every turn is in ``flow.h_end_turn``;
queueing a placement (``ops.place_saru_later``) is a state change below this module, so ``ops`` can
queue one when a SARU is removed."""

from . import hexgrid as hx
from . import ops
from . import queries as q
from .stack import C, ask, handler, pop

SARU_JUMP = 4


@handler("saru_place")
def h_saru_place(sim, t):
    s, seat = sim.s, t["seat"]
    pl = q.player(s, seat)
    if "ans" in t:
        pop(sim, t)
        ops.gain_space(sim, t.pop("ans")["args"]["cell"], "SARU", seat)
        return
    if pl["dead"] or pl["pos"] is None or q.saru_space(s, seat) is not None:
        pop(sim, t)
        return
    cells = [n for n in hx.neighbours(pl["pos"]) if q.can_gain_space(s, n, "SARU")]
    if not cells:
        pop(sim, t)
        return
    ask(t, seat, "saru_place", [C("choose_space", cell=c) for c in cells], {"status": "SARU"})


def jump_targets(s, seat) -> list:
    here = q.saru_space(s, seat)
    if here is None:  # none in play (no space was free): he may place one within reach of himself
        here = q.player(s, seat)["pos"]
        if s["supply"].get(q.supply_key("SARU"), 0) <= 0:
            return []
    return sorted(c for c in s["cells"] if c != here and hx.distance(here, c) <= SARU_JUMP and q.saru_spot(s, c))


@handler("saru_move")
def h_saru_move(sim, t):
    s, seat = sim.s, t["seat"]
    if "ans" in t:
        a = t.pop("ans")
        pop(sim, t)
        if a["type"] == "choose_space":
            here = q.saru_space(s, seat)
            if here is not None:  # moved, not removed: no new adjacent placement follows
                ops.lose_space(sim, here, "SARU", replace=False)
            ops.gain_space(sim, a["args"]["cell"], "SARU", seat)
        return
    cells = jump_targets(s, seat)
    if not cells:
        pop(sim, t)
        return
    ask(t, seat, "saru_move", [C("choose_space", cell=c) for c in cells] + [C("done")], {"status": "SARU"})
