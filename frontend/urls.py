from django.urls import path

from . import views

app_name = "frontend"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("matches/new/", views.match_create, name="match-create"),
    path("matches/<uuid:match_id>/", views.match_page, name="match"),
    path("matches/<uuid:match_id>/join/", views.match_join, name="match-join"),
    path("matches/<uuid:match_id>/leave/", views.match_leave, name="match-leave"),
    path("matches/<uuid:match_id>/bot/", views.match_add_bot, name="match-bot"),
    path("matches/<uuid:match_id>/start/", views.match_start, name="match-start"),
    path("ratings/", views.leaderboards, name="leaderboards"),
    path("ratings/<str:game>/", views.leaderboard, name="leaderboard"),
    path("users/<str:username>/", views.profile_page, name="profile"),
]
