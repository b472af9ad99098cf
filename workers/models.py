from django.db import models


class DeadLetter(models.Model):
    """A task that kept failing after its bounded retries: kept for a human to look at."""

    task = models.CharField(max_length=120)
    args = models.JSONField(default=list)
    error = models.TextField()
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at"]
