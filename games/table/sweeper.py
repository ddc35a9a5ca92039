"""The deadline sweeper: fires due decisions (timers, bots) and between-hand starts,
and keeps this process's sockets' presence fresh (expiring that of dead servers).

Every server process runs one (started by the first socket that connects).  Each
fires the deadlines of the rooms it has sockets in as they fall due, and the others'
only once they are overdue (``timers.OTHERS_GRACE``: a room whose server died, or one
nobody is connected to), so processes do not race for every deadline; when they do,
the room lock plus the re-read in ``timers.hand_fire_deadline`` make exactly one act.
Dissolve votes whose time is up are decided here too (``games.table.votes``).
``manage.py run_sweeper`` runs the same loop as a process of its own.  Each sweep
also sends again the settlement of every hand still owed one (``games.table.settling``).

A sweep that fails (the database or Redis down) is retried with a growing pause,
logged once when the outage starts and once when sweeps work again.
"""

from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.dispatch import Signal

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None
# The channel names of this process's open table sockets (players and spectators), each
# with its room: presence it vouches for, and the rooms whose deadlines it fires first.
# (Process-local by nature: these sockets live here; the database holds the rows.)
LIVE_CHANNELS: dict[str, int] = {}
_last_beat = 0.0
# Seconds between two sweeps: a bot's or a timeout's move is at most this late.
SWEEP_INTERVAL = 0.25
# The longest pause between sweeps while they fail: a recovered database or Redis is
# swept again within this many seconds.
BACKOFF_CEILING = 5.0
# Sent after each sweep: apps with periodic work of their own (ranked matching) run it
# here, in every process that sweeps, under the same backoff.
swept = Signal()


def sweep_once() -> int:
    from games.table.presence import presence_expire, presence_heartbeat
    from games.table.settling import settlement_resend_due
    from games.table.timers import deadlines_fire_due
    from games.table.votes import votes_fire_due

    global _last_beat
    now = time.monotonic()
    if now - _last_beat >= settings.GAME_PRESENCE_TTL / 3:
        _last_beat = now
        presence_heartbeat(list(LIVE_CHANNELS))
        presence_expire()
    taken = deadlines_fire_due(mine=set(LIVE_CHANNELS.values()))
    votes_fire_due()
    settlement_resend_due()
    swept.send(sender=sweep_once)
    return taken


class Pace:
    """The pause before the next sweep: ``interval`` while sweeps work, doubling up to
    ``BACKOFF_CEILING`` while they fail.  The first failure of an outage is logged with
    its traceback and the recovery once, not every failed attempt."""

    def __init__(self, interval: float):
        self.interval = interval
        self.failures = 0
        self.failing_since = 0.0

    def step(self) -> float:
        """Sweep once (in a thread that may use the database); return the pause."""
        try:
            sweep_once()
        except Exception:
            if not self.failures:
                self.failing_since = time.monotonic()
                log.exception("sweeps are failing; retrying with backoff until they work")
            self.failures += 1
            # A connection the outage broke is closed, and opened afresh at the next try.
            close_old_connections()
            return min(BACKOFF_CEILING, self.interval * 2**self.failures)
        if self.failures:
            log.warning(
                "sweeps work again after %d failed over %.1f s",
                self.failures,
                time.monotonic() - self.failing_since,
            )
            self.failures = 0
        return self.interval


async def sweep_forever(interval: float) -> None:
    pace = Pace(interval)
    while True:
        await asyncio.sleep(await database_sync_to_async(pace.step)())


def ensure_sweeper() -> None:
    """Start this process's sweeper on the running event loop, once."""
    global _task
    if not settings.GAME_SWEEPER:
        return
    if _task is not None and not _task.done():
        return
    _task = asyncio.get_running_loop().create_task(sweep_forever(SWEEP_INTERVAL))
