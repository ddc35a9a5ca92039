"""The table socket: ``ws/rooms/<id>/``.

Thin by design: authenticate, parse a frame into a typed message, call one
service, manage group membership.  No game state is kept here between
frames; every send comes from ``publish.py`` (on commit) or a fresh snapshot.
Which seat a socket watches is read from the database at connect, on every
``sync`` and whenever the service tells the user's sockets to ``reseat``;
seat views are addressed to the seat's current occupant (``publish.py``), so
a socket whose user left a seat stops seeing it even if that notice is lost.
A table's frames come to every socket in the room together; ``table_frames``
sends on only those addressed to this socket's user, or to spectators while it
watches as one.

Per socket, the hand's frames go out in version order (``_Sequencer``): publishes of
consecutive actions may come from different server processes and overtake each other
in the channel layer, so a ``state`` older than what this socket was sent is dropped,
and one past a gap is held up to ``GAP_WAIT`` seconds for the missing versions; if
they do not come, the socket is sent a fresh snapshot instead of a gapped frame.  The
only thing kept is the last (hand, version) sent: a cursor, checked against the
database by the snapshot.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import functools
import heapq
import itertools
import json
import logging
import time

from asgiref.sync import SyncToAsync
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.contrib import auth
from django.db import (
    DatabaseError,
    DataError,
    IntegrityError,
    close_old_connections,
    connection,
    connections,
)

from clubs.selectors import room_hidden_from
from games import loopdb, publish, selectors, services, timeline
from games.messages import dumps

log = logging.getLogger(__name__)

MAX_FRAME = 4096  # bytes; an action is a few dozen
# Per-socket frame budget: a bucket of FRAME_BURST frames refilled at FRAME_RATE a second.
# Frames over budget are answered with an error and not processed; a socket that keeps
# sending past it (FRAME_STRIKES refusals without a pause) is closed.
FRAME_RATE = 8.0
FRAME_BURST = 30
FRAME_STRIKES = 60
CLOSE_RATE_LIMITED = 4429
# Seconds a frame past a version gap waits for the missing ones before a snapshot.
GAP_WAIT = 0.3


class _TableDB(SyncToAsync):
    """``database_sync_to_async`` without the health-check round trip on every call.

    With ``CONN_HEALTH_CHECKS`` Django checks a persistent connection with a ``SELECT 1``
    before its first query after each ``close_old_connections()``, which
    ``database_sync_to_async`` runs around every call: for the table socket, one more
    round trip to PostgreSQL per action (the table benchmark: 150 -> 184 actions/s
    without it).  Here old connections are still closed around every call (too old, or
    unusable after an error); the check is replaced by ``_db``'s retry."""

    def thread_handler(self, loop, *args, **kwargs):
        close_old_connections()
        for conn in connections.all(initialized_only=True):
            conn.health_check_done = True  # see _db: a dead connection costs a retry
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()


# Sockets opening, closing, readying, asking for a snapshot: a thread of their own, so a
# burst of tables sitting down does not wait behind the tables playing (in the shared pool,
# a connect storm starved handshakes) nor behind pages' sync views.  One, not more: with
# four, a connect burst's threads took the GIL from the event loop and the playing tables
# (paced p99 1.4 s at 50 tables, from 46-82 ms).
CONNECT_THREADS = 1
_CONNECT_POOL = concurrent.futures.ThreadPoolExecutor(
    CONNECT_THREADS, thread_name_prefix="table-connect"
)


def _db(fn, *, parallel: bool = False):
    """``fn`` run in a worker thread with that thread's database connection.

    By default on the connect thread (``CONNECT_THREADS``); ``parallel``: in the shared
    pool (a table action; actions at different tables run side by side, each with its
    thread's connection, the room lock ordering each table).  A socket's calls are
    awaited one at a time, so they stay in order either way.
    A call that fails because its connection died (the database restarted: the call's
    transaction did not commit) runs once more, on a new connection."""

    @functools.wraps(fn)
    def call(*args, **kwargs):
        connection.ensure_connection()
        used = connection.connection
        try:
            return fn(*args, **kwargs)
        except (IntegrityError, DataError):
            raise
        except DatabaseError:
            # Dead: Django dropped it (its rollback failed) or it no longer answers.
            if connection.connection is used and connection.is_usable():
                raise  # the database refused the call; the connection is fine
            log.warning("database connection lost; running %s again", fn.__name__)
            connection.close()
            return fn(*args, **kwargs)

    if parallel:
        return _TableDB(call, thread_sensitive=False)
    return _TableDB(call, thread_sensitive=False, executor=_CONNECT_POOL)


