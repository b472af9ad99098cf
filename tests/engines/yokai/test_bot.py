"""The bot plays only legal commands, finishes games, and beats uniformly random play."""

import pytest

from games.engines.yokai import ENGINE
from games.kernel import Command, Rng, fold


def game(seats, teams, seed, bots):
    rng = Rng(f"bot-{seats}-{teams}-{seed}".encode(), "play")
    state = fold(ENGINE, ENGINE.setup({"teams": teams} if teams else {}, seats, rng))
    for _ in range(5000):
        status = ENGINE.status(state)
        if status.finished:
            return state
        seat = status.awaiting[0]
        legal = ENGINE.legal_commands(state, seat)
        c = ENGINE.bot_command(state, seat, rng) if seat in bots else rng.choice(legal)
        assert c in legal
        state = fold(ENGINE, ENGINE.decide(state, Command(c["type"], c["args"], seat), rng), state)
    raise AssertionError("no end")


# rules: Yokai Battle, "How to win" (bots reach a legal end in every mode)
@pytest.mark.parametrize("seats, teams", [(2, False), (3, False), (4, False), (4, True)])
def test_bot_games_end(seats, teams):
    for seed in range(5):
        state = game(seats, teams, seed, bots=set(range(seats)))
        assert state["finished"] and state["winners"]


def test_bot_beats_random():
    wins = sum(game(2, False, seed, bots={seed % 2})["winners"] == [seed % 2] for seed in range(40))
    assert wins >= 28
