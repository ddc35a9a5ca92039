"""The table server's own PostgreSQL connection, on its event loop (issue 15).

A move at a table this process wrote last is one statement (``services._act_as_kept``).
Run through Django, the event loop hands it to a worker thread and waits for the
thread's answer (a futex wake each way: 0.1-0.2 ms of CPU on this project's machines,
about as much as the statement's own work) and Django's cursor layer wraps it.  Here
the statement goes out on a psycopg ``AsyncConnection`` that the loop itself waits on:
no thread, no Django connection (Django refuses database work on the loop's thread).

A few connections per event loop (``CONNECTIONS``), each made on first use with the
settings of Django's default database, in autocommit: each statement is its own
transaction, sent on the least busy connection.  Statements queue on a connection one
at a time, so none may wait long: a move's statement skips a room
whose lock someone holds (``SKIP LOCKED``: it then writes nothing and the move is
decided in a worker thread, under the lock), and ``LOCK_TIMEOUT_MS`` bounds any other
wait.  A statement that fails is reported as no row; a connection left anything but
idle (broken, or its statement's task cancelled before the answer came) is closed,
and the next statement makes a new one.
"""

from __future__ import annotations

import asyncio
import logging

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg.pq import TransactionStatus

log = logging.getLogger(__name__)

LOCK_TIMEOUT_MS = 200
# Statements queue on a connection one at a time; a few connections keep one slow answer
# (a busy database) from holding up every table of the process.
CONNECTIONS = 3
APPLICATION_NAME = "table-loop"  # how its connections show in pg_stat_activity
IDLE = TransactionStatus.IDLE


class _Slot:
    """An event loop's connections: ``CONNECTIONS`` of them, each made on first use."""

    def __init__(self, loop):
        self.loop = loop
        self.conns: list[psycopg.AsyncConnection | None] = [None] * CONNECTIONS
        self.busy = [0] * CONNECTIONS  # statements sent or waiting on each
        self.opening = [asyncio.Lock() for _ in range(CONNECTIONS)]


# Per event loop (Daphne has one; a test's loops come and go, and a loop that closed has
# its connections closed when another loop makes its own, or by ``close_all``).
_SLOTS: dict[int, _Slot] = {}


def available() -> bool:
    """Whether moves may go out on the loop's connection: on PostgreSQL, unless
    ``GAME_LOOP_DB`` is off."""
    return settings.GAME_LOOP_DB and connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


async def _connect() -> psycopg.AsyncConnection:
    params = connections[DEFAULT_DB_ALIAS].get_connection_params()  # builds a dict only
    params.pop("cursor_factory", None)  # Django's, for its own (sync) connections
    params.setdefault("application_name", APPLICATION_NAME)
    conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
    await conn.execute(f"SET lock_timeout = {int(LOCK_TIMEOUT_MS)}")
    if settings.GAME_SOCKET_ASYNC_COMMIT:  # as the server's other connections (config.asgi)
        await conn.execute("SET synchronous_commit TO off")
    return conn


def _slot() -> _Slot:
    loop = asyncio.get_running_loop()
    slot = _SLOTS.get(id(loop))
    if slot is None:
        _close(lambda s: s.loop.is_closed())
        slot = _SLOTS[id(loop)] = _Slot(loop)
    return slot


async def fetch_value(sql: str, params: list):
    """The first column of the statement's first row; None: it returned no row, or it
    failed (logged).  Sent on the loop's least busy connection."""
    slot = _slot()
    k = min(range(CONNECTIONS), key=slot.busy.__getitem__)
    slot.busy[k] += 1
    conn = None
    try:
        conn = slot.conns[k]
        if conn is None or conn.closed:
            async with slot.opening[k]:
                if slot.conns[k] is None or slot.conns[k].closed:
                    slot.conns[k] = await _connect()
            conn = slot.conns[k]
        cur = await conn.execute(sql, params)
        row = await cur.fetchone()
    except psycopg.Error as e:
        log.warning("statement on the event loop's connection failed: %s", e)
        _drop_if_unusable(conn)
        return None
    except BaseException:  # cancelled while the statement ran: its answer is still due
        _drop_if_unusable(conn)
        raise
    finally:
        slot.busy[k] -= 1
    return None if row is None else row[0]


def _drop_if_unusable(conn: psycopg.AsyncConnection | None) -> None:
    """Close ``conn`` unless it is idle and sound (the next statement makes a new one)."""
    if conn is not None and not conn.closed and conn.info.transaction_status != IDLE:
        conn.pgconn.finish()


def close_all() -> None:
    """Close every loop's connection, whether or not its loop still runs (libpq's
    ``finish`` is not awaited): a test's loops end with the test, their connections
    must not outlive it."""
    _close(lambda slot: True)


def _close(which) -> None:
    for key, slot in list(_SLOTS.items()):
        if which(slot):
            del _SLOTS[key]
            for conn in slot.conns:
                if conn is not None and not conn.closed:
                    conn.pgconn.finish()
