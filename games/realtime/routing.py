from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from .consumers import MatchConsumer
from .tournaments import TournamentConsumer

websocket_urlpatterns = [
    # <str:...>, not <uuid:...>: a malformed id gets the contract's not_found/4404, not a routing error.
    path("ws/matches/<str:match_id>/", MatchConsumer.as_asgi()),
    path("ws/tournaments/<str:tournament_id>/", TournamentConsumer.as_asgi()),
    re_path(r"", WebsocketDenier.as_asgi()),  # any other path: refused at the handshake, never a crash
]
