"""A campaign's identity row, its append-only log and the projection folded from that log."""

import uuid

from django.conf import settings
from django.db import models

from games.eventstore.models import Match


class Campaign(models.Model):
    """Identity only (locked by the policy so one finished phase opens one next match); everything
    else is in the log."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=40)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    head_seq = models.PositiveIntegerField(default=0)


class CampaignRecord(models.Model):
    """One entry of a campaign's log. ``key`` names entries that may exist once per campaign (a
    phase's start and finish): a policy that runs twice cannot open a second match."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="records")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=60)
    payload = models.JSONField(default=dict)
    key = models.CharField(max_length=80, null=True, blank=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="campaign_record_unique_seq"),
            models.UniqueConstraint(fields=["campaign", "key"], name="campaign_record_unique_key"),
        ]


class CampaignView(models.Model):
    """The campaign's state folded from its log (``domain.fold``), kept for reads; rebuilt and
    checked by ``manage.py rebuild_projections``."""

    campaign = models.OneToOneField(Campaign, primary_key=True, on_delete=models.CASCADE, related_name="view")
    seq = models.PositiveIntegerField(default=0)
    state = models.JSONField(default=dict)
    players = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="campaigns")
