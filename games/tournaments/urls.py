from django.urls import path

from . import api, reports_api

app_name = "tournaments-api"

urlpatterns = [
    path("", api.TournamentListCreateApi.as_view(), name="list"),
    path("invitations/", api.TournamentInvitationsApi.as_view(), name="invitations"),
    path("<uuid:id>/", api.TournamentDetailApi.as_view(), name="detail"),
    path("<uuid:id>/register/", api.TournamentRegisterApi.as_view(), name="register"),
    path("<uuid:id>/invitations/<int:invitation_id>/accept/", api.TournamentInvitationAcceptApi.as_view(),
         name="invitation-accept"),
    path("<uuid:id>/invitations/<int:invitation_id>/decline/", api.TournamentInvitationDeclineApi.as_view(),
         name="invitation-decline"),
    path("<uuid:id>/withdraw/", api.TournamentWithdrawApi.as_view(), name="withdraw"),
    path("<uuid:id>/start/", api.TournamentStartApi.as_view(), name="start"),
    path("<uuid:id>/cancel/", api.TournamentCancelApi.as_view(), name="cancel"),
    path("<uuid:id>/drop/", api.TournamentDropApi.as_view(), name="drop"),
    path("<uuid:id>/pause/", api.TournamentPauseApi.as_view(), name="pause"),
    path("<uuid:id>/resume/", api.TournamentResumeApi.as_view(), name="resume"),
    path("<uuid:id>/pairings/", api.TournamentPairingsApi.as_view(), name="pairings"),
    path("<uuid:id>/standings/", api.TournamentStandingsApi.as_view(), name="standings"),
    path("<uuid:id>/reports/", reports_api.TournamentReportListApi.as_view(), name="reports"),
    path("<uuid:id>/reports/<int:report_id>/resolve/", reports_api.TournamentReportResolveApi.as_view(),
         name="report-resolve"),
]
