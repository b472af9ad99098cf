"""manage.py verify_logs: every match log re-folded under its own engine version and the current one,
and every recorded command decided again by the current engine.

A test engine's version is bumped (Counter v1 -> v2 ... v6, Pebbles v1 -> v2, v3) the way a deploy
would change rules."""

import uuid
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from games.application import selectors, services
from games.application.verify import DIFFERENT, REDECISION, REFOLD, REJECTED, SAME, logs_verify
from games.eventstore.models import Match, MatchCommand, MatchEvent
from games.kernel import SYSTEM, RuleViolation, event, registry
from tests.engines.counter import Counter
from tests.engines.pebbles import Pebbles
from tests.projections.play import play_randomly

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


class CounterOddOnly(Counter):
    """A rules change that makes recorded commands illegal: only odd amounts may be added."""

    version = "5"

    def decide(self, state, command, rng):
        if command.args.get("n", 1) % 2 == 0:
            raise RuleViolation("bad_args", "n must be odd")
        return super().decide(state, command, rng)


class CounterDouble(Counter):
    """A rules change in what the same command decides: an add of n records 2n (same schema, same
    evolve, so a re-fold alone sees nothing)."""

    version = "6"

    def decide(self, state, command, rng):
        return [event("Added", {"seat": command.seat, "n": 2 * command.args.get("n", 1)})]


class PebblesRollToTheLeader(Pebbles):
    """The SYSTEM's bonus roll now goes to the highest score (a worker's command decided anew)."""

    version = "2"

    def decide(self, state, command, rng):
        if command.seat == SYSTEM and command.type == "roll_bonus" and state["awaiting_roll"]:
            scores = state["scores"]
            return [event("BonusRolled", {"die": rng.randint(1, 6), "seat": max(range(len(scores)), key=lambda s: (scores[s], s))})]
        return super().decide(state, command, rng)


class PebblesBotHouseRule(Pebbles):
    """What seat 1 (a bot in these matches) decides is marked by a house rule."""

    version = "3"

    def decide(self, state, command, rng):
        events = super().decide(state, command, rng)
        if command.seat == 1:
            return [{**e, "payload": {**e["payload"], "house_rule": True}} for e in events]
        return events


@pytest.fixture
def versions():
    def bump(engine):
        registry.register(engine)
        selectors.cache_clear()

    yield bump
    for slug, numbers in (("counter", ("2", "3", "4", "5", "6")), ("pebbles", ("2", "3"))):
        for v in numbers:
            registry._engines[slug].pop(v, None)
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
    # every command was decided again: the create (with the creator's seat), the start, three adds
    assert check.commands_redecided == MatchCommand.objects.filter(match=match).count() == 5
    assert check.events_refold_only == 0 and not check.refold_only


def test_a_rules_change_that_makes_a_recorded_command_illegal_is_reported_at_its_seq(make_user, versions):
    match = played(make_user)
    first_add = match.head_seq - 2
    versions(CounterOddOnly())
    check = only(logs_verify(game="counter"), match)
    assert (check.outcome, check.seq, check.found_by) == (REJECTED, first_add, REDECISION)
    assert "'add' of seat 0 is refused by the current engine: bad_args: n must be odd" in check.detail


def test_a_rules_change_that_decides_other_events_for_the_same_command_is_reported(make_user, versions):
    match = played(make_user)
    first_add = match.head_seq - 2
    versions(CounterDouble())
    check = only(logs_verify(game="counter"), match)
    assert (check.outcome, check.seq, check.found_by) == (DIFFERENT, first_add, REDECISION)
    assert "event.payload.n: the log has 2, the current engine 4" in check.detail


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
    assert (check.outcome, check.seq, check.current_version, check.found_by) == (DIFFERENT, first_add, "3", REFOLD)
    assert "state.game.total: v1 has 2, the current engine 4" in check.detail
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


@pytest.fixture
def pebbles_with_workers(started_pebbles, django_capture_on_commit_callbacks):
    """A Pebbles match played to the end with seat 1 a bot and SYSTEM bonus rolls: both are the
    workers' commands (advance_match through the write path)."""
    match, users = started_pebbles(options={"target": 12}, bots=(1,))
    play_randomly(match, users, django_capture_on_commit_callbacks, seed=3)
    workers = MatchCommand.objects.filter(match=match, actor__kind="worker")
    assert workers.filter(seat=SYSTEM).exists() and workers.filter(seat=1).exists()
    return match


def test_system_and_bot_commands_are_decided_again(pebbles_with_workers):
    check = only(logs_verify(game="pebbles"), pebbles_with_workers)
    assert check.outcome == SAME
    assert check.commands_redecided == MatchCommand.objects.filter(match=pebbles_with_workers).count()


def test_a_changed_system_rule_is_reported_at_the_workers_command(pebbles_with_workers, versions):
    first_roll = MatchEvent.objects.filter(match=pebbles_with_workers, type="BonusRolled").order_by("seq").first().seq
    versions(PebblesRollToTheLeader())
    check = only(logs_verify(game="pebbles"), pebbles_with_workers)
    assert (check.outcome, check.seq, check.found_by) == (DIFFERENT, first_roll, REDECISION)
    assert "'roll_bonus' of the system" in check.detail and "event.payload.seat" in check.detail


def test_a_changed_rule_for_the_bot_is_reported_at_the_bots_first_command(pebbles_with_workers, versions):
    bot_first = MatchCommand.objects.filter(match=pebbles_with_workers, seat=1).order_by("first_seq").first().first_seq
    versions(PebblesBotHouseRule())
    check = only(logs_verify(game="pebbles"), pebbles_with_workers)
    assert (check.outcome, check.seq, check.found_by) == (DIFFERENT, bot_first, REDECISION)
    assert "of seat 1 (a worker)" in check.detail and "event.payload.house_rule" in check.detail


def _forget_command_bodies(match, *, until_seq):
    """What a log recorded before commands were kept looks like: command rows without a body.
    (On PostgreSQL the append-only trigger is switched off for this, inside the test's transaction.)"""
    rows = MatchCommand.objects.filter(match=match, first_seq__lte=until_seq)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        rows.update(kind=None, type=None, args=None, actor=None, expected_seq=None)
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = DEFAULT")


def test_logs_from_before_commands_were_kept_are_checked_by_refold_only_and_counted(make_user, versions):
    old, partly, new = played(make_user), played(make_user), played(make_user)
    _forget_command_bodies(old, until_seq=old.head_seq)
    _forget_command_bodies(partly, until_seq=3)  # created and started before, played after
    report = logs_verify(game="counter")
    assert [c.match_id for c in report.refold_only] == [str(old.pk)]
    assert [c.match_id for c in report.partly_refold_only] == [str(partly.pk)]
    assert (only(report, old).commands_redecided, only(report, partly).commands_redecided) == (0, 3)
    assert only(report, old).events_refold_only == old.head_seq

    out = StringIO()
    call_command("verify_logs", "--game", "counter", "--all", stdout=out)
    text = out.getvalue()
    assert f"{old.pk} counter v1: same [re-fold only: no command kept]" in text
    assert "verified 3 match(es): 0 reported" in text
    assert "decided 8 recorded command(s) again with the current engine" in text
    assert "1 match(es) recorded before commands were kept with their rows: checked by re-fold only; 1 more in part" in text
    # a rule change is still found in the old log by the re-fold, and in the new one by re-decision too
    versions(CounterOddOnly())
    report = logs_verify(game="counter")
    assert only(report, old).outcome == SAME  # nothing to decide again; evolve is unchanged
    assert (only(report, partly).outcome, only(report, new).outcome) == (REJECTED, REJECTED)
