"""Celery tasks: each takes ids, builds a command, and calls the one write path.

Every command a task submits carries the ``expected_seq`` it was scheduled for and a command id
derived from (match, seq, purpose), so a task that runs twice (redelivery after a worker died,
a duplicate enqueue, a sweep racing a task) appends nothing the second time.
"""

import logging
import uuid
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from accounts import turn_emails
from games.application import selectors
from games.application.errors import CommandIdReused, MatchNotFound, NotYourDecision, VersionConflict
from games.application.services import Actor, match_submit_command, server_command_id
from games.kernel import SYSTEM, Rng, RuleViolation
from games.projections.models import MatchDeadline, MatchSummary
from games.tournaments import policies as tournament_policies
from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import REGISTERING, RUNNING, RoundDeadline, Tournament

from . import chaos
from .models import DeadLetter

log = logging.getLogger(__name__)

def task_command_id(match_id, seq: int, purpose: str) -> uuid.UUID:
    return server_command_id(f"{match_id}:{seq}:{purpose}")


class KamizaTask:
    """Shared options: late ack, requeue if the worker dies, bounded retries, then a dead letter."""

    options = dict(
        bind=True,
        acks_late=True,
        reject_on_worker_lost=True,
        autoretry_for=(OperationalError,),
        retry_backoff=True,
        retry_backoff_max=30,
        max_retries=settings.TASK_MAX_RETRIES,
    )


def _dead_letter(task, args, exc) -> None:
    DeadLetter.objects.create(task=task.name, args=list(args), error=repr(exc))


def _submit(match_id, seat, seq: int, purpose: str, command: dict, task_name: str, id_seq: int | None = None) -> bool:
    """``id_seq`` (default ``seq``) keys the command id, for a task submitting several commands in a row."""
    try:
        match_submit_command(
            match_id=match_id, seat=seat, actor=Actor.worker(task_name),
            command_id=task_command_id(match_id, seq if id_seq is None else id_seq, purpose), expected_seq=seq,
            type_=command["type"], args=command.get("args", {}),
        )
        return True
    except (VersionConflict, NotYourDecision):
        return False  # someone else already moved the match on: nothing to do
    except CommandIdReused:  # another command holds this step's id: never retried into a loop
        log.error("the %s step of %s at %s found its command id taken by another command", purpose, match_id, seq)
        return False


@shared_task(name="workers.tasks.advance_match", **KamizaTask.options)
def advance_match_task(self, match_id: str, expected_seq: int) -> str:
    """Take the automated step (SYSTEM or a bot seat) the match awaits at ``expected_seq``."""
    try:
        match = selectors.match_get(match_id)
    except MatchNotFound:
        return "gone"
    if match.head_seq != expected_seq:
        return "stale"
    state = selectors.state_load(match)
    chaos.pause("advance")
    awaiting, bots = selectors.awaiting_automation(state)
    engine = selectors.engine_of(match)
    try:
        if SYSTEM in awaiting:
            command = engine.system_command(state["game"])
            if command is None:
                raise RuleViolation("no_system_command", "the engine awaits the system but offers no command")
            return "system" if _submit(match_id, SYSTEM, expected_seq, "system", command, self.name) else "raced"
        for seat in bots:
            rng = Rng(bytes.fromhex(match.seed), f"{match.pk}:{expected_seq}:bot:{seat}")
            command = engine.bot_command(state["game"], seat, rng)
            if command is not None:
                return "bot" if _submit(match_id, seat, expected_seq, f"bot:{seat}", command, self.name) else "raced"
        return "idle"
    except RuleViolation as exc:  # an automated move the rules refuse is a bug: park it, don't loop
        log.error("automated step refused in %s at %s: %s", match_id, expected_seq, exc)
        _dead_letter(self, [match_id, expected_seq], exc)
        return "dead"
    except OperationalError as exc:
        if self.request.retries >= self.max_retries:
            _dead_letter(self, [match_id, expected_seq], exc)
            return "dead"
        raise


@shared_task(name="workers.tasks.timeout_match", **KamizaTask.options)
def timeout_match_task(self, match_id: str, expected_seq: int) -> str:
    """The clock ran out: submit the engine's timeout command for every seat on it (e.g. all the
    undecided seats of a simultaneous choice), one after the other, each at the then head seq; a
    seat that decided meanwhile, or is no longer awaited, is skipped."""
    try:
        match = selectors.match_get(match_id)
    except MatchNotFound:
        return "gone"
    deadline = MatchDeadline.objects.filter(match=match, seq=expected_seq).first()
    if deadline is None or match.head_seq != expected_seq:
        return "stale"
    engine = selectors.engine_of(match)
    timed_out = 0
    for seat in deadline.seats:
        match.refresh_from_db(fields=["head_seq"])
        state = selectors.state_load(match)
        if state["game"] is None or seat not in selectors.status_of(match, state)["awaiting"]:
            continue
        command = engine.timeout_command(state["game"], seat)
        chaos.pause("timeout")
        if command is not None and _submit(match_id, seat, match.head_seq, f"timeout:{seat}", command, self.name,
                                           id_seq=expected_seq):
            timed_out += 1
    return "timed_out" if timed_out else "idle"


