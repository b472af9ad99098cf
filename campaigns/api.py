"""The campaigns REST API: thin views over ``campaigns.services``; refusals leave as ``{code, message}``."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import ErrorSerializer
from games.api.throttles import MatchCreateThrottle, MatchJoinThrottle
from games.application.errors import LobbyError

from . import services
from .domain import CampaignRefused
from .throttles import CampaignCreateThrottle

E = lambda text: OpenApiResponse(ErrorSerializer, description=text)  # noqa: E731
CAMPAIGN_ID = OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="campaign id")


class CampaignCreateSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=sorted(services.GAMES))
    act = serializers.IntegerField(min_value=1)
    seats = serializers.IntegerField(min_value=1, max_value=4)
    control = serializers.DictField(child=serializers.IntegerField(), required=False,
                                    help_text="character -> seat (default: dealt round the table)")
    yomi_mode = serializers.BooleanField(required=False, default=False,
                                         help_text="Shinigami Expansion: keep the Yomi Mode track (default false)")
    blue_die = serializers.BooleanField(required=False, default=False,
                                        help_text="Optional Rule: Replace the Red Die: every phase match rolls the "
                                                  "blue attack die wherever a red die is called for (default false)")


class CampaignCreatedSerializer(serializers.Serializer):
    id = serializers.UUIDField()


class HistorySerializer(serializers.Serializer):
    chapter = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=["adventure", "exploration"])
    match_id = serializers.UUIDField()
    outcome = serializers.CharField(allow_null=True)


class CampaignSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    status = serializers.CharField(help_text="open / active / finished / abandoned / cancelled")
    game = serializers.CharField()
    act = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.DictField(allow_null=True),
                                  help_text="{user_id, username} by seat (null: free); a deleted account's username "
                                            "reads \"deleted player\"")
    creator_id = serializers.IntegerField(allow_null=True, help_text="who starts the campaign (and may retry it): its "
                                                                     "creator, or the first player left after they left")
    control = serializers.DictField(child=serializers.IntegerField())
    chapter = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(choices=["adventure", "exploration", "between", "finished"])
    current_match = serializers.UUIDField(allow_null=True)
    sheet = serializers.DictField(allow_null=True, help_text="the campaign sheet and character cases")
    characters = serializers.DictField(help_text="each character's progress: level, health, attributes, skills, levels gained")
    history = HistorySerializer(many=True)
    yomi = serializers.DictField(allow_null=True, help_text="the Yomi Mode track {marks, bold, face_shinigami}, or null")
    blue_die = serializers.BooleanField(help_text="Optional Rule: Replace the Red Die (the blue die is rolled for "
                                                  "every red one in every phase match)")
    failure = serializers.DictField(allow_null=True, help_text="{chapter, phase, match_id, code, message} when the next "
                                                               "phase could not be opened (staff may retry), else null")
    cancelled = serializers.DictField(allow_null=True, help_text="{by (user id), username, at (ISO 8601)} once its "
                                                                 "creator cancelled it before the start, else null")
    leaving = serializers.ListField(child=serializers.DictField(), help_text=(
        "the players of a running campaign who leave when the phase being played ends: {user_id, username, "
        "chapter, phase, at (ISO 8601)} each, in the order they said so; empty otherwise. A leave is done at once "
        "(during a phase the player resigns from its match); only one said as the phase match had just ended "
        "waits here for the policy"))
    abandoned = serializers.DictField(allow_null=True, help_text=(
        "once a started campaign was abandoned: {reason: \"creator\" (its creator abandoned it) | \"party_left\" "
        "(its last player left), by (user id or null), username (or null), at (ISO 8601), chapter, phase, "
        "match_id (the phase match being played then, or null)}; null otherwise (also for a campaign whose "
        "players all left before this record existed)"))
    departures = serializers.ListField(child=serializers.DictField(), help_text=(
        "who left the started campaign, oldest first: {user_id, username, reason: \"left\" (through the "
        "campaign) | \"resigned\" (from the phase match, on its page) | \"taken_over\" (another player took "
        "their characters over in the phase match) | \"account_deleted\", chapter, phase, heir and heir_id "
        "(who plays their characters since; null when nobody was left), at (ISO 8601, or null in logs "
        "written before it)}; a deleted account's name reads \"deleted player\"; empty before anyone left"))


class MineSerializer(serializers.Serializer):
    mine = serializers.BooleanField(required=False, default=False)


def _refused(exc: CampaignRefused):
    return LobbyError(exc.code, exc.message, status=exc.status)


def _body(serializer_class, data):
    ser = serializer_class(data=data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


class CampaignListCreateApi(APIView):
    def get_throttles(self):
        return [CampaignCreateThrottle()] if self.request.method == "POST" else []

    @extend_schema(tags=["campaigns"], operation_id="campaigns_list", parameters=[MineSerializer],
                   responses={200: CampaignSerializer(many=True), 400: E("malformed filter")})
    def get(self, request):
        mine = _body(MineSerializer, request.query_params)["mine"]
        if mine and not request.user.is_authenticated:
            return Response([])
        return Response(services.campaign_list(request.user if mine else None))

    @extend_schema(tags=["campaigns"], operation_id="campaigns_create", request=CampaignCreateSerializer,
                   responses={201: CampaignCreatedSerializer, 400: E("malformed / bad_act / bad_control"),
                              401: E("not_authenticated"),
                              409: E("too_many_open_campaigns: the caller already has MAX_OPEN_CAMPAIGNS_PER_USER "
                                     "open campaigns they created and sit in"),
                              429: E("throttled (Retry-After): scope campaign_create, CAMPAIGN_CREATE_RATE")},
                   description="Create a campaign (Harakiri, an act, 1 to 4 players); the creator takes seat 0. "
                               "Throttled per user (scope campaign_create).")
    def post(self, request):
        data = _body(CampaignCreateSerializer, request.data)
        try:
            campaign = services.campaign_create(user=request.user, game=data["game"], act=data["act"],
                                                seats=data["seats"], control=data.get("control"),
                                                yomi_mode=data["yomi_mode"], blue_die=data["blue_die"])
        except CampaignRefused as exc:
            raise _refused(exc)
        return Response({"id": str(campaign.pk)}, status=status.HTTP_201_CREATED)


class CampaignDetailApi(APIView):
    @extend_schema(tags=["campaigns"], operation_id="campaigns_retrieve", parameters=[CAMPAIGN_ID],
                   responses={200: CampaignSerializer, 404: E("not_found")})
    def get(self, request, id):
        try:
            return Response(services.campaign_get(id))
        except CampaignRefused as exc:
            raise _refused(exc)


class _CampaignActionApi(APIView):
    service = None

    def post(self, request, id):
        try:
            self.service(campaign_id=id, user=request.user)
            return Response(services.campaign_get(id))
        except CampaignRefused as exc:
            raise _refused(exc)


_ACTION_ERRORS = {401: E("not_authenticated"), 404: E("not_found")}


class CampaignJoinApi(_CampaignActionApi):
    service = staticmethod(services.campaign_join)

    @extend_schema(tags=["campaigns"], operation_id="campaigns_join", parameters=[CAMPAIGN_ID], request=None,
                   responses={200: CampaignSerializer, **_ACTION_ERRORS,
                              409: E("campaign_started (it is running) / campaign_cancelled / campaign_abandoned / "
                                     "campaign_finished / already_seated / campaign_full")},
                   description="Take the next free seat of a campaign that has not started. A running campaign "
                               "answers campaign_started; a cancelled, abandoned or finished one its own 409.")
    def post(self, request, id):
        return super().post(request, id)


class CampaignLeaveApi(_CampaignActionApi):
    service = staticmethod(services.campaign_leave)
    throttle_classes = [MatchJoinThrottle]  # joining and leaving again and again would grow the log without end

    @extend_schema(tags=["campaigns"], operation_id="campaigns_leave", parameters=[CAMPAIGN_ID], request=None,
                   responses={200: CampaignSerializer, **_ACTION_ERRORS,
                              403: E("not_seated / creator_cannot_leave (an open campaign's creator cancels instead)"),
                              409: E("campaign_cancelled / campaign_abandoned / campaign_finished / already_leaving "
                                     "(you already leave when the phase being played ends)"),
                              429: E("throttled (Retry-After): scope match_join, MATCH_JOIN_RATE")},
                   description="Leave a campaign. Before the start (`open`) a player who joined gives the seat up: it "
                               "is free again for anyone to join; the creator cannot (403 creator_cannot_leave: they "
                               "cancel). A started campaign (`active`): between two phases the seat goes at once and "
                               "its characters pass to the first player left; while a phase match is being played "
                               "the player also resigns from it at once, their characters passing there to the same "
                               "player (only when that match has just ended is the leave announced, `leaving`, and "
                               "done by the policy). When the last player leaves, the campaign is abandoned "
                               "(`abandoned.reason` party_left). An abandoned, cancelled or finished campaign answers "
                               "its 409 whoever asks, seated or not. Counts against the seat-taking rate (scope "
                               "match_join).")
    def post(self, request, id):
        return super().post(request, id)


class CampaignCancelApi(_CampaignActionApi):
    service = staticmethod(services.campaign_cancel)

    @extend_schema(tags=["campaigns"], operation_id="campaigns_cancel", parameters=[CAMPAIGN_ID], request=None,
                   responses={200: CampaignSerializer, **_ACTION_ERRORS, 403: E("not_creator"),
                              409: E("campaign_cancelled / campaign_abandoned / campaign_finished")},
                   description="The creator (`creator_id`) cancels a campaign that has not started: its status becomes "
                               "`cancelled` (with who and when in `cancelled`), it is no longer open to join, and "
                               "it no longer counts toward MAX_OPEN_CAMPAIGNS_PER_USER. A started campaign is "
                               "abandoned instead: its status becomes `abandoned` (who, when and where in `abandoned`, "
                               "reason creator) and no further phase opens; a phase match being played is left to "
                               "its players as a single match. A finished one is refused (campaign_finished); an "
                               "abandoned, cancelled or finished campaign answers its 409 whoever asks, its former "
                               "creator too, before not_creator.")
    def post(self, request, id):
        return super().post(request, id)


class CampaignStartApi(_CampaignActionApi):
    service = staticmethod(services.campaign_start)
    throttle_classes = [MatchCreateThrottle]  # the start opens chapter 1's match

    @extend_schema(tags=["campaigns"], operation_id="campaigns_start", parameters=[CAMPAIGN_ID], request=None,
                   responses={200: CampaignSerializer, **_ACTION_ERRORS, 403: E("not_creator"),
                              409: E("campaign_started (it is running) / campaign_cancelled / campaign_abandoned / "
                                     "campaign_finished / seats_not_filled"),
                              429: E("throttled (Retry-After): scope match_create, MATCH_CREATE_RATE")},
                   description="Start the campaign: chapter 1's Adventure Phase match opens with every player seated. "
                               "A running campaign answers campaign_started; a cancelled, abandoned or finished one "
                               "its own 409, whoever asks, before not_creator. "
                               "It opens a match, so it counts against the match creation rate (scope match_create).")
    def post(self, request, id):
        return super().post(request, id)


class CampaignRetryApi(_CampaignActionApi):
    service = staticmethod(services.policy_retry)

    @extend_schema(tags=["campaigns"], operation_id="campaigns_retry", parameters=[CAMPAIGN_ID], request=None,
                   responses={200: CampaignSerializer, **_ACTION_ERRORS, 403: E("not_staff"), 409: E("nothing_to_retry")},
                   description="Staff: open the next phase again after a recorded failure (the campaign's `failure`).")
    def post(self, request, id):
        return super().post(request, id)
