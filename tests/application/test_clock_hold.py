"""The platform holds a match's decision clock (a tournament's organizer paused the round): no clock
runs while it is held, and when it is let go the decision resumes with the time it had left
(docs/platform.md, "Holding the clock"). Recorded in the log (ClockHeld, ClockReleased), so the
clock projection rebuilds the same."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.application import selectors, services
from games.application.errors import LobbyError, MatchPaused
from games.eventstore.models import Match
from games.projections import rebuild
from games.projections.models import MatchDeadline
from workers import tasks

pytestmark = pytest.mark.django_db

ORGANIZER = services.Actor("worker", extra={"task": "test", "purpose": "tournament_pause"})


def _play(match, user, seat, actor=None):
    match.refresh_from_db()
    cmd = selectors.engine_of(match).legal_commands(selectors.state_load(match)["game"], seat)[0]
    services.match_submit_command(match_id=match.pk, seat=seat, actor=actor or services.Actor.user(user),
                                  command_id=uuid.uuid4(),
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
    assert texts[-1] == "The clock stops: the round is paused (lunch)"
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


def test_while_held_players_cannot_move_but_the_worker_and_a_resignation_can(started_pebbles):
    # given a running match whose organizer paused it for a power cut
    match, (alice, bob) = started_pebbles(options={"bonus_rolls": False, "turn_seconds": 60})
    services.match_hold_clock(match_id=match.pk, actor=ORGANIZER, reason="power cut")
    head = Match.objects.get(pk=match.pk).head_seq
    view = selectors.view_for_seat(Match.objects.get(pk=match.pk), 0)
    assert view["match"]["clock_reason"] == "power cut" and view["legal_commands"] == []  # no move is offered
    # when the player whose turn it is moves
    with pytest.raises(MatchPaused) as paused:
        _play(match, alice, 0)
    # then the move is refused, saying why, and nothing is written
    assert (paused.value.code, paused.value.status) == ("match_paused", 409)
    assert paused.value.message == "the round is paused: power cut"
    assert Match.objects.get(pk=match.pk).head_seq == head
    # but the platform's workers still play for a seat (a bot, the system), and no clock starts
    _play(match, alice, 0, actor=services.Actor.worker("bot"))
    assert Match.objects.get(pk=match.pk).head_seq > head
    assert not MatchDeadline.objects.filter(match=match).exists()
    # and a player may still resign (a tournament drop resigns during a pause)
    services.match_resign(match_id=match.pk, user=bob)
    assert selectors.view_for_seat(Match.objects.get(pk=match.pk), 1)["match"]["status"] == "finished"


def test_moves_after_the_hold_start_no_clock_until_release_and_a_hold_is_refused_twice(started_pebbles):
    match, (alice, bob) = started_pebbles(options={"bonus_rolls": False, "turn_seconds": 60})
    services.match_hold_clock(match_id=match.pk, actor=ORGANIZER)
    with pytest.raises(LobbyError) as twice:
        services.match_hold_clock(match_id=match.pk, actor=ORGANIZER)
    assert twice.value.code == "clock_held"
    _play(match, alice, 0, actor=services.Actor.worker("bot"))  # a worker's step starts no clock while held
    assert not MatchDeadline.objects.filter(match=match).exists()
    assert rebuild.check(match.pk).clean
    services.match_release_clock(match_id=match.pk, actor=ORGANIZER)
    with pytest.raises(LobbyError) as running:
        services.match_release_clock(match_id=match.pk, actor=ORGANIZER)
    assert running.value.code == "clock_not_held"
    assert MatchDeadline.objects.filter(match=match).exists()
    assert rebuild.check(match.pk).clean
