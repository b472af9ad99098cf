"""Decision clocks are visible to clients: the view document, the match detail and the match list
carry ``deadline`` ({due_at, seats}) read from the clock row the sweeper fires; the embedded mode's
``run_clocks`` command fires a clock that ran out."""

from datetime import datetime, timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.eventstore.models import MatchEvent
from games.projections.models import MatchDeadline

pytestmark = pytest.mark.django_db(transaction=True)


def _due(doc) -> datetime:
    return datetime.fromisoformat(doc["deadline"]["due_at"])


def test_a_running_clock_is_in_the_view_detail_and_list_for_seats_and_spectators(started_pebbles, client_for, api):
    match, users = started_pebbles(seats=2, options={"turn_seconds": 30, "bonus_rolls": False})
    row = MatchDeadline.objects.get(match=match)

    for client in (client_for(users[0]), client_for(users[1]), api):
        view = client.get(f"/api/matches/{match.pk}/view/").json()
        assert view["deadline"]["seats"] == [0]
        assert _due(view) == row.due_at
        detail = client.get(f"/api/matches/{match.pk}/").json()
        assert detail["deadline"] == view["deadline"]
    listed = next(m for m in api.get("/api/matches/").json()["results"] if m["id"] == str(match.pk))
    assert listed["deadline"] == view["deadline"]
    assert timezone.now() + timedelta(seconds=25) < _due(view) <= timezone.now() + timedelta(seconds=31)


def test_no_clock_means_a_null_deadline(started_pebbles, client_for):
    match, users = started_pebbles(seats=2, options={"bonus_rolls": False})
    client = client_for(users[0])
    assert client.get(f"/api/matches/{match.pk}/view/").json()["deadline"] is None
    assert client.get(f"/api/matches/{match.pk}/").json()["deadline"] is None


def test_run_clocks_fires_a_clock_that_ran_out_and_the_next_clock_is_shown(started_pebbles, client_for, capsys):
    match, users = started_pebbles(seats=2, options={"turn_seconds": 30, "bonus_rolls": False})
    call_command("run_clocks", "--once")
    assert "0 clock(s) fired" in capsys.readouterr().out
    assert not MatchEvent.objects.filter(match=match, actor__kind="worker").exists()

    MatchDeadline.objects.filter(match=match).update(due_at=timezone.now() - timedelta(seconds=1))
    call_command("run_clocks", "--once")
    assert "1 clock(s) fired" in capsys.readouterr().out
    timed_out = MatchEvent.objects.get(match=match, actor__kind="worker")
    assert timed_out.type == "TurnPassed" and timed_out.payload["seat"] == 0
    view = client_for(users[1]).get(f"/api/matches/{match.pk}/view/").json()
    assert view["deadline"]["seats"] == [1] and view["seq"] == timed_out.seq
