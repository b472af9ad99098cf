"""The games REST API: thin views over games.application (services write, selectors read).

Every refusal is an exception mapped to JSON by ``games.api.errors.exception_handler``.
Hidden information only leaves through ``view_for_seat`` / ``events_for_seat`` for the caller's
own seat; the staff endpoints (unredacted, each read recorded as a StaffAccess row) are the
only exception.
"""

import hashlib
import json
from urllib.parse import urlencode

from django.http import HttpResponsePermanentRedirect
from django.urls import Resolver404, resolve
from django.utils.cache import patch_cache_control
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, mixins, status
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.application import audit, selectors, services, watch
from games.application.errors import NotYourDecision, ReplayRefused
from games.application.identities import names_among_seat_lists, seats_display
from games.kernel import RuleViolation, registry
from games.projections.models import MatchSummary
from games.projections.profiles import profile
from games.ratings import selectors as ratings

from . import serializers as s
from .permissions import IsStaff
from .throttles import MatchCreateThrottle, MatchJoinThrottle

E = lambda text: OpenApiResponse(s.ErrorSerializer, description=text)  # noqa: E731
MATCH_ID = OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="match id")
NOT_FOUND = E("not_found: no such match")
UNAUTH = E("not_authenticated / authentication_failed")
INACTIVE = E("account_inactive: the account was deleted or deactivated while the request was on its way in")
REFUSED = E("live_view_refused: the caller plays in this running match's tournament (fair play; it opens "
            "when the match ends)")


# -- helpers ----------------------------------------------------------------------------------


