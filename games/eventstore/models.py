"""The event store: the only truth about a match.

``Match`` is the stream's identity and configuration (game, engine version, options, secret seed)
plus ``head_seq``, the store's optimistic-concurrency head. ``MatchEvent`` rows are the stream;
``MatchCommand`` records which command produced which events (one row per accepted command, unique
per match), which is what makes a repeated ``command_id`` idempotent. Snapshots are a cache.
"""

import uuid

from django.conf import settings
from django.db import models


class Match(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=40, db_index=True)
    engine_version = models.CharField(max_length=20)
    seat_count = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    # Set at creation (also in MatchCreated's payload, which is what ratings read): a match with
    # this on and human seats only moves the players' ratings when it finishes.
    rated = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # Secret until the match ends (then revealed in MatchFinished); its sha256 is public.
    seed = models.CharField(max_length=64, editable=False)
    seed_hash = models.CharField(max_length=64, editable=False)
    head_seq = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"

    def __str__(self):
        return f"{self.game} {self.id}"


class MatchEvent(models.Model):
    # No index of its own: the unique (match, seq) index starts with it and serves every look-up by
    # match, and each index is written on every append.
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=60)
    version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField(default=dict)
    # {"kind": "user"|"worker"|"system", "user_id": int|None, "seat": int|"system"|None}
    actor = models.JSONField(default=dict)
    command_id = models.UUIDField(null=True, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="event_unique_match_seq"),
            models.CheckConstraint(condition=models.Q(seq__gte=1), name="event_seq_positive"),
        ]
        # The few seat and finish events (store.INDEXED_TYPES), which the rebuild looks up across
        # every match by player: partial indexes, so the appends of game events never write them.
        indexes = [
            models.Index(fields=["match"], condition=models.Q(type="SeatTaken"), name="event_seat_taken"),
            models.Index(fields=["match"], condition=models.Q(type="MatchFinished"), name="event_match_finished"),
        ]

    def __str__(self):
        return f"{self.match_id}#{self.seq} {self.type}"


class MatchCommand(models.Model):
    """One accepted command and the contiguous events it produced (first_seq..last_seq).

    The command itself is kept too (``kind``, ``type``, ``args``, ``actor``, ``expected_seq``, with
    ``seat``), so that ``verify_logs`` can decide it again with another engine. Its args may hold a
    seat's secret choice: they are for staff tools only, never for any API. Rows written before the
    command was kept have no ``kind`` (their logs can be checked by re-fold only)."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="commands", db_index=False)  # see MatchEvent
    command_id = models.UUIDField()
    seat = models.JSONField(null=True)
    fingerprint = models.CharField(max_length=64)
    first_seq = models.PositiveIntegerField()
    last_seq = models.PositiveIntegerField()
    at = models.DateTimeField()
    kind = models.CharField(max_length=12, null=True)  # "game" | "system" | "lobby" (games.application.decisions)
    type = models.CharField(max_length=60, null=True)
    args = models.JSONField(null=True)
    # {"kind": "user"|"worker"|"system", "user_id", "seat", ...}: who asked (as on its events)
    actor = models.JSONField(null=True)
    expected_seq = models.PositiveIntegerField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "command_id"], name="command_unique_match_command_id"),
        ]


class Snapshot(models.Model):
    """Folded state at ``seq``: a cache, never the truth (deleting all snapshots changes nothing)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="snapshots", db_index=False)  # see MatchEvent
    seq = models.PositiveIntegerField()
    engine_version = models.CharField(max_length=20)
    state = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="snapshot_unique_match_seq")]


class EventAnnotation(models.Model):
    """A staff note on an event (dispute notes). Annotations sit beside events, never inside them."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="annotations")
    seq = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    note = models.TextField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq", "at"]


class StaffAccess(models.Model):
    """Every staff read of unredacted match data: who, when, what."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    match = models.ForeignKey(Match, null=True, on_delete=models.SET_NULL, related_name="+")
    what = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at"]
        verbose_name_plural = "staff accesses"


# -- beside the log: a match's chat and its rematch ----------------------------------------------
# Append-only like the events (on PostgreSQL a trigger refuses UPDATE and DELETE): a message is
# never edited nor removed; staff hide one with a ChatHide row, which records who and why.

CHAT_CHANNELS = ("players", "spectators")


class ChatMessage(models.Model):
    """One message of a match's chat, in one channel: ``players`` (the seated players only) or
    ``spectators``. ``author_name`` and ``seat`` are as they were when it was posted."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="chat_messages")
    channel = models.CharField(max_length=12, choices=[(c, c) for c in CHAT_CHANNELS])
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    author_name = models.CharField(max_length=150)
    seat = models.SmallIntegerField(null=True, blank=True)
    text = models.TextField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["match", "id"]
        indexes = [models.Index(fields=["match", "channel", "id"], name="chat_match_channel_id")]

    def __str__(self):
        return f"{self.match_id} {self.channel}#{self.pk} {self.author_name}"


class ChatHide(models.Model):
    """Staff hid a chat message (one record per message): players and spectators no longer see it;
    staff still do, with this reason."""

    message = models.OneToOneField(ChatMessage, on_delete=models.PROTECT, related_name="hide")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    at = models.DateTimeField()


class RematchVote(models.Model):
    """A seated player accepted a rematch of a finished match (once per user)."""

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="rematch_votes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    seat = models.SmallIntegerField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="rematch_vote_unique_match_user")]


class Rematch(models.Model):
    """The rematch of ``match``: at most one (the one-to-one is the last word under concurrent accepts)."""

    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="rematch")
    new_match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="rematch_of")
    at = models.DateTimeField()


# -- beside the log: invitations to a match's free seats ------------------------------------------
# Append-only too: an invitation is never edited; what became of it is a further row.

INVITATION_OUTCOMES = ("accepted", "declined", "revoked")


class Invitation(models.Model):
    """A seated player of an open match invites someone to a free seat: one user by name
    (``invitee``), or whoever opens the link (no invitee). ``token`` is the secret part of the
    invitation's link (``/invite/<token>/``); a user's invitation has one too, which seats only them."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="invitations")
    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="+")
    token = models.CharField(max_length=64, unique=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at"]
        indexes = [models.Index(fields=["invitee", "at"], name="invitation_invitee_at")]

    def __str__(self):
        return f"{self.match_id} invitation {self.pk}"


class InvitationAnswer(models.Model):
    """What became of an invitation: ``accepted`` by ``user``, who took ``seat`` (a link records one
    per seating), ``declined`` by the invitee, or ``revoked`` by the inviter. A user's invitation is
    answered once; a link is closed by its revocation only."""

    invitation = models.ForeignKey(Invitation, on_delete=models.PROTECT, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    outcome = models.CharField(max_length=10, choices=[(o, o) for o in INVITATION_OUTCOMES])
    seat = models.SmallIntegerField(null=True, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["invitation", "id"]
