from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("register/", views.UserRegisterApi.as_view(), name="register"),
    path("token/", views.UserTokenApi.as_view(), name="token"),
    path("logout/", views.UserLogoutApi.as_view(), name="logout"),
    path("me/", views.UserMeApi.as_view(), name="me"),
]
