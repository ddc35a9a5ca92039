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
written side by side, each on a connection of its own, and past that many wait their
turn in one queue (``_LoopConnections``); a table with a move being written there sends
its next one to the thread path (``table_turn``).  A connection
that fails is dropped and made again for the next move; the move that failed is left
to the thread path.
"""

from __future__ import annotations

import asyncio
import collections
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
    and again after one failed.  Moves at different tables are written side by side,
    not one behind the other (issue 15: with one connection, a statement's round trip
    took at least one turn of a loop busy with a thousand sockets sitting down, and
    every move of the process queued behind it).

    A statement that finds a connection free and none waiting is sent at once, by its
    own task.  Otherwise it waits in one queue, first come first served, worked by a
    task a connection that sends the next statement the moment the last one's answer is
    in.  (Statements that each took a connection for themselves ran in no fair order: one
    given back went to whichever statement asked next, and in the table benchmark's
    capacity run some moves lost that race again and again, waiting up to 6.6 s while the
    median waited 40 ms.  Handing a connection to the longest waiting instead left it
    idle until that statement's task ran again, one turn of a busy loop a statement;
    sending every statement from a queue's task cost that turn even when nothing was
    waiting.)  Only the loop's own thread touches this: no lock."""

    def __init__(self, size: int):
        self.size = max(1, size)
        self.queue: collections.deque = collections.deque()  # (sql, params, future)
        self.idle: list = []
        self.open = 0  # made, or being made, and not dropped
        self.working: set[asyncio.Task] = set()

    async def run(self, sql: str, params: list):
        if not self.queue:
            conn = self._idle_one()
            if conn is not None or self.open < self.size:
                if conn is None:
                    self.open += 1
                    try:
                        conn = await _connect()
                    except BaseException:
                        self._lost()
                        raise
                try:
                    row = await _statement(conn, sql, params)
                except BaseException as e:
                    if _usable_after(conn, e):
                        self._free(conn)
                    else:
                        self._lost()
                        await _close(conn)
                    raise
                self._free(conn)
                return row
        answer = asyncio.get_running_loop().create_future()
        self.queue.append((sql, params, answer))
        conn = self._idle_one()
        if conn is not None:
            self._work_on(conn)
        elif self.open < self.size:
            self.open += 1
            self._work_on(None)
        return await answer  # cancelled: not sent if still queued, its answer dropped if sent

    def _idle_one(self):
        while self.idle:
            conn = self.idle.pop()
            if not (conn.closed or conn.broken):
                return conn
            self.open -= 1
        return None

    def _free(self, conn) -> None:
        """``conn`` done with its statement: on to the queue's next, or idle."""
        if self.queue:
            self._work_on(conn)
        else:
            self.idle.append(conn)

    def _lost(self) -> None:
        """A connection gone (or never made): its place to the queue, if any waits."""
        if self.queue:
            self._work_on(None)
        else:
            self.open -= 1

    def _work_on(self, conn) -> None:
        task = asyncio.get_running_loop().create_task(self._work(conn))
        self.working.add(task)
        task.add_done_callback(self.working.discard)

    async def _work(self, conn) -> None:
        """Send the queued statements one after the other on ``conn`` (None: made first)
        till the queue is empty."""
        try:
            while self.queue:
                sql, params, answer = self.queue.popleft()
                if answer.done():  # its caller is gone
                    continue
                try:
                    if conn is None:
                        conn = await _connect()
                    row = await _statement(conn, sql, params)
                except Exception as e:  # noqa: BLE001 - the caller's to handle
                    if not answer.done():
                        answer.set_exception(e)
                    if conn is not None and not _usable_after(conn, e):
                        await _close(conn)
                        conn = None  # made again for the next one
                    continue
                if not answer.done():
                    answer.set_result(row)
        except BaseException:
            if conn is not None:  # cancelled mid-statement (the loop closing)
                await _close(conn)
                conn = None
            raise
        finally:
            if conn is None:
                self.open -= 1
            else:
                self.idle.append(conn)


async def _statement(conn, sql: str, params: list):
    cur = await conn.execute(sql, params)
    return await cur.fetchone()


def _usable_after(conn, error: BaseException) -> bool:
    """Whether ``conn`` can take the next statement after this one raised ``error``: a
    refusal by the database on a live connection, yes; a dead connection, or anything
    else (cancelled mid-statement, say), whose state is not known, no."""
    import psycopg

    return isinstance(error, psycopg.Error) and not (conn.closed or conn.broken)


async def _close(conn) -> None:
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
    """Run ``sql`` as a statement of its own on one of this loop's connections, in the
    order asked: its first row, or None when it returned none.  Raises what psycopg
    raises; a failed connection is dropped (the next statement makes a new one)."""
    loop = asyncio.get_running_loop()
    pool = _CONNECTIONS.get(loop)
    if pool is None:
        pool = _CONNECTIONS[loop] = _LoopConnections(settings.GAME_SOCKET_LOOP_CONNECTIONS)
    return await pool.run(sql, params)


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
