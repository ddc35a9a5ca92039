"""The table socket: ``ws/rooms/<id>/``.

Thin by design: authenticate, parse a frame into a typed message, call one
service, manage group membership.  No game state is kept here between
frames; every send comes from ``publish.py`` (on commit) or a fresh snapshot.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from clubs.selectors import room_hidden_from
from games import publish, selectors, services
from games.models import Room

MAX_FRAME = 4096  # bytes; an action is a few dozen


def _error(code: str, message: str) -> str:
    return json.dumps({"t": "error", "v": None, "d": {"code": code, "message": message}})


@database_sync_to_async
def _access(room_id, user):
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        return None, None
    seat = selectors.seat_of(room, user)
    if seat is None and (room.private or room_hidden_from(room.club_id, user)):
        return room.pk, False
    return room.pk, seat


async def _presence(room_id, seat: int, channel: str, present: bool) -> None:
    from games import sweeper

    if present:
        sweeper.LIVE_CHANNELS.add(channel)  # this process vouches for it until it closes
    else:
        sweeper.LIVE_CHANNELS.discard(channel)
    await database_sync_to_async(services.seat_presence)(
        room_id=room_id, seat_index=seat, channel=channel, present=present
    )


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        from games.sweeper import ensure_sweeper

        self.user = self.scope.get("user")
        self.room_id = None
        self.seat = None
        self.groups_joined: list[str] = []
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=4401)
            return
        raw_id = self.scope["url_route"]["kwargs"]["room_id"]
        room_id, seat = await _access(raw_id, self.user)
        if room_id is None:
            await self.close(code=4404)
            return
        if seat is False:
            await self.close(code=4403)
            return
        self.room_id, self.seat = room_id, seat
        await self.accept()
        groups = [publish.room_group(room_id)]
        groups.append(
            publish.seat_group(room_id, seat) if seat is not None else publish.watch_group(room_id)
        )
        for g in groups:
            await self.channel_layer.group_add(g, self.channel_name)
        self.groups_joined = groups
        if seat is not None:
            await _presence(room_id, seat, self.channel_name, True)
        await self._send_snapshot()
        ensure_sweeper()

    async def disconnect(self, code):
        for g in self.groups_joined:
            await self.channel_layer.group_discard(g, self.channel_name)
        if self.room_id is not None and self.seat is not None:
            await _presence(self.room_id, self.seat, self.channel_name, False)

    async def receive(self, text_data=None, bytes_data=None):
        if bytes_data is not None:
            await self.send(_error("bad_frame", "send JSON text frames"))
            return
        if len(text_data.encode()) > MAX_FRAME:
            await self.send(_error("too_large", f"frames are limited to {MAX_FRAME} bytes"))
            return
        try:
            msg = json.loads(text_data)
        except json.JSONDecodeError as e:
            await self.send(_error("bad_json", f"malformed JSON: {e.msg}"))
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
            await self.send(_error("bad_message", 'a message is an object with a string "t"'))
            return
        kind = msg["t"]
        if kind == "sync":
            await self._send_snapshot()
            return
        if self.seat is None and kind in ("ready", "act"):
            await self.send(_error("spectator", "spectators cannot play"))
            return
        try:
            if kind == "ready":
                await database_sync_to_async(services.room_ready)(
                    room_id=self.room_id, user=self.user
                )
            elif kind == "act":
                if not isinstance(msg.get("action"), dict):
                    await self.send(_error("bad_message", '"act" needs an "action" object'))
                    return
                # Not thread-sensitive: actions at different tables run in parallel
                # threads (each with its own connection); the room lock orders them.
                await database_sync_to_async(services.hand_act, thread_sensitive=False)(
                    room_id=self.room_id, user=self.user, version=msg.get("v"), action=msg["action"]
                )
            else:
                await self.send(_error("bad_message", f"unknown message type {kind!r}"))
        except services.ServiceError as e:
            await self.send(_error(e.code, e.message))

    async def _send_snapshot(self):
        envelopes = await database_sync_to_async(selectors.table_snapshot)(self.room_id, self.seat)
        for env in envelopes:
            await self.send(json.dumps(env))

    async def table_send(self, event):
        await self.send(json.dumps(event["envelope"]))


class EchoConsumer(AsyncWebsocketConsumer):
    """A bare echo: the latency floor the table benchmark compares against.

    Mounted only when GAME_ECHO_ENDPOINT is set (benchmarks)."""

    async def connect(self):
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)
