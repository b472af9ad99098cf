"""Tournament rows (Django): the tournament, its entrants, and its append-only record log.

``TournamentRecord`` is the truth: one row per record of ``games.tournaments.records`` (registration,
start, pairing, result, drop, adjudication, override), numbered by ``seq``. The database enforces the
idempotency rules with unique constraints, not hope: a record seq is used once, the tournament starts
once, a round is paired exactly once, a table's result is counted once, an entrant registers and is
dropped once. On PostgreSQL a trigger refuses UPDATE and DELETE of records.

``Tournament.status``/``round`` and ``Entrant``/``EntrantMember`` are projections of the log kept for
queries (who is in which tournament); ``TournamentTable`` ties a paired table to its match, one match
per table.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

GAMES = (("yashima", "Yashima"), ("yokai", "Yokai Battle"))
FORMATS = (("swiss", "Swiss"), ("round_robin", "Round robin"), ("single_elimination", "Single elimination"),
           ("swiss_top_cut", "Swiss with top cut"))
REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
STATUSES = ((REGISTERING, "Registering"), (RUNNING, "Running"), (FINISHED, "Finished"), (CANCELLED, "Cancelled"))


class Tournament(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=40, choices=GAMES)
    format = models.CharField(max_length=30, choices=FORMATS)
    table_size = models.PositiveSmallIntegerField()
    teams = models.BooleanField(default=False)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    top_cut = models.PositiveSmallIntegerField(null=True, blank=True)
    round_minutes = models.PositiveIntegerField()
    match_options = models.JSONField(default=dict, blank=True)
    # the pure layer's provisional settings: pod_scoring, bye_points, tiebreaks
    scoring = models.JSONField(default=dict, blank=True)
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    rated = models.BooleanField(default=True)
    # Fair play: spectators see a running match this far behind (docs/tournaments.md, "Fair play").
    spectator_delay_seconds = models.PositiveIntegerField(default=60)
    spectator_delay_turns = models.PositiveSmallIntegerField(default=1)
    # The tie-break draw's seed is kept secret while entrants register, so nobody can withdraw and
    # register again until their new entrant id draws well; its sha256 (seed_hash) is published from
    # the creation and the seed itself from the start (docs/tournaments.md, "The tie-break draw").
    seed = models.CharField(max_length=64, blank=True, default="", editable=False)
    seed_hash = models.CharField(max_length=64, editable=False)
    status = models.CharField(max_length=20, choices=STATUSES, default=REGISTERING, db_index=True)
    round = models.PositiveSmallIntegerField(default=0)
    head_seq = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    @property
    def draw_key(self) -> str:
        """What the last tie-break draws from: the seed; for a tournament created before seeds were
        kept secret (no seed), the published seed_hash it always drew from."""
        return self.seed or self.seed_hash

    @property
    def seed_revealed(self) -> str | None:
        """The seed once registration has closed (None before, and for a tournament without one)."""
        return (self.seed or None) if self.status != REGISTERING else None

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(table_size__in=(2, 3, 4)), name="tournament_table_size_2_to_4"),
            models.CheckConstraint(condition=Q(round_minutes__gte=1), name="tournament_round_minutes_positive"),
            # fair play's floor (records.MIN_SPECTATOR_DELAY_SECONDS): nobody watches a running match live
            models.CheckConstraint(condition=Q(spectator_delay_seconds__gte=60),
                                   name="tournament_spectator_delay_at_least_a_minute"),
        ]

    def __str__(self):
        return f"{self.name} ({self.game}, {self.format})"


class Entrant(models.Model):
    REGISTERED, WITHDRAWN, DROPPED = "registered", "withdrawn", "dropped"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entrants")
    name = models.CharField(max_length=150)
    status = models.CharField(max_length=20, default=REGISTERED,
                              choices=((REGISTERED, "Registered"), (WITHDRAWN, "Withdrawn"), (DROPPED, "Dropped")))
    rating = models.FloatField(default=0.0)  # the seeding value at registration (refreshed at the start)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self):
        return self.name


class EntrantMember(models.Model):
    """A user in an entrant (one for a player, two for a 2v2 team). A user is in at most one active
    entrant per tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="+")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["entrant", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], condition=Q(active=True),
                                    name="entrant_member_one_active_entry_per_user"),
        ]


