"""The read-model ports: the application layer reaches games.projections only through what the
projections app registered, inside the write transaction."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from campaigns import tasks as campaign_tasks
from games.application import readmodels
from games.projections import updaters
from games.ratings import policy


def test_the_projections_and_ratings_apps_register_their_projectors_and_the_clock_reader():
    # INSTALLED_APPS order: the read models first, then the ratings policy, then the campaigns' reaction
    # to a seat conceded in a phase match (it writes nothing: it schedules the campaign's leave on commit).
    assert readmodels._projectors == [updaters.projections_update, policy.ratings_project,
                                      campaign_tasks.phase_resigns_project]
    assert readmodels._planners == {updaters.projections_update: updaters.projection_writes,
                                    policy.ratings_project: policy.ratings_writes,
                                    campaign_tasks.phase_resigns_project: campaign_tasks.phase_resigns_writes}
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


def test_a_command_is_planned_as_statements_only_when_every_projector_can_say_its_writes(monkeypatch):
    def summary(*args):
        pass

    def ratings(*args):
        pass

    monkeypatch.setattr(readmodels, "_projectors", [])
    monkeypatch.setattr(readmodels, "_planners", {})
    readmodels.projector_register(summary, writes=lambda *args: ["summary write"])
    readmodels.projector_register(ratings)
    # a projector without a planner sends every command to the locked path
    assert readmodels.projection_writes("engine", "match", {}, [], "at", {}, 3) is None
    # with a planner for each, their writes together; one that says None sends this command there
    finishing = {"now": False}
    readmodels.projector_register(ratings, writes=lambda *args: None if finishing["now"] else [])
    assert readmodels.projection_writes("engine", "match", {}, [], "at", {}, 3) == ["summary write"]
    finishing["now"] = True
    assert readmodels.projection_writes("engine", "match", {}, [], "at", {}, 3) is None
