from django.urls import path, re_path

from . import views

app_name = "api"

urlpatterns = [
    path("games/", views.GameListApi.as_view(), name="games"),
    path("games/<slug:slug>/content/", views.GameContentApi.as_view(), name="game-content"),
    path("games/<slug:slug>/glossary/", views.GameGlossaryApi.as_view(), name="game-glossary"),
    path("matches/", views.MatchListCreateApi.as_view(), name="matches"),
    path("matches/<uuid:id>/", views.MatchDetailApi.as_view(), name="match"),
    path("matches/<uuid:id>/join/", views.MatchJoinApi.as_view(), name="match-join"),
    path("matches/<uuid:id>/leave/", views.MatchLeaveApi.as_view(), name="match-leave"),
    path("matches/<uuid:id>/start/", views.MatchStartApi.as_view(), name="match-start"),
    path("matches/<uuid:id>/bots/", views.MatchBotApi.as_view(), name="match-bots"),
    path("matches/<uuid:id>/view/", views.MatchViewApi.as_view(), name="match-view"),
    path("matches/<uuid:id>/commands/", views.MatchCommandApi.as_view(), name="match-commands"),
    path("matches/<uuid:id>/events/", views.MatchEventsApi.as_view(), name="match-events"),
    path("matches/<uuid:id>/replay/", views.MatchReplayApi.as_view(), name="match-replay"),
    path("ratings/<str:game>/", views.LeaderboardApi.as_view(), name="leaderboard"),
    path("users/<str:username>/", views.ProfileApi.as_view(), name="profile"),
    path("admin/matches/<uuid:id>/log/", views.StaffMatchLogApi.as_view(), name="admin-match-log"),
    path("admin/matches/<uuid:id>/state/", views.StaffMatchStateApi.as_view(), name="admin-match-state"),
    re_path(r"^.*$", views.ApiNotFound.as_view(), name="not-found"),
]