class TeamInvitation(models.Model):
    """A 2v2 team asked for, not yet entered: ``inviter`` named ``partner``, and the team is entered
    only when the partner accepts (docs/tournaments.md, "Teams: the partner's consent"). One pending
    invitation per inviter and tournament; naming another partner cancels the earlier one, and
    entering a team (or the start of the tournament) closes every other invitation of its players."""

    PENDING, ACCEPTED, DECLINED, CANCELLED, EXPIRED = "pending", "accepted", "declined", "cancelled", "expired"
    STATUSES = ((PENDING, "Waiting for the partner"), (ACCEPTED, "Accepted"), (DECLINED, "Declined by the partner"),
                (CANCELLED, "Cancelled"), (EXPIRED, "Expired at the start"))

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=20, choices=STATUSES, default=PENDING)
    entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "inviter"], condition=Q(status="pending"),
                                    name="team_invitation_one_pending_per_inviter"),
            models.CheckConstraint(condition=~Q(inviter=models.F("partner")), name="team_invitation_not_oneself"),
        ]


class TournamentRecord(models.Model):
    """One record of the tournament's append-only log (``payload`` is ``records.record_to_dict``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="records")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20)
    payload = models.JSONField()
    # the keys the constraints need, copied out of the payload
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.PositiveIntegerField(null=True, blank=True)
    entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    actor = models.JSONField(default=dict)
    at = models.DateTimeField()

    class Meta:
        ordering = ["tournament", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seq"], name="tournament_record_unique_seq"),
            models.UniqueConstraint(fields=["tournament"], condition=Q(kind="started"),
                                    name="tournament_record_started_once"),
            models.UniqueConstraint(fields=["tournament", "round"], condition=Q(kind="paired"),
                                    name="tournament_record_round_paired_once"),
            models.UniqueConstraint(fields=["tournament", "round", "table"], condition=Q(kind="result"),
                                    name="tournament_record_result_counted_once"),
            models.UniqueConstraint(fields=["tournament", "entrant"], condition=Q(kind="registered"),
                                    name="tournament_record_registered_once"),
            models.UniqueConstraint(fields=["tournament", "entrant"], condition=Q(kind="dropped"),
                                    name="tournament_record_dropped_once"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="tournament_record_seq_positive"),
        ]

    def __str__(self):
        return f"{self.tournament_id}#{self.seq} {self.kind}"


class TournamentTable(models.Model):
    """A paired table and the match created for it: one match per table, one table per match."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveIntegerField()
    entrant_ids = models.JSONField()
    match = models.OneToOneField("eventstore.Match", null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="tournament_table")

    class Meta:
        ordering = ["tournament", "round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "table"], name="tournament_table_unique"),
        ]


class RoundDeadline(models.Model):
    """A round's time limit: when ``due_at`` passes, beat's sweep has a worker end the round's unfinished
    matches (the engines' SYSTEM ``time_limit``). One per round; removed once the round is complete.
    ``due_at`` is null while an organizer has the clock paused, and moved later by the pause on resume."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deadlines")
    round = models.PositiveSmallIntegerField()
    due_at = models.DateTimeField(db_index=True, null=True, blank=True)

    class Meta:
        ordering = ["due_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round"], name="round_deadline_once_per_round"),
        ]


class MatchReport(models.Model):
    """A player's dispute about a tournament match, pinned to a ``seq`` of its log (append-only: a
    judge's decision is a ``ReportResolution`` row, never an edit)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="reports")
    match = models.ForeignKey("eventstore.Match", on_delete=models.PROTECT, related_name="reports")
    round = models.PositiveSmallIntegerField()
    table = models.PositiveIntegerField()
    seq = models.PositiveIntegerField()
    text = models.TextField()
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]


class ReportResolution(models.Model):
    """A judge's decision on a report: ``uphold`` the result, or ``override`` it (a written reason);
    either is also a record of the tournament's log (``record_seq``)."""

    UPHOLD, OVERRIDE = "uphold", "override"

    report = models.OneToOneField(MatchReport, on_delete=models.PROTECT, related_name="resolution")
    decision = models.CharField(max_length=10, choices=((UPHOLD, "Upheld"), (OVERRIDE, "Overridden")))
    places = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    judge = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    record_seq = models.PositiveIntegerField()
    at = models.DateTimeField(auto_now_add=True)


class StandingsView(models.Model):
    """The standings as folded from the log up to ``seq``: a projection kept as a cache.
    ``selectors.tournament_standings`` serves it while the log's head is still ``seq`` and folds again
    when the log has moved on; ``rebuild.check`` (``manage.py rebuild_tournaments`` and
    ``rebuild_projections``) compares it with a fold from scratch at the same seq."""

    tournament = models.OneToOneField(Tournament, primary_key=True, on_delete=models.CASCADE,
                                      related_name="standings_view")
    seq = models.PositiveIntegerField()
    rows = models.JSONField()
