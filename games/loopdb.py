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

A few connections a loop (``GAME_SOCKET_LOOP_CONNECTIONS``), made on first use with
Django's connection parameters for the default database (PostgreSQL only;
``application_name`` ``mahjong-table-loop``), in autocommit: the statement is its own
transaction, as on the thread path.  Their commits do not wait for the disk when the
socket server's do not (``GAME_SOCKET_ASYNC_COMMIT``).  Moves at different tables are
written side by side, each on a connection of its own; a table with a move being
written there sends its next one to the thread path (``table_turn``).  A connection
that fails is dropped and made again for the next move; the move that failed is left
to the thread path.
"""

from __future__ import annotations

import asyncio
import contextlib
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


class _LoopConnections:
    """A loop's connections: up to ``GAME_SOCKET_LOOP_CONNECTIONS``, made on first use
    and again after one failed.  A statement takes an idle one, or makes one while
    fewer are open, or waits for the first to come back: moves at different tables are
    written side by side, not one behind the other (issue 15: with one connection, a
    statement's round trip took at least one turn of a loop busy with a thousand
    sockets sitting down, and every move of the process queued behind it)."""

    def __init__(self, size: int):
        self.size = max(1, size)
        self.idle: list = []
        self.open = 0  # made, or being made, and not dropped
        self.back = asyncio.Condition()

    async def take(self):
        async with self.back:
            while True:
                while self.idle:
                    conn = self.idle.pop()
                    if not (conn.closed or conn.broken):
                        return conn
                    self.open -= 1
                if self.open < self.size:
                    self.open += 1
                    break
                await self.back.wait()
        try:
            return await _connect()
        except BaseException:
            async with self.back:
                self.open -= 1
                self.back.notify()
            raise

    async def give_back(self, conn, *, drop: bool) -> None:
        """``conn`` free again; ``drop``: closed and forgotten instead (it failed)."""
        if drop:
            try:
                await conn.close()
            except Exception:  # noqa: BLE001 - it failed already; it only has to go
                log.debug("closing a failed loop connection failed", exc_info=True)
        async with self.back:
            if drop:
                self.open -= 1
            else:
                self.idle.append(conn)
            self.back.notify()


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
    """Run ``sql`` as a statement of its own on one of this loop's connections: its
    first row, or None when it returned none.  Raises what psycopg raises; a failed
    connection is dropped (the next call makes a new one)."""
    import psycopg

    loop = asyncio.get_running_loop()
    pool = _CONNECTIONS.get(loop)
    if pool is None:
        pool = _CONNECTIONS[loop] = _LoopConnections(settings.GAME_SOCKET_LOOP_CONNECTIONS)
    conn = await pool.take()
    drop = False
    try:
        cur = await conn.execute(sql, params)
        return await cur.fetchone()
    except psycopg.Error:
        drop = conn.closed or conn.broken
        raise
    except BaseException:
        drop = True  # cancelled mid-statement: what the connection is in is not known
        raise
    finally:
        await pool.give_back(conn, drop=drop)


_IN_FLIGHT: set = set()  # (loop, room id) of the tables with a move being written on the loop


@contextlib.contextmanager
def table_turn(room_id: int):
    """Whether a move at this table may be written on the loop now (yields a bool): not
    while another of the table's moves is being written there.  It would be decided on
    the table as it was before that one, and its statement would write nothing; it goes
    to the thread path at once instead, which waits for the room lock.  (Waiting on the
    loop for the move in flight instead put each of a hand's four 定缺, sent at once,
    at the back of the loop's queue of statements: at capacity, p99 1.1-1.6 -> 3.1 s.)"""
    key = (asyncio.get_running_loop(), room_id)
    if key in _IN_FLIGHT:
        yield False
        return
    _IN_FLIGHT.add(key)
    try:
        yield True
    finally:
        _IN_FLIGHT.discard(key)
