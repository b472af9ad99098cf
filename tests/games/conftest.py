"""Fixtures for the suites that play whole games through the REST API."""

import uuid

import pytest
from django.core.cache import cache

from games.application import selectors, services
from games.eventstore.models import Match
from games.kernel import Rng


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    selectors.cache_clear()
    yield
    cache.clear()
    selectors.cache_clear()


@pytest.fixture
def fixed_match_seed(monkeypatch):
    """Make the match's secret seed AND its id a function of the test case, so a failing game
    replays exactly (the engine's randomness is drawn from Rng(seed, "<match id>:<seq>"))."""

    def fix(label: str):
        seed = Rng(label.encode(), "match-seed")
        monkeypatch.setattr(services.secrets, "token_bytes", lambda n=32: bytes(seed.below(256) for _ in range(n)))
        ids = Rng(label.encode(), "match-id")
        monkeypatch.setattr(Match._meta.pk, "_get_default", lambda: uuid.UUID(bytes=bytes(ids.below(256) for _ in range(16))))

    return fix
