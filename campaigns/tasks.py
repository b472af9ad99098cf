"""The campaign policy as a Celery task (thin: the rules are in ``services.policy_run``), and the
leave of a player who left a phase match on its own page (``services.phase_resigns_run``).

The policy is scheduled on the commit that finished a match (``games.application.hooks``' finished
listener); the leave on the commit that conceded a seat of a running match (a projector registered
with ``games.application.readmodels``, which sees every write's events). A run that repeats
(redelivery, a duplicate enqueue) appends nothing: see ``policy_run`` and ``phase_resigns_run``.
"""

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError, transaction

from games.application.lobby import SEAT_CONCEDED

from workers import chaos

from . import domain
from .models import CampaignRecord
from .services import pending_work, phase_resigns_run, policy_run

log = logging.getLogger(__name__)


@shared_task(name="campaigns.tasks.campaign_policy", bind=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=30,
             max_retries=settings.TASK_MAX_RETRIES)
def campaign_policy_task(self, match_id: str) -> str:
    return policy_run(match_id, between=chaos.hook("campaign_policy"))


@shared_task(name="campaigns.tasks.campaign_phase_resigns", bind=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=30,
             max_retries=settings.TASK_MAX_RETRIES)
def campaign_phase_resigns_task(self, match_id: str) -> str:
    return phase_resigns_run(match_id)


def _conceded(events) -> bool:
    return any(ev["type"] == SEAT_CONCEDED for ev in events)


def phase_resigns_project(engine, match, state, events, at=None, before=None) -> None:
    """Projector (inside the write's transaction): a seat conceded in a match (a resignation, or a
    take-over of an absent player) schedules, once the write commits, the campaign's side of it, if
    the match is one of a campaign's phases. Nothing is written here: the campaign is locked only by
    its own writes, so a match write never waits on a campaign (whose leave resigns from the match)."""
    if _conceded(events):
        match_id = match.pk
        transaction.on_commit(lambda: schedule_phase_resigns(match_id))


def phase_resigns_writes(engine, match, state, events, at, before, head):
    """``phase_resigns_project``'s writes planner: nothing to write; a concession takes the locked
    path, whose projector schedules the campaign's leave on commit."""
    return None if _conceded(events) else []


def schedule_phase_resigns(match_id) -> None:
    """After the commit that conceded a seat: the concession is committed, so a broker that cannot
    take the task (Redis down) must not turn the player's answer into an error; the beat sweep
    (``pending_work``) enqueues it again, and the policy does the leave when the phase ends anyway."""
    try:
        if CampaignRecord.objects.filter(type=domain.PHASE_STARTED, match_id=match_id).exists():
            _run_or_enqueue(campaign_phase_resigns_task, match_id, "the leave of a player who left the phase match")
    except Exception:  # noqa: BLE001 - the concession is committed; logged, and the sweep retries it
        log.exception("scheduling the campaign leave after a concession in %s failed; the sweep retries it", match_id)


def _run_or_enqueue(task, match_id, what: str) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        result = task.apply(args=(str(match_id),), throw=False)
        if result.failed():
            log.error("%s %s failed: %r", what, match_id, result.result)
        return
    task.delay(str(match_id))


def schedule_policy(match_id, winners=None, actor=None) -> None:
    """Enqueue the policy for a finished match that is one of a campaign's phases (a finished listener:
    the policy reads the outcome from the log, so ``winners`` and ``actor`` are not needed)."""
    if not CampaignRecord.objects.filter(type=domain.PHASE_STARTED, match_id=match_id).exists():
        return
    _run_or_enqueue(campaign_policy_task, match_id, "campaign policy for")


@shared_task(name="campaigns.tasks.sweep_campaigns")
def sweep_campaigns() -> int:
    """Beat: re-enqueue the policy for every finished phase match the log has not recorded as
    finished (its task was lost with a worker), and the leave of every player who left a running
    phase match on its page and is still seated; a run that finds it done appends nothing."""
    pending, resigns = pending_work()
    for match_id in pending:
        campaign_policy_task.delay(str(match_id))
    for match_id in resigns:
        campaign_phase_resigns_task.delay(str(match_id))
    return len(pending) + len(resigns)
