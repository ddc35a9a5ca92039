"""Table moves written from the socket server's event loop (``games.loopdb``).

On PostgreSQL a move at a table whose last move this process wrote is decided on the
loop (``services.kept_move``: no database call) and written there by the kept path's one
statement, on the loop's own asynchronous connection; everything else goes through a
worker thread as before.  These tests play whole hands through the real ASGI
application with four human sockets and check what the players see and what was
written, and which path the moves took: on SQLite none is written on the loop (it keeps
no row revisions), on PostgreSQL most are, and a raced or failed loop write is decided
again on the thread path.

The spy on ``loopdb.fetch_one`` counts the calls and their answers; the real function
runs, on the real database.
"""

from __future__ import annotations

import asyncio

import psycopg
import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection

from games import loopdb, services
from games.models import Hand, HandAction
from games.rules import HandState
from tests.games.conftest import wait_settled
from tests.games.test_consumers import assert_private, connect, cookie_for, drain
from tests.live import choose, untimed_room

pytestmark = pytest.mark.django_db(transaction=True)

POSTGRESQL = connection.vendor == "postgresql"


@pytest.fixture
def loop_writes(monkeypatch):
    """The answers ``loopdb.fetch_one`` gave (a row, None: nothing written, or the
    exception it raised), in order."""
    answers: list = []
    real = loopdb.fetch_one

    async def spy(sql, params):
        try:
            row = await real(sql, params)
        except Exception as e:
            answers.append(e)
            raise
        answers.append(row)
        return row

    monkeypatch.setattr(loopdb, "fetch_one", spy)
    return answers


def _four(make_user, prefix: str):
    users = [make_user(f"{prefix}{i}") for i in range(4)]
    room = untimed_room(users)
    return room, users, [cookie_for(u) for u in users]


async def _play(room, cookies, *, between=None):
    """Four sockets ready and play the room's hand to its end, each acting on every
    state that offers it a move; ``between(n)`` is awaited after the ``n``th move sent.
    Returns each seat's messages."""
    comms = [connect(room, c) for c in cookies]
    for comm in comms:
        assert (await comm.connect())[0]
        await comm.send_json_to({"t": "ready"})
    seen: list[list[dict]] = [[] for _ in comms]
    ended = [False] * 4
    sent = 0
    deadline = asyncio.get_running_loop().time() + 120
    while not all(ended):
        assert asyncio.get_running_loop().time() < deadline, "the hand did not end"
        for seat, comm in enumerate(comms):
            state = None
            for msg in await drain(comm, seen[seat]):
                if msg["t"] == "state":
                    state = msg
                elif msg["t"] == "hand_end":
                    ended[seat] = True
                elif msg["t"] == "error":
                    assert msg["d"]["code"] == "stale", msg  # a claim window others closed
            if state is not None and state["d"]["legal"] and not ended[seat]:
                action = choose(state["d"]["legal"])
                await comm.send_json_to({"t": "act", "v": state["v"], "action": action})
                sent += 1
                if between is not None:
                    await between(sent)
    for comm in comms:
        await comm.disconnect()
    return seen


def _played_in_order(seen, hand) -> None:
    """Every seat saw every version of the hand once, in order, and only what it may;
    the log holds every move once."""
    for seat, msgs in enumerate(seen):
        versions = [m["v"] for m in msgs if m["t"] == "state" and m["d"]["hand"] == hand.number]
        assert versions == list(range(versions[0], hand.version + 1)), seat
        for msg in msgs:
            assert_private(msg, seat)
    seqs = list(HandAction.objects.filter(hand=hand).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, hand.version + 1))
    assert HandState.from_json(hand.state).version == hand.version


def test_a_hand_s_moves_are_written_on_the_loop_and_every_seat_sees_each_once(
    make_user, loop_writes
):
    room, _, cookies = _four(make_user, "lw")
    seen = async_to_sync(_play)(room, cookies)
    hand = Hand.objects.get(room=room)
    assert hand.status == Hand.Status.ENDED
    _played_in_order(seen, hand)
    wait_settled(hand)
    written = [a for a in loop_writes if isinstance(a, tuple)]
    if POSTGRESQL:
        assert loopdb.enabled()
        # Each move at a table dealt or written here, but the hand's last (it queues
        # the settlement: the thread path) and claim answers raced by another seat's,
        # went through the loop: most of the hand.
        assert len(written) >= hand.version // 2, (len(written), hand.version)
        assert len(written) == len(set(written))  # each wrote its own revision
    else:
        assert not loopdb.enabled() and loop_writes == []


def test_a_loop_write_on_a_table_that_moved_writes_nothing_and_the_thread_decides(
    make_user, loop_writes
):
    """After some moves, every one of the room's rows is written by someone else (a
    page's write, as a seat change or another process's move would): the loop's next
    statement finds the revisions moved and writes nothing, and the thread path decides
    the move under the lock."""
    room, _, cookies = _four(make_user, "lr")
    moved = {}

    def touch():
        from django.db.models import F

        from games.models import Room

        Room.objects.filter(pk=room.pk).update(hands_played=F("hands_played"))  # same values

    async def between(n):
        if n == 6:
            moved["at"] = len(loop_writes)
            await database_sync_to_async(touch)()

    seen = async_to_sync(_play)(room, cookies, between=between)
    hand = Hand.objects.get(room=room)
    _played_in_order(seen, hand)
    wait_settled(hand)
    if POSTGRESQL:
        after = loop_writes[moved["at"] :]
        assert None in after  # tried on the moved table: nothing written
        # ...and the table kept again from the thread path's write: the loop writes again.
        assert any(isinstance(a, tuple) for a in after[after.index(None) :])
    else:
        assert loop_writes == []


