"""The campaign policy as a Celery task (thin: the rules are in ``services.policy_run``).

Scheduled on the commit that finished a match (``games.application.hooks``' finished listener);
a run that repeats (redelivery, a duplicate enqueue) appends nothing: see ``policy_run``.
"""

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from workers import chaos

from . import domain
from .models import CampaignRecord
from .services import pending_policies, policy_run

log = logging.getLogger(__name__)


@shared_task(name="campaigns.tasks.campaign_policy", bind=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=30,
             max_retries=settings.TASK_MAX_RETRIES)
def campaign_policy_task(self, match_id: str) -> str:
    return policy_run(match_id, between=chaos.hook("campaign_policy"))


def schedule_policy(match_id, winners=None, actor=None) -> None:
    """Enqueue the policy for a finished match that is one of a campaign's phases (a finished listener:
    the policy reads the outcome from the log, so ``winners`` and ``actor`` are not needed)."""
    if not CampaignRecord.objects.filter(type=domain.PHASE_STARTED, match_id=match_id).exists():
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        result = campaign_policy_task.apply(args=(str(match_id),), throw=False)
        if result.failed():
            log.error("campaign policy for %s failed: %r", match_id, result.result)
        return
    campaign_policy_task.delay(str(match_id))


@shared_task(name="campaigns.tasks.sweep_campaigns")
def sweep_campaigns() -> int:
    """Beat: re-enqueue the policy for every finished phase match the log has not recorded as
    finished (its task was lost with a worker); a run that finds it done appends nothing."""
    pending = pending_policies()
    for match_id in pending:
        campaign_policy_task.delay(str(match_id))
    return len(pending)
