"""The play page's socket: ``ws/play/``.

While it is open its player stays queued: every ``beat()`` seconds it reads the
player's queue state as a poll does (``services.queue_poll``, which keeps the entry's
``seen_at`` fresh) and sends it; when it closes, the entry's wait for a poll or another
socket starts (``services.queue_seen``) and after ``RANKED_QUEUE_GRACE`` seconds
without one the matching pass drops it.  Nothing is kept in the process: the entry is a
row, and a server that dies simply stops beating.

Each socket joins its player's group (``services.player_group``); a change to the
player's queue entry (joining, leaving, being seated by any process) is told there and
every socket of theirs sends the state at once, so each of their tabs opens the table.

Frames to the page: ``{"t": "queue", "d": {"variant", "waited_seconds",
"players_queued", "room"}}`` (the REST poll's body) or ``{"t": "queue", "d": null}``
(not queued).  From the page: ``{"t": "sync"}`` asks for the state now (at most once a
second; more are ignored).

Opening one is throttled per player (``RANKED_PLAY_CONNECTS_PER_MINUTE``, counted in the
cache, so across processes in the services profile): a socket over it is told
``too_many_sockets`` and closed with 4429, and the page polls meanwhile.  How many a
player holds at once is bounded where the connections arrive (``deploy/nginx.conf``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from types import SimpleNamespace

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib import auth
from django.core.cache import cache
from django.db import DatabaseError

from config.refusals import ServiceError
from games.table.limits import CLOSE_TOO_MANY
from ranked import services

log = logging.getLogger(__name__)


def beat() -> float:
    """Seconds between two reads of the queue state: a quarter of the grace an entry has
    without a poll (5 s of 20), so a late beat or two never loses the place."""
    return settings.RANKED_QUEUE_GRACE / 4


def off_loop(fn):
    """``fn`` on a worker thread of the shared pool with that thread's connection, not on
    the one thread a process keeps for thread-sensitive calls (the sweeper's passes run
    there: seconds while a burst of tables is seated)."""
    return database_sync_to_async(fn, thread_sensitive=False)


@off_loop
def player_of(session):
    """The signed-in user of the socket's session, or None (read as a page reads it)."""
    if session is None:
        return None
    user = auth.get_user(SimpleNamespace(session=session))
    return user if user.is_authenticated else None


@off_loop
def queue_state(user) -> dict | None:
    try:
        return services.queue_poll(user=user)
    except ServiceError:  # not queued
        return None


queue_seen = off_loop(services.queue_seen)

SYNC_EVERY = 1.0  # seconds: the least time between two syncs a socket is answered


@off_loop
def connect_allowed(user_id) -> bool:
    """Count one more play socket opened by this player this minute; False over the cap.
    A cache that cannot count lets it through (the socket costs a read every beat)."""
    key = f"ranked:play-connects:{user_id}:{int(time.time() // 60)}"
    try:
        cache.add(key, 0, 120)
        return cache.incr(key) <= settings.RANKED_PLAY_CONNECTS_PER_MINUTE
    except Exception:  # the cache backends' own errors differ
        log.warning("play socket throttle unavailable", exc_info=True)
        return True


class PlayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        from games.table.sweeper import ensure_sweeper

        self.user = None
        self.group = None
        self.beater: asyncio.Task | None = None
        # Accepted first: a refusal is a close code the page sees (4401: final).
        await self.accept()
        self.user = await player_of(self.scope.get("session"))
        if self.user is None:
            await self.close(code=4401)
            return
        if not await connect_allowed(self.user.pk):
            error = {"code": "too_many_sockets", "message": "too many play sockets opened"}
            await self.send(json.dumps({"t": "error", "v": None, "d": error}))
            await self.close(code=CLOSE_TOO_MANY)
            self.user = None  # nothing to let go of at disconnect
            return
        self.last_sync = 0.0
        self.group = services.player_group(self.user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.beater = asyncio.create_task(self.beat_forever())
        # The process's sweeper runs the matching passes (the embedded profile has no other).
        ensure_sweeper()

    async def beat_forever(self):
        while True:
            try:
                await self.send_state()
            except DatabaseError:  # an outage: the next beat tries again
                log.warning("the play socket's beat failed", exc_info=True)
            await asyncio.sleep(beat())

    async def send_state(self):
        state = await queue_state(self.user)
        await self.send(json.dumps({"t": "queue", "d": state}, default=str))

    async def receive(self, text_data=None, bytes_data=None):
        try:
            sync = json.loads(text_data or "").get("t") == "sync"
        except (ValueError, AttributeError):
            sync = False
        now = time.monotonic()
        if sync and now - self.last_sync >= SYNC_EVERY:
            self.last_sync = now
            await self.send_state()

    async def queue_changed(self, event):
        await self.send_state()

    async def disconnect(self, code):
        if self.beater is not None:
            self.beater.cancel()
            self.beater = None
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
        if self.user is not None:
            await queue_seen(self.user.pk)
