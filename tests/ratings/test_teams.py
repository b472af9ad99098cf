"""2v2: a team result moves both partners (Yokai Battle's teams: seats 0+2 against 1+3)."""

import pytest

from games.eventstore.models import MatchEvent
from games.ratings import skill
from games.ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


def test_pure_team_result_moves_both_partners_alike():
    seats = skill.match_seats([[0, 2], [1, 3]], [10, 11, 12, 13], winners=[1, 3])
    after = skill.rate({u: (skill.MU0, skill.SIGMA0) for u in (10, 11, 12, 13)}, seats)
    assert after[11] == after[13] and after[11][0] > skill.MU0  # both winners up, equally
    assert after[10] == after[12] and after[10][0] < skill.MU0  # both losers down, equally


def test_side_ranks_ties_and_draws():
    assert skill.side_ranks([[0], [1], [2]], [1]) == [2, 1, 2]
    assert skill.side_ranks([[0], [1], [2]], [0, 2]) == [1, 2, 1]  # shared win: a tie at the top
    assert skill.side_ranks([[0], [1]], []) == [1, 1]  # no winner: a draw


@pytest.mark.parametrize("game", ["yokai", "yashima"])
def test_engines_declare_their_teams(game):
    from games.kernel import registry

    engine = registry.get(game)
    assert engine.teams({"teams": True}, 4) == [[0, 2], [1, 3]]
    assert engine.teams({}, 3) == [[0], [1], [2]]


def test_a_played_yokai_2v2_moves_both_partners(make_user, finish):
    users = [make_user() for _ in range(4)]
    match = finish(users, game="yokai", options={"teams": True}, seed=11)
    winners = MatchEvent.objects.get(match=match, type="MatchFinished").payload["winners"]
    assert sorted(winners) in ([0, 2], [1, 3])
    changes = {c.seat: c for c in RatingChange.objects.filter(match=match)}
    assert sorted(changes) == [0, 1, 2, 3]
    for seat, c in changes.items():
        assert c.rank == (1 if seat in winners else 2)
        gained = c.mu_after > c.mu_before
        assert gained == (seat in winners)
    a, b = sorted(winners)
    assert (changes[a].mu_after, changes[a].sigma_after) == (changes[b].mu_after, changes[b].sigma_after)
    assert Rating.objects.filter(game="yokai").count() == 4


def test_every_engine_splits_its_seats_into_disjoint_sides():
    from games.kernel import registry

    for engine in registry.all_engines(include_unlisted=True):
        for seats in range(engine.min_seats, engine.max_seats + 1):
            for options in ({}, {"teams": True}):
                sides = engine.teams(options, seats)
                assert sorted(s for side in sides for s in side) == list(range(seats)), (engine.slug, seats, options)
                assert all(side for side in sides)
