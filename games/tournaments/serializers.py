"""Request validation and response shapes (for the OpenAPI schema) of the tournament API.

Requests are checked for types here (400 ``malformed``); every rule about tournaments (who may act,
which settings combine, registration windows) stays in ``services`` and comes back as
``{code, message}`` with its own status.
"""

from rest_framework import serializers

from games.tournaments.models import FORMATS, GAMES, STATUSES
from games.tournaments.records import POD_SCORING, TIEBREAKS

BY_CHOICES = ("play", "time", "bye", "judge")
TOURNAMENT_STATUSES = [s for s, _ in STATUSES]  # named TournamentStatusEnum in the schema (settings)


class ScoringSerializer(serializers.Serializer):
    """The provisional scoring choices (docs/tournaments.md, "Settings"); each omitted one keeps its default."""

    pod_scoring = serializers.ChoiceField(choices=POD_SCORING, required=False,
                                          help_text="pods of 3 or 4: placement (default) or shared_win points; a "
                                                    "2-entrant table (2v2 too) is 3/1/0, a draw 1 at every table")
    bye_points = serializers.IntegerField(required=False, min_value=0, max_value=3, help_text="default 3 (a win)")
    tiebreaks = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS), required=False, max_length=5,
                                      help_text="in order; the seed draw always comes last")


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    game = serializers.ChoiceField(choices=[g for g, _ in GAMES])
    format = serializers.ChoiceField(choices=[f for f, _ in FORMATS])
    table_size = serializers.ChoiceField(choices=[2, 3, 4])
    teams = serializers.BooleanField(default=False, help_text="2v2: a team of two registers as one entrant")
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=99,
                                      help_text="Swiss rounds (swiss, and swiss_top_cut before the cut); omitted = "
                                                "enough for the field; round_robin and single_elimination play as "
                                                "many rounds as the field needs (422 rounds_not_applicable)")
    starts_at = serializers.DateTimeField(required=False, allow_null=True,
                                          help_text="a time ahead (422 starts_at_in_past); the beat starts the event "
                                                    "then")
    top_cut = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=64,
                                       help_text="swiss_top_cut only: 4 or 8")
    round_minutes = serializers.IntegerField(min_value=1, max_value=24 * 60)
    match_options = serializers.DictField(required=False, default=dict,
                                          help_text="the game's match options; the decision clock is mandatory")
    rated = serializers.BooleanField(default=True)
    max_entrants = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=100000)
    spectator_delay_seconds = serializers.IntegerField(
        required=False, default=60, min_value=0, max_value=3600,
        help_text="fair play: spectators see a running match this many seconds behind (60-3600, default 60; "
                  "below 60 is 422 invalid_spectator_delay)")
    spectator_delay_turns = serializers.IntegerField(
        required=False, default=1, min_value=0, max_value=10,
        help_text="fair play: ...and this many turns behind (default 1: the start of the turn before the current one)")
    scoring = ScoringSerializer(required=False)


class TournamentUpdateSerializer(serializers.Serializer):
    """What an organizer may change after creation: before the start the name, start time, round time
    limit, cap, rated flag and Swiss rounds; the fair-play delay before or during the event. An omitted
    field keeps its value."""

    name = serializers.CharField(required=False, max_length=120, help_text="before the start")
    starts_at = serializers.DateTimeField(required=False, allow_null=True,
                                          help_text="before the start: a time ahead (422 starts_at_in_past); null "
                                                    "clears it (the organizer starts the event by hand)")
    round_minutes = serializers.IntegerField(required=False, min_value=1, max_value=24 * 60, help_text="before the start")
    max_entrants = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=100000,
                                            help_text="before the start; null: no cap; never below the entrants "
                                                      "registered (422 max_entrants_below_field)")
    rated = serializers.BooleanField(required=False, help_text="before the start")
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=99,
                                      help_text="before the start: the Swiss rounds (swiss and swiss_top_cut; 422 "
                                                "rounds_not_applicable otherwise); null: enough for the field")
    spectator_delay_seconds = serializers.IntegerField(required=False, min_value=0, max_value=3600,
                                                       help_text="60-3600 seconds")
    spectator_delay_turns = serializers.IntegerField(required=False, min_value=0, max_value=10, help_text="0-10 turns")

    def validate(self, attrs):
        unknown = set(self.initial_data) - set(self.fields) if isinstance(self.initial_data, dict) else set()
        if unknown:
            raise serializers.ValidationError(f"{', '.join(sorted(unknown))} cannot be changed after creation")
        return attrs


class CancelSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500,
                                   help_text="shown on the tournament's page")


class TournamentListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES, required=False)
    game = serializers.ChoiceField(choices=[g for g, _ in GAMES], required=False)


class TournamentRegisterSerializer(serializers.Serializer):
    partner = serializers.CharField(required=False, allow_null=True, max_length=150,
                                    help_text="team events: the partner's username")


class DropSerializer(serializers.Serializer):
    entrant_id = serializers.CharField(max_length=40)


class TeamInvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament_id = serializers.UUIDField()
    tournament_name = serializers.CharField()
    inviter = serializers.CharField(help_text="the username of the player who asked")
    partner = serializers.CharField(help_text="the username of the player asked to be their partner")
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined", "cancelled", "expired"])
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class PairingsQuerySerializer(serializers.Serializer):
    round = serializers.IntegerField(required=False, min_value=1, max_value=10000)


# -- responses ----------------------------------------------------------------------------------


class EntrantSerializer(serializers.Serializer):
    entrant_id = serializers.CharField()
    user_ids = serializers.ListField(child=serializers.IntegerField())
    name = serializers.CharField()
    status = serializers.CharField(help_text="registered | dropped (withdrawn entrants are not listed)")


class ClockPauseSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class RoundClockSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    minutes = serializers.IntegerField(help_text="the round time limit")
    paused = serializers.BooleanField()
    paused_seconds = serializers.FloatField(help_text="time the round's clock spent paused (finished pauses)")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="when the time limit runs out; null while paused")
    paused_reason = serializers.CharField(allow_null=True, help_text="while paused: the organizer's reason (may be "
                                                                     "empty); null otherwise")
    next_round_waits = serializers.BooleanField(help_text="the round is over while its clock is paused: the next "
                                                          "round is paired (or the tournament ends) only when the "
                                                          "organizer resumes")


class TournamentSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    game = serializers.CharField()
    format = serializers.CharField()
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    round = serializers.IntegerField(help_text="the round being played (0 before the start)")
    rounds = serializers.IntegerField(allow_null=True, help_text="planned rounds for the current field")
    entrants = EntrantSerializer(many=True)
    seed_hash = serializers.CharField(help_text="sha256 of the tie-break draw's seed, published when the tournament "
                                      "was created: once the seed is revealed anyone can check it")
    seed = serializers.CharField(allow_null=True, help_text=(
        "the tie-break draw's seed: a random value fixed at the creation, kept secret while entrants register "
        "(null) and revealed at the start; the last tiebreak is sha256 of '<seed>:<entrant_id>', lower first, "
        "which anyone can recompute. Null also for a tournament created before seeds were kept secret: its "
        "draw used '<seed_hash>:<entrant_id>'"))
    table_size = serializers.IntegerField()
    teams = serializers.BooleanField()
    top_cut = serializers.IntegerField(allow_null=True)
    round_minutes = serializers.IntegerField()
    rated = serializers.BooleanField()
    starts_at = serializers.DateTimeField(allow_null=True)
    max_entrants = serializers.IntegerField(allow_null=True, help_text="the cap on entrants; null: none")
    spectator_delay_seconds = serializers.IntegerField(help_text="spectators see a running match this far behind")
    spectator_delay_turns = serializers.IntegerField(help_text="...and this many turns behind")
    clock = RoundClockSerializer(allow_null=True, help_text="the round being played; null when none is")
    scoring = ScoringSerializer(help_text="the scoring in force: pod_scoring, bye_points, and the tiebreaks in order")


class TournamentRegisteredSerializer(TournamentSerializer):
    invitation = TeamInvitationSerializer(required=False, help_text="team events: the invitation waiting for the "
                                                                "partner (202); absent once the team is entered")


class TournamentSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    game = serializers.CharField()
    format = serializers.CharField()
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    round = serializers.IntegerField()
    table_size = serializers.IntegerField()
    teams = serializers.BooleanField()
    entrant_count = serializers.IntegerField()
    starts_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class ResultSerializer(serializers.Serializer):
    points = serializers.DictField(child=serializers.FloatField(), help_text="entrant_id -> points")
    winners = serializers.ListField(child=serializers.CharField())
    by = serializers.ChoiceField(choices=BY_CHOICES)
    dropped_out = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="present when the table's match was lost by dropping out: the entrants dropped from the "
                  "tournament before the table's result was recorded (their drop resigned the match)")


REPORT_STATUSES = ("open", "upheld", "overridden")


class TableReportSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the report's id (staff resolve it at /api/admin/reports/{id}/resolve/)")
    status = serializers.ChoiceField(choices=REPORT_STATUSES)


class EntrantReportSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.ChoiceField(choices=REPORT_STATUSES)


class PairingSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    match_id = serializers.UUIDField(allow_null=True, help_text="null for a bye or before the match exists")
    entrant_ids = serializers.ListField(child=serializers.CharField())
    result = ResultSerializer(allow_null=True)
    stage = serializers.ChoiceField(choices=["swiss", "round_robin", "elimination"], required=False)
    reports = TableReportSerializer(many=True, required=False,
                                    help_text="players' reports (disputes) on this table and their status")


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entrant_id = serializers.CharField()
    name = serializers.CharField()
    points = serializers.FloatField()
    played = serializers.IntegerField()
    tiebreaks = serializers.DictField(child=serializers.FloatField(), help_text="tiebreak name -> value, in order")
    dropped = serializers.BooleanField(required=False)
    reports = EntrantReportSerializer(many=True, required=False,
                                      help_text="the reports (disputes) on this entrant's tables and their status")
