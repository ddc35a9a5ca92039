# WebSocket routes for table consumers; config/asgi.py mounts this list.
from django.conf import settings
from django.urls import path

from games.consumers import EchoConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/rooms/<int:room_id>/", TableConsumer.as_asgi()),
]
if settings.GAME_ECHO_ENDPOINT:
    websocket_urlpatterns.append(path("ws/echo/", EchoConsumer.as_asgi()))
