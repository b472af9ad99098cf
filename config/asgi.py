"""ASGI entry point: HTTP -> Django; WebSocket -> Origin check -> session/token auth -> routes."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

# Build the Django app (and so django.setup()) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.realtime.middleware import AllowedHostsOriginValidator, KamizaAuthMiddlewareStack  # noqa: E402
from games.realtime.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": AllowedHostsOriginValidator(KamizaAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
})