def _error(code: str, message: str) -> str:
    return dumps({"t": "error", "v": None, "d": {"code": code, "message": message}})


def _access_now(room_id, user):
    """(room id, seat, spectator delay) for this user now; (None, None, 0) no such room;
    seat False: refused."""
    found = selectors.access_of(room_id, user)
    if found is None:
        return None, None, 0
    room_id, private, club_id, delay, seat = found
    if seat is None and (private or room_hidden_from(club_id, user)):
        return room_id, False, 0
    return room_id, seat, delay


_access = _db(_access_now)


class _SessionOnly:
    """What ``django.contrib.auth.get_user`` reads of a request: its session."""

    def __init__(self, session):
        self.session = session


@_db
def _enter(room_id, session, channel: str):
    """The socket's user (None: not signed in), ``_access``, and if the socket may stay,
    its presence row and its snapshot (``selectors.table_snapshot``; None for a
    spectator of a room with a delay, whose snapshot is the past): one call at connect,
    one hand-off to the connect thread and back.

    The user is read here from the session (``django.contrib.auth.get_user``, as a page
    reads it) rather than by Channels' ``AuthMiddleware`` before the handshake: that
    middleware reads session and user on the one thread every process shares for
    thread-sensitive work, and in a burst of tables sitting down the queue there ran
    past Daphne's handshake timeout (the table benchmark: hundreds of 1,000 sockets
    refused with no HTTP answer)."""
    from games import sweeper

    user = auth.get_user(_SessionOnly(session)) if session is not None else None
    if user is None or not user.is_authenticated:
        return None, None, None, 0, None
    room_id, seat, delay = _access_now(room_id, user)
    if room_id is None or seat is False:
        return user, room_id, seat, delay, None
    try:
        _mark_presence(room_id, user, channel, True, seated=seat is not None)
    except services.ServiceError:  # the room went away meanwhile
        sweeper.LIVE_CHANNELS.discard(channel)
        return user, None, None, 0, None
    if seat is None and delay:
        return user, room_id, seat, delay, None
    return user, room_id, seat, delay, selectors.table_snapshot(room_id, seat)


def _mark_presence(room_id, user, channel: str, present: bool, *, seated: bool) -> None:
    """Every open table socket has a presence row (a seat's makes its player present; a
    spectator's counts among the watchers)."""
    from games import sweeper

    if present:
        sweeper.LIVE_CHANNELS.add(channel)  # this process vouches for it until it closes
    else:
        sweeper.LIVE_CHANNELS.discard(channel)
    service = services.seat_presence if seated else services.watch_presence
    service(room_id=room_id, user=user, channel=channel, present=present)


async def _presence(room_id, user, channel: str, present: bool, *, seated: bool = True) -> None:
    await _db(_mark_presence)(room_id, user, channel, present, seated=seated)


def _act_timed(*, room_id, user, version, action, seat, arrived):
    """``services.hand_act`` with its times kept for the benchmark (``games.timeline``):
    when the frame reached the consumer, when the thread started and ended the move."""
    started = timeline.now()
    try:
        return services.hand_act(room_id=room_id, user=user, version=version, action=action)
    finally:
        timeline.record("act", room_id, seat, version, arrived, started, timeline.now(), "thread")


_act = _db(services.hand_act, parallel=True)
_act_on_timeline = _db(_act_timed, parallel=True)


