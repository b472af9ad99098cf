"""Request validation and response shapes of the invitation endpoints."""

from rest_framework import serializers

from games.application.invitations import STATUS_WORDS

INVITATION_STATUSES = sorted(STATUS_WORDS)


class InvitationCreateSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, allow_null=True, max_length=150,
                                     help_text="invite this player (it shows in their lobby); omitted or null: "
                                               "get your invite link for this match, which seats whoever opens it")


class InvitationQuerySerializer(serializers.Serializer):
    mine = serializers.BooleanField(required=False, default=True,
                                    help_text="the invitations addressed to you that you can still accept (default)")
    sent = serializers.BooleanField(required=False, default=False,
                                    help_text="instead: the open invitations and links you sent")
    match = serializers.UUIDField(required=False, help_text="only this match's")


class InvitationJoinSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=64, help_text="the secret part of the invite link (/invite/<token>/)")


class InvitationSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    match_id = serializers.UUIDField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["user", "link"], help_text="to one player by name, or a link for anyone")
    inviter = serializers.CharField(allow_null=True)
    invitee = serializers.CharField(allow_null=True, help_text="null for a link")
    token = serializers.CharField(help_text="the secret part of the link; a player's invitation seats only them")
    url = serializers.URLField(help_text="the link: opening it (signed in) takes a free seat and shows the table")
    status = serializers.ChoiceField(choices=INVITATION_STATUSES,
                                     help_text="open / full / seated, active / finished / abandoned (the match "
                                               "moved on), accepted / declined / revoked, inviter_left (the "
                                               "inviter no longer sits in the open match)")
    status_text = serializers.CharField(help_text="the status in one sentence, for a page")
    seats = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), help_text="who sits there now")
    free_seats = serializers.IntegerField()
    at = serializers.DateTimeField()


class InvitationSeatedSerializer(InvitationSerializer):
    seat = serializers.IntegerField(help_text="the seat taken (0-based)")
