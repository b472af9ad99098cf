"""The platform holds a match's decision clock (a tournament's organizer paused the round): no clock
runs while it is held, and when it is let go the decision resumes with the time it had left
(docs/platform.md, "Holding the clock"). Recorded in the log (ClockHeld, ClockReleased), so the
clock projection rebuilds the same."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.application import selectors, services
from games.application.errors import LobbyError
from games.projections import rebuild
from games.projections.models import MatchDeadline
from workers import tasks

pytestmark = pytest.mark.django_db

ORGANIZER = services.Actor("worker", extra={"task": "test", "purpose": "tournament_pause"})


def _play(match, user, seat):
    match.refresh_from_db()
    cmd = selectors.view_for_seat(match, seat)["legal_commands"][0]
    services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(user), command_id=uuid.uuid4(),
                                  expected_seq=match.head_seq, type_=cmd["type"], args=cmd["args"])


def test_a_held_clock_stops_and_resumes_with_what_it_had_left(started_pebbles):
    # given a running match whose clock has 25 of its 60 seconds left
    match, (alice, bob) = started_pebbles(options={"bonus_rolls": False, "turn_seconds": 60})
    MatchDeadline.objects.filter(match=match).update(due_at=timezone.now() + timedelta(seconds=25))
    # when the platform holds it
    services.match_hold_clock(match_id=match.pk, actor=ORGANIZER, reason="lunch")
    # then no clock runs, the players see it stopped, and a clock task for the old decision does nothing
    match.refresh_from_db()
    assert not MatchDeadline.objects.filter(match=match).exists()
    view = selectors.view_for_seat(match, 0)
    assert view["deadline"] is None and view["match"]["clock_held"] is True
    assert tasks.timeout_match_task.apply(args=[str(match.pk), match.head_seq - 1]).get() == "stale"
    texts = [e["text"] for e in selectors.events_for_seat(match, 0)]
    assert texts[-1] == "The clock stops: the tournament is paused (lunch)"
    # when it is let go much later
    before = timezone.now()
    services.match_release_clock(match_id=match.pk, actor=ORGANIZER)
    # then the same decision has the 25 seconds it had left, from now
    clock = MatchDeadline.objects.get(match=match)
    assert before + timedelta(seconds=24) <= clock.due_at <= timezone.now() + timedelta(seconds=26)
    match.refresh_from_db()
    assert selectors.view_for_seat(match, 0)["match"]["clock_held"] is False
    assert rebuild.check(match.pk).clean  # the log gives the same clock
    # and the next decision gets its full time again
    _play(match, alice, 0)
    clock = MatchDeadline.objects.get(match=match)
    assert clock.due_at >= timezone.now() + timedelta(seconds=58)
    assert rebuild.check(match.pk).clean


def test_moves_while_held_start_no_clock_and_a_hold_is_refused_twice(started_pebbles):
    match, (alice, bob) = started_pebbles(options={"bonus_rolls": False, "turn_seconds": 60})
    services.match_hold_clock(match_id=match.pk, actor=ORGANIZER)
    with pytest.raises(LobbyError) as twice:
        services.match_hold_clock(match_id=match.pk, actor=ORGANIZER)
    assert twice.value.code == "clock_held"
    _play(match, alice, 0)  # the players may go on; no clock runs until the hold ends
    assert not MatchDeadline.objects.filter(match=match).exists()
    assert rebuild.check(match.pk).clean
    services.match_release_clock(match_id=match.pk, actor=ORGANIZER)
    with pytest.raises(LobbyError) as running:
        services.match_release_clock(match_id=match.pk, actor=ORGANIZER)
    assert running.value.code == "clock_not_held"
    assert MatchDeadline.objects.filter(match=match).exists()
    assert rebuild.check(match.pk).clean