class _Sequencer:
    """The hand cursor of one socket: which hand frames may go out now.

    ``state`` frames of one hand count up by one version from 0; ``hand_end`` follows
    the state of its own version.  A frame, known by its key (``key``; the publisher
    sends it with the frame), is ``send`` (next in line, or a state of the version just
    sent: a clock changed), ``drop`` (older) or ``hold`` (past a gap)."""

    def __init__(self):
        self.hand: int | None = None  # None: nothing known yet, take the first frame
        self.version = -1
        self.ended = False

    @staticmethod
    def key(env: dict):
        """(hand, version, 0 state / 1 hand_end) of a hand frame; None for the others."""
        t = env.get("t")
        if t not in ("state", "hand_end") or not isinstance(env.get("d"), dict):
            return None
        return (env["d"].get("hand"), env.get("v"), 0 if t == "state" else 1)

    def verdict(self, k) -> str:
        if k is None or self.hand is None:
            return "send"
        hand, v, end = k
        if not isinstance(hand, int) or not isinstance(v, int):
            return "send"
        if hand < self.hand:
            return "drop"
        if hand > self.hand:
            return "send" if (v == 0 and not end) else "hold"
        if end:
            if self.ended:
                return "drop"
            return "send" if v == self.version else ("drop" if v < self.version else "hold")
        if v < self.version or (v == self.version and self.ended):
            return "drop"
        return "send" if v <= self.version + 1 else "hold"

    def note(self, k) -> None:
        """The frame keyed ``k`` went out (live or from a snapshot): move the cursor."""
        if k is None or not isinstance(k[0], int) or not isinstance(k[1], int):
            return
        hand, v, end = k
        if self.hand != hand or self.version != v:
            self.ended = False
        self.hand, self.version = hand, v
        self.ended = self.ended or bool(end)


def _eager(coro) -> asyncio.Task | None:
    """Run ``coro`` now, in the caller's turn of the loop, to its end (None) or to its
    first wait; a task then finishes it, waking it as a task would (returned)."""
    try:
        waited = coro.send(None)
    except StopIteration:
        return None
    return asyncio.ensure_future(_resume(coro, waited))


async def _resume(coro, waited) -> None:
    while True:
        cancelled = False
        try:
            if waited is None:  # a bare yield: one pass of the loop
                await asyncio.sleep(0)
            else:  # whatever the future's outcome, the coroutine reads it itself
                await asyncio.wait([waited])
        except asyncio.CancelledError:
            # As a task's cancel does: the future the coroutine waits on is cancelled (its
            # await raises), or the error is thrown in where it yielded.
            cancelled = waited is None
            if waited is not None:
                waited.cancel()
        try:
            waited = coro.throw(asyncio.CancelledError()) if cancelled else coro.send(None)
        except StopIteration:
            return


