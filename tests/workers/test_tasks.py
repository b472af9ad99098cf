"""Workers: automated steps through the one write path, idempotent re-runs, clocks swept from
database rows, bounded retries ending in a dead letter. (Embedded default: Celery runs eagerly;
the distributed suite runs the same tasks in a real worker process.)"""

import uuid
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from games.application import selectors, services
from games.eventstore.models import MatchCommand, MatchEvent
from games.kernel import Rng, registry
from games.projections.models import MatchDeadline
from games.tournaments import policies as tournament_policies
from tests.engines.pebbles import Pebbles
from workers import tasks
from workers.models import DeadLetter

pytestmark = pytest.mark.django_db(transaction=True)


def _play_first_legal(match, seat, user):
    match.refresh_from_db()
    cmd = selectors.view_for_seat(match, seat)["legal_commands"][0]
    return services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(user),
                                         command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=cmd["type"], args=cmd["args"])


def test_a_bot_seat_answers_on_commit_through_the_worker(started_pebbles):
    match, users = started_pebbles(seats=2, bots=(1,), options={"bonus_rolls": False})
    _play_first_legal(match, 0, users[0])
    bot_moves = MatchEvent.objects.filter(match=match, actor__kind="worker")
    assert bot_moves.count() == 1 and bot_moves.get().actor["seat"] == 1
    match.refresh_from_db()
    assert selectors.status_of(match, selectors.state_load(match))["awaiting"] == [0]


def test_system_steps_run_after_a_full_round_and_a_second_run_changes_nothing(started_pebbles, monkeypatch):
    scheduled = []
    monkeypatch.setattr("games.application.hooks._followup_scheduler", lambda *a: scheduled.append(a))
    match, users = started_pebbles(seats=2)
    _play_first_legal(match, 0, users[0])
    _play_first_legal(match, 1, users[1])
    match.refresh_from_db()
    assert scheduled[-1][0] == match.pk and scheduled[-1][1] == match.head_seq and "system" in scheduled[-1][2]

    seq = match.head_seq
    first = tasks.advance_match_task.apply(args=(str(match.pk), seq)).get()
    again = tasks.advance_match_task.apply(args=(str(match.pk), seq)).get()
    assert (first, again) == ("system", "stale")
    rolls = MatchEvent.objects.filter(match=match, type="BonusRolled")
    assert rolls.count() == 1 and rolls.get().command_id == tasks.task_command_id(match.pk, seq, "system")


def test_a_redelivered_task_whose_command_already_landed_appends_nothing(started_pebbles, monkeypatch):
    monkeypatch.setattr("games.application.hooks._followup_scheduler", lambda *a: None)
    match, users = started_pebbles(seats=2)
    _play_first_legal(match, 0, users[0])
    _play_first_legal(match, 1, users[1])
    match.refresh_from_db()
    seq, before = match.head_seq, MatchEvent.objects.count()
    # The worker died after committing but before acking: the same command is submitted again.
    for _ in range(2):
        assert tasks._submit(str(match.pk), "system", seq, "system", {"type": "roll_bonus", "args": {}}, "test")
    assert MatchEvent.objects.count() == before + 1


# docs/security.md: a player once sent a move under the id of the server's next step (derivable from
# the match id, the seq and the purpose), and the bot, the clock or the round's time limit then failed
# with command_id_reused for ever
def test_the_ids_of_the_servers_own_steps_cannot_be_computed_without_the_secret_key(settings):
    step = (uuid.uuid4(), 7, "timeout:0")
    before, time_limit = tasks.task_command_id(*step), tournament_policies.time_limit_command_id(step[0])
    assert tasks.task_command_id(*step) == before  # a retried step is the same command
    settings.SECRET_KEY = "another-secret-key-" * 3
    assert tasks.task_command_id(*step) != before
    assert tournament_policies.time_limit_command_id(step[0]) != time_limit


def test_a_step_whose_id_another_command_holds_is_dropped_with_an_error_not_retried(started_pebbles, monkeypatch,
                                                                                     caplog):
    monkeypatch.setattr("games.application.hooks._followup_scheduler", lambda *a: None)
    match, users = started_pebbles(seats=2)
    taken = uuid.uuid4()
    cmd = selectors.view_for_seat(match, 0)["legal_commands"][0]
    services.match_submit_command(match_id=match.pk, seat=0, actor=services.Actor.user(users[0]), command_id=taken,
                                  expected_seq=match.head_seq, type_=cmd["type"], args=cmd["args"])
    _play_first_legal(match, 1, users[1])
    match.refresh_from_db()
    monkeypatch.setattr(tasks, "task_command_id", lambda *a: taken)  # as if the step's id had been taken
    assert tasks.advance_match_task.apply(args=(str(match.pk), match.head_seq)).get() == "raced"
    assert "found its command id taken" in caplog.text


