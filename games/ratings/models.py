"""Ratings: one row per (user, game) with OpenSkill's mu and sigma, and one RatingChange per
(match, user) - the unique constraint that makes a match move a rating at most once."""

from django.conf import settings
from django.db import models

from games.eventstore.models import Match


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField(help_text="conservative rating shown to people: 1000 + 40 * (mu - 3 sigma)")
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_unique_user_game")]
        indexes = [models.Index(fields=["game", "-display"], name="rating_leaderboard")]

    def __str__(self):
        return f"{self.user_id} {self.game} {self.display}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating (the rating history, and the exactly-once key)."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=40)
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField(help_text="1 = won; equal ranks are a tie")
    finished_at = models.DateTimeField(help_text="the MatchFinished event's time: the order ratings apply in")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()

    class Meta:
        ordering = ["finished_at", "match_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="rating_change_once_per_match_user")]
        indexes = [models.Index(fields=["user", "game", "finished_at"], name="rating_change_history")]

    def __str__(self):
        return f"{self.match_id} {self.user_id} {self.display_before}->{self.display_after}"
