"""Seeded random play from setup to the end, for 2, 3, 4 players and 2 vs 2 (engine level, no DB).

Every step: only the awaited seat has legal commands; the rng-chosen listed command (and a sample of
the other listed ones, all of them in the first games) is accepted by decide; no view or redacted
event leaks another seat's hand card or any deck card (their opaque ids are the canaries).
The game must end in a legal win.
"""

import json
import re

import pytest

from games.engines.yokai import ENGINE
from games.kernel import Command, Rng, fold

GAMES = 50
MAX_STEPS = 5000
MODES = [(2, False), (3, False), (4, False), (4, True)]


def hidden_ids(state, seat):
    out = set()
    for owner, player in enumerate(state["players"]):
        out.update(c["id"] for c in player["deck"])
        if owner != seat:
            out.update(c["id"] for c in player["hand"])
    return out


TOKEN = re.compile(r"[0-9a-f]{16}")


def assert_no_leak(text, state, seat):
    leaked = set(TOKEN.findall(text)) & hidden_ids(state, seat)
    assert not leaked, f"seat {seat} sees hidden card ids {leaked}"


def play(seats, teams, seed, check_all):
    rng = Rng(f"yokai-random-{seats}-{teams}-{seed}".encode(), "play")
    options = {"teams": True} if teams else {}
    ENGINE.validate_options(options, seats)
    events = ENGINE.setup(options, seats, rng)
    state = fold(ENGINE, events)
    viewers = list(range(seats)) + [None]
    for steps in range(MAX_STEPS):
        for viewer in viewers:
            view = ENGINE.view_for(state, viewer)
            for owner, player in enumerate(view["players"]):
                assert ("hand" in player) == (owner == viewer) and "deck" not in player
            assert_no_leak(json.dumps(view), state, viewer)
            assert_no_leak(json.dumps([ENGINE.redact_event(e, viewer) for e in events]), state, viewer)
        status = ENGINE.status(state)
        if status.finished:
            return state, steps
        assert len(status.awaiting) == 1
        seat = status.awaiting[0]
        for other in range(seats):
            if other != seat:
                assert ENGINE.legal_commands(state, other) == []
        legal = ENGINE.legal_commands(state, seat)
        assert legal, "the awaited seat always has something to do"
        sample = legal if check_all else [legal[rng.below(len(legal))] for _ in range(3)]
        for c in sample:
            ENGINE.decide(state, Command(c["type"], c["args"], seat), rng)  # raises if refused
        choice = rng.choice(legal)
        events = ENGINE.decide(state, Command(choice["type"], choice["args"], seat), rng)
        assert events
        state = fold(ENGINE, events, state)
    raise AssertionError(f"no end after {MAX_STEPS} steps")


def assert_legal_win(state):
    seats = state["seats"]
    team = (lambda s: s % 2) if state["teams"] else (lambda s: s)
    result, winners = state["result"], state["winners"]
    assert winners
    if result["reason"] == "conquest":
        conqueror = result["seat"]
        assert sum(1 for m in state["monsters"].values() if m["owner"] == conqueror) >= 5
        assert winners == [s for s in range(seats) if team(s) == team(conqueror)]
    else:
        assert result["reason"] == "deck_out"
        loser = result["loser"]
        assert state["players"][loser]["deck"] == []
        assert winners == [s for s in range(seats) if team(s) != team(loser)]


# rules: Yokai Battle, "How to win" (conquest of 5 terrain cards, or an opponent drawing from an empty deck) and "Game mode"
@pytest.mark.parametrize("seats, teams", MODES, ids=["2p", "3p", "4p", "2v2"])
def test_random_games_end_in_a_legal_win(seats, teams):
    for seed in range(GAMES):
        state, steps = play(seats, teams, seed, check_all=seed == 0)
        assert_legal_win(state)
