"""URLs of the dispute API (included under ``api/`` before the platform API's catch-all)."""

from django.urls import path

from . import reports_api

app_name = "tournament-reports"

urlpatterns = [
    path("matches/<uuid:id>/reports/", reports_api.MatchReportApi.as_view(), name="match-reports"),
    path("admin/reports/", reports_api.StaffReportListApi.as_view(), name="admin-reports"),
    path("admin/reports/<int:id>/resolve/", reports_api.StaffReportResolveApi.as_view(), name="admin-report-resolve"),
]
