"""The tournament REST API: thin views over ``services`` (writes) and ``selectors`` (reads).

Tournament data is public (anonymous reads); writes need a login, and the services decide who may do
what (organizers start and drop, players register and withdraw). Every refusal is a
``TournamentServiceError`` rendered by the API's one exception handler as ``{code, message}``.
"""

import logging

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import ErrorSerializer
from games.tournaments import policies, selectors, services
from games.tournaments import serializers as s
from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import TeamInvitation
from games.tournaments.throttles import TournamentEntryThrottle, TournamentManageThrottle

log = logging.getLogger(__name__)

TOURNAMENT_ID = OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="tournament id")
TAGS = ["tournaments"]


def E(text):  # noqa: N802 - the games API's shorthand
    return OpenApiResponse(ErrorSerializer, description=text)


UNAUTH = E("not_authenticated / authentication_failed")
NOT_FOUND = E("not_found: no such tournament")
BAD = E("malformed: the body or query does not parse")
THROTTLED = E("throttled (Retry-After): scope tournament_entry, TOURNAMENT_ENTRY_RATE (register, withdraw, "
              "accept and decline share one count per user)")
MANAGE_THROTTLED = E("throttled (Retry-After): scope tournament_manage, TOURNAMENT_MANAGE_RATE (the organizer's "
                     "settings changes, pauses and resumes share one count per user)")


