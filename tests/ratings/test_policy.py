"""The ratings policy: a rated match moves its players' ratings once, when MatchFinished is appended."""

import pytest
from django.db import IntegrityError, transaction

from games.application import selectors
from games.eventstore.models import MatchEvent
from games.ratings import policy, skill
from games.ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


def test_a_finished_rated_match_moves_both_players_once(make_user, finish):
    a, b = make_user(), make_user()
    match = finish([a, b], seed=1)
    lobby = selectors.state_load(match)["lobby"]
    assert lobby["rated"] is True  # the default for casual matches
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert set(changes) == {a.pk, b.pk}
    finished = MatchEvent.objects.get(match=match, type="MatchFinished")
    expected = skill.rate({a.pk: (skill.MU0, skill.SIGMA0), b.pk: (skill.MU0, skill.SIGMA0)},
                          skill.match_seats([[0], [1]], [a.pk, b.pk], finished.payload["winners"]))
    for user in (a, b):
        row = Rating.objects.get(user=user, game="pebbles")
        assert (row.mu, row.sigma) == expected[user.pk]
        assert row.matches == 1
        assert row.display == skill.display(*expected[user.pk])
        assert changes[user.pk].finished_at == finished.at
    winners = finished.payload["winners"]
    if len(winners) == 1:  # a decisive result: the winner gains, the loser drops
        won, lost = (a, b) if winners == [0] else (b, a)
        assert Rating.objects.get(user=won).mu > skill.MU0 > Rating.objects.get(user=lost).mu


def test_a_bot_seat_makes_the_match_unrated(make_user, finish):
    a, b, c = make_user(), make_user(), make_user()
    match = finish([a, b, c], bots=(2,), seed=2)
    assert selectors.state_load(match)["lobby"]["rated"] is True  # the flag is on...
    assert not RatingChange.objects.filter(match=match).exists()  # ...but a bot sat in it
    assert not Rating.objects.exists()


def test_the_rated_flag_off_leaves_ratings_alone(make_user, finish):
    a, b = make_user(), make_user()
    match = finish([a, b], rated=False, seed=3)
    assert match.rated is False and selectors.state_load(match)["lobby"]["rated"] is False
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_repeated_finish_delivery_changes_nothing(make_user, finish):
    a, b = make_user(), make_user()
    match = finish([a, b], seed=4)
    before = list(Rating.objects.order_by("user_id").values("user_id", "mu", "sigma", "display", "matches"))
    state = selectors.state_load(match)
    finished = [{"type": "MatchFinished", "payload": {}}]
    # The projector delivered MatchFinished again (a replayed write, a retried task...)
    for _ in range(3):
        policy.ratings_project(selectors.engine_of(match), match, state, finished)
    assert policy.ratings_apply(match, "pebbles", policy.rated_seats(state["lobby"]), policy.finished_at(match)) == []
    assert RatingChange.objects.filter(match=match).count() == 2
    assert list(Rating.objects.order_by("user_id").values("user_id", "mu", "sigma", "display", "matches")) == before


def test_the_database_refuses_a_second_change_for_the_same_match_and_user(make_user, finish):
    a, b = make_user(), make_user()
    match = finish([a, b], seed=5)
    row = RatingChange.objects.filter(match=match).first()
    row.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        row.save()


def test_ratings_accumulate_over_matches_in_finish_order(make_user, finish):
    a, b, c = make_user(), make_user(), make_user()
    m1 = finish([a, b], seed=6)
    m2 = finish([b, c], seed=7)
    m3 = finish([a, b, c], seed=8)
    assert Rating.objects.get(user=b, game="pebbles").matches == 3
    chain = list(RatingChange.objects.filter(user=b).order_by("finished_at", "match_id"))
    assert [c.match_id for c in chain] == [m1.pk, m2.pk, m3.pk]
    for earlier, later in zip(chain, chain[1:]):  # each match starts from the previous one's result
        assert (later.mu_before, later.sigma_before) == (earlier.mu_after, earlier.sigma_after)
    last = Rating.objects.get(user=b)
    assert (last.mu, last.sigma) == (chain[-1].mu_after, chain[-1].sigma_after)


def test_a_redelivered_finishing_command_does_not_rate_twice(make_user, start, monkeypatch,
                                                             django_capture_on_commit_callbacks):
    """The command that ended the match, submitted again with its command_id (a client retry, a
    duplicated socket message): the write path replays it, and the ratings stay as they were."""
    from games.application import services
    from tests.projections.play import play_randomly

    calls = []
    real = services.match_submit_command
    monkeypatch.setattr(services, "match_submit_command", lambda **kw: (calls.append(kw), real(**kw))[1])
    a, b = make_user(), make_user()
    match = start([a, b], options={"target": 12, "bonus_rolls": False})
    play_randomly(match, [a, b], django_capture_on_commit_callbacks, seed=12)
    finished = MatchEvent.objects.get(match=match, type="MatchFinished")
    last = calls[-1]
    assert match.head_seq == finished.seq  # the last human command finished the match
    before = list(Rating.objects.order_by("user_id").values("mu", "sigma", "matches"))
    with django_capture_on_commit_callbacks(execute=True):
        again = real(**last)
    assert again.replayed and again.seq == finished.seq
    assert RatingChange.objects.filter(match=match).count() == 2
    assert list(Rating.objects.order_by("user_id").values("mu", "sigma", "matches")) == before
