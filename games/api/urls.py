from django.urls import path, re_path

from . import invitation_views, social_views, views

app_name = "api"

urlpatterns = [
    path("games/", views.GameListApi.as_view(), name="games"),
    path("games/<slug:slug>/content/", views.GameContentApi.as_view(), name="game-content"),
    path("games/<slug:slug>/glossary/", views.GameGlossaryApi.as_view(), name="game-glossary"),
    path("matches/", views.MatchListCreateApi.as_view(), name="matches"),
    path("matches/<uuid:id>/", views.MatchDetailApi.as_view(), name="match"),
    path("matches/<uuid:id>/join/", views.MatchJoinApi.as_view(), name="match-join"),
    path("matches/<uuid:id>/leave/", views.MatchLeaveApi.as_view(), name="match-leave"),
    path("matches/<uuid:id>/resign/", views.MatchResignApi.as_view(), name="match-resign"),
    path("matches/<uuid:id>/take-over/", views.MatchTakeOverApi.as_view(), name="match-take-over"),
    path("matches/<uuid:id>/start/", views.MatchStartApi.as_view(), name="match-start"),
    path("matches/<uuid:id>/bots/", views.MatchBotApi.as_view(), name="match-bots"),
    path("matches/<uuid:id>/view/", views.MatchViewApi.as_view(), name="match-view"),
    path("matches/<uuid:id>/commands/", views.MatchCommandApi.as_view(), name="match-commands"),
    path("matches/<uuid:id>/events/", views.MatchEventsApi.as_view(), name="match-events"),
    path("matches/<uuid:id>/replay/", views.MatchReplayApi.as_view(), name="match-replay"),
    path("matches/<uuid:id>/chat/", social_views.MatchChatApi.as_view(), name="match-chat"),
    path("matches/<uuid:id>/rematch/", social_views.MatchRematchApi.as_view(), name="match-rematch"),
    path("matches/<uuid:id>/verify/", social_views.MatchSeedCheckApi.as_view(), name="match-verify"),
    path("matches/<uuid:id>/invitations/", invitation_views.MatchInvitationsApi.as_view(), name="match-invitations"),
    path("invitations/", invitation_views.InvitationListApi.as_view(), name="invitations"),
    path("invitations/join/", invitation_views.InvitationJoinApi.as_view(), name="invitation-join"),
    path("invitations/<uuid:id>/accept/", invitation_views.InvitationAcceptApi.as_view(), name="invitation-accept"),
    path("invitations/<uuid:id>/decline/", invitation_views.InvitationDeclineApi.as_view(), name="invitation-decline"),
    path("invitations/<uuid:id>/revoke/", invitation_views.InvitationRevokeApi.as_view(), name="invitation-revoke"),
    path("ratings/<str:game>/", views.LeaderboardApi.as_view(), name="leaderboard"),
    path("users/<str:username>/", views.ProfileApi.as_view(), name="profile"),
    path("admin/matches/<uuid:id>/log/", views.StaffMatchLogApi.as_view(), name="admin-match-log"),
    path("admin/matches/<uuid:id>/state/", views.StaffMatchStateApi.as_view(), name="admin-match-state"),
    path("admin/matches/<uuid:id>/chat/", social_views.StaffChatApi.as_view(), name="admin-match-chat"),
    path("admin/chat/<int:message_id>/hide/", social_views.StaffChatHideApi.as_view(), name="admin-chat-hide"),
    re_path(r"^.*$", views.ApiNotFound.as_view(), name="not-found"),
]
