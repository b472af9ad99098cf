from django.urls import path

from . import tournament_views, views

app_name = "staff"

urlpatterns = [
    path("", views.index, name="index"),
    path("reports/", views.report_queue, name="reports"),
    path("reports/<int:report_id>/resolve/", views.report_resolve, name="report-resolve"),
    path("matches/import/", views.log_import, name="import"),
    path("matches/<uuid:match_id>/", views.match_page, name="match"),
    path("matches/<uuid:match_id>/log.jsonl", views.log_download, name="log"),
    path("matches/<uuid:match_id>/annotate/", views.annotate, name="annotate"),
    path("matches/<uuid:match_id>/chat/<int:message_id>/hide/", views.chat_hide, name="chat-hide"),
    path("tournaments/", tournament_views.tournament_index, name="tournaments"),
    path("tournaments/<uuid:tournament_id>/", tournament_views.tournament_log, name="tournament"),
]
