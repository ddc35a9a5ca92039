# WebSocket routes for table consumers; config/asgi.py mounts this list.
from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/rooms/<int:room_id>/", TableConsumer.as_asgi()),
]
