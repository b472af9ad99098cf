"""The invitation endpoints: thin views over ``games.application.invitations``."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.application import invitations, selectors

from . import invitation_serializers as s
from .throttles import InvitationThrottle, MatchJoinThrottle
from .views import MATCH_ID, UNAUTH, E, _body, _query

INVITATION_ID = OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="invitation id")
NO_INVITATION = E("not_found: no such invitation (or not yours)")
SEATING = E("invitation_closed (accepted, declined or revoked) / match_not_open / already_seated / match_full")


def _out(request, doc: dict) -> dict:
    """The document with the link made absolute."""
    doc = dict(doc)
    doc["url"] = request.build_absolute_uri(doc.pop("path"))
    return doc


class MatchInvitationsApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [InvitationThrottle]

    @extend_schema(tags=["social"], operation_id="matches_invite", parameters=[MATCH_ID],
                   request=s.InvitationCreateSerializer,
                   responses={201: s.InvitationSerializer, 200: s.InvitationSerializer,
                              400: E("malformed"), 401: UNAUTH,
                              403: E("not_a_player: only a seated player invites"),
                              404: E("not_found: no such match / unknown_user: no such player"),
                              409: E("match_not_open / invite_self / already_seated / match_full"),
                              429: E("throttled (Retry-After): scope invitation, INVITATION_RATE")},
                   description="Invite a player by name (the invitation shows in their lobby until they accept or "
                               "decline it), or without a username get your invite link, which seats whoever "
                               "opens it while a seat is free. An open invitation to the same player, or your "
                               "open link, is given again (200). Throttled per user (scope invitation).")
    def post(self, request, id):
        match = selectors.match_get(id)
        data = _body(s.InvitationCreateSerializer, request)
        doc, created = invitations.invitation_create(match_id=match.pk, user=request.user,
                                                     username=data.get("username"))
        return Response(_out(request, doc), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class InvitationListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["social"], operation_id="invitations_list", parameters=[s.InvitationQuerySerializer],
                   responses={200: s.InvitationSerializer(many=True), 400: E("malformed"), 401: UNAUTH},
                   description="`?mine=1` (the default): the invitations addressed to you that still stand (their "
                               "match is open and you do not sit in it; `full` while every seat is taken), newest "
                               "first, one per match. `?sent=1`: the invitations and links you sent that still "
                               "stand. `match=` keeps one match's.")
    def get(self, request):
        q = _query(s.InvitationQuerySerializer, request)
        if q["sent"]:
            docs = invitations.invitations_sent(request.user, match_id=q.get("match"))
        elif q["mine"]:
            docs = invitations.invitations_received(request.user)
            if q.get("match"):
                docs = [d for d in docs if d["match_id"] == str(q["match"])]
        else:
            docs = []
        return Response([_out(request, d) for d in docs])


class InvitationAcceptApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [MatchJoinThrottle]

    @extend_schema(tags=["social"], operation_id="invitations_accept", parameters=[INVITATION_ID], request=None,
                   responses={200: s.InvitationSeatedSerializer, 401: UNAUTH,
                              403: E("not_invitee: a link is opened with POST /api/invitations/join/ / "
                                     "account_inactive: the account was deleted or deactivated meanwhile"),
                              404: NO_INVITATION, 409: SEATING, 429: E("throttled (Retry-After): scope match_join")},
                   description="Accept an invitation addressed to you: take a free seat in its match.")
    def post(self, request, id):
        return Response(_out(request, invitations.invitation_accept(invitation_id=id, user=request.user)))


class InvitationJoinApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [MatchJoinThrottle]

    @extend_schema(tags=["social"], operation_id="invitations_join", request=s.InvitationJoinSerializer,
                   responses={200: s.InvitationSeatedSerializer, 400: E("malformed"), 401: UNAUTH,
                              403: E("not_invitee: another player's invitation / "
                                     "account_inactive: the account was deleted or deactivated meanwhile"),
                              404: NO_INVITATION,
                              409: SEATING, 429: E("throttled (Retry-After): scope match_join")},
                   description="Open an invite link: take a free seat in its match (what /invite/<token>/ does "
                               "for a signed-in browser).")
    def post(self, request):
        data = _body(s.InvitationJoinSerializer, request)
        return Response(_out(request, invitations.invitation_join(token=data["token"], user=request.user)))


class InvitationDeclineApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["social"], operation_id="invitations_decline", parameters=[INVITATION_ID], request=None,
                   responses={200: s.InvitationSerializer, 401: UNAUTH, 403: E("not_invitee: a link (revoke it)"),
                              404: NO_INVITATION, 409: E("invitation_closed")},
                   description="Decline an invitation addressed to you (recorded; it leaves your lobby).")
    def post(self, request, id):
        return Response(_out(request, invitations.invitation_decline(invitation_id=id, user=request.user)))


class InvitationRevokeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["social"], operation_id="invitations_revoke", parameters=[INVITATION_ID], request=None,
                   responses={200: s.InvitationSerializer, 401: UNAUTH, 403: E("not_inviter"),
                              404: NO_INVITATION, 409: E("invitation_closed")},
                   description="Withdraw an invitation or a link you sent (recorded; the link seats no one after).")
    def post(self, request, id):
        return Response(_out(request, invitations.invitation_revoke(invitation_id=id, user=request.user)))