def test_a_loop_connection_that_dies_is_made_again_and_the_move_is_not_lost(make_user, loop_writes):
    """The loop's connection killed by the database mid-hand (as a restart of it would):
    the move that found it dead is decided on the thread path, and the next moves go
    through a new loop connection."""
    room, _, cookies = _four(make_user, "ld")
    killed = {}

    def kill() -> int:
        with connection.cursor() as cur:
            cur.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name = %s",
                [loopdb.APPLICATION_NAME],
            )
            return len(cur.fetchall())

    async def between(n):
        if POSTGRESQL and n == 8:
            killed["n"] = await database_sync_to_async(kill)()
            killed["at"] = len(loop_writes)

    seen = async_to_sync(_play)(room, cookies, between=between)
    hand = Hand.objects.get(room=room)
    assert hand.status == Hand.Status.ENDED
    _played_in_order(seen, hand)
    wait_settled(hand)
    if POSTGRESQL:
        assert killed["n"] >= 1  # this loop's connection (and any a finished test left)
        after = loop_writes[killed["at"] :]
        failed = [a for a in after if isinstance(a, Exception)]
        assert failed and isinstance(failed[0], psycopg.OperationalError), after
        assert any(isinstance(a, tuple) for a in after[after.index(failed[0]) :])
    else:
        assert loop_writes == [] and services._TABLES.get(room.pk) is None


def test_moves_at_different_tables_are_written_side_by_side_up_to_the_setting(settings):
    """A loop's statements go out on up to ``GAME_SOCKET_LOOP_CONNECTIONS`` connections
    of its own: one that waits in the database does not hold up the next (with a single
    connection, every move of the process queued behind the slowest); past the setting,
    a statement waits for a connection to come back."""
    if not POSTGRESQL:
        assert not loopdb.enabled()
        return
    settings.GAME_SOCKET_LOOP_CONNECTIONS = 2
    slow = "SELECT pg_backend_pid() FROM pg_sleep(0.5)"
    quick = "SELECT pg_backend_pid()"

    async def run():
        done: list[str] = []

        async def one(name, sql):
            row = await loopdb.fetch_one(sql, [])
            done.append(name)
            return row[0]

        first = asyncio.ensure_future(one("slow", slow))
        await asyncio.sleep(0.05)  # the slow one is in the database
        quick_pid = await one("quick", quick)
        assert done == ["quick"]  # did not wait behind the slow statement
        slow_pid = await first
        assert quick_pid != slow_pid
        # Three at once on two connections: never more than two backends.
        pids = await asyncio.gather(*(one(f"s{i}", slow) for i in range(3)))
        assert len(set(pids)) == 2 and set(pids) <= {quick_pid, slow_pid}

    async_to_sync(run)()


def test_a_table_with_a_move_in_flight_on_the_loop_sends_the_next_to_the_thread_path():
    """While one of a table's moves is being written on the loop, the next one at that
    table is not tried there (``table_turn`` says no); other tables' are, and the table's
    turn is free again once the move is written (or failed)."""

    async def run():
        with loopdb.table_turn(1) as first:
            assert first
            with loopdb.table_turn(1) as again, loopdb.table_turn(2) as other:
                assert (again, other) == (False, True)
        with loopdb.table_turn(1) as later:
            assert later
        with pytest.raises(RuntimeError), loopdb.table_turn(3) as ours:
            assert ours
            raise RuntimeError("the write failed")
        with loopdb.table_turn(3) as after_failure:
            assert after_failure
        assert loopdb._IN_FLIGHT == set()

    async_to_sync(run)()


def test_statements_waiting_for_the_loop_s_connections_run_in_the_order_asked(settings):
    """With every connection busy, statements run in the order they were asked, each
    sent as soon as the one before it on that connection has answered (in the capacity
    run, statements that each took a connection for themselves ran in no fair order:
    some moves waited seconds).  A statement whose caller is gone before it was sent is
    not run, and the connection goes on with the next."""
    if not POSTGRESQL:
        assert not loopdb.enabled()
        return
    settings.GAME_SOCKET_LOOP_CONNECTIONS = 1

    async def run():
        answered: list[str] = []

        async def statement(name, sql="SELECT pg_backend_pid()"):
            row = await loopdb.fetch_one(sql, [])
            answered.append(name)
            return row[0]

        slow = asyncio.ensure_future(
            statement("slow", "SELECT pg_backend_pid() FROM pg_sleep(0.3)")
        )
        await asyncio.sleep(0.05)  # the slow one is in the database
        waiting = [asyncio.ensure_future(statement(f"w{i}")) for i in range(5)]
        # Marks the session if it runs; the last statement reads the mark back.
        gone = asyncio.ensure_future(
            statement("gone", "SELECT set_config('mahjong.gone', 'ran', false)")
        )
        last = asyncio.ensure_future(
            statement("last", "SELECT coalesce(current_setting('mahjong.gone', true), '')")
        )
        await asyncio.sleep(0.05)
        gone.cancel()
        *pids, mark = await asyncio.gather(slow, *waiting, last)
        assert answered == ["slow", "w0", "w1", "w2", "w3", "w4", "last"]
        assert len(set(pids)) == 1 and gone.cancelled() and mark == ""

    async_to_sync(run)()
