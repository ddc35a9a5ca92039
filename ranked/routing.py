# The play page's socket route; config/asgi.py mounts it beside the tables'.
from django.urls import path

from ranked.consumers import PlayConsumer

websocket_urlpatterns = [
    path("ws/play/", PlayConsumer.as_asgi()),
]