def _seat_of(seats: list, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((i for i, x in enumerate(seats or []) if x and not x.get("bot") and x.get("user_id") == user.pk), None)


def _progress_for_spectators(item: dict, match, policy) -> dict:
    """A running match's ``seq``/``phase``/``awaiting``/``deadline`` as its spectators may know them
    (a watch policy keeps them behind: fair play), and its spectator count."""
    if item["status"] != "active":
        return item
    if item["your_seat"] is None:
        delayed = selectors.delayed_progress(match, policy)
        if delayed is not None:
            item.update(delayed, deadline=None)
    return item


def match_detail(match, user) -> dict:
    state = selectors.state_load(match)
    lobby = state["lobby"]
    st = selectors.status_of(match, state)
    item = {
        "id": str(match.pk),
        "game": match.game,
        "seats": len(lobby["seats"]),
        "options": lobby["options"],
        "rated": lobby.get("rated", False),
        "status": lobby["status"],
        "phase": st["phase"],
        "seq": match.head_seq,
        "seat_list": seats_display(lobby["seats"]),
        "awaiting": st["awaiting"],
        "deadline": selectors.deadline_of(match) if st["awaiting"] else None,
        "winners": st["winners"],
        "resigned": lobby.get("resigned"),
        "conceded": list(lobby.get("conceded", [])),
        "created_by": match.created_by_id,
        "created_at": match.created_at.isoformat(),
        "seed_hash": match.seed_hash,
        "seed": lobby["seed"],
        "your_seat": selectors.seat_for_user(match, user, state),
        "spectators": selectors.spectator_counts([match.pk])[str(match.pk)] if lobby["status"] == "active" else None,
    }
    if item["status"] == "active" and item["your_seat"] is None:
        _progress_for_spectators(item, match, watch.policy_of(match))
    return item


def summary_item(summary: MatchSummary, user, names: dict | None = None, policies: dict | None = None,
                 spectators: dict | None = None) -> dict:
    """One match of the list (``policies``, ``spectators``: looked up once for the page)."""
    match = summary.match
    item = {
        "id": str(match.pk),
        "game": match.game,
        "seats": match.seat_count,
        "options": match.options,
        "rated": match.rated,
        "status": summary.status,
        "phase": summary.phase,
        "seq": summary.seq,
        "seat_list": seats_display(summary.seats, names),
        "awaiting": summary.awaiting,
        "deadline": selectors.deadline_doc(getattr(match, "deadline", None), summary.seq),  # select_related
        "winners": summary.winners,
        "created_by": match.created_by_id,
        "created_at": match.created_at.isoformat(),
        "seed_hash": match.seed_hash,
        "seed": match.seed if summary.status == "finished" else None,
        "your_seat": _seat_of(summary.seats, user),
        "spectators": (spectators or {}).get(str(match.pk), 0) if summary.status == "active" else None,
    }
    policy = (policies or {}).get(str(match.pk))
    if policy is not None:
        _progress_for_spectators(item, match, policy)
    return item


def summary_items(page, user) -> list[dict]:
    names = names_among_seat_lists(x.seats for x in page)
    active = [x.match_id for x in page if x.status == "active"]
    policies = watch.policies_of(active) if active else {}
    spectators = selectors.spectator_counts(active) if active else {}
    return [summary_item(x, user, names, policies, spectators) for x in page]


def _query(serializer_class, request):
    ser = serializer_class(data=request.query_params)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


def _body(serializer_class, request):
    ser = serializer_class(data=request.data)
    ser.is_valid(raise_exception=True)
    return ser.validated_data


# -- catalog ----------------------------------------------------------------------------------


class GameListApi(APIView):
    pagination_class = None

    @extend_schema(tags=["games"], operation_id="games_list", responses={200: s.GameSerializer(many=True)})
    def get(self, request):
        return Response([
            {"slug": e.slug, "name": e.name, "min_seats": e.min_seats, "max_seats": e.max_seats,
             "options": e.options_schema}
            for e in registry.all_engines()
        ])


def _engine_by_slug(slug):
    engine = next((e for e in registry.all_engines() if e.slug == slug), None)
    if engine is None:
        try:
            engine = registry.get(slug)  # unlisted engines' content by exact slug
        except RuleViolation:
            raise NotFound("no such game")
    return engine


class GameContentApi(APIView):
    @extend_schema(tags=["games"], operation_id="games_content",
                   description="The game's public content pack (anyone, no login): cards, boards and rules data "
                               "as public before play. What a game keeps hidden until revealed (a deck's order, "
                               "a campaign book's unread entries) is never in it: a match's seats read it in "
                               "their view once revealed.",
                   responses={200: OpenApiTypes.OBJECT, 404: E("not_found: no such game")})
    def get(self, request, slug):
        return Response(_engine_by_slug(slug).content())


GLOSSARY_MAX_AGE = 3600  # seconds; the ETag lets a client revalidate for free after that
_GLOSSARIES: dict = {}  # (slug, version) -> (body, etag): a glossary is data, fixed per engine version


def _glossary_of(engine) -> tuple:
    key = (engine.slug, engine.version)
    if key not in _GLOSSARIES:
        body = {"game": engine.slug, **engine.glossary()}
        _GLOSSARIES[key] = (body, '"%s"' % hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:32])
    return _GLOSSARIES[key]


class GameGlossaryApi(APIView):
    """A game's rules glossary (public): the text behind every keyword, status, terrain and tag the
    board shows. The same for everyone, so it is cacheable: ``Cache-Control: public`` and an ETag
    (``If-None-Match`` answers 304)."""

    permission_classes = [AllowAny]
    authentication_classes = []  # public and the same for everyone: no session, no CSRF, no Vary: Cookie

    @extend_schema(tags=["games"], operation_id="games_glossary",
                   responses={200: s.GlossarySerializer, 304: OpenApiResponse(description="not modified (ETag)"),
                              404: E("not_found: no such game")})
    def get(self, request, slug):
        body, etag = _glossary_of(_engine_by_slug(slug))
        if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(body)
        response["ETag"] = etag
        patch_cache_control(response, public=True, max_age=GLOSSARY_MAX_AGE)
        return response


# -- matches ----------------------------------------------------------------------------------


class MatchPagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 100


