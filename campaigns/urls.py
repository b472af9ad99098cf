from django.urls import path

from . import api

app_name = "campaigns"

urlpatterns = [
    path("", api.CampaignListCreateApi.as_view(), name="campaigns"),
    path("<uuid:id>/", api.CampaignDetailApi.as_view(), name="campaign"),
    path("<uuid:id>/join/", api.CampaignJoinApi.as_view(), name="campaign-join"),
    path("<uuid:id>/leave/", api.CampaignLeaveApi.as_view(), name="campaign-leave"),
    path("<uuid:id>/cancel/", api.CampaignCancelApi.as_view(), name="campaign-cancel"),
    path("<uuid:id>/start/", api.CampaignStartApi.as_view(), name="campaign-start"),
    path("<uuid:id>/retry/", api.CampaignRetryApi.as_view(), name="campaign-retry"),
]
