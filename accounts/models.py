from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=60, blank=True)
    # accounts.identity.username_key(user.username): one account per lookalike name. Null only for
    # a name that already collided with an older one when the column was added (see the migration).
    username_key = models.CharField(max_length=600, unique=True, null=True, blank=True, editable=False)
    # Set when the account was deleted: the row stays (match logs refer to its id), anonymized.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    def __str__(self):
        return self.display_name or self.user.get_username()


class LoginSession(models.Model):
    """A web login, recorded when it starts so the account page can list and end it. The session
    key itself is a credential and never leaves the server: clients see ``id`` only."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_sessions")
    session_key = models.CharField(max_length=40, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    ip = models.CharField(max_length=64, blank=True)
    user_agent = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
