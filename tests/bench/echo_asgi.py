"""The site's ASGI application plus two bare sockets, the peers the benchmarks measure
beside the tables on the same servers: an echo at ``ws/echo/`` (``bench_tables``), and a
group fan-out at ``ws/fan/<group>/`` (``bench_fanout``).  Only the benchmarks' servers
load it; the site has neither."""

import json

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

from config.asgi import application as site


class EchoConsumer(AsyncWebsocketConsumer):
    """Channels' stock consumer sending back each frame it receives."""

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data, bytes_data=bytes_data)


class FanConsumer(AsyncWebsocketConsumer):
    """Channels' stock consumer in a group, as a table's sockets are in their room's: a
    frame received is sent to the group as one message holding one text per member
    (``[seat, text]`` pairs, as a move's per-seat views are), and each member sends on
    its own text."""

    async def connect(self):
        self.group = f"fan.{self.scope['url_route']['kwargs']['group']}"
        self.seat = int(self.scope["url_route"]["kwargs"]["seat"])
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        texts = json.loads(text_data)["texts"]
        await self.channel_layer.group_send(self.group, {"type": "fan", "texts": texts})

    async def fan(self, event):
        await self.send(text_data=event["texts"][self.seat])


bench = URLRouter(
    [
        path("ws/echo/", EchoConsumer.as_asgi()),
        path("ws/fan/<str:group>/<int:seat>/", FanConsumer.as_asgi()),
    ]
)


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"].startswith(("/ws/echo/", "/ws/fan/")):
        return await bench(scope, receive, send)
    return await site(scope, receive, send)
