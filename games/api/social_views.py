"""The social endpoints of a match: chat, rematch and the seed verification (thin views over
``games.application.chat``, ``.rematch`` and ``.seedcheck``)."""

from urllib.parse import urlencode

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.application import audit, chat, rematch, seedcheck, selectors

from . import social_serializers as s
from .permissions import IsStaff
from .throttles import ChatThrottle
from .views import MATCH_ID, NOT_FOUND, UNAUTH, E, _body, _query

MESSAGE_ID = OpenApiParameter("message_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="chat message id")


class MatchChatApi(APIView):
    def get_throttles(self):
        return [ChatThrottle()] if self.request.method == "POST" else []

    @extend_schema(tags=["social"], operation_id="matches_chat", parameters=[MATCH_ID, s.ChatQuerySerializer],
                   responses={200: s.ChatPageSerializer, 400: E("malformed channel / after / limit"),
                              403: E("chat_forbidden: a channel the caller may not read"), 404: NOT_FOUND},
                   description="One page of the match's chat that the caller may read, oldest first (ids after "
                               "`after`); follow `next` until it is null. Seated players read `players`; everyone "
                               "else reads `spectators`, which the players read too once the match is over. "
                               "Hidden messages are left out.")
    def get(self, request, id):
        match = selectors.match_get(id)
        q = _query(s.ChatQuerySerializer, request)
        page = chat.chat_page(match, request.user, channel=q.get("channel"), after=q["after"], limit=q["limit"])
        nxt = None
        if page["more"]:
            query = {"after": page["last_id"], "limit": q["limit"], **({"channel": q["channel"]} if q.get("channel") else {})}
            nxt = request.build_absolute_uri(f"{request.path}?{urlencode(query)}")
        return Response({"messages": page["messages"], "channels": page["channels"], "max_chars": page["max_chars"],
                         "next": nxt})

    @extend_schema(tags=["social"], operation_id="matches_chat_post", parameters=[MATCH_ID], request=s.ChatPostSerializer,
                   responses={201: s.ChatMessageSerializer, 400: E("malformed / message_empty / message_too_long"),
                              401: UNAUTH, 403: E("chat_forbidden: a channel the caller may not post in"),
                              404: NOT_FOUND, 429: E("throttled (Retry-After): scope chat, CHAT_RATE")},
                   description="Post a message. Throttled per user (scope chat). It is pushed to the sockets that "
                               "may read its channel as {\"type\": \"chat\", \"message\"}.")
    def post(self, request, id):
        match = selectors.match_get(id)
        data = _body(s.ChatPostSerializer, request)
        doc = chat.chat_post(match_id=match.pk, user=request.user, channel=data["channel"], text=data["text"])
        return Response(doc, status=status.HTTP_201_CREATED)


class MatchRematchApi(APIView):
    @extend_schema(tags=["social"], operation_id="matches_rematch_status", parameters=[MATCH_ID],
                   responses={200: s.RematchSerializer, 404: NOT_FOUND},
                   description="Who has accepted a rematch, who is still to, and the new match once it exists.")
    def get(self, request, id):
        return Response(rematch.rematch_status(selectors.match_get(id)))

    @extend_schema(tags=["social"], operation_id="matches_rematch", parameters=[MATCH_ID], request=None,
                   responses={200: s.RematchSerializer, 401: UNAUTH, 403: E("not_a_player: only the match's players"),
                              404: NOT_FOUND,
                              409: E("match_not_finished / rematch_unavailable (a tournament or campaign match, "
                                     "a deleted player)")},
                   description="Accept a rematch (idempotent). When every human seat has accepted (bots accept "
                               "by themselves) the same game with the same seats and options is created and "
                               "started, exactly once; `match_id` names it.")
    def post(self, request, id):
        match = selectors.match_get(id)
        return Response(rematch.rematch_accept(match_id=match.pk, user=request.user))


class MatchSeedCheckApi(APIView):
    @extend_schema(tags=["social"], operation_id="matches_verify", parameters=[MATCH_ID],
                   responses={200: s.SeedCheckSerializer, 404: NOT_FOUND,
                              409: E("seed_not_revealed: the match is not over")},
                   description="Re-derive the match's shuffles and rolls from its revealed seed with the kernel's "
                               "RNG, check them against the recorded events and the seed against the hash "
                               "published at creation.")
    def get(self, request, id):
        return Response(seedcheck.seed_check(selectors.match_get(id)))


class StaffChatApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(tags=["staff"], operation_id="admin_match_chat", parameters=[MATCH_ID],
                   responses={200: s.StaffChatSerializer, 401: UNAUTH,
                              403: E("permission_denied: staff only / conflict_of_interest: you play in this running "
                                     "match or its tournament"),
                              404: NOT_FOUND},
                   description="Both channels of the match's chat, hidden messages with their reason. Recorded.")
    def get(self, request, id):
        match = selectors.match_get(id)
        selectors.staff_read_check(match, request.user)
        audit.staff_access_record(user=request.user, match=match, what="api: chat")
        return Response({"messages": chat.chat_for_staff(match)})


class StaffChatHideApi(APIView):
    permission_classes = [IsAuthenticated, IsStaff]

    @extend_schema(tags=["staff"], operation_id="admin_chat_hide", parameters=[MESSAGE_ID], request=s.ChatHideSerializer,
                   responses={200: s.StaffChatMessageSerializer, 400: E("malformed / reason_required"), 401: UNAUTH,
                              403: E("permission_denied: staff only"), 404: E("not_found: no such message"),
                              409: E("already_hidden")},
                   description="Hide a chat message with a reason (recorded): players and spectators no longer "
                               "see it; it is pushed as {\"type\": \"chat_hidden\", \"id\"}.")
    def post(self, request, message_id):
        data = _body(s.ChatHideSerializer, request)
        return Response(chat.chat_hide(message_id=message_id, user=request.user, reason=data["reason"]))
