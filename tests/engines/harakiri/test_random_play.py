"""Seeded engine-level random play: setup to the end, SYSTEM steps driven by system_command."""

import json

import pytest

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM, Command, Rng, fold
from games.kernel.errors import RuleViolation


def play(seed: int, seats: int, round_cap: int = 12, max_steps: int = 6000, options=None):
    opts = {"round_cap": round_cap, **(options or {})}
    rng = Rng(f"setup-{seed}".encode(), "setup")
    events = ENGINE.setup(opts, seats, rng)
    state = fold(ENGINE, events)
    chooser = Rng(f"bot-{seed}".encode(), "bot")
    steps = 0
    stats = {"commands": 0, "system": 0}
    while True:
        st = ENGINE.status(state)
        if st.finished:
            break
        assert st.awaiting, f"stuck: nobody awaited in phase {st.phase}"
        seat = st.awaiting[0]
        if seat == SYSTEM:
            cmd = ENGINE.system_command(state)
            assert cmd is not None
            assert ENGINE.legal_commands(state, SYSTEM) == [cmd]
            stats["system"] += 1
        else:
            legal = ENGINE.legal_commands(state, seat)
            assert legal, f"seat {seat} awaited with no legal command ({st.phase})"
            # prefer not to end the activation at once so the game moves on
            pool = [c for c in legal if c["type"] != "end_activation"] if chooser.below(4) else legal
            cmd = chooser.choice(pool or legal)
        try:
            new = ENGINE.decide(state, Command(type=cmd["type"], args=cmd["args"], seat=seat),
                                Rng(f"play-{seed}".encode(), f"{steps}"))
        except RuleViolation as v:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"listed command refused: {cmd} -> {v}") from None
        state = fold(ENGINE, new, state)
        events.extend(new)
        stats["commands"] += 1
        steps += 1
        assert steps < max_steps, "did not terminate"
    # the fold of every event from nothing equals the live state, and it round-trips JSON
    rebuilt = fold(ENGINE, events)
    assert rebuilt == state
    assert json.loads(json.dumps(state)) == state
    return state, stats, len(events)


@pytest.mark.parametrize("seed", range(32))
def test_random_play_terminates(seed):
    seats = 1 + seed % 4
    state, stats, n = play(seed, seats, options={"party_vote": seed % 5 == 0})
    assert state["phase"] == "ended"
    assert state["result"] in ("victory", "failure", "round_cap")
