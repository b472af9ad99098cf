"""A simple bot: random legal commands, biased towards closing in and fighting."""

from . import hexgrid as hx


def choose(state, seat, cmds, rng):
    if not cmds:
        return None
    attacks = [c for c in cmds if c["type"] in ("attack", "chain_attack")]
    if attacks and rng.below(10) < 7:
        return rng.choice(attacks)
    steps = [c for c in cmds if c["type"] == "step"]
    if steps and rng.below(10) < 7:
        foes = [p["pos"] for i, p in enumerate(state["players"]) if p["pos"] and state["teams"][i] != state["teams"][seat]]
        if foes:
            return min(steps, key=lambda c: min(hx.distance(c["args"]["to"], f) for f in foes))
    useful = [c for c in cmds if c["type"] in ("use_effect", "move_action", "focus", "defend")]
    if useful and rng.below(10) < 5:
        return rng.choice(useful)
    return rng.choice(cmds)
