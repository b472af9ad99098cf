"""Disputes over HTTP (thin: ``reports.py`` does the work; errors leave as ``{code, message}``).

- ``POST /api/matches/{id}/reports/ {seq, text}``: a player seated in the tournament match (403
  otherwise; 422 for a seq beyond the match's head) files a report; 201 with the report. Throttled per
  user (429 ``throttled``, scope ``tournament_report``), with the pages' report forms.
- ``GET /api/admin/reports/?status=open|all`` (staff): the judge's queue, oldest first (400 ``malformed``
  for any other status, as ``GET /api/tournaments/?status=`` answers).
- ``POST /api/admin/reports/{id}/resolve/ {decision: "uphold"|"override", reason, places?}`` (staff):
  uphold the table's result, or override it (``places``: entrant id -> place, and a written reason).
- ``GET /api/tournaments/{id}/reports/?status=open|all`` and ``POST /api/tournaments/{id}/reports/{report_id}/
  resolve/`` (the same shapes): one tournament's reports, for its judges: staff, or its organizer
  when they do not play in it (403 ``not_judge``, ``conflict_of_interest``).
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.permissions import IsStaff
from games.api.serializers import ErrorSerializer
from games.tournaments import reports, selectors, services
from games.tournaments.models import MatchReport
from games.tournaments.throttles import TournamentReportThrottle

E = lambda text: OpenApiResponse(ErrorSerializer, description=text)  # noqa: E731


class ReportRequestSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1, help_text="the seq of the match log the report is about")
    text = serializers.CharField(max_length=reports.MAX_TEXT, trim_whitespace=True)


class ResolutionSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["uphold", "override"])
    reason = serializers.CharField()
    places = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    judge = serializers.CharField()
    record_seq = serializers.IntegerField(help_text="the tournament log record of the decision")
    role = serializers.ChoiceField(choices=["staff", "organizer"], help_text="in what capacity the judge ruled: "
                                   "staff, or the tournament's own organizer")
    at = serializers.DateTimeField(help_text="when the judge ruled")


class ReportSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament_id = serializers.UUIDField()
    match_id = serializers.UUIDField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    seq = serializers.IntegerField()
    text = serializers.CharField()
    reporter = serializers.CharField()
    created_at = serializers.DateTimeField()
    resolution = ResolutionSerializer(allow_null=True)
    warning = serializers.CharField(required=False, allow_null=True,
                                    help_text="the resolve answer only: set when an override changed a Swiss round "
                                              "of a Swiss with top cut after its cut was seeded (the bracket stays)")


class ResolveRequestSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["uphold", "override"])
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=reports.MAX_TEXT)
    places = serializers.DictField(child=serializers.IntegerField(min_value=1), required=False,
                                   help_text="override only: every entrant of the table -> its place (1 = first)")


class MatchReportApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [TournamentReportThrottle]

    @extend_schema(tags=["tournaments"], operation_id="matches_reports_create",
                   parameters=[OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH)],
                   request=ReportRequestSerializer,
                   responses={201: ReportSerializer, 400: E("malformed"), 401: E("not_authenticated"),
                              403: E("not_a_player"), 404: E("not_found / not_tournament_match"),
                              409: E("bracket_moved_on: an elimination round the bracket has left"),
                              415: E("unsupported_media_type"), 422: E("seq_beyond_head / invalid_text"),
                              429: E("throttled (Retry-After): scope tournament_report, TOURNAMENT_REPORT_RATE")})
    def post(self, request, id):
        body = ReportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        report = reports.report_file(match_id=id, user=request.user, seq=body.validated_data["seq"],
                                     text=body.validated_data["text"])
        return Response(reports.report_as_dict(report), status=status.HTTP_201_CREATED)


class ReportListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["open", "all"], required=False, default="open",
                                     help_text="open (the default): not resolved yet; all: resolved ones too")


BAD_QUERY = E("malformed: status is not open or all (as GET /api/tournaments/?status= refuses an unknown status)")


def _listed(request, rows) -> Response:
    """The reports asked for (``status``: open, the default, or all; anything else is 400
    ``malformed``, as the tournaments list answers), oldest first, at most 500."""
    query = ReportListQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    rows = rows.select_related("tournament", "reporter", "resolution__judge").order_by("created_at", "id")
    if query.validated_data["status"] != "all":
        rows = rows.filter(resolution__isnull=True)
    rows = list(rows[:500])
    roles = reports.judge_roles(rows)
    return Response([reports.report_as_dict(r, roles) for r in rows])


def _resolved(request, report_id, tournament_id=None) -> Response:
    body = ResolveRequestSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    reports.report_resolve(report_id=report_id, user=request.user, decision=data["decision"], reason=data["reason"],
                           places=data.get("places"), tournament_id=tournament_id)
    report = MatchReport.objects.select_related("reporter", "resolution__judge").get(pk=report_id)
    cut = data["decision"] == "override" and services.cut_seeded_after(services.state_of(report.tournament_id),
                                                                       report.round)
    return Response({**reports.report_as_dict(report), "warning": services.CUT_WARNING if cut else None})


RESOLVE_REFUSALS = {400: E("malformed"), 404: E("not_found"),
                    409: E("already_resolved / bracket_moved_on / match_in_progress"),
                    415: E("unsupported_media_type"), 422: E("reason_required / invalid places")}


class StaffReportListApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(tags=["staff"], operation_id="admin_reports_list", parameters=[ReportListQuerySerializer],
                   responses={200: ReportSerializer(many=True), 400: BAD_QUERY, 401: E("not_authenticated"),
                              403: E("staff only")})
    def get(self, request):
        return _listed(request, MatchReport.objects.all())


class StaffReportResolveApi(APIView):
    permission_classes = [IsStaff]

    @extend_schema(tags=["staff"], operation_id="admin_reports_resolve",
                   parameters=[OpenApiParameter("id", int, OpenApiParameter.PATH)], request=ResolveRequestSerializer,
                   responses={200: ReportSerializer, 403: E("staff only"), **RESOLVE_REFUSALS})
    def post(self, request, id):
        return _resolved(request, id)


TOURNAMENT_ID = OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="tournament id")
NOT_A_JUDGE = E("not_judge: only staff or this tournament's organizer / conflict_of_interest: the organizer plays "
                "in this tournament")


class TournamentReportListApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["tournaments"], operation_id="tournaments_reports_list",
                   parameters=[TOURNAMENT_ID, ReportListQuerySerializer],
                   responses={200: ReportSerializer(many=True), 400: BAD_QUERY, 401: E("not_authenticated"),
                              403: NOT_A_JUDGE, 404: E("not_found: no such tournament")})
    def get(self, request, id):
        """One tournament's reports (disputes), oldest first, for its judges: staff, or its organizer
        when they do not play in it."""
        tournament = selectors.tournament_get(id)
        services.judge_role(request.user, tournament)
        return _listed(request, MatchReport.objects.filter(tournament=tournament))


class TournamentReportResolveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["tournaments"], operation_id="tournaments_reports_resolve",
                   parameters=[TOURNAMENT_ID, OpenApiParameter("report_id", int, OpenApiParameter.PATH)],
                   request=ResolveRequestSerializer,
                   responses={200: ReportSerializer, 401: E("not_authenticated"), 403: NOT_A_JUDGE,
                              **RESOLVE_REFUSALS})
    def post(self, request, id, report_id):
        """A judge of this tournament (staff, or its organizer when they do not play in it) upholds or
        overrides the result a report disputes, as ``/api/admin/reports/{id}/resolve/`` does."""
        return _resolved(request, report_id, tournament_id=id)
