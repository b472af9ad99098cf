"""The application tells registered listeners about a committed MatchFinished (once, after the commit,
with the winners and the finishing actor), and never imports who listens."""

import uuid

import pytest
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerUnreachable

from games.application import hooks, selectors, services
from games.kernel import RuleViolation

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard():
    calls = []

    def listener(match_id, winners, actor):
        calls.append((str(match_id), winners, actor))

    hooks.add_finished_listener(listener)
    hooks.add_finished_listener(listener)  # registering twice still calls it once
    yield calls
    hooks._finished_listeners.remove(listener)


def test_a_finished_match_is_announced_once_after_its_commit(finished_pebbles, heard):
    match, users = finished_pebbles()
    assert len(heard) == 1
    match_id, winners, actor = heard[0]
    assert match_id == str(match.pk) and winners and actor["kind"] == "user" and actor["user_id"] in {u.pk for u in users}


def test_nothing_is_announced_while_unfinished_or_when_the_engine_refuses_a_system_command(started_pebbles, heard):
    match, users = started_pebbles(options={"bonus_rolls": False, "target": 5})
    assert heard == []
    with pytest.raises(RuleViolation):
        with transaction.atomic():
            services.match_submit_system_command(match_id=match.pk, actor=services.Actor.worker("t"),
                                                 command_id=uuid.uuid4(), type_="time_limit", args={})
    assert heard == []  # pebbles has no time_limit: the engine refuses, nothing was appended


def test_a_failing_listener_does_not_fail_the_finish(finished_pebbles):
    def broken(match_id, winners, actor):
        raise RuntimeError("listener bug")

    hooks.add_finished_listener(broken)
    try:
        match, _users = finished_pebbles()
    finally:
        hooks._finished_listeners.remove(broken)
    match.refresh_from_db()
    assert match.head_seq > 0


def test_a_broker_that_refuses_the_follow_up_does_not_fail_the_committed_command(started_pebbles, monkeypatch):
    """Redis down: the bot's step cannot be enqueued, but the command that made it due is committed
    and answered normally; the beat sweep of stalled matches enqueues the step later."""
    def refused(*args):
        raise BrokerUnreachable("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(hooks, "_followup_scheduler", refused)
    match, (u0, _) = started_pebbles(seats=2, options={"bonus_rolls": False}, bots=(1,))
    view = selectors.view_for_seat(match, 0)
    move = view["legal_commands"][0]  # the human's move makes the bot's turn due
    result = services.match_submit_command(match_id=match.pk, seat=0, actor=services.Actor.user(u0),
                                           command_id=uuid.uuid4(), expected_seq=view["seq"], type_=move["type"],
                                           args=move.get("args") or {})
    match.refresh_from_db()
    assert result.seq == match.head_seq == view["seq"] + 1
