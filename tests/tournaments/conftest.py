import pytest

from games.tournaments.models import TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play

from .play import end_by_time_limit, yokai_cup


@pytest.fixture
def four_player_cup(make_user):
    """A 2-round Swiss Yokai event with four registered players, not started: (organizer, tournament)."""
    organizer, t, _players = yokai_cup(make_user, players=4, rounds=2)
    return organizer, t


@pytest.fixture
def played(make_user):
    """A 2-entrant Yokai event whose one match ended (the time limit) and was counted: (tournament,
    table, players)."""
    organizer, t, players = yokai_cup(make_user, players=2, rounds=1)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    end_by_time_limit(table.match_id)
    tournament_match_finished(match_id=table.match_id)  # the test database never commits: react by hand
    return t, table, players
