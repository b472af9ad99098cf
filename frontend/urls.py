from django.urls import path
from django.views.generic import RedirectView

from . import account_views as account
from . import campaign_views as campaigns
from . import home_views as home
from . import invitation_views as invites
from . import replay_views as replays
from . import social_views as social
from . import tournament_views as tournaments
from . import views

app_name = "frontend"

urlpatterns = [
    path("", home.home, name="home"),
    path("favicon.ico", home.favicon, name="favicon"),
    path("lobby/", views.lobby, name="lobby"),
    path("games/", RedirectView.as_view(pattern_name="frontend:home", permanent=False)),  # the rules' "Games" crumb, typed
    path("games/<slug:slug>/", RedirectView.as_view(pattern_name="frontend:game-rules", permanent=False)),
    path("games/<slug:slug>/rules/", home.game_rules, name="game-rules"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("account/", account.account, name="account"),
    path("account/password/", account.PasswordChangeView.as_view(), name="password-change"),
    path("account/username/", account.username_change, name="account-username"),
    path("account/sessions/<int:session_id>/end/", account.session_end, name="session-end"),
    path("account/tokens/<str:token_id>/revoke/", account.token_revoke, name="token-revoke"),
    path("account/export/", account.export, name="account-export"),
    path("account/delete/", account.account_delete, name="account-delete"),
    path("account/notifications/", social.turn_alerts, name="account-notifications"),
    path("password-reset/", account.PasswordResetView.as_view(), name="password-reset"),
    path("password-reset/sent/", account.PasswordResetSentView.as_view(), name="password-reset-sent"),
    path("reset/<uidb64>/<token>/", account.PasswordResetConfirmView.as_view(), name="password-reset-confirm"),
    path("reset/done/", account.PasswordResetCompleteView.as_view(), name="password-reset-complete"),
    path("matches/new/", views.match_create, name="match-create"),
    path("matches/quick/", home.match_quick, name="match-quick"),
    path("matches/<uuid:match_id>/", views.match_page, name="match"),
    path("matches/<uuid:match_id>/join/", views.match_join, name="match-join"),
    path("matches/<uuid:match_id>/leave/", views.match_leave, name="match-leave"),
    path("matches/<uuid:match_id>/resign/", views.match_resign, name="match-resign"),
    path("matches/<uuid:match_id>/take-over/", views.match_take_over, name="match-take-over"),
    path("matches/<uuid:match_id>/bot/", views.match_add_bot, name="match-bot"),
    path("matches/<uuid:match_id>/start/", views.match_start, name="match-start"),
    path("matches/<uuid:match_id>/invite/", invites.match_invite, name="match-invite"),
    path("invite/<str:token>/", invites.invite_link, name="invite-link"),
    path("invitations/", invites.invitations_fragment, name="invitations-fragment"),
    path("invitations/<uuid:invitation_id>/accept/", invites.invitation_accept, name="invitation-accept"),
    path("invitations/<uuid:invitation_id>/decline/", invites.invitation_decline, name="invitation-decline"),
    path("invitations/<uuid:invitation_id>/revoke/", invites.invitation_revoke, name="invitation-revoke"),
    path("matches/<uuid:match_id>/replay/", replays.replay_page, name="match-replay"),
    path("matches/<uuid:match_id>/replay/report/", replays.replay_report, name="match-replay-report"),
    path("matches/<uuid:match_id>/verify/", social.verify_page, name="match-verify"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/new/", tournaments.tournament_create, name="tournament-create"),
    path("tournaments/<uuid:tournament_id>/", tournaments.tournament_page, name="tournament"),
    path("tournaments/<uuid:tournament_id>/register/", tournaments.tournament_register, name="tournament-register"),
    path("tournaments/<uuid:tournament_id>/invitations/<int:invitation_id>/accept/",
         tournaments.tournament_invitation_accept, name="tournament-invitation-accept"),
    path("tournaments/<uuid:tournament_id>/invitations/<int:invitation_id>/decline/",
         tournaments.tournament_invitation_decline, name="tournament-invitation-decline"),
    path("tournaments/<uuid:tournament_id>/spectator-delay/", tournaments.tournament_spectator_delay,
         name="tournament-spectator-delay"),
    path("tournaments/<uuid:tournament_id>/withdraw/", tournaments.tournament_withdraw, name="tournament-withdraw"),
    path("tournaments/<uuid:tournament_id>/start/", tournaments.tournament_start, name="tournament-start"),
    path("tournaments/<uuid:tournament_id>/pause/", tournaments.tournament_pause, name="tournament-pause"),
    path("tournaments/<uuid:tournament_id>/resume/", tournaments.tournament_resume, name="tournament-resume"),
    path("tournaments/<uuid:tournament_id>/drop/", tournaments.tournament_drop, name="tournament-drop"),
    path("tournaments/<uuid:tournament_id>/settings/", tournaments.tournament_settings, name="tournament-settings"),
    path("tournaments/<uuid:tournament_id>/cancel/", tournaments.tournament_cancel, name="tournament-cancel"),
    path("campaigns/", campaigns.campaign_list, name="campaigns"),
    path("campaigns/new/", campaigns.campaign_create, name="campaign-create"),
    path("campaigns/<uuid:campaign_id>/", campaigns.campaign_page, name="campaign"),
    path("campaigns/<uuid:campaign_id>/join/", campaigns.campaign_join, name="campaign-join"),
    path("campaigns/<uuid:campaign_id>/start/", campaigns.campaign_start, name="campaign-start"),
    path("campaigns/<uuid:campaign_id>/leave/", campaigns.campaign_leave, name="campaign-leave"),
    path("campaigns/<uuid:campaign_id>/cancel/", campaigns.campaign_cancel, name="campaign-cancel"),
    path("tournaments/<uuid:tournament_id>/report/", tournaments.tournament_report, name="tournament-report"),
    path("ratings/", views.leaderboards, name="leaderboards"),
    path("ratings/<str:game>/", views.leaderboard, name="leaderboard"),
    path("users/<str:username>/", views.profile_page, name="profile"),
]
