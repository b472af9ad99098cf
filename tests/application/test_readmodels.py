"""The read-model ports: the application layer reaches games.projections only through what the
projections app registered, inside the write transaction."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from games.application import readmodels
from games.projections import updaters
from games.ratings import policy


def test_the_projections_and_ratings_apps_register_their_projectors_and_the_clock_reader():
    # INSTALLED_APPS order: the read models first, then the ratings policy.
    assert readmodels._projectors == [updaters.projections_update, policy.ratings_project]
    assert readmodels._clock_reader is updaters.clock_row


def test_a_write_without_a_registered_projector_fails_loudly(monkeypatch):
    monkeypatch.setattr(readmodels, "_projectors", [])
    with pytest.raises(ImproperlyConfigured):
        readmodels.projections_update(None, None, {}, [], None)


def test_a_projector_registered_twice_runs_once_with_the_write_arguments(monkeypatch):
    calls = []

    def projector(*args):
        calls.append(args)

    monkeypatch.setattr(readmodels, "_projectors", [])
    readmodels.projector_register(projector)
    readmodels.projector_register(projector)
    readmodels.projections_update("engine", "match", {"s": 1}, [], "at")
    assert calls == [("engine", "match", {"s": 1}, [], "at")]
