"""Seeded engine-level play by the bots (no database): 2 to 6 players, 2v2, 3v3 and three teams of two."""

import json

import pytest

from games.engines.yashima import ENGINE, queries
from games.engines.yashima.state import Sim
from games.kernel import Command, Rng, fold


def bot_choice(state, seat, cmds, rng):
    cmd = ENGINE.bot_command(state, seat, rng)
    assert cmd in cmds
    return cmd


def hidden_ids(state, seat):
    p = state["players"][seat]
    return {c["id"] for c in p["hand"]} | {c["id"] for c in p["deck"] if not c.get("im")}  # imprints lie face up


LAST_WORK = []


@pytest.fixture(autouse=True)
def record_work_state(monkeypatch):
    """Capture the state ``decide`` computed so the test can compare it with the replayed one."""
    original = Sim.close

    def close(self):
        LAST_WORK[:] = [self.s]
        return original(self)

    monkeypatch.setattr(Sim, "close", close)


def play(seed, seats, teams=False, cap=40, check_all_every=25, **options):
    rng = Rng(f"bot-{seed}".encode(), "bot")
    opts = {"round_cap": cap, **options}
    if teams:
        opts["teams"] = True
    events = ENGINE.setup(opts, seats, Rng(f"m{seed}".encode(), "setup"))
    state = fold(ENGINE, events)
    steps = 0
    while True:
        st = ENGINE.status(state)
        if st.finished:
            return state, steps
        assert st.awaiting, (state["phase"], state["stacks"])
        seat = rng.choice(st.awaiting)
        cmds = ENGINE.legal_commands(state, seat)
        assert cmds, (seat, state["phase"])
        if steps % check_all_every == 0:
            # every listed command is accepted
            for c in cmds:
                ENGINE.decide(state, Command(c["type"], c["args"], seat), Rng(b"probe", f"{steps}"))
            # a seat that is not awaited gets nothing listed and is refused
            for other in range(seats):
                if other not in st.awaiting:
                    assert ENGINE.legal_commands(state, other) == []
        cmd = bot_choice(state, seat, cmds, rng)
        evs = ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(f"m{seed}".encode(), f"s{steps}"))
        new = fold(ENGINE, evs, state)
        assert json.loads(json.dumps(new)) == new
        if LAST_WORK:
            assert new == LAST_WORK[0]  # replaying the events rebuilds exactly what decide computed
        if steps % 15 == 0:
            for viewer in list(range(seats)) + [None]:
                text = json.dumps(ENGINE.view_for(new, viewer))
                redacted = json.dumps([ENGINE.redact_event(e, viewer) for e in evs])
                for owner in range(seats):
                    if owner == viewer:
                        continue
                    for i in hidden_ids(new, owner):
                        assert i not in text and i not in redacted, (viewer, owner)
        state = new
        steps += 1
        assert steps < 60000


def assert_legal_end(state, seats, steps):
    result = state["result"]
    assert result["reason"] in ("last_standing", "tie", "round_cap")
    if result["reason"] == "last_standing":
        team = state["teams"][result["winners"][0]]
        assert result["winners"] == [i for i in range(seats) if state["teams"][i] == team]
        assert any(queries.standing(state, w) for w in result["winners"])
        assert not any(queries.standing(state, i) for i in range(seats) if state["teams"][i] != team)
    else:
        assert result["winners"] == []
    assert steps > 10


@pytest.mark.parametrize("seats,teams", [(2, False), (3, False), (4, False), (4, True)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play(seats, teams, seed):
    state, steps = play(seed, seats, teams)
    assert_legal_end(state, seats, steps)


# rules: Yashima core, "Setting up the Game" note (more players with more sets) and "Playing a Team Game":
# whole games of five and six bots, from the first pick to the end, free-for-all and in teams
@pytest.mark.parametrize("seats,teams,options", [(5, False, {}), (6, False, {}), (6, True, {}),
                                                 (6, True, {"team_size": 2})])
def test_five_and_six_bots_play_a_whole_game(seats, teams, options):
    state, steps = play(1, seats, teams, check_all_every=200, **options)
    assert_legal_end(state, seats, steps)
    assert len({b["slot"] for b in state["boards"]}) == seats


# rules: kernel contract (timeouts submit a legal, passive command)
def test_timeout_command_is_legal():
    state = fold(ENGINE, ENGINE.setup({}, 2, Rng(b"t", "s")))
    cmd = ENGINE.timeout_command(state, 0)
    assert cmd in ENGINE.legal_commands(state, 0)