class MatchListCreateApi(mixins.ListModelMixin, generics.GenericAPIView):
    serializer_class = s.MatchSerializer
    pagination_class = MatchPagination

    def get_throttles(self):
        return [MatchCreateThrottle()] if self.request.method == "POST" else []

    def get_queryset(self):
        q = _query(s.MatchListQuerySerializer, self.request)
        qs = MatchSummary.objects.select_related("match", "match__deadline").order_by("-match__created_at", "match_id")
        if q.get("game"):
            qs = qs.filter(match__game=q["game"])
        if q.get("status"):
            qs = qs.filter(status=q["status"])
        if q.get("mine"):
            if not self.request.user.is_authenticated:
                return qs.none()
            qs = qs.filter(players=self.request.user)
        return qs

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(summary_items(page, request.user))

    @extend_schema(tags=["matches"], operation_id="matches_list", parameters=[s.MatchListQuerySerializer],
                   responses={200: s.MatchSerializer(many=True), 400: E("malformed filter"), 404: E("invalid page")})
    def get(self, request):
        return self.list(request)

    @extend_schema(
        tags=["matches"], operation_id="matches_create", request=s.MatchCreateSerializer,
        responses={201: s.MatchSerializer, 400: E("malformed"), 401: UNAUTH, 403: INACTIVE,
                   409: E("too_many_open_matches: the caller already has MAX_OPEN_MATCHES_PER_USER open matches"),
                   422: E("unknown_game / bad_seats / bad_options"), 429: E("throttled (Retry-After)")},
        description="Create a match; the creator takes seat 0. Throttled per user (scope match_create).",
    )
    def post(self, request):
        data = _body(s.MatchCreateSerializer, request)
        seats = data.get("seats")
        if seats is None:
            seats = registry.get(data["game"]).min_seats
        match = services.player_create(game=data["game"], seats=seats, options=data["options"], creator=request.user,
                                      rated=data["rated"])
        return Response(match_detail(match, request.user), status=status.HTTP_201_CREATED)


class MatchDetailApi(APIView):
    @extend_schema(tags=["matches"], operation_id="matches_retrieve", parameters=[MATCH_ID],
                   responses={200: s.MatchSerializer, 404: NOT_FOUND})
    def get(self, request, id):
        return Response(match_detail(selectors.match_get(id), request.user))


class _LobbyActionApi(APIView):
    service = None  # staticmethod(services.match_*) taking (match_id, user, [seat])
    takes_seat = False
    seat_serializer = s.SeatRequestSerializer  # the body, when the action takes a seat

    def post(self, request, id):
        match = selectors.match_get(id)
        kwargs = {}
        if self.takes_seat:
            kwargs["seat"] = _body(self.seat_serializer, request).get("seat")
        self.service(match_id=match.pk, user=request.user, **kwargs)
        match.refresh_from_db()
        return Response(match_detail(match, request.user))


_LOBBY_ERRORS = {400: E("malformed / bad_seat"), 401: UNAUTH, 404: NOT_FOUND}


class MatchJoinApi(_LobbyActionApi):
    service = staticmethod(services.player_join)
    takes_seat = True
    throttle_classes = [MatchJoinThrottle]

    @extend_schema(tags=["matches"], operation_id="matches_join", parameters=[MATCH_ID], request=s.SeatRequestSerializer,
                   responses={200: s.MatchSerializer, **_LOBBY_ERRORS, 403: INACTIVE,
                              409: E("match_not_open / already_seated / match_full / seat_taken"),
                              429: E("throttled (Retry-After)")},
                   description="Take a seat. Throttled per user (scope match_join).")
    def post(self, request, id):
        return super().post(request, id)


class MatchLeaveApi(_LobbyActionApi):
    service = staticmethod(services.match_leave)

    @extend_schema(tags=["matches"], operation_id="matches_leave", parameters=[MATCH_ID], request=None,
                   responses={200: s.MatchSerializer, **_LOBBY_ERRORS, 409: E("match_not_open / not_seated")},
                   description="Give up your seat. A creator who leaves hands the creator's rights to the next "
                               "seated user; with no other user seated the match is abandoned.")
    def post(self, request, id):
        return super().post(request, id)


