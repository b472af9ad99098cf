from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/auth/", include("accounts.urls")),
    path("api/account/", include("accounts.urls_account")),
    path("api/tournaments/", include("games.tournaments.urls")),
    path("api/", include("games.tournaments.reports_urls")),  # match reports (disputes)
    path("api/campaigns/", include("campaigns.urls")),
    path("api/", include("games.api.urls")),
    path("staff/", include("games.staff.urls")),
    path("", include("frontend.urls")),
]

# An exception outside any view: 503 for an unreachable database or Redis, else a plain 500.
handler500 = "config.middleware.server_error"
