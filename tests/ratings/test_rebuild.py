"""rebuild_ratings replays every log in finish order and reproduces the stored values exactly;
differences are reported and --fix repairs them. rebuild_projections runs the same check."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.ratings import rebuild
from games.ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_user, finish):
    """Several finished matches among overlapping players: 2-player, pods, a 2v2, one with a bot,
    one unrated."""
    p = [make_user() for _ in range(5)]
    matches = [
        finish([p[0], p[1]], seed=1),
        finish([p[1], p[2], p[3]], seed=2, options={"target": 15}),
        finish([p[0], p[2], p[3], p[4]], seed=3, options={"tiles": 18}),
        finish([p[0], p[1]], seed=4),
        finish([p[2], p[3]], seed=5, bots=(1,)),
        finish([p[3], p[4]], seed=6, rated=False),
        finish([p[0], p[1], p[2], p[3]], game="yokai", options={"teams": True}, seed=7),
        finish([p[4], p[0], p[1]], game="yokai", options={}, seed=8),
    ]
    return p, matches


def run(command, *args):
    out = StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def snapshot():
    ratings = list(Rating.objects.order_by("user_id", "game").values("user_id", "game", "mu", "sigma", "display", "matches"))
    changes = list(RatingChange.objects.order_by("match_id", "user_id").values())
    return ratings, changes


def test_rebuild_equals_the_live_values(played):
    _, matches = played
    assert RatingChange.objects.values("match").distinct().count() == 6  # the bot and unrated matches don't count
    assert Rating.objects.filter(game="yokai").count() == 5
    report = rebuild.check()
    assert report.lines() == []
    assert report.matches == 6
    rebuilt, changes, errors = rebuild.replay()
    stored_ratings, stored_changes = rebuild.stored()
    assert errors == []
    assert {k: (v["mu"], v["sigma"]) for k, v in rebuilt.items()} == \
        {k: (v["mu"], v["sigma"]) for k, v in stored_ratings.items()}  # exact floats
    assert "replayed 6 rated match(es): 0 rating difference(s)" in run("rebuild_ratings")


def test_a_corrupted_rating_is_reported_and_fixed(played):
    players, _ = played
    row = Rating.objects.filter(game="pebbles").order_by("user_id").first()
    good = (row.mu, row.sigma, row.display)
    before = snapshot()
    Rating.objects.filter(pk=row.pk).update(mu=row.mu + 1e-9, display=row.display + 5)
    RatingChange.objects.filter(user_id=players[4].pk, game="yokai").delete()

    with pytest.raises(CommandError) as err:
        run("rebuild_ratings")
    assert err.value.returncode == 1
    lines = rebuild.check().lines()
    assert f"rating {row.user_id} pebbles mu: stored={row.mu + 1e-9!r} rebuilt={good[0]!r}" in lines
    assert any(line.startswith(f"rating {row.user_id} pebbles display:") for line in lines)
    assert any(line.startswith("change ") and f" {players[4].pk} *: stored=<missing>" in line for line in lines)

    out = run("rebuild_ratings", "--fix")
    assert "all ratings now match the logs" in out
    assert rebuild.check().clean
    assert snapshot()[0] == before[0]
    assert len(snapshot()[1]) == len(before[1])


def test_an_extra_rating_is_removed_by_fix(played, make_user):
    stray = make_user()
    Rating.objects.create(user=stray, game="pebbles", mu=30.0, sigma=2.0, display=1400, matches=3,
                          updated_at=Rating.objects.first().updated_at)
    lines = rebuild.check().lines()
    assert [line for line in lines if line.startswith(f"rating {stray.pk} pebbles *:")] == lines
    run("rebuild_ratings", "--fix")
    assert not Rating.objects.filter(user=stray).exists()


def test_rebuild_projections_checks_ratings_too(played):
    assert "replayed 6 rated match(es): 0 rating difference(s)" in run("rebuild_projections")
    Rating.objects.filter(game="yokai").update(matches=99)
    with pytest.raises(CommandError):
        run("rebuild_projections")
    out = run("rebuild_projections", "--fix")
    assert "all ratings now match the logs" in out
    assert rebuild.check().clean


def test_matches_applied_out_of_finish_order_are_flagged_and_fixed(make_user, finish, caplog):
    """Two matches of the same players whose ratings were applied in the reverse of their finish
    order (a commit race on PostgreSQL), simulated by undoing the first and applying it last."""
    from games.application import selectors
    from games.ratings import policy

    a, b = make_user(), make_user()
    first = finish([a, b], seed=1)
    second = finish([a, b], seed=2)
    assert rebuild.check().clean
    RatingChange.objects.filter(match=first).delete()
    assert rebuild.check().differences  # first's changes are missing (and the ratings differ)
    run("rebuild_ratings", "--fix")
    # Now replay history wrongly: drop everything and apply second before first.
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    for match in (second, first):
        lobby = selectors.state_load(match)["lobby"]
        policy.ratings_apply(match, "pebbles", policy.rated_seats(lobby), policy.finished_at(match))
    assert "applied after a later-finishing match" in caplog.text
    assert not rebuild.check().clean
    assert "all ratings now match the logs" in run("rebuild_ratings", "--fix")
