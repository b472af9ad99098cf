from django.urls import path

from . import views, views_account

app_name = "accounts"

urlpatterns = [
    path("register/", views.UserRegisterApi.as_view(), name="register"),
    path("token/", views.UserTokenApi.as_view(), name="token"),
    path("token/rotate/", views.UserTokenRotateApi.as_view(), name="token-rotate"),
    path("socket-ticket/", views.SocketTicketApi.as_view(), name="socket-ticket"),
    path("logout/", views.UserLogoutApi.as_view(), name="logout"),
    path("me/", views.UserMeApi.as_view(), name="me"),
    path("password/", views_account.PasswordChangeApi.as_view(), name="password"),
    path("password/reset/", views_account.PasswordResetApi.as_view(), name="password-reset"),
    path("password/reset/confirm/", views_account.PasswordResetConfirmApi.as_view(), name="password-reset-confirm"),
]