class MatchTakeOverApi(_LobbyActionApi):
    service = staticmethod(services.match_take_over)
    takes_seat = True
    seat_serializer = s.TakeOverRequestSerializer

    @extend_schema(tags=["matches"], operation_id="matches_take_over", parameters=[MATCH_ID],
                   request=s.TakeOverRequestSerializer,
                   responses={200: s.MatchSerializer, **_LOBBY_ERRORS, 403: E("not_seated"),
                              409: E("match_not_active / take_over_unavailable / already_out / not_awaited / "
                                     "not_idle_long_enough")},
                   description="In a cooperative game (Harakiri), take over the characters of `seat`, a player the "
                               "match has waited on, with no move by anyone, for a day (86400 s): that seat leaves "
                               "the game as if it resigned (SeatConceded with `taken_over_by`, your seat) and its "
                               "characters pass to you (PlayerLeftParty). The view's `take_over` lists the seats you "
                               "may take over now.")
    def post(self, request, id):
        return super().post(request, id)


class MatchResignApi(_LobbyActionApi):
    service = staticmethod(services.match_resign)

    @extend_schema(tags=["matches"], operation_id="matches_resign", parameters=[MATCH_ID], request=None,
                   responses={200: s.MatchSerializer, **_LOBBY_ERRORS, 403: E("not_seated"),
                              409: E("match_not_active / resign_unavailable / already_out")},
                   description="Concede the running match you sit in. In a game of two sides the other side "
                               "(player or team) wins at once, recorded as MatchFinished with `resigned` (your "
                               "seat). With three sides or more you leave the game and the others play on "
                               "(SeatConceded, then the game's own events; `conceded` lists your seat); the last "
                               "side left wins. In a cooperative game (Harakiri) you leave the party's table: your "
                               "characters pass to the first player left and the party plays on (SeatConceded, "
                               "then PlayerLeftParty); the last player leaving ends the match with no winners. "
                               "resign_unavailable: a cooperative game or three sides whose engine cannot go on "
                               "without a player. A seat already out of the game cannot resign again (already_out).")
    def post(self, request, id):
        return super().post(request, id)


class MatchStartApi(_LobbyActionApi):
    service = staticmethod(services.match_start)

    @extend_schema(tags=["matches"], operation_id="matches_start", parameters=[MATCH_ID], request=None,
                   responses={200: s.MatchSerializer, **_LOBBY_ERRORS, 403: E("not_creator"),
                              409: E("match_not_open / seats_not_filled")})
    def post(self, request, id):
        return super().post(request, id)


class MatchBotApi(_LobbyActionApi):
    service = staticmethod(services.match_add_bot)
    takes_seat = True

    @extend_schema(tags=["matches"], operation_id="matches_add_bot", parameters=[MATCH_ID],
                   request=s.SeatRequestSerializer,
                   responses={200: s.MatchSerializer, **_LOBBY_ERRORS, 403: E("not_creator"),
                              409: E("match_not_open / match_full / seat_taken")})
    def post(self, request, id):
        return super().post(request, id)


# -- playing ----------------------------------------------------------------------------------


class MatchViewApi(APIView):
    @extend_schema(tags=["play"], operation_id="matches_view", parameters=[MATCH_ID],
                   responses={200: s.SeatViewSerializer, 403: REFUSED, 404: NOT_FOUND},
                   description="The caller's seat view (a spectator's for anyone not seated, anonymous included). "
                               "Spectators of a running tournament match see it with the tournament's delay "
                               "(`seq` is then the last seq they may see).")
    def get(self, request, id):
        match = selectors.match_get(id)
        state = selectors.state_load(match)
        viewer = selectors.viewer_of(match, request.user, state)
        return Response(selectors.view_for_viewer(match, viewer, state))


