from django.conf import settings
from django.db import models


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=60, blank=True)
    # accounts.identity.username_key(user.username): one account per lookalike name. Null only for
    # a name that already collided with an older one when the column was added (see the migration).
    username_key = models.CharField(max_length=600, unique=True, null=True, blank=True, editable=False)
    # accounts.identity.username_skeleton(user.username): the lookalike form (confusables mapped to
    # one prototype). Not unique: names that already looked alike when it was added keep their
    # accounts; a new name whose skeleton another account has is refused (identity.username_taken).
    username_skeleton = models.CharField(max_length=300, null=True, blank=True, editable=False, db_index=True)
    # accounts.identity.username_cased_skeleton(user.username): the same with the name's case kept
    # (``Iohn`` reads as ``lohn``); a new name matching either skeleton is refused.
    username_cased_skeleton = models.CharField(max_length=300, null=True, blank=True, editable=False, db_index=True)
    # Set when the account was deleted: the row stays (match logs refer to its id), anonymized.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)
    # E-mail me when my decision has waited TURN_EMAIL_AFTER_MINUTES (accounts.turn_emails). Opt-in.
    turn_email = models.BooleanField(default=False)

    def __str__(self):
        return self.display_name or self.user.get_username()


class RetiredUsername(models.Model):
    """A name an account gave up by renaming itself: its old match logs and tournament records still
    hold it (every read shows the current name, ``games.application.identities``, but staff see the
    records as stored, and players remember names), so only that account can take it (or a
    lookalike of it) again. Kept as its key and skeletons (accounts.identity); an account's deletion
    forgets its retired names."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="retired_usernames")
    username_key = models.CharField(max_length=600)
    username_skeleton = models.CharField(max_length=300, db_index=True)
    username_cased_skeleton = models.CharField(max_length=300, blank=True, default="", db_index=True)
    retired_at = models.DateTimeField()

    class Meta:
        ordering = ["-retired_at", "-id"]

    def __str__(self):
        return self.username_key


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


class TurnEmail(models.Model):
    """A "your turn" e-mail claimed for one waiting decision: ``seat`` of ``match`` awaited since its
    last own command ended at ``since_seq`` (0: it has not acted yet). Unique, so each waiting
    decision is mailed at most once, however often the sweep and its tasks run."""

    match = models.ForeignKey("eventstore.Match", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    since_seq = models.PositiveIntegerField()
    seq = models.PositiveIntegerField(help_text="the match's head when the e-mail was claimed")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    claimed_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat", "since_seq"], name="turn_email_unique_wait")]
