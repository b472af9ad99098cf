"""Request validation and response shapes of the chat, rematch and seed-verification endpoints."""

from rest_framework import serializers

from games.application.chat import PAGE_DEFAULT, PAGE_MAX
from games.eventstore.models import CHAT_CHANNELS


class ChatPostSerializer(serializers.Serializer):
    text = serializers.CharField(trim_whitespace=False, allow_blank=True, max_length=20_000,
                                 help_text="plain text, at most CHAT_MAX_CHARS (500) characters once cleaned; "
                                           "shown as text, never as HTML")
    channel = serializers.ChoiceField(choices=CHAT_CHANNELS, help_text="players (seated players only) or "
                                                                       "spectators (players only once the match is over)")


class ChatQuerySerializer(serializers.Serializer):
    channel = serializers.ChoiceField(choices=CHAT_CHANNELS, required=False,
                                      help_text="one channel; omitted: every channel the caller may read")
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=2**62,
                                     help_text="return messages with id > after")
    limit = serializers.IntegerField(required=False, default=PAGE_DEFAULT, min_value=1, max_value=PAGE_MAX,
                                     help_text=f"at most this many messages (default {PAGE_DEFAULT}, max {PAGE_MAX})")


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="increasing; page with ?after=")
    channel = serializers.ChoiceField(choices=CHAT_CHANNELS)
    user_id = serializers.IntegerField()
    username = serializers.CharField(help_text='the author\'s name ("deleted player" once the account is deleted)')
    seat = serializers.IntegerField(allow_null=True, help_text="the author's seat when posting; null = a spectator")
    text = serializers.CharField()
    at = serializers.DateTimeField()


class ChannelAccessSerializer(serializers.Serializer):
    read = serializers.BooleanField()
    post = serializers.BooleanField()


class ChannelsSerializer(serializers.Serializer):
    players = ChannelAccessSerializer()
    spectators = ChannelAccessSerializer()


class ChatPageSerializer(serializers.Serializer):
    messages = ChatMessageSerializer(many=True, help_text="oldest first; hidden messages are left out")
    channels = ChannelsSerializer(help_text="what the caller may read and post now")
    max_chars = serializers.IntegerField(help_text="the longest message accepted (CHAT_MAX_CHARS)")
    next = serializers.URLField(allow_null=True, help_text="the next page's URL; null once this page is the last")


class ChatHiddenSerializer(serializers.Serializer):
    reason = serializers.CharField()
    by = serializers.CharField(allow_null=True)
    at = serializers.DateTimeField()


class StaffChatMessageSerializer(ChatMessageSerializer):
    hidden = ChatHiddenSerializer(allow_null=True, help_text="set when staff hid the message")


class StaffChatSerializer(serializers.Serializer):
    messages = StaffChatMessageSerializer(many=True)


class ChatHideSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500, help_text="why the message is hidden (recorded, shown to staff)")


class RematchSerializer(serializers.Serializer):
    available = serializers.BooleanField(help_text="whether a rematch can be accepted (or already exists)")
    reason = serializers.CharField(allow_null=True, help_text="why not, in a sentence")
    accepted = serializers.ListField(child=serializers.IntegerField(), help_text="seats that accepted (bots always)")
    waiting = serializers.ListField(child=serializers.IntegerField(), help_text="seats still to accept")
    match_id = serializers.UUIDField(allow_null=True, help_text="the new match, once every seat accepted")


class SeedStepSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="the step's first seq")
    text = serializers.CharField(help_text="what happened, in words (as a spectator saw it)")
    draws = serializers.IntegerField(help_text="random numbers this step drew from the seed")
    ok = serializers.BooleanField(allow_null=True, help_text="decided again, the same outcomes? null: not checked")
    reason = serializers.CharField(required=False)


class SeedCheckSerializer(serializers.Serializer):
    seed = serializers.CharField(help_text="the revealed secret seed (hex)")
    seed_hash = serializers.CharField(help_text="sha256 of the seed as published when the match was created")
    seed_matches_hash = serializers.BooleanField()
    verdict = serializers.ChoiceField(choices=("verified", "failed", "partial"))
    summary = serializers.CharField(help_text="the result in one sentence")
    checked = serializers.IntegerField(help_text="commands decided again")
    random_steps = serializers.IntegerField(help_text="of those, the ones that drew on the seed")
    draws = serializers.IntegerField(help_text="random numbers drawn in all")
    steps = SeedStepSerializer(many=True, help_text="the steps that drew on the seed, and any that failed")
    unchecked = SeedStepSerializer(many=True, help_text="steps that could not be decided again, and why")