def _valid(serializer_class, data) -> dict:
    ser = serializer_class(data=data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


def _detail(tournament_id) -> dict:
    return selectors.tournament_detail(selectors.tournament_get(tournament_id))


class TournamentListCreateApi(APIView):
    pagination_class = None

    @extend_schema(tags=TAGS, operation_id="tournaments_list", parameters=[s.TournamentListQuerySerializer],
                   responses={200: s.TournamentSummarySerializer(many=True), 400: BAD})
    def get(self, request):
        query = _valid(s.TournamentListQuerySerializer, request.query_params)
        return Response(selectors.tournament_list(status=query.get("status"), game=query.get("game")))

    @extend_schema(tags=TAGS, operation_id="tournaments_create", request=s.TournamentCreateSerializer,
                   responses={201: s.TournamentSerializer, 400: BAD, 401: UNAUTH,
                              403: E("not_organizer: only staff or the organizers group create tournaments"),
                              422: E("invalid_settings / invalid_match_options / clock_required / ...")})
    def post(self, request):
        data = _valid(s.TournamentCreateSerializer, request.data)
        tournament = services.tournament_create(creator=request.user, **data)
        return Response(selectors.tournament_detail(tournament), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    @extend_schema(tags=TAGS, operation_id="tournaments_retrieve", parameters=[TOURNAMENT_ID],
                   responses={200: s.TournamentSerializer, 404: NOT_FOUND})
    def get(self, request, id):
        return Response(_detail(id))

    def get_throttles(self):  # reading is never throttled; the organizer's changes are
        return [TournamentManageThrottle()] if self.request.method == "PATCH" else []

    @extend_schema(tags=TAGS, operation_id="tournaments_partial_update", parameters=[TOURNAMENT_ID],
                   request=s.TournamentUpdateSerializer,
                   responses={200: s.TournamentSerializer, 400: BAD, 401: UNAUTH,
                              403: E("not_organizer: only this tournament's organizer (or staff)"), 404: NOT_FOUND,
                              409: E("already_started (only the spectator delay changes after the start) / "
                                     "tournament_finished / tournament_cancelled"),
                              429: MANAGE_THROTTLED,
                              422: E("invalid_spectator_delay: 60-3600 seconds and 0-10 turns / starts_at_in_past / "
                                     "invalid_name / invalid_round_minutes / invalid_max_entrants / "
                                     "max_entrants_below_field / rounds_not_applicable")})
    def patch(self, request, id):
        """The organizer changes the tournament: before the start its name, start time (null clears
        it), round time limit, cap, rated flag and Swiss rounds (one ``settings_changed`` record); before
        or during the event the fair-play spectator delay (``spectator_delay_set``; running matches
        follow at once). All or nothing; an unchanged value records nothing."""
        data = _valid(s.TournamentUpdateSerializer, request.data)
        services.tournament_update(tournament_id=id, user=request.user, changes=data)
        return Response(_detail(id))


class _ActionApi(APIView):
    permission_classes = [IsAuthenticated]


class TournamentRegisterApi(_ActionApi):
    throttle_classes = [TournamentEntryThrottle]

    @extend_schema(tags=TAGS, operation_id="tournaments_register", parameters=[TOURNAMENT_ID],
                   request=s.TournamentRegisterSerializer,
                   responses={200: s.TournamentSerializer,
                              202: OpenApiResponse(s.TournamentRegisteredSerializer,
                                                   description="team events: the partner has been asked; the team "
                                                               "is entered when they accept"),
                              400: BAD, 401: UNAUTH, 404: NOT_FOUND,
                              409: E("already_registered / partner_registered / registration_closed / tournament_full"),
                              422: E("partner_required / no_teams / unknown_partner / invalid_partner"),
                              429: THROTTLED})
    def post(self, request, id):
        """Register yourself (200). In a team event, name your partner: they are asked (202, with the
        invitation), and the team is entered once they accept - or at once (200) if they had already
        asked you."""
        data = _valid(s.TournamentRegisterSerializer, request.data)
        partner = selectors.partner_by_username(data["partner"]) if data.get("partner") is not None else None
        outcome = services.tournament_register(tournament_id=id, user=request.user, partner=partner)
        if isinstance(outcome, TeamInvitation):
            return Response({**_detail(id), "invitation": selectors.invitation_as_dict(outcome)},
                            status=status.HTTP_202_ACCEPTED)
        return Response(_detail(id))


class TournamentInvitationsApi(_ActionApi):
    @extend_schema(tags=TAGS, operation_id="tournaments_invitations", responses={
        200: s.TeamInvitationSerializer(many=True), 401: UNAUTH})
    def get(self, request):
        """Your team invitations waiting for an answer (sent and received), in tournaments still registering."""
        return Response([selectors.invitation_as_dict(i) for i in selectors.invitations_pending(request.user)])


INVITATION_ID = OpenApiParameter("invitation_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="invitation id")


class TournamentInvitationAcceptApi(_ActionApi):
    throttle_classes = [TournamentEntryThrottle]

    @extend_schema(tags=TAGS, operation_id="tournaments_invitation_accept", parameters=[TOURNAMENT_ID, INVITATION_ID],
                   request=None,
                   responses={200: s.TournamentSerializer, 401: UNAUTH, 403: E("not_invited"),
                              404: E("not_found: no such tournament or invitation"),
                              409: E("invitation_closed / registration_closed / already_registered / "
                                     "partner_registered / tournament_full"), 429: THROTTLED})
    def post(self, request, id, invitation_id):
        """The invited partner accepts: the team is entered as one entrant."""
        services.tournament_invitation_accept(tournament_id=id, invitation_id=invitation_id, user=request.user)
        return Response(_detail(id))


class TournamentInvitationDeclineApi(_ActionApi):
    throttle_classes = [TournamentEntryThrottle]

    @extend_schema(tags=TAGS, operation_id="tournaments_invitation_decline", parameters=[TOURNAMENT_ID, INVITATION_ID],
                   request=None,
                   responses={200: s.TeamInvitationSerializer, 401: UNAUTH, 403: E("not_invited"),
                              404: E("not_found: no such tournament or invitation"), 409: E("invitation_closed"),
                              429: THROTTLED})
    def post(self, request, id, invitation_id):
        """The invited partner declines, or the player who asked cancels."""
        invitation = services.tournament_invitation_decline(tournament_id=id, invitation_id=invitation_id,
                                                            user=request.user)
        return Response(selectors.invitation_as_dict(invitation))


class TournamentWithdrawApi(_ActionApi):
    throttle_classes = [TournamentEntryThrottle]

    @extend_schema(tags=TAGS, operation_id="tournaments_withdraw", parameters=[TOURNAMENT_ID], request=None,
                   responses={200: s.TournamentSerializer, 401: UNAUTH, 404: NOT_FOUND,
                              409: E("not_registered / already_dropped / tournament_finished"), 429: THROTTLED})
    def post(self, request, id):
        services.tournament_withdraw(tournament_id=id, user=request.user)
        return Response(_detail(id))


class TournamentStartApi(_ActionApi):
    @extend_schema(tags=TAGS, operation_id="tournaments_start", parameters=[TOURNAMENT_ID], request=None,
                   responses={200: s.TournamentSerializer, 401: UNAUTH, 403: E("not_organizer"), 404: NOT_FOUND,
                              409: E("already_started"), 422: E("too_few_entrants")})
    def post(self, request, id):
        tournament = services.tournament_start(tournament_id=id, user=request.user)
        try:  # idempotent: a worker advancing it too finds nothing left to create
            policies.tournament_advance(tournament_id=id)
        except TournamentServiceError:  # the start stands; the beat's sweep advances it again
            log.exception("tournament %s started but its round %s matches were not created", id, tournament.round)
        return Response(_detail(id))


class TournamentCancelApi(_ActionApi):
    @extend_schema(tags=TAGS, operation_id="tournaments_cancel", parameters=[TOURNAMENT_ID],
                   request=s.CancelSerializer,
                   responses={200: s.TournamentSerializer, 400: BAD, 401: UNAUTH, 403: E("not_organizer"),
                              404: NOT_FOUND,
                              409: E("already_started / tournament_finished / tournament_cancelled"),
                              422: E("invalid_reason")})
    def post(self, request, id):
        """The organizer cancels a tournament that has not started (status ``cancelled``, recorded)."""
        data = _valid(s.CancelSerializer, request.data)
        services.tournament_cancel(tournament_id=id, user=request.user, reason=data.get("reason", ""))
        return Response(_detail(id))


class TournamentDropApi(_ActionApi):
    @extend_schema(tags=TAGS, operation_id="tournaments_drop", parameters=[TOURNAMENT_ID], request=s.DropSerializer,
                   responses={200: s.TournamentSerializer, 400: BAD, 401: UNAUTH, 403: E("not_organizer / conflict_of_interest (the caller plays in the tournament and drops another entrant)"),
                              404: NOT_FOUND, 409: E("not_running / not_registered / already_dropped")})
    def post(self, request, id):
        data = _valid(s.DropSerializer, request.data)
        services.tournament_drop(tournament_id=id, user=request.user, entrant_id=data["entrant_id"])
        return Response(_detail(id))


class TournamentPauseApi(_ActionApi):
    throttle_classes = [TournamentManageThrottle]

    @extend_schema(tags=TAGS, operation_id="tournaments_pause", parameters=[TOURNAMENT_ID], request=s.ClockPauseSerializer,
                   responses={200: s.TournamentSerializer, 400: BAD, 401: UNAUTH, 403: E("not_organizer / conflict_of_interest (the caller plays in the tournament)"),
                              404: NOT_FOUND, 409: E("not_running / already_paused / round_over"), 429: MANAGE_THROTTLED})
    def post(self, request, id):
        data = _valid(s.ClockPauseSerializer, request.data)
        services.tournament_pause_clock(tournament_id=id, user=request.user, reason=data.get("reason", ""))
        return Response(_detail(id))


class TournamentResumeApi(_ActionApi):
    throttle_classes = [TournamentManageThrottle]

    @extend_schema(tags=TAGS, operation_id="tournaments_resume", parameters=[TOURNAMENT_ID], request=None,
                   responses={200: s.TournamentSerializer, 401: UNAUTH, 403: E("not_organizer / conflict_of_interest (the caller plays in the tournament)"),
                              404: NOT_FOUND, 409: E("not_running / not_paused / round_over"), 429: MANAGE_THROTTLED})
    def post(self, request, id):
        """The organizer resumes the paused round. A round that ended during the pause moves on now: the
        next round is paired and its matches created (or the tournament ends)."""
        services.tournament_resume_clock(tournament_id=id, user=request.user)
        try:  # idempotent, like the start's: the beat's sweep advances it again if this fails
            policies.tournament_advance(tournament_id=id)
        except TournamentServiceError:
            log.exception("tournament %s resumed but could not move on", id)
        return Response(_detail(id))


class TournamentPairingsApi(APIView):
    @extend_schema(tags=TAGS, operation_id="tournaments_pairings", parameters=[TOURNAMENT_ID, s.PairingsQuerySerializer],
                   responses={200: s.PairingSerializer(many=True), 400: BAD, 404: NOT_FOUND})
    def get(self, request, id):
        query = _valid(s.PairingsQuerySerializer, request.query_params)
        return Response(selectors.tournament_pairings(selectors.tournament_get(id), query.get("round")))


class TournamentStandingsApi(APIView):
    @extend_schema(tags=TAGS, operation_id="tournaments_standings", parameters=[TOURNAMENT_ID],
                   responses={200: s.StandingSerializer(many=True), 404: NOT_FOUND})
    def get(self, request, id):
        return Response(selectors.tournament_standings(selectors.tournament_get(id)))
