"""The site's ASGI application plus a bare echo socket at ``ws/echo/``: the peer the
table benchmark measures beside the tables, on the same servers, in the same run.
Only the benchmark's servers load it; the site has no echo endpoint."""

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

from config.asgi import application as site


class EchoConsumer(AsyncWebsocketConsumer):
    """Channels' stock consumer sending back each frame it receives."""

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data, bytes_data=bytes_data)


echo = URLRouter([path("ws/echo/", EchoConsumer.as_asgi())])


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"] == "/ws/echo/":
        return await echo(scope, receive, send)
    return await site(scope, receive, send)
