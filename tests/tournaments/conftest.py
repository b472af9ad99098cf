import pytest

from .play import yokai_cup


@pytest.fixture
def four_player_cup(make_user):
    """A 2-round Swiss Yokai event with four registered players, not started: (organizer, tournament)."""
    organizer, t, _players = yokai_cup(make_user, players=4, rounds=2)
    return organizer, t
