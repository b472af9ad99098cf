"""legal_commands is exact: along seeded random games, a broad set of candidate commands (every
summon card x square x orientation, every attack pair, transfers, targets, junk) is accepted by
decide if and only if it is listed; decide never raises anything but RuleViolation."""

import pytest

from games.engines.yokai import ENGINE
from games.kernel import Command, Rng, RuleViolation, fold


def candidates(state, seat):
    squares = list(state["terrain"]) + ["9,9", "x", None]
    out = [{"type": "end_turn", "args": {}}, {"type": "end_turn", "args": {"x": 1}}, {"type": "pass", "args": {}}]
    hand = [c["id"] for c in state["players"][seat]["hand"]]
    others = [c["id"] for p in state["players"] for c in p["hand"] + p["deck"][:2] if c["id"] not in hand][:3]
    for cid in hand + others:
        for sq in squares:
            for o in ("vertical", "horizontal", "upside"):
                out.append({"type": "summon", "args": {"card": cid, "terrain": sq, "orientation": o}})
    occupied = list(state["monsters"])
    for a in occupied + ["0,0"]:
        for d in squares:
            out.append({"type": "attack", "args": {"attacker": a, "defender": d}})
    for a in occupied:
        for d in occupied:
            for amount in (0, 1, 2, 5, 10, 11, "1", True):
                out.append({"type": "transfer_lp", "args": {"source": a, "target": d, "amount": amount}})
    for t in squares + list(range(-1, 5)) + [True, [], {}]:
        out.append({"type": "choose_target", "args": {"target": t}})
    return out


def key(c):
    return repr((c["type"], sorted(c["args"].items(), key=lambda kv: kv[0])))


# rules: Yokai Battle, "Combat phase" (every decision of a turn: summon, attack, transfer, ability targets, closing the turn)
@pytest.mark.parametrize("seats, teams", [(2, False), (3, False), (4, True)])
def test_listed_iff_accepted(seats, teams):
    for game in range(2):
        rng = Rng(f"exact-{seats}-{game}".encode(), "play")
        state = fold(ENGINE, ENGINE.setup({"teams": teams} if teams else {}, seats, rng))
        steps = 0
        while not ENGINE.status(state).finished and steps < 400:
            seat = ENGINE.status(state).awaiting[0]
            legal = ENGINE.legal_commands(state, seat)
            listed = {key(c) for c in legal}
            assert len(listed) == len(legal), "no duplicates"
            if steps % 3 == 0:
                for c in candidates(state, seat):
                    try:
                        ENGINE.decide(state, Command(c["type"], c["args"], seat), rng)
                        accepted = True
                    except RuleViolation:
                        accepted = False
                    assert accepted == (key(c) in listed), c
                for other in [s for s in range(seats) if s != seat] + [None, "system", True]:
                    for c in legal[:5]:
                        with pytest.raises(RuleViolation):
                            ENGINE.decide(state, Command(c["type"], c["args"], other), rng)
            choice = rng.choice(legal)
            state = fold(ENGINE, ENGINE.decide(state, Command(choice["type"], choice["args"], seat), rng), state)
            steps += 1
