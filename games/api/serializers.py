"""Request validation and (for the OpenAPI schema) response shapes of the games API.

Views build response dicts from selectors; the response serializers here document those shapes
exactly (schemathesis checks responses against them).
"""

import uuid

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

MATCH_STATUSES = ("open", "active", "finished", "abandoned")


# -- errors -----------------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable machine-readable code, e.g. not_your_turn")
    message = serializers.CharField()
    extra = serializers.DictField(required=False, help_text="details: field errors, current_seq, ...")


class VersionConflictSerializer(ErrorSerializer):
    current_seq = serializers.IntegerField(help_text="the match's head seq (also in extra.current_seq)")


# -- catalog ----------------------------------------------------------------------------------


class GameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    min_seats = serializers.IntegerField()
    max_seats = serializers.IntegerField()
    options = serializers.JSONField(help_text="JSON schema of the options object accepted at match creation")


class GlossaryEntrySerializer(serializers.Serializer):
    term = serializers.CharField(help_text="the term as the table shows it, e.g. KINDLE")
    group = serializers.CharField(help_text="the group the entry belongs to (a key of groups)")
    short = serializers.CharField(allow_blank=True, help_text="one line; {field} placeholders are filled from "
                                                               "the item described (DAMAGE {n})")
    text = serializers.CharField(help_text="the rule's full text")
    provisional = serializers.BooleanField(help_text="the project's definition where the rulebook has no text")
    source = serializers.CharField(required=False, help_text="the rulebook section the text comes from")


class GuideStepSerializer(serializers.Serializer):
    title = serializers.CharField()
    text = serializers.CharField()
    see = serializers.ListField(child=serializers.CharField(), required=False,
                                help_text='glossary groups ("keyword") or entries ("concept:ROUND") to read next')


class GuideSerializer(serializers.Serializer):
    summary = serializers.CharField(help_text="what the game is, in a few sentences")
    steps = GuideStepSerializer(many=True, help_text="a short how-to-play")


class GlossarySerializer(serializers.Serializer):
    game = serializers.CharField()
    provisional = serializers.BooleanField()
    note = serializers.CharField(allow_blank=True)
    groups = serializers.DictField(child=serializers.CharField(), help_text="group key -> title")
    entries = serializers.DictField(child=GlossaryEntrySerializer(),
                                    help_text='"group:KEY" -> entry, e.g. "keyword:KINDLE", "status:BURN"')
    guide = GuideSerializer(required=False, help_text="the game's how-to-play for newcomers (absent when the game "
                                                      "has none); the home page and /games/{slug}/rules/ show it")


# -- matches ----------------------------------------------------------------------------------


SEAT_OR_FREE = {
    "type": "object",
    "nullable": True,
    "description": "the seat's occupant; null = free",
    "properties": {
        "user_id": {"type": "integer", "nullable": True, "description": "null for a bot"},
        "username": {"type": "string"},
        "bot": {"type": "boolean"},
    },
    "required": ["user_id", "username", "bot"],
}


@extend_schema_field({"type": "array", "items": SEAT_OR_FREE})
class SeatListField(serializers.ListField):
    """One entry per seat: {user_id, username, bot} or null when free."""


class DeadlineSerializer(serializers.Serializer):
    due_at = serializers.DateTimeField(help_text="when the clock runs out; the engine's timeout choice is then "
                                                 "submitted for every seat still listed")
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="the seats on the clock")


class MatchSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    seats = serializers.IntegerField(help_text="number of seats")
    options = serializers.DictField()
    rated = serializers.BooleanField(help_text="set at creation: with human seats only, the finished match "
                                               "moves the players' ratings")
    status = serializers.ChoiceField(choices=MATCH_STATUSES)
    phase = serializers.CharField()
    seq = serializers.IntegerField()
    seat_list = SeatListField(help_text="one entry per seat; null = free")
    awaiting = serializers.ListField(child=serializers.JSONField(), help_text="seats (ints) or \"system\"")
    deadline = DeadlineSerializer(allow_null=True, help_text="the decision clock running now; null = none")
    winners = serializers.ListField(child=serializers.JSONField())
    resigned = serializers.IntegerField(allow_null=True, required=False,
                                        help_text="the seat that resigned, when the match ended so (in the "
                                                  "match's own document; lists leave it out)")
    conceded = serializers.ListField(child=serializers.IntegerField(), required=False,
                                     help_text="the seats whose players resigned from a game of three sides or "
                                               "more, or from a cooperative game, that went on without them (in the "
                                               "match's own document; lists leave it out)")
    created_by = serializers.IntegerField(allow_null=True, help_text="user id of the creator")
    created_at = serializers.DateTimeField()
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="the secret seed, revealed once the match is finished")
    your_seat = serializers.IntegerField(allow_null=True)
    spectators = serializers.IntegerField(allow_null=True, help_text="sockets without a seat watching it now, "
                                                                     "over every server (active matches; else null)")


class MatchCreateSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=40)
    seats = serializers.IntegerField(min_value=1, max_value=64, required=False,
                                     help_text="defaults to the game's minimum")
    options = serializers.DictField(required=False, default=dict, help_text="validated by the game's options schema")
    rated = serializers.BooleanField(required=False, default=True,
                                     help_text="count the match for ratings (default true; a bot seat or a "
                                               "cooperative game makes it unrated anyway)")


class MatchListQuerySerializer(serializers.Serializer):
    game = serializers.CharField(required=False, max_length=40)
    status = serializers.ChoiceField(choices=MATCH_STATUSES, required=False)
    mine = serializers.BooleanField(required=False, default=False, help_text="only matches the caller plays in")


class SeatRequestSerializer(serializers.Serializer):
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0,
                                    help_text="a free seat; omitted = the first free one")


# -- playing ----------------------------------------------------------------------------------


class StatusSerializer(serializers.Serializer):
    phase = serializers.CharField()
    awaiting = serializers.ListField(child=serializers.JSONField())
    finished = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.JSONField())


class LobbySerializer(serializers.Serializer):
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=MATCH_STATUSES)
    seats = SeatListField()
    options = serializers.DictField()
    rated = serializers.BooleanField()
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True)
    winners = serializers.ListField(child=serializers.JSONField())
    resigned = serializers.IntegerField(allow_null=True, help_text="the seat that resigned, when the match ended so")
    conceded = serializers.ListField(child=serializers.IntegerField(),
                                     help_text="the seats whose players resigned from a game of three sides or more, "
                                               "or from a cooperative game, while the others played on (SeatConceded), "
                                               "in the order they did")
    clock_held = serializers.BooleanField(help_text="the platform has stopped the decision clock (a tournament's "
                                                    "organizer paused the round); it resumes with what it had left. "
                                                    "While held, players' game commands are refused (409 match_paused)")
    clock_reason = serializers.CharField(required=False, allow_blank=True, help_text=(
        "while the clock is held, the reason the organizer gave for the pause (empty otherwise)"))
    creator_id = serializers.IntegerField(allow_null=True, help_text="user id of the player who may start the "
                                                                     "match while it is open (a creator who leaves "
                                                                     "hands it to the next seated player)")


class LegalCommandSerializer(serializers.Serializer):
    type = serializers.CharField()
    args = serializers.DictField()


class SeatViewSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="the caller's seat; null = spectator")
    status = StatusSerializer()
    deadline = DeadlineSerializer(allow_null=True, help_text="the decision clock running now; null = none")
    match = LobbySerializer()
    view = serializers.JSONField(allow_null=True, help_text="the game's view for this seat (null before the start)")
    legal_commands = LegalCommandSerializer(many=True)
    resignable = serializers.BooleanField(help_text="whether this seat may resign now (POST .../resign/): a "
                                                    "seat still in play in a running game that is not cooperative")
    resign_refused = serializers.CharField(allow_null=True, required=False, help_text=(
        "the code of the game's own rule that refuses this seat's resignation now, when resignable is false "
        "for that reason alone; null = none. The games offered today refuse none to a seat still in play: "
        "a Yashima master may leave during the setup too"))
    take_over = serializers.ListField(child=serializers.IntegerField(), required=False, help_text=(
        "the seats whose characters this seat may take over now (POST .../take-over/): in a cooperative game "
        "(Harakiri), players the match has waited on, with no move by anyone, for a day; empty otherwise"))


class TakeOverRequestSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, help_text="the absent player's seat, whose characters you take over")


