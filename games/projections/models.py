"""Read models. Each is derived from the event stream alone and can be rebuilt from it
(``manage.py rebuild_projections``); the write path updates them in the same transaction."""

from django.conf import settings
from django.db import models

from games.eventstore.models import Match


class MatchSummary(models.Model):
    """The lobby/list view of a match: status, seats, whose decision, winners."""

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="summary")
    status = models.CharField(max_length=12, db_index=True)  # open / active / finished / abandoned
    phase = models.CharField(max_length=60, blank=True)
    seq = models.PositiveIntegerField(default=0)
    seats = models.JSONField(default=list)  # [{"user_id", "username", "bot"} | None]
    awaiting = models.JSONField(default=list)
    winners = models.JSONField(default=list)
    players = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="match_summaries")
    updated_at = models.DateTimeField()

    FIELDS = ("status", "phase", "seq", "seats", "awaiting", "winners")

    def as_dict(self) -> dict:
        return {f: getattr(self, f) for f in self.FIELDS}


class PlayerRecord(models.Model):
    """Per user and game: matches finished and won (updated incrementally on MatchFinished)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="records")
    game = models.CharField(max_length=40)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="record_unique_user_game")]


class MatchDeadline(models.Model):
    """The clock on the current decision: swept by beat, never a far-future task ETA."""

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="deadline")
    seq = models.PositiveIntegerField()
    seats = models.JSONField(default=list)
    due_at = models.DateTimeField(db_index=True)