def test_the_clock_is_a_row_swept_by_beat_and_submits_the_timeout_command(started_pebbles):
    match, users = started_pebbles(seats=2, options={"turn_seconds": 30, "bonus_rolls": False})
    deadline = MatchDeadline.objects.get(match=match)
    assert deadline.seats == [0] and deadline.seq == match.head_seq
    assert timezone.now() + timedelta(seconds=25) < deadline.due_at <= timezone.now() + timedelta(seconds=31)

    assert tasks.sweep_timers.apply().get() == 0  # not due yet
    MatchDeadline.objects.filter(match=match).update(due_at=timezone.now() - timedelta(seconds=1))
    assert tasks.sweep_timers.apply().get() == 1
    timed_out = MatchEvent.objects.filter(match=match, actor__kind="worker").get()
    assert timed_out.type == "TurnPassed" and timed_out.payload["seat"] == 0
    assert MatchDeadline.objects.get(match=match).seats == [1], "the clock moved on to the next decision"


class BrokenSystem(Pebbles):
    slug = "pebbles-broken"

    def system_command(self, state):
        return {"type": "not-a-command", "args": {}}


def test_an_automated_step_the_rules_refuse_is_parked_as_a_dead_letter(make_user):
    registry.register(BrokenSystem())
    try:
        a, b = make_user(), make_user()
        match = services.match_create(game="pebbles-broken", seats=2, options={}, creator=a)
        services.match_join(match_id=match.pk, user=b)
        services.match_start(match_id=match.pk, user=a)
        for seat, user in ((0, a), (1, b)):
            _play_first_legal(match, seat, user)
        letter = DeadLetter.objects.get()
        match.refresh_from_db()
        assert letter.task == "workers.tasks.advance_match" and letter.args == [str(match.pk), match.head_seq]
        assert "unknown_command" in letter.error
    finally:
        registry.unregister("pebbles-broken")


def test_database_errors_retry_a_bounded_number_of_times_then_dead_letter(started_pebbles, monkeypatch, settings):
    monkeypatch.setattr("games.application.hooks._followup_scheduler", lambda *a: None)
    match, users = started_pebbles(seats=2)
    _play_first_legal(match, 0, users[0])
    _play_first_legal(match, 1, users[1])
    match.refresh_from_db()
    calls = []

    def failing(*args, **kwargs):
        calls.append(1)
        raise OperationalError("database went away")

    monkeypatch.setattr(tasks, "match_submit_command", failing)
    result = tasks.advance_match_task.apply(args=(str(match.pk), match.head_seq), throw=False)
    assert result.get(propagate=False) == "dead"
    assert len(calls) == tasks.advance_match_task.max_retries + 1
    assert DeadLetter.objects.filter(task="workers.tasks.advance_match").count() == 1


def test_a_clock_on_a_simultaneous_choice_times_out_every_seat_on_it(make_user):
    # Yashima's destiny tokens are chosen simultaneously: one expiry must settle every undecided
    # seat, not one seat per expiry with a fresh full clock for the next.
    users = [make_user() for _ in range(3)]
    match = services.match_create(game="yashima", seats=3, options={"turn_seconds": 30}, creator=users[0])
    for seat, user in enumerate(users[1:], start=1):
        services.match_join(match_id=match.pk, user=user, seat=seat)
    services.match_start(match_id=match.pk, user=users[0])
    engine = registry.get("yashima")
    for _ in range(200):  # the seats set up one after the other (bot choices) until the destiny phase
        match.refresh_from_db()
        clock = MatchDeadline.objects.get(match=match)
        if len(clock.seats) > 1:
            break
        seat = clock.seats[0]
        state = selectors.state_load(match)
        cmd = engine.bot_command(state["game"], seat, Rng(b"test", f"{match.head_seq}"))
        services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=cmd["type"], args=cmd["args"])
    assert sorted(clock.seats) == [0, 1, 2]
    first_seq = clock.seq

    MatchDeadline.objects.filter(match=match).update(due_at=timezone.now() - timedelta(seconds=1))
    assert tasks.timeout_match_task.apply(args=[str(match.pk), first_seq]).get() == "timed_out"
    ids = {tasks.task_command_id(str(match.pk), first_seq, f"timeout:{seat}") for seat in range(3)}
    timed_out = MatchCommand.objects.filter(match=match, command_id__in=ids)
    assert sorted(c.seat for c in timed_out) == [0, 1, 2]
    match.refresh_from_db()
    assert match.head_seq > first_seq
    # Running the same task again (a redelivery) changes nothing.
    head = match.head_seq
    assert tasks.timeout_match_task.apply(args=[str(match.pk), first_seq]).get() == "stale"
    match.refresh_from_db()
    assert match.head_seq == head
