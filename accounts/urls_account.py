from django.urls import path

from . import views_account as v

app_name = "account"

urlpatterns = [
    path("sessions/", v.SessionListApi.as_view(), name="sessions"),
    path("sessions/<str:id>/", v.SessionDetailApi.as_view(), name="session"),
    path("tokens/", v.TokenListApi.as_view(), name="tokens"),
    path("tokens/<str:id>/", v.TokenDetailApi.as_view(), name="token"),
    path("export/", v.ExportApi.as_view(), name="export"),
    path("delete/", v.AccountDeleteApi.as_view(), name="delete"),
]