@shared_task(name="workers.tasks.sweep_timers")
def sweep_timers() -> int:
    """Beat: fire every decision clock that has run out."""
    due = list(MatchDeadline.objects.filter(due_at__lte=timezone.now()).order_by("due_at").values_list("match_id", "seq")[:500])
    for match_id, seq in due:
        timeout_match_task.delay(str(match_id), seq)
    return len(due)


@shared_task(name="workers.tasks.sweep_stalled")
def sweep_stalled() -> int:
    """Beat: re-enqueue automated steps whose task was lost (the broker is not the truth)."""
    cutoff = timezone.now() - timedelta(seconds=settings.STALLED_AFTER_SECONDS)
    stalled = MatchSummary.objects.filter(status="active", updated_at__lte=cutoff)
    count = 0
    for summary in stalled.iterator():
        if "system" in summary.awaiting or _awaits_bot(summary):
            advance_match_task.delay(str(summary.match_id), summary.seq)
            count += 1
    return count


def _awaits_bot(summary) -> bool:
    return any(isinstance(s, int) and summary.seats[s] and summary.seats[s].get("bot") for s in summary.awaiting)


# -- tournaments (the logic is games.tournaments.policies; these only route ids to it) -------------


def _tournament_step(task, args, step) -> str:
    try:
        return step()
    except TournamentServiceError as exc:  # a refusal is not transient: park it for a human
        log.error("tournament step %s%r refused: %s %s", task.name, args, exc.code, exc)
        _dead_letter(task, args, exc)
        return "dead"
    except OperationalError as exc:
        if task.request.retries >= task.max_retries:
            _dead_letter(task, args, exc)
            return "dead"
        raise


@shared_task(name="workers.tasks.tournament_match_finished", **KamizaTask.options)
def tournament_match_finished_task(self, match_id: str) -> str:
    """A match's MatchFinished was committed: count its tournament result once and move the event on."""
    def step():
        outcome = tournament_policies.tournament_match_finished(
            match_id=match_id, between=chaos.hook("tournament"), inside=chaos.hook("tournament_pairing"))
        return "none" if outcome is None else ("counted" if outcome["counted"] else "repeat")
    return _tournament_step(self, [match_id], step)


@shared_task(name="workers.tasks.tournament_advance", **KamizaTask.options)
def tournament_advance_task(self, tournament_id: str) -> str:
    """Create a running tournament's missing matches and pair every round that is due."""
    def step():
        paired = tournament_policies.tournament_advance(
            tournament_id=tournament_id, between=chaos.hook("tournament"), inside=chaos.hook("tournament_pairing"))
        return f"paired {paired}" if paired else "idle"
    return _tournament_step(self, [tournament_id], step)


@shared_task(name="workers.tasks.tournament_start", **KamizaTask.options)
def tournament_start_task(self, tournament_id: str) -> str:
    """Start a tournament whose ``starts_at`` has passed, and create round 1's matches."""
    def step():
        started = tournament_policies.tournament_start_due(tournament_id=tournament_id,
                                                           inside=chaos.hook("tournament_pairing"))
        return "started" if started else "idle"
    return _tournament_step(self, [tournament_id], step)


@shared_task(name="workers.tasks.tournament_round_time", **KamizaTask.options)
def tournament_round_time_task(self, tournament_id: str, round_no: int) -> str:
    """A round's time ran out: end its unfinished matches by the engine's SYSTEM ``time_limit``."""
    def step():
        ended = tournament_policies.tournament_round_time_up(
            tournament_id=tournament_id, round_no=round_no, task=self.name,
            between=chaos.hook("tournament"), inside=chaos.hook("tournament_pairing"))
        return f"ended {len(ended)}"
    return _tournament_step(self, [tournament_id, round_no], step)


@shared_task(name="workers.tasks.sweep_tournaments")
def sweep_tournaments() -> int:
    """Beat: start tournaments whose ``starts_at`` passed, end rounds whose time ran out, and (the
    backstop for a lost event-driven task) advance every running tournament."""
    now = timezone.now()
    count = 0
    for tid in Tournament.objects.filter(status=REGISTERING, starts_at__lte=now).values_list("pk", flat=True)[:100]:
        tournament_start_task.delay(str(tid))
        count += 1
    for tid, round_no in RoundDeadline.objects.filter(due_at__lte=now).values_list("tournament_id", "round")[:100]:
        tournament_round_time_task.delay(str(tid), round_no)
        count += 1
    for tid in Tournament.objects.filter(status=RUNNING).values_list("pk", flat=True)[:100]:
        tournament_advance_task.delay(str(tid))
        count += 1
    return count


# -- "your turn" e-mails (the logic is accounts.turn_emails) --------------------------------------


@shared_task(name="workers.tasks.turn_email", **KamizaTask.options)
def turn_email_task(self, match_id: str, seat: int, since_seq: int) -> str:
    """Mail one waiting decision's player, at most once (the task claims the decision first)."""
    return turn_emails.send(match_id, seat, since_seq)


@shared_task(name="workers.tasks.sweep_turn_emails")
def sweep_turn_emails() -> int:
    """Beat: one task per decision that has waited TURN_EMAIL_AFTER_MINUTES for an opted-in player."""
    due = turn_emails.due()
    for match_id, seat, since_seq in due:
        turn_email_task.delay(match_id, seat, since_seq)
    return len(due)
