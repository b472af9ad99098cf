"""manage.py verify_logs: every match log re-folded under its own engine version and the current one.

A test engine's version is bumped (Counter v1 -> v2, v3, v4) the way a deploy would change rules."""

import uuid
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from games.application import selectors, services
from games.application.verify import DIFFERENT, REJECTED, SAME, logs_verify
from games.eventstore.models import Match
from games.kernel import registry
from tests.engines.counter import Counter

pytestmark = pytest.mark.django_db


class CounterV2(Counter):
    """Renames Added's ``n`` to ``amount``, with an upcaster: the same game, a new schema."""

    version = "2"
    upcasters = {("Added", 1): lambda p: {"seat": p["seat"], "amount": p["n"]}}

    def decide(self, state, command, rng):
        return [{**e, "v": 2, "payload": {"seat": e["payload"]["seat"], "amount": e["payload"]["n"]}}
                for e in super().decide(state, command, rng)]

    def evolve(self, state, ev):
        if ev["type"] == "Added":
            return {**state, "total": state["total"] + ev["payload"]["amount"], "adds": state["adds"] + 1}
        return super().evolve(state, ev)


class CounterV3(CounterV2):
    """A rules change: every add now counts double. Old logs would reach other totals."""

    version = "3"

    def evolve(self, state, ev):
        if ev["type"] == "Added":
            return {**state, "total": state["total"] + 2 * ev["payload"]["amount"], "adds": state["adds"] + 1}
        return super().evolve(state, ev)


class CounterV4(CounterV2):
    """The v2 schema without the upcaster: v1 rows can no longer be applied."""

    version = "4"
    upcasters = {}


@pytest.fixture
def versions():
    def bump(engine):
        registry.register(engine)
        selectors.cache_clear()

    yield bump
    for v in ("2", "3", "4"):
        registry._engines["counter"].pop(v, None)
    selectors.cache_clear()


def played(make_user, adds=3):
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    for _ in range(adds):
        match.refresh_from_db()
        services.match_submit_command(match_id=match.pk, seat=0, actor=services.Actor.user(user), command_id=uuid.uuid4(),
                                      expected_seq=match.head_seq, type_="add", args={"n": 2})
    match.refresh_from_db()
    return match


def only(report, match):
    return next(c for c in report.checks if c.match_id == str(match.pk))


def test_an_unchanged_engine_reports_nothing(make_user):
    match = played(make_user)
    check = only(logs_verify(game="counter"), match)
    assert check.outcome == SAME and check.recorded_version == check.current_version == "1"


def test_a_schema_change_with_an_upcaster_reaches_the_same_state(make_user, versions):
    match = played(make_user)
    versions(CounterV2())
    check = only(logs_verify(game="counter"), match)
    assert (check.outcome, check.recorded_version, check.current_version) == (SAME, "1", "2")


def test_a_rules_change_is_reported_at_the_first_seq_that_differs(make_user, versions):
    match = played(make_user)
    first_add = match.head_seq - 2
    versions(CounterV3())
    check = only(logs_verify(game="counter"), match)
    assert (check.outcome, check.seq, check.current_version) == (DIFFERENT, first_add, "3")
    # ...while the old match itself keeps replaying under the version it was played with.
    assert Match.objects.get(pk=match.pk).engine_version == "1"
    assert selectors.state_load(Match.objects.get(pk=match.pk), use_cache=False)["game"]["total"] == 6


def test_a_recorded_event_the_current_engine_cannot_apply_is_rejected(make_user, versions):
    match = played(make_user)
    first_add = match.head_seq - 2
    versions(CounterV4())
    check = only(logs_verify(game="counter"), match)
    assert check.outcome == REJECTED and check.seq == first_add and "KeyError" in check.detail


def test_new_matches_are_played_and_verified_under_the_new_version(make_user, versions):
    versions(CounterV3())
    match = played(make_user)
    assert match.engine_version == "3"
    assert selectors.state_load(match, use_cache=False)["game"]["total"] == 12
    assert only(logs_verify(game="counter"), match).outcome == SAME


def test_the_command_filters_reports_and_exits_1(make_user, versions):
    old = played(make_user)
    Match.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=10))
    versions(CounterV3())
    out = StringIO()
    with pytest.raises(CommandError) as failed:
        call_command("verify_logs", "--game", "counter", stdout=out)
    assert failed.value.returncode == 1
    assert f"{old.pk} counter v1 -> v3: different at seq" in out.getvalue()
    since = (timezone.now() - timedelta(days=1)).date().isoformat()
    out = StringIO()
    call_command("verify_logs", "--game", "counter", "--since", since, stdout=out)  # the old match is left out
    assert "verified 0 match(es): 0 reported" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("verify_logs", "--since", "yesterday")
