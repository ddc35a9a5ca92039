"""A table move written from the socket server's event loop itself (issue 15).

A move at a table whose last move this process wrote is decided on what the process
kept and written by one statement of its own (``services._act_as_kept``).  Run in a
worker thread, as every other database call of the socket is, that move was handed
from the loop to the thread and its answer back, and its thread and the loop took the
GIL from each other on every wake-up: in the table benchmark those hand-offs were a
good part of a move's latency.  Here the loop decides the move itself
(``services.kept_move``: pure Python, no database), sends the statement on an
asynchronous psycopg connection of its own and, once it has written, publishes
(``services.kept_move_written``); everything else still goes through the thread path,
which decides again under the room lock as if this had not been tried.

One connection a loop, made on first use with Django's connection parameters for the
default database (PostgreSQL only; ``application_name`` ``mahjong-table-loop``), in
autocommit: the statement is its own
transaction, as on the thread path.  Its commits do not wait for the disk when the
socket server's do not (``GAME_SOCKET_ASYNC_COMMIT``).  Statements on it run one at a
time, in the order the loop sends them; a move at another table waits for one round
trip at most, not for a thread.  A connection that fails is dropped and made again
for the next move; the move that failed is left to the thread path.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)


def enabled() -> bool:
    """Whether the socket server writes kept moves on its loop: on PostgreSQL, unless
    ``GAME_SOCKET_LOOP_WRITES`` is off."""
    return settings.GAME_SOCKET_LOOP_WRITES and settings.DATABASES["default"]["ENGINE"].endswith(
        "postgresql"
    )


_WRAPPER = None


def backend():
    """A Django connection object of the default database that never connects: what the
    loop makes its statements' SQL and parameters with, and its connection's parameters
    from.  (``django.db.connections`` would make one for each socket's task.)"""
    global _WRAPPER
    if _WRAPPER is None:
        _WRAPPER = connections.create_connection("default")
    return _WRAPPER


class _LoopConnection:
    """The loop's connection, made once and again after it failed."""

    def __init__(self):
        self.conn = None
        self.making = asyncio.Lock()

    async def get(self):
        if self.conn is None or self.conn.closed or self.conn.broken:
            async with self.making:
                if self.conn is None or self.conn.closed or self.conn.broken:
                    self.conn = await _connect()
        return self.conn

    async def drop(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                await conn.close()
            except Exception:  # noqa: BLE001 - it failed already; it only has to go
                log.debug("closing a failed loop connection failed", exc_info=True)


_CONNECTIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# How the loop's connections show in ``pg_stat_activity``.
APPLICATION_NAME = "mahjong-table-loop"


_MADE: weakref.WeakSet = weakref.WeakSet()  # every connection made here, while it lives


def close_all() -> None:
    """Close every loop connection of this process now, from any thread, whether or not
    its loop still runs (a test run's end: the test database can then be dropped)."""
    for conn in list(_MADE):
        if not conn.closed:
            conn.pgconn.finish()


async def _connect():
    import psycopg

    wrapper = backend()
    params = wrapper.get_connection_params()
    params.pop("cursor_factory", None)  # Django's (synchronous) cursor class
    params["application_name"] = APPLICATION_NAME
    conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
    _MADE.add(conn)
    if settings.GAME_SOCKET_ASYNC_COMMIT:
        await conn.execute("SET synchronous_commit TO off")
    zone = wrapper.timezone_name
    if zone and conn.info.parameter_status("TimeZone") != zone:
        await conn.execute(wrapper.ops.set_time_zone_sql(), [zone])
    return conn


async def fetch_one(sql: str, params: list):
    """Run ``sql`` as a statement of its own on this loop's connection: its first row,
    or None when it returned none.  Raises what psycopg raises; a failed connection is
    dropped first (the next call makes a new one)."""
    import psycopg

    loop = asyncio.get_running_loop()
    held = _CONNECTIONS.get(loop)
    if held is None:
        held = _CONNECTIONS[loop] = _LoopConnection()
    conn = await held.get()
    try:
        cur = await conn.execute(sql, params)
        return await cur.fetchone()
    except psycopg.Error:
        if conn.closed or conn.broken:
            await held.drop()
        raise