class _Dispatching(AsyncWebsocketConsumer):
    """A socket (the table's, and the benchmark's echo) whose messages are dispatched one
    at a time, as Channels' ``AsyncConsumer`` does, but not through
    ``await_many_dispatch`` (a new task for every message and an ``asyncio.wait`` on
    both sources: three passes of the loop from a message's arrival to its handler, a
    fifth of the table server's work at 250 tables).  Here one task reads each source
    and runs the handlers itself when the socket is idle; a message that comes while a
    handler runs waits in ``_mailbox`` and is handled, in order, as soon as that handler
    returns, by the same task.  And a table's frames published in this process come
    straight from the channel layer (``games.layers``' ``deliver_directly``): an idle
    socket sends them in the turn of the loop that published them; a busy one (its own
    move being written, a snapshot being read) right after the handler it is in, never
    before or in between."""

    async def __call__(self, scope, receive, send):
        layer = get_channel_layer(self.channel_layer_alias)
        if layer is None:  # pragma: no cover - settings always name a layer
            return await super().__call__(scope, receive, send)
        self.scope, self.channel_layer, self.base_send = scope, layer, send
        # Only group messages come to a table socket (nothing sends to its channel by name).
        group_only = getattr(layer, "new_group_channel", None)  # games.layers
        self.channel_name = await (group_only or layer.new_channel)()
        self.channel_receive = functools.partial(layer.receive, self.channel_name)
        self._mailbox: collections.deque = collections.deque()
        self._busy = False  # a handler is running (or was started and waits)
        self._ended = asyncio.get_running_loop().create_future()
        self._tasks: set[asyncio.Task] = set()
        direct = getattr(layer, "deliver_directly", None)
        if direct is not None:
            direct(self.channel_name, self._local)
        for source in (receive, self.channel_receive):
            self._task(self._read(source))
        try:
            await self._ended  # StopConsumer, or what a handler raised
        except StopConsumer:
            pass
        finally:
            if direct is not None:
                layer.stop_directly(self.channel_name)
            for task in self._tasks:
                task.cancel()  # the channel's reader unsubscribes as it goes
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _task(self, coro) -> None:
        """Run ``coro`` (or finish a task) as one of this socket's, cancelled as it ends."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self, source) -> None:
        while True:
            try:
                message = await source()
            except Exception as e:  # noqa: BLE001 - a source that fails ends the consumer
                self._end(e)  # (as in Channels: the server closes the socket)
                return
            self._mailbox.append(message)
            if not self._busy:
                await self._run()

    def _post(self, message) -> None:
        self._mailbox.append(message)
        if not self._busy:
            self._busy = True  # from now: the run is started, whatever comes before it runs
            self._task(self._run())

    def _local(self, message: dict) -> None:
        """A message published in this process for this socket (``deliver_directly``):
        a table's frames are sent now when nothing else is being handled."""
        if self._busy or self._mailbox or message.get("type") != "table.frames":
            self._post(message)
            return
        self._mailbox.append(message)
        rest = _eager(self._run())
        if rest is not None:  # it waits (the sequence lock is held): a task finishes it
            self._task(rest)

    async def _run(self) -> None:
        """Handle what is in the mailbox, in order, until it is empty."""
        self._busy = True
        try:
            while self._mailbox and not self._ended.done():
                try:
                    await self.dispatch(self._mailbox.popleft())
                except asyncio.CancelledError:
                    raise
                except BaseException as e:  # noqa: BLE001 - StopConsumer, or a handler's error
                    self._end(e)
        finally:
            self._busy = False

    def _end(self, error: BaseException) -> None:
        """End the consumer with ``error`` (StopConsumer: a plain end); the first to end
        it is what it ends with."""
        if not self._ended.done():
            self._ended.set_exception(error)

    async def dispatch(self, message):
        """Run the message's handler, without Channels' per-message database cleanup.

        Channels' ``dispatch`` first runs ``close_old_connections`` on the one thread
        shared by all thread-sensitive sync code of this process: a thread hop for every
        frame in and every state out (four per action at a full table), queued behind
        whatever that thread is doing.  Every database call here goes through ``_db``,
        which closes old connections itself, in the thread that uses them (the echo
        socket uses none); so that hop did nothing for these consumers but wait."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(_Dispatching):
    """The table socket (see the module docstring); its messages are dispatched as
    ``_Dispatching`` says."""

    async def send(self, text_data=None, bytes_data=None, close=False):
        """A frame for a socket its client has just closed is dropped: its disconnect is
        on the way and does the cleanup (raising here would end the consumer first, and
        leave its presence row beating)."""
        try:
            await super().send(text_data, bytes_data, close)
        except Disconnected:
            log.debug("frame for a closed socket dropped (room %s)", self.room_id)

    async def connect(self):
        from games.sweeper import ensure_sweeper

        self.user = None  # read from the session with the room, in ``_enter``
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
        # Hand frames in version order (see the module docstring).
        self.seq = _Sequencer()
        self.early: list[tuple[tuple, str]] = []  # (key, text) held past a gap, until GAP_WAIT
        self.gap_timer: asyncio.Task | None = None
        self.seq_lock = asyncio.Lock()
        # Accepted before anything else: the handshake never waits for the database (a
        # burst of tables sitting down would run past the server's handshake timeout), and
        # a refusal is a close code the browser sees (4401/4403/4404: final), not a
        # failed handshake it would retry.
        await self.accept()
        raw_id = self.scope["url_route"]["kwargs"]["room_id"]  # an int (games.routing)
        # The room's group before the snapshot is read (in ``_enter``): whatever is
        # published after that read comes live.  A socket the room refuses leaves the
        # group as it closes; nothing reaches its client meanwhile (``table_frames``
        # sends nothing before the room is known).
        await self._join(publish.room_group(raw_id))
        entered = await _enter(raw_id, self.scope.get("session"), self.channel_name)
        self.user, room_id, seat, self.delay, snapshot = entered
        if self.user is None:
            await self.close(code=4401)
            return
        self.user_id = self.user.pk
        if room_id is None:
            await self.close(code=4404)
            return
        if seat is False:
            await self.close(code=4403)
            return
        self.room_id, self.seat = room_id, seat  # its presence row is written
        await self._send_snapshot(backlog=True, envelopes=snapshot)
        ensure_sweeper()

    async def disconnect(self, code):
        if self.releaser is not None:
            self.releaser.cancel()
            self.releaser = None
        if self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None
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

    async def _take_seat(self, seat: int | None) -> None:
        """Watch from ``seat`` (None: as a spectator), after watching from ``self.seat``."""
        before, self.seat = self.seat, seat
        if seat is not None:
            self.held.clear()  # a player sees the table as it is
        here = (self.room_id, self.user, self.channel_name)
        if before is not None and seat is None:  # out of the seat: one of the watchers
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
        """The seats of the users ``event`` names changed: theirs re-read it."""
        if self.room_id is None or self.user_id not in event.get("users", ()):
            return
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
        arrived = timeline.now() if timeline.ON else None
        if self.room_id is None:
            return
        if not self._within_budget():
            if self.strikes >= FRAME_STRIKES:
                await self.close(code=CLOSE_RATE_LIMITED)
            else:
                await self.send(_error("rate_limited", "too many messages: slow down"))
            return
        try:
            await self._handle(text_data, bytes_data, arrived)
        except services.ServiceError as e:
            await self.send(_error(e.code, e.message))
        except Exception:
            # Whatever a frame does, the socket stays usable and nothing is half-done
            # (services run in their own transactions).
            log.exception("table socket frame failed (room %s)", self.room_id)
            await self.send(_error("server_error", "the server could not handle that message"))

    async def _handle(self, text_data, bytes_data, arrived=None):
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
            await _db(services.room_ready)(
                room_id=self.room_id, user=self.user, client_seed=msg.get("client_seed")
            )
            return
        if not isinstance(msg.get("action"), dict):
            await self.send(_error("bad_message", '"act" needs an "action" object'))
            return
        if loopdb.enabled() and await self._act_here(msg["action"], msg.get("v"), arrived):
            return
        # Actions at different tables run in parallel threads; the room lock orders them.
        move = {"room_id": self.room_id, "user": self.user, "version": msg.get("v")}
        if timeline.ON:
            await _act_on_timeline(action=msg["action"], seat=self.seat, arrived=arrived, **move)
        else:
            await _act(action=msg["action"], **move)

    async def _act_here(self, action: dict, version, arrived) -> bool:
        """The move decided and written on this event loop (``games.loopdb``); False
        when it is left to the thread path: another of the table's moves being written on
        the loop (``loopdb.table_turn``), not decidable on the table this process kept,
        the table moved meanwhile, or the loop's connection failed (the thread path then
        decides under the room lock, and refuses a move on a version that is gone)."""
        started = timeline.now() if timeline.ON else None
        with loopdb.table_turn(self.room_id) as ours:
            if not ours:
                return False
            move = services.kept_move(
                self.room_id, self.user, version, action, conn=loopdb.backend()
            )
            if move is None:
                return False
            try:
                row = await loopdb.fetch_one(move.sql, move.params)
            except Exception:  # noqa: BLE001 - whatever failed, the thread path decides
                log.warning("room %s: a move on the loop's connection failed", self.room_id)
                return False
            if row is None:
                return False
            services.kept_move_written(move, row[0])
        if timeline.ON:
            done = timeline.now()
            timeline.record("act", self.room_id, self.seat, version, arrived, started, done, "loop")
        return True

    async def _send_snapshot(self, *, backlog: bool = False, envelopes=None):
        async with self.seq_lock:
            await self._send_snapshot_locked(backlog=backlog, envelopes=envelopes)

    async def _send_snapshot_locked(self, *, backlog: bool = False, envelopes=None):
        """The table now (``envelopes``: as read already, after the group was joined)."""
        if self.seat is None and self.delay:
            self.seq = _Sequencer()  # the live frames go on from wherever they are
            await self._send_late_snapshot(backlog)
            return
        if envelopes is None:
            envelopes = await _db(selectors.table_snapshot)(self.room_id, self.seat)
        for env in envelopes:
            self.seq.note(_Sequencer.key(env))
            await self.send(dumps(env))
        if self.seq.hand is None:  # no hand dealt yet: the first one starts at version 0
            self.seq.hand, self.seq.ended = 0, True
        # What was held is now as old as the snapshot (dropped) or follows on from it.
        at = (self.seq.hand, self.seq.version)
        self.early = [e for e in self.early if tuple(e[0][:2]) > at]
        await self._release_early()

    def _for_me(self, audience) -> bool:
        """Whether this socket may send a frame addressed to ``audience`` (see
        ``publish``): its user's, the spectators' while it watches as one, everyone's."""
        if audience == publish.EVERYONE:
            return True
        if audience == publish.WATCH:
            return self.seat is None
        return audience == self.user_id

    async def table_frames(self, event):
        async with self.seq_lock:
            for key, audience, text in event["frames"]:
                if self.room_id is not None and self._for_me(audience):
                    await self._offer(tuple(key) if key is not None else None, text)

    async def _offer(self, key, text: str) -> None:
        verdict = self.seq.verdict(key)
        if verdict == "drop":
            return
        if verdict == "hold":
            self.early.append((key, text))
            if self.gap_timer is None or self.gap_timer.done():
                self.gap_timer = asyncio.get_running_loop().create_task(self._gap_wait())
            return
        await self._emit(key, text)
        await self._release_early()

    async def _emit(self, key, text: str) -> None:
        self.seq.note(key)
        if self.seat is None and self.delay:
            self._hold(asyncio.get_running_loop().time() + self.delay, text)
        else:
            await self.send(text)
            if timeline.ON and key is not None:
                timeline.record("out", self.room_id, self.seat, key[1], timeline.now())

    async def _release_early(self) -> None:
        """Send the held frames that are now next in line, drop those now old."""
        progress = True
        while progress and self.early:
            progress = False
            for frame in sorted(self.early):
                verdict = self.seq.verdict(frame[0])
                if verdict == "hold":
                    continue
                self.early.remove(frame)
                if verdict == "send":
                    await self._emit(*frame)
                progress = True
                break
        if (
            not self.early
            and self.gap_timer is not None
            and self.gap_timer is not (asyncio.current_task())
        ):
            self.gap_timer.cancel()
            self.gap_timer = None

    async def _gap_wait(self) -> None:
        """The missing versions did not come within GAP_WAIT: a snapshot instead (a
        late spectator, whose snapshot is the past, gets the held frames in order)."""
        await asyncio.sleep(GAP_WAIT)
        async with self.seq_lock:
            if not self.early or self.room_id is None:
                return
            try:
                if self.seat is None and self.delay:
                    for frame in sorted(self.early):
                        await self._emit(*frame)
                    self.early.clear()
                else:
                    log.warning(
                        "room %s: version gap not filled within %s s, sent a snapshot",
                        self.room_id,
                        GAP_WAIT,
                    )
                    await self._send_snapshot_locked()
                    self.early.clear()
            except Exception:  # the socket is closing: disconnect() cancels us
                log.debug("gap resync not sent (room %s)", self.room_id)
            finally:
                self.gap_timer = None

    # --- a spectator's delay ---------------------------------------------------------
    async def _send_late_snapshot(self, backlog: bool) -> None:
        """The table as it was ``delay`` seconds ago (rebuilt from the action log) and,
        on connect, what happened since, each frame held until it is that old."""
        envelopes, later = await _db(selectors.spectator_snapshot)(self.room_id, self.delay)
        for env in envelopes:
            await self.send(dumps(env))
        if backlog:
            loop_now, wall_now = asyncio.get_running_loop().time(), time.time()
            for at, env in later:
                self._hold(loop_now + at.timestamp() - wall_now, dumps(env))

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


class EchoConsumer(_Dispatching):
    """A bare echo: the latency floor the table benchmark compares against (dispatched as
    the table socket is, without Channels' database cleanup: a thread hop a frame).

    Mounted only when GAME_ECHO_ENDPOINT is set (benchmarks)."""

    async def connect(self):
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)
