""""Your turn" e-mails (accounts.turn_emails): a beat sweep finds decisions that have waited
TURN_EMAIL_AFTER_MINUTES for a player who opted in, a task per decision mails it, at most once."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import turn_emails
from accounts.models import Profile, TurnEmail
from accounts.services import profile_update
from games.application import selectors, services
from games.projections.models import MatchSummary
from workers import tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(started_pebbles, settings):
    """A running match whose seat 0 (opted in, with an address) is awaited and has been for 20 minutes."""
    settings.TURN_EMAIL_AFTER_MINUTES = 15
    settings.SITE_URL = "https://kamiza.example"
    match, users = started_pebbles(options={"bonus_rolls": False})
    for user in users:
        user.email = f"{user.username}@example.org"
        user.save()
    profile_update(user=users[0], turn_email=True)
    age(match, minutes=20)
    return match, users


def age(match, minutes):
    MatchSummary.objects.filter(match=match).update(updated_at=timezone.now() - timedelta(minutes=minutes))


def play(match, seat, user):
    match.refresh_from_db()
    cmd = selectors.view_for_seat(match, seat)["legal_commands"][-1]
    services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(user),
                                  command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=cmd["type"], args=cmd["args"])


def test_a_waiting_decision_is_mailed_once_by_the_sweep(waiting, mailoutbox):
    match, (p0, p1) = waiting
    assert tasks.sweep_turn_emails() == 1
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == [p0.email] and mail.subject == "Your turn in Pebbles (test engine)"
    assert f"https://kamiza.example/matches/{match.pk}/" in mail.body and "20 minutes" in mail.body
    assert "https://kamiza.example/account/" in mail.body  # how to turn it off
    row = TurnEmail.objects.get()
    assert (row.seat, row.since_seq, row.user_id) == (0, 0, p0.pk) and row.sent_at is not None
    # Later sweeps, and the same task run again, send nothing more for this decision.
    assert tasks.sweep_turn_emails() == 0
    assert tasks.turn_email_task.apply(args=(str(match.pk), 0, 0)).result == "already"
    assert len(mailoutbox) == 1


def test_each_new_waiting_decision_gets_its_own_mail(waiting, mailoutbox):
    match, (p0, p1) = waiting
    tasks.sweep_turn_emails()
    play(match, 0, p0)  # seat 0 decides; now seat 1 (not opted in) waits
    age(match, minutes=30)
    assert turn_emails.due() == []
    play(match, 1, p1)  # seat 0's next decision
    assert turn_emails.due() == []  # not waited long enough yet
    age(match, minutes=16)
    assert tasks.sweep_turn_emails() == 1
    assert len(mailoutbox) == 2 and TurnEmail.objects.count() == 2
    assert TurnEmail.objects.order_by("pk").last().since_seq == selectors.match_get(match.pk).head_seq - 1


def test_nobody_is_mailed_who_did_not_opt_in_or_has_no_address(waiting, mailoutbox):
    match, (p0, _) = waiting
    profile_update(user=p0, turn_email=False)
    assert tasks.sweep_turn_emails() == 0
    profile_update(user=p0, turn_email=True)
    p0.email = ""
    p0.save()
    assert turn_emails.due() == [] and mailoutbox == []
    assert Profile.objects.get(user=p0).turn_email is True


def test_a_stale_or_early_task_sends_nothing(waiting, mailoutbox, settings):
    match, (p0, p1) = waiting
    age(match, minutes=5)
    assert turn_emails.send(match.pk, 0, 0) == "early"  # the match moved since the sweep looked
    age(match, minutes=20)
    assert turn_emails.send(match.pk, 1, 0) == "stale"  # seat 1 is not awaited
    play(match, 0, p0)
    age(match, minutes=20)
    assert turn_emails.send(match.pk, 0, 0) == "stale"  # that decision was taken
    assert mailoutbox == [] and not TurnEmail.objects.exists()


def test_decisions_older_than_the_horizon_are_left_alone(waiting, settings):
    match, _ = waiting
    settings.TURN_EMAIL_MAX_AGE_HOURS = 1
    age(match, minutes=15 + 61)
    assert turn_emails.due() == []
    age(match, minutes=15 + 59)
    assert len(turn_emails.due()) == 1


def test_the_beat_schedule_and_the_embedded_clock_loop_run_the_sweep(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-turn-emails"]
    assert entry["task"] == "workers.tasks.sweep_turn_emails" and entry["schedule"] > 0
    from workers.management.commands import run_clocks

    assert "sweep-turn-emails" in run_clocks.due_entries({}, now=0.0, every=2.0)
    assert run_clocks.due_entries({name: 0.0 for name in settings.CELERY_BEAT_SCHEDULE}, now=1.0, every=2.0) == []


def test_the_embedded_clock_loop_runs_every_beat_entry_once_per_sweep(settings, monkeypatch):
    # rules of the embedded mode (README, "The two commands"): no beat, run_clocks stands in for it
    from celery import current_app

    from workers.management.commands import run_clocks

    ran = []
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        monkeypatch.setitem(current_app.tasks, entry["task"], lambda name=name: ran.append(name) or 0)
    run_clocks.Command().handle(every=2.0, once=True)
    assert sorted(ran) == sorted(settings.CELERY_BEAT_SCHEDULE)  # campaigns' sweep included


def test_a_fresh_process_finds_every_beat_entry_task():
    # `dev.py serve` starts run_clocks as a process of its own, where no test has imported the task
    # modules: the loop must load them itself (Celery autodiscovers only in a worker or beat)
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import django; django.setup()\n"
        "from celery import current_app\n"
        "from django.conf import settings\n"
        "from workers.management.commands.run_clocks import load_tasks\n"
        "load_tasks()\n"
        "missing = [e['task'] for e in settings.CELERY_BEAT_SCHEDULE.values() if e['task'] not in current_app.tasks]\n"
        "print(missing)\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    done = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[2], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
