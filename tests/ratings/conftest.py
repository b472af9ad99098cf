"""Finished matches played through the real write path (services + the workers' follow-ups)."""

import pytest

from games.application import selectors, services
from tests.projections.play import play_randomly


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    selectors.cache_clear()
    yield
    selectors.cache_clear()


@pytest.fixture
def start(make_user):
    """start(users, game=..., options=..., rated=..., bots=(seats...)) -> started match; ``users`` are
    seated in order (seat i = users[i]; a seat listed in ``bots`` gets a bot instead)."""

    def make(users, *, game="pebbles", options=None, rated=None, bots=()):
        kwargs = {} if rated is None else {"rated": rated}
        seats = len(users)
        match = services.match_create(game=game, seats=seats, options=options or {}, creator=users[0], **kwargs)
        for i, user in enumerate(users[1:], start=1):
            if i in bots:
                services.match_add_bot(match_id=match.pk, user=users[0], seat=i)
            else:
                services.match_join(match_id=match.pk, user=user, seat=i)
        services.match_start(match_id=match.pk, user=users[0])
        match.refresh_from_db()
        return match

    return make


@pytest.fixture
def finish(start, django_capture_on_commit_callbacks):
    """finish(users, seed=..., **start kwargs) -> a match played to the end with random legal moves."""

    def play(users, *, seed=0, max_moves=3000, **kwargs):
        kwargs.setdefault("options", {"target": 12})
        match = start(users, **kwargs)
        play_randomly(match, users, django_capture_on_commit_callbacks, seed=seed, max_moves=max_moves)
        assert selectors.state_load(match)["lobby"]["status"] == "finished"
        return match

    return play