class MatchCommandApi(APIView):
    @extend_schema(
        tags=["play"], operation_id="matches_command", parameters=[MATCH_ID], request=s.CommandSerializer,
        responses={
            201: s.CommandResultSerializer,
            400: E("malformed (field errors in extra)"), 401: UNAUTH,
            403: E("not_your_decision"), 404: NOT_FOUND,
            409: OpenApiResponse(s.VersionConflictSerializer, description="version_conflict"),
            413: E("payload_too_large: the body is over COMMAND_BODY_MAX_BYTES (64 KiB)"),
            422: E("a rule violation (e.g. not_your_turn), match_not_active, or command_id_reused"),
        },
        description="Submit a game command for the caller's seat. A repeated command_id returns the "
                    "original response unchanged and appends nothing.",
    )
    def post(self, request, id):
        seat = selectors.seat_now(id, request.user)
        data = s.command_body(request.data) or _body(s.CommandSerializer, request)
        if seat is None:
            raise NotYourDecision("you have no seat in this match")
        result = services.match_submit_command(
            match_id=id, seat=seat, actor=services.Actor.user(request.user), command_id=data["command_id"],
            expected_seq=data["expected_seq"], type_=data["type"], args=data["args"],
        )
        return Response(result.as_dict(), status=status.HTTP_201_CREATED)


class MatchEventsApi(APIView):
    @extend_schema(tags=["play"], operation_id="matches_events", parameters=[MATCH_ID, s.EventsQuerySerializer],
                   responses={200: s.EventsSerializer, 400: E("malformed after / limit"), 403: REFUSED,
                              404: NOT_FOUND},
                   description="One page of events after `after` (seqs after+1 .. after+limit), redacted for the "
                               "caller's seat; follow `next` until it is null.")
    def get(self, request, id):
        match = selectors.match_get(id)
        q = _query(s.EventsQuerySerializer, request)
        viewer = selectors.viewer_of(match, request.user)
        head = viewer.limit(match.head_seq)  # a delayed spectator's head is the seq they may see
        until = min(head, q["after"] + q["limit"])
        events = selectors.events_for_viewer(match, viewer, after=q["after"], until=until)
        nxt = None
        if until < head:
            nxt = request.build_absolute_uri(f"{request.path}?{urlencode({'after': until, 'limit': q['limit']})}")
        return Response({"events": events, "seq": head, "next": nxt})


class MatchReplayApi(APIView):
    @extend_schema(tags=["play"], operation_id="matches_replay", parameters=[MATCH_ID, s.ReplayQuerySerializer],
                   responses={200: s.ReplaySerializer, 400: E("malformed seat / at / after"), 404: NOT_FOUND,
                              409: E("match_not_finished: only a finished match has a replay"),
                              422: E("seq_beyond_head / unknown_seat")},
                   description="A finished match at seq `at` as seat `seat` saw it (the `/view/` document "
                               "folded up to `at`), with its events in words. Open to anyone who can watch "
                               "the match: after the end every seat's view is open.")
    def get(self, request, id):
        match = selectors.match_get(id)
        q = _query(s.ReplayQuerySerializer, request)
        return Response(selectors.replay_for_seat(match, q.get("seat"), q.get("at"), after=q["after"]))


# -- ratings and profiles -----------------------------------------------------------------------


GAME = OpenApiParameter("game", OpenApiTypes.STR, OpenApiParameter.PATH, description="game slug, e.g. yokai")
USERNAME = OpenApiParameter("username", OpenApiTypes.STR, OpenApiParameter.PATH)


class LeaderboardApi(APIView):
    @extend_schema(tags=["ratings"], operation_id="ratings_leaderboard", parameters=[GAME, s.LeaderboardQuerySerializer],
                   responses={200: s.LeaderboardEntrySerializer(many=True), 400: E("malformed limit"),
                              404: E("unknown_game / game_not_rated")},
                   description="Everyone with a rating in the game, best first.")
    def get(self, request, game):
        limit = _query(s.LeaderboardQuerySerializer, request)["limit"]
        return Response(ratings.leaderboard(game, limit))


