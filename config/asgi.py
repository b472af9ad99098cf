"""ASGI entry point: HTTP -> Django; WebSocket -> exact Origin check -> session/ticket/token auth -> routes."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.handlers import http_application  # noqa: E402

# Build the Django app (and so django.setup()) before importing anything that touches models.
# Django's ASGI handler with its middleware run as one sync chain (config.handlers: one thread
# crossing for the whole chain instead of fifteen).
django_asgi_app = http_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from config.garbage import tune_for_server  # noqa: E402
from config.logging import redact_server_logs  # noqa: E402
from games.realtime.middleware import ExactOriginValidator, KamizaAuthMiddlewareStack  # noqa: E402
from campaigns.consumers import CampaignConsumer  # noqa: E402
from games.realtime.routing import websocket_urlpatterns  # noqa: E402

# The campaign pages' socket is the campaigns app's (games never imports it): ahead of the platform's
# routes, whose last one refuses every other path.
campaign_socket = [path("ws/campaigns/<str:campaign_id>/", CampaignConsumer.as_asgi())]

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": ExactOriginValidator(KamizaAuthMiddlewareStack(URLRouter(campaign_socket + websocket_urlpatterns))),
})

# uvicorn configured its loggers before importing this module: make its access lines carry no query
# string (a socket URL may hold a ticket, or a deprecated ?token=).
redact_server_logs()

# Everything loaded so far lives as long as the process: take it out of the collector's way, and
# space the full collections that pause a busy server (config.garbage).
tune_for_server()
