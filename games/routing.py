# WebSocket routes for table consumers; config/asgi.py mounts this list.  The room id
# is any path segment: the consumer range-checks it and closes a bad one with 4404 (no
# route would fail the handshake instead, which a browser retries).
from django.urls import path

from games.table.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/rooms/<str:room_id>/", TableConsumer.as_asgi()),
]
