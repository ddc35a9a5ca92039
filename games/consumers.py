"""The table socket: ``ws/rooms/<id>/``.

Thin by design: authenticate, parse a frame into a typed message, call one
service, manage group membership.  No game state is kept here between
frames; every send comes from ``publish.py`` (on commit) or a fresh snapshot.
Which seat a socket watches is read from the database at connect, on every
``sync`` and whenever the service tells the user's sockets to ``reseat``;
seat views are addressed to the seat's current occupant (``publish.py``), so
a socket whose user left a seat stops seeing it even if that notice is lost.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
import logging
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from clubs.selectors import room_hidden_from
from games import publish, selectors, services
from games.models import Room

log = logging.getLogger(__name__)

MAX_FRAME = 4096  # bytes; an action is a few dozen
# Per-socket frame budget: a bucket of FRAME_BURST frames refilled at FRAME_RATE a second.
# Frames over budget are answered with an error and not processed; a socket that keeps
# sending past it (FRAME_STRIKES refusals without a pause) is closed.
FRAME_RATE = 8.0
FRAME_BURST = 30
FRAME_STRIKES = 60
CLOSE_RATE_LIMITED = 4429


def _error(code: str, message: str) -> str:
    return json.dumps({"t": "error", "v": None, "d": {"code": code, "message": message}})


@database_sync_to_async
def _access(room_id, user):
    """(room id, seat, spectator delay) for this user now; (None, None, 0) no such room;
    seat False: refused."""
    try:
        room = Room.objects.filter(pk=room_id).first()
    except (ValueError, TypeError):
        room = None
    if room is None:
        return None, None, 0
    seat = selectors.seat_of(room, user)
    if seat is None and (room.private or room_hidden_from(room.club_id, user)):
        return room.pk, False, 0
    return room.pk, seat, room.spectator_delay


async def _presence(room_id, user, channel: str, present: bool, *, seated: bool = True) -> None:
    """Every open table socket has a presence row (a seat's makes its player present; a
    spectator's counts among the watchers)."""
    from games import sweeper

    if present:
        sweeper.LIVE_CHANNELS.add(channel)  # this process vouches for it until it closes
    else:
        sweeper.LIVE_CHANNELS.discard(channel)
    service = services.seat_presence if seated else services.watch_presence
    await database_sync_to_async(service)(
        room_id=room_id, user=user, channel=channel, present=present
    )


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        from games.sweeper import ensure_sweeper

        self.user = self.scope.get("user")
        self.room_id = None
        self.seat = None
        self.groups_joined: list[str] = []
        self.tokens = float(FRAME_BURST)
        self.refill_at = time.monotonic()
        self.strikes = 0
        # A spectator of a room with a delay: what the groups send is held here and sent
        # that many seconds later (a heap of (loop time, n, frame); nothing else is kept).
        self.delay = 0
        self.held: list[tuple[float, int, str]] = []
        self.held_n = itertools.count()
        self.wake = asyncio.Event()
        self.releaser: asyncio.Task | None = None
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=4401)
            return
        raw_id = self.scope["url_route"]["kwargs"]["room_id"]
        room_id, seat, self.delay = await _access(raw_id, self.user)
        if room_id is None:
            await self.close(code=4404)
            return
        if seat is False:
            await self.close(code=4403)
            return
        self.room_id = room_id
        await self.accept()
        await self._join(publish.room_group(room_id))
        await self._join(publish.user_group(room_id, self.user.pk))
        await self._take_seat(seat, first=True)
        await self._send_snapshot(backlog=True)
        ensure_sweeper()

    async def disconnect(self, code):
        if self.releaser is not None:
            self.releaser.cancel()
            self.releaser = None
        for g in self.groups_joined:
            await self.channel_layer.group_discard(g, self.channel_name)
        self.groups_joined = []
        if self.room_id is not None:
            room_id, seated = self.room_id, self.seat is not None
            self.room_id = self.seat = None
            await _presence(room_id, self.user, self.channel_name, False, seated=seated)

    # --- seat and groups ---------------------------------------------------------
    async def _join(self, group: str) -> None:
        if group not in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)

    async def _drop(self, group: str) -> None:
        if group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
            self.groups_joined.remove(group)

    async def _take_seat(self, seat: int | None, *, first: bool = False) -> None:
        """Watch from ``seat`` (None: as a spectator), after watching from ``self.seat``."""
        before, self.seat = self.seat, seat
        if seat is None:
            await self._join(publish.watch_group(self.room_id))
        else:
            await self._drop(publish.watch_group(self.room_id))
            self.held.clear()  # a player sees the table as it is
        here = (self.room_id, self.user, self.channel_name)
        if first:
            await _presence(*here, True, seated=seat is not None)
        elif before is not None and seat is None:  # out of the seat: one of the watchers
            await _presence(*here, False, seated=True)
            await _presence(*here, True, seated=False)
        elif before is None and seat is not None:
            await _presence(*here, True, seated=True)

    async def _reseat(self) -> bool:
        """Re-read this user's seat; False when the socket was closed (a private room
        they are no longer seated in)."""
        room_id, seat, self.delay = await _access(self.room_id, self.user)
        if room_id is None or seat is False:
            await self.close(code=4404 if room_id is None else 4403)
            return False
        await self._take_seat(seat)
        return True

    async def table_reseat(self, event):
        if await self._reseat():
            await self._send_snapshot()

    # --- frames ----------------------------------------------------------------------
    def _within_budget(self) -> bool:
        now = time.monotonic()
        self.tokens = min(FRAME_BURST, self.tokens + (now - self.refill_at) * FRAME_RATE)
        self.refill_at = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.strikes = 0
            return True
        self.strikes += 1
        return False

    async def receive(self, text_data=None, bytes_data=None):
        if self.room_id is None:
            return
        if not self._within_budget():
            if self.strikes >= FRAME_STRIKES:
                await self.close(code=CLOSE_RATE_LIMITED)
            else:
                await self.send(_error("rate_limited", "too many messages: slow down"))
            return
        try:
            await self._handle(text_data, bytes_data)
        except services.ServiceError as e:
            await self.send(_error(e.code, e.message))
        except Exception:
            # Whatever a frame does, the socket stays usable and nothing is half-done
            # (services run in their own transactions).
            log.exception("table socket frame failed (room %s)", self.room_id)
            await self.send(_error("server_error", "the server could not handle that message"))

    async def _handle(self, text_data, bytes_data):
        if bytes_data is not None or text_data is None:
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
        except RecursionError:
            await self.send(_error("bad_json", "malformed JSON: nested too deeply"))
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
            await self.send(_error("bad_message", 'a message is an object with a string "t"'))
            return
        kind = msg["t"]
        if kind == "sync":
            if await self._reseat():
                await self._send_snapshot()
            return
        if kind not in ("ready", "act"):
            await self.send(_error("bad_message", f"unknown message type {kind[:40]!r}"))
            return
        if self.seat is None:
            await self.send(_error("spectator", "spectators cannot play"))
            return
        if kind == "ready":
            await database_sync_to_async(services.room_ready)(
                room_id=self.room_id, user=self.user, client_seed=msg.get("client_seed")
            )
            return
        if not isinstance(msg.get("action"), dict):
            await self.send(_error("bad_message", '"act" needs an "action" object'))
            return
        # Not thread-sensitive: actions at different tables run in parallel threads (each
        # with its own connection); the room lock orders them.
        await database_sync_to_async(services.hand_act, thread_sensitive=False)(
            room_id=self.room_id, user=self.user, version=msg.get("v"), action=msg["action"]
        )

    async def _send_snapshot(self, *, backlog: bool = False):
        if self.seat is None and self.delay:
            await self._send_late_snapshot(backlog)
            return
        envelopes = await database_sync_to_async(selectors.table_snapshot)(self.room_id, self.seat)
        for env in envelopes:
            await self.send(json.dumps(env))

    async def table_send(self, event):
        text = json.dumps(event["envelope"])
        if self.seat is None and self.delay:
            self._hold(asyncio.get_running_loop().time() + self.delay, text)
        else:
            await self.send(text)

    # --- a spectator's delay ---------------------------------------------------------
    async def _send_late_snapshot(self, backlog: bool) -> None:
        """The table as it was ``delay`` seconds ago (rebuilt from the action log) and,
        on connect, what happened since, each frame held until it is that old."""
        envelopes, later = await database_sync_to_async(selectors.spectator_snapshot)(
            self.room_id, self.delay
        )
        for env in envelopes:
            await self.send(json.dumps(env))
        if backlog:
            loop_now, wall_now = asyncio.get_running_loop().time(), time.time()
            for at, env in later:
                self._hold(loop_now + at.timestamp() - wall_now, json.dumps(env))

    def _hold(self, at: float, text: str) -> None:
        heapq.heappush(self.held, (at, next(self.held_n), text))
        self.wake.set()
        if self.releaser is None:
            self.releaser = asyncio.get_running_loop().create_task(self._release())

    async def _release(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self.wake.clear()
            wait = None
            if self.held:
                wait = self.held[0][0] - loop.time()
                if wait <= 0:
                    text = heapq.heappop(self.held)[2]
                    try:
                        await self.send(text)
                    except Exception:  # the socket is closing: disconnect() cancels us
                        log.debug("late frame not sent (room %s)", self.room_id)
                    continue
            try:
                await asyncio.wait_for(self.wake.wait(), wait)
            except TimeoutError:
                pass


class EchoConsumer(AsyncWebsocketConsumer):
    """A bare echo: the latency floor the table benchmark compares against.

    Mounted only when GAME_ECHO_ENDPOINT is set (benchmarks)."""

    async def connect(self):
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)
