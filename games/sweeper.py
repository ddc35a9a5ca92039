"""The deadline sweeper: fires due decisions (timers, bots) and between-hand starts,
and keeps this process's sockets' presence fresh (expiring that of dead servers).

Every server process runs one (started by the first socket that connects);
they may all fire the same deadline at once, and the room lock plus the
re-read in ``timers.hand_fire_deadline`` make exactly one of them act.
``manage.py run_sweeper`` runs the same loop as a process of its own.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None
# The channel names of this process's open table sockets (players and spectators):
# presence it vouches for.
# (Process-local by nature: these sockets live here; the database holds the rows.)
LIVE_CHANNELS: set[str] = set()
_last_beat = 0.0
# Seconds between two sweeps: a bot's or a timeout's move is at most this late.
SWEEP_INTERVAL = 0.25


def sweep_once() -> int:
    import time

    from games.presence import presence_expire, presence_heartbeat
    from games.timers import deadlines_fire_due

    global _last_beat
    now = time.monotonic()
    if now - _last_beat >= settings.GAME_PRESENCE_TTL / 3:
        _last_beat = now
        presence_heartbeat(LIVE_CHANNELS)
        presence_expire()
    return deadlines_fire_due()


async def sweep_forever(interval: float) -> None:
    while True:
        try:
            await database_sync_to_async(sweep_once)()
        except Exception:  # keep sweeping; one bad table must not stop the others
            log.exception("deadline sweep failed")
        await asyncio.sleep(interval)


def ensure_sweeper() -> None:
    """Start this process's sweeper on the running event loop, once."""
    global _task
    if not settings.GAME_SWEEPER:
        return
    if _task is not None and not _task.done():
        return
    _task = asyncio.get_running_loop().create_task(sweep_forever(SWEEP_INTERVAL))