class ProfileApi(APIView):
    @extend_schema(tags=["ratings"], operation_id="users_profile", parameters=[USERNAME],
                   responses={200: s.ProfileSerializer, 404: E("unknown_user")},
                   description="A player's ratings (with history), recent matches and tournaments.")
    def get(self, request, username):
        return Response(profile(username))


# -- staff ------------------------------------------------------------------------------------


_STAFF_ERRORS = {401: UNAUTH, 403: E("permission_denied: staff only / conflict_of_interest: you play in this running "
                                     "match or its tournament"), 404: NOT_FOUND}


class StaffMatchLogApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(tags=["staff"], operation_id="admin_match_log", parameters=[MATCH_ID],
                   responses={200: s.StaffLogSerializer, **_STAFF_ERRORS},
                   description="The full unredacted log, seed included. Every read is recorded.")
    def get(self, request, id):
        match = selectors.match_get(id)
        selectors.staff_read_check(match, request.user)
        events = selectors.events_unredacted(match, until=match.head_seq)
        audit.staff_access_record(user=request.user, match=match, what="api: full event log")
        return Response({
            "id": str(match.pk), "game": match.game, "engine_version": match.engine_version, "seq": match.head_seq,
            "seed": match.seed, "seed_hash": match.seed_hash, "events": events,
        })


class StaffMatchStateApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(tags=["staff"], operation_id="admin_match_state", parameters=[MATCH_ID, s.StaffStateQuerySerializer],
                   responses={200: s.StaffStateSerializer, 400: E("malformed at"), **_STAFF_ERRORS,
                              422: E("seq_beyond_head: `at` is past the log's last seq (as the replay answers)")},
                   description="The folded state at seq `at`, its status and every seat's view there. Recorded. "
                               "An `at` past the log's head is refused (422 `seq_beyond_head`, naming the last "
                               "seq), never answered with another seq's state.")
    def get(self, request, id):
        match = selectors.match_get(id)
        selectors.staff_read_check(match, request.user)
        head = match.head_seq
        if head < 1:
            raise NotFound("this match has no events yet")
        at = _query(s.StaffStateQuerySerializer, request).get("at") or head
        if at > head:
            raise ReplayRefused("seq_beyond_head", f"the match log runs from seq 1 to {head}", 422)
        state = selectors.state_load(match, until=at)

        def view(seat):
            return {**selectors.view_for_seat(match, seat, state), "seq": at}

        body = {
            "id": str(match.pk), "seq": at, "head_seq": match.head_seq,
            "status": selectors.status_of(match, state), "state": state,
            "views": [view(seat) for seat in range(len(state["lobby"]["seats"]))],
            "spectator": view(None),
        }
        audit.staff_access_record(user=request.user, match=match, what=f"api: state at seq {at}")
        return Response(body)


# -- fallbacks ----------------------------------------------------------------------------------


class ApiNotFound(APIView):
    """Any other path under /api/ (including malformed match ids): a JSON 404, never HTML."""

    permission_classes = []
    schema = None

    def _404(self, request, *args, **kwargs):
        path = request.path
        if not path.endswith("/"):
            try:
                match = resolve(path + "/")
            except Resolver404:
                match = None
            if match is not None and getattr(match.func, "view_class", None) is not ApiNotFound:
                if request.method in ("GET", "HEAD"):
                    query = request.META.get("QUERY_STRING", "")
                    return HttpResponsePermanentRedirect(path + "/" + (f"?{query}" if query else ""))
                raise NotFound(f"no API endpoint at {path}; did you mean {path}/ ?")
        raise NotFound(f"no API endpoint at {path}")

    get = post = put = patch = delete = head = options = _404
