# WebSocket routes for table consumers; config/asgi.py mounts this list.
websocket_urlpatterns: list = []