class UUIDStringField(serializers.UUIDField):
    """A UUID given as a JSON string only: DRF's UUIDField also turns numbers (and so ``true``)
    into made-up UUIDs, which the socket refuses; both transports now refuse them alike."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


class CommandSerializer(serializers.Serializer):
    command_id = UUIDStringField(help_text="client-chosen UUID string; a repeat returns the original outcome")
    expected_seq = serializers.IntegerField(min_value=0, help_text="the seq the client last saw")
    type = serializers.CharField(max_length=60)
    args = serializers.DictField(required=False, default=dict)


def command_body(data) -> dict | None:
    """What ``CommandSerializer`` validates ``data`` to, when ``data`` is plainly valid (every field of
    its JSON type, nothing to trim, coerce or refuse); else None, and the serializer, which costs a
    deep copy of its fields per request, says what is wrong. Every REST command is parsed here first."""
    if type(data) is not dict:
        return None
    command_id, seq, type_, args = data.get("command_id"), data.get("expected_seq"), data.get("type"), data.get("args", {})
    if type(command_id) is not str or type(seq) is not int or type(type_) is not str or type(args) is not dict:
        return None
    if seq < 0 or not 0 < len(type_) <= 60 or type_ != type_.strip() or not type_.isprintable():
        return None
    try:
        command_id = uuid.UUID(command_id)
    except ValueError:
        return None
    return {"command_id": command_id, "expected_seq": seq, "type": type_, "args": dict(args)}


class ActorSerializer(serializers.Serializer):
    kind = serializers.CharField()
    seat = serializers.JSONField(required=False, allow_null=True)
    user_id = serializers.IntegerField(required=False, allow_null=True)


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.JSONField(allow_null=True, help_text="null when hidden from the caller")
    actor = ActorSerializer()
    at = serializers.DateTimeField()
    text = serializers.CharField(allow_blank=True, help_text=(
        "the event in one sentence for the caller, from its redaction; empty for bookkeeping and hidden events"))
    hidden = serializers.BooleanField(required=False)


class CommandResultSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    events = EventSerializer(many=True)


EVENTS_PAGE_DEFAULT = 100
EVENTS_PAGE_MAX = 500


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=2**31 - 1,
                                     help_text="return events with seq > after")
    limit = serializers.IntegerField(required=False, default=EVENTS_PAGE_DEFAULT, min_value=1,
                                     max_value=EVENTS_PAGE_MAX,
                                     help_text=f"at most this many seqs per page (default {EVENTS_PAGE_DEFAULT}, "
                                               f"max {EVENTS_PAGE_MAX})")


class EventsSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    seq = serializers.IntegerField(help_text="the match's head seq when read (for a spectator of a running "
                                             "tournament match: the last seq they may see now)")
    next = serializers.URLField(allow_null=True, help_text="the next page's URL (after = this page's last seq); "
                                                           "null once the page reaches the head")


class ReplayQuerySerializer(serializers.Serializer):
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=63,
                                    help_text="the seat whose view to follow; omitted = a spectator's")
    at = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1,
                                  help_text="the seq to show the match at (default: its end)")
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=2**31 - 1,
                                     help_text="list only the events after this seq (default 0: every event up to at)")


class ReplaySerializer(SeatViewSerializer):
    head_seq = serializers.IntegerField(help_text="the match's last seq")
    events = EventSerializer(many=True, help_text="the events after `after` up to `at`, redacted for the seat, in words")


# -- staff ------------------------------------------------------------------------------------


class StaffEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    v = serializers.IntegerField()
    payload = serializers.JSONField()
    actor = serializers.DictField()
    command_id = serializers.UUIDField(allow_null=True)
    at = serializers.DateTimeField()


class StaffLogSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    engine_version = serializers.CharField()
    seq = serializers.IntegerField()
    seed = serializers.CharField()
    seed_hash = serializers.CharField()
    events = StaffEventSerializer(many=True)


class StaffStateQuerySerializer(serializers.Serializer):
    at = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1,
                                  help_text="fold the stream up to this seq (default: the head)")


class StaffStateSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    seq = serializers.IntegerField(help_text="the seq the state was folded to")
    head_seq = serializers.IntegerField()
    status = StatusSerializer()
    state = serializers.JSONField(help_text="the full folded aggregate {lobby, game}")
    views = SeatViewSerializer(many=True, help_text="every seat's view at that seq, by seat")
    spectator = SeatViewSerializer()


# -- ratings and profiles ---------------------------------------------------------------------


class LeaderboardQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(required=False, default=100, min_value=1, max_value=1000)


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 = best; ordered by rating, then mu, then user id")
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.IntegerField(help_text="conservative display rating: round(1000 + 40 * (mu - 3 sigma))")
    mu = serializers.FloatField(help_text="OpenSkill (Plackett-Luce) mean skill")
    sigma = serializers.FloatField(help_text="OpenSkill uncertainty")
    matches = serializers.IntegerField(help_text="rated matches played")


class RatingPointSerializer(serializers.Serializer):
    match_id = serializers.UUIDField(allow_null=True, help_text="null for the starting point")
    at = serializers.DateTimeField()
    rating = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class UserRatingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    rating = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    history = RatingPointSerializer(many=True, help_text="the rating after each rated match, oldest first")


class RecentMatchSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=MATCH_STATUSES)
    rated = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    seat = serializers.IntegerField(allow_null=True)
    seat_list = SeatListField()
    winners = serializers.ListField(child=serializers.JSONField())
    result = serializers.ChoiceField(choices=("won", "lost", "draw"), allow_null=True,
                                     help_text="null until the match is finished")
    rating_before = serializers.IntegerField(allow_null=True, help_text="null when the match did not count")
    rating_after = serializers.IntegerField(allow_null=True)


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    ratings = serializers.DictField(child=UserRatingSerializer(), help_text="by game slug")
    recent_matches = RecentMatchSerializer(many=True, help_text="the 20 most recent matches the user sat in")
    tournaments = serializers.ListField(child=serializers.DictField(),
                                        help_text="the tournaments entered, newest first: {id, name, game, format, "
                                                  "status, entrant_id, entrant_status}")
