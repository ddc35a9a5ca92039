"""The table socket: ``ws/rooms/<id>/``.

Thin by design: authenticate, parse a frame, call one service, manage the group.
Nothing about the game is kept between frames: every send comes from ``publish.py``
(on commit) or a fresh snapshot.  The socket's seat is read at connect, on ``sync``
and on ``reseat``; ``table_frames`` sends on only the frames addressed to this
socket's user (or to spectators while it watches as one), so a socket whose user
left a seat stops seeing it.

Hand frames go out in version order (``_Sequencer``): publishes of consecutive actions
may come from different processes and overtake each other, so an older ``state`` is
dropped and one past a gap waits up to ``GAP_WAIT`` seconds for the missing versions,
then a fresh snapshot replaces it.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import json
import logging
import re
import time
from types import SimpleNamespace

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib import auth
from django.db import DatabaseError, DataError, IntegrityError, connection, transaction

from clubs.selectors import room_hidden_from
from config.converters import IdConverter
from games.table import limits, presence, publish, selectors, services, talk
from games.table.messages import dumps

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


def _db(fn):
    """``fn`` run in a worker thread of the shared pool with that thread's database
    connection (``database_sync_to_async``, not thread-sensitive: calls of different
    sockets run side by side, the room lock ordering each table).  A socket's calls are
    awaited one at a time, so they stay in order.  A call that fails because its
    connection died (the database restarted: the call's transaction did not commit)
    runs once more, on a new connection."""

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

    return database_sync_to_async(call, thread_sensitive=False)


def _error(code: str, message: str) -> str:
    return dumps({"t": "error", "v": None, "d": {"code": code, "message": message}})


def _access_now(room_id, user):
    """(room id, seat, spectator delay) for this user now; (None, None, 0) no such room;
    seat False: refused."""
    found = selectors.access_of(room_id, user)
    if found is None:
        return None, None, 0
    room_id, private, club_id, delay, seat = found
    # A club's tables are its members' only: one removed from the club is refused even
    # at a seat they hold (``clubs.services.member_remove`` hands that seat to 托管).
    if room_hidden_from(club_id, user) or (seat is None and private):
        return room_id, False, 0
    return room_id, seat, delay


_access = _db(_access_now)


def _room_id(segment: str) -> int | None:
    """The route's room id as the HTTP routes read one (``config.converters``); None: not
    digits, or past the largest primary key."""
    if not re.fullmatch(IdConverter.regex, segment):
        return None
    try:
        return IdConverter().to_python(segment)
    except ValueError:
        return None


@_db
def _enter(room_id, session, channel: str):
    """The socket's user (None: not signed in), ``_access``, and if the socket may stay,
    its presence row and its snapshot (``selectors.table_snapshot``; None for a
    spectator of a room with a delay, whose snapshot is the past): one call at connect.

    The user is read here from the session (``django.contrib.auth.get_user``, as a page
    reads it), on a worker thread after the handshake, rather than by Channels'
    ``AuthMiddleware`` before it, on the one thread every process shares for
    thread-sensitive work: a burst of tables sitting down would queue there."""
    from games.table import sweeper

    # ``auth.get_user`` reads only a request's session.
    user = auth.get_user(SimpleNamespace(session=session)) if session is not None else None
    if user is None or not user.is_authenticated:
        return None, None, None, 0, None
    # A user at their cap (a reconnect loop, a flood) is refused for the price of one
    # read, before the room is looked up or anything is written.
    limits.check_sockets(user, lock=False)
    room_id, seat, delay = _access_now(room_id, user)
    if room_id is None or seat is False:
        return user, room_id, seat, delay, None
    try:
        with transaction.atomic():
            limits.check_sockets(user)  # one too many is refused (raised to ``connect``)
            _mark_presence(room_id, user, channel, True, seated=seat is not None)
    except services.ServiceError as e:
        sweeper.LIVE_CHANNELS.pop(channel, None)
        if e.code == "too_many_sockets":
            raise
        return user, None, None, 0, None  # the room went away meanwhile
    if seat is None and delay:
        return user, room_id, seat, delay, None
    return user, room_id, seat, delay, selectors.table_snapshot(room_id, seat)


def _mark_presence(room_id, user, channel: str, present: bool, *, seated: bool) -> None:
    """Every open table socket has a presence row (a seat's makes its player present; a
    spectator's counts among the watchers)."""
    from games.table import sweeper

    if present:
        # This process vouches for it until the socket closes (``disconnect``: not here,
        # where a socket changing from a seat to watching would drop out in between).
        sweeper.LIVE_CHANNELS[channel] = room_id
    service = presence.seat_presence if seated else presence.watch_presence
    service(room_id=room_id, user=user, channel=channel, present=present)


async def _presence(room_id, user, channel: str, present: bool, *, seated: bool = True) -> None:
    await _db(_mark_presence)(room_id, user, channel, present, seated=seated)


_act = _db(services.hand_act)


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


class TableConsumer(AsyncWebsocketConsumer):
    """The table socket (see the module docstring)."""

    async def send(self, text_data=None, bytes_data=None, close=False):
        """A frame for a socket its client has just closed is dropped: its disconnect is
        on the way and does the cleanup (raising here would end the consumer first, and
        leave its presence row beating)."""
        try:
            await super().send(text_data, bytes_data, close)
        except Disconnected:
            log.debug("frame for a closed socket dropped (room %s)", self.room_id)

    async def dispatch(self, message):
        """Channels' ``dispatch`` without its per-message ``close_old_connections``, a
        hop to a worker thread for every frame in and every group message out (four a
        move at a table): this consumer touches the database only through ``_db``
        (``database_sync_to_async``), which closes old connections on its own thread
        around each call, so the hop guards nothing here."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        from games.table.sweeper import ensure_sweeper

        self.user = None  # read from the session with the room, in ``_enter``
        self.room_id = None
        self.seat = None
        self.group: str | None = None  # the room's, once joined
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
        raw_id = _room_id(self.scope["url_route"]["kwargs"]["room_id"])
        if raw_id is None:  # not an id a room can have: no such room
            await self.close(code=4404)
            return
        # The room's group before the snapshot is read (in ``_enter``): whatever is
        # published after that read comes live.  A socket the room refuses leaves the
        # group as it closes; nothing reaches its client meanwhile (``table_frames``
        # sends nothing before the room is known).
        self.group = publish.room_group(raw_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        try:
            entered = await _enter(raw_id, self.scope.get("session"), self.channel_name)
        except services.ServiceError as e:  # the user's sockets are at their cap
            await self.send(_error(e.code, e.message))
            await self.close(code=limits.CLOSE_TOO_MANY)
            return
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
        from games.table.sweeper import LIVE_CHANNELS

        if self.releaser is not None:
            self.releaser.cancel()
            self.releaser = None
        if self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None
        try:
            if self.room_id is not None:
                room_id, seated = self.room_id, self.seat is not None
                self.room_id = self.seat = None
                await _presence(room_id, self.user, self.channel_name, False, seated=seated)
        finally:
            LIVE_CHANNELS.pop(self.channel_name, None)

    # --- seat and groups ---------------------------------------------------------
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
            # Out of the room's groups and presence first: nothing more reaches the
            # client, held frames included, between this close and its disconnect.
            await self.disconnect(None)
            self.held.clear()
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
        if kind in talk.KINDS:  # votes and quick phrases: the services check the seat
            await _db(talk.socket_message)(room_id=self.room_id, user=self.user, msg=msg)
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
        # Actions at different tables run in parallel threads; the room lock orders them.
        await _act(room_id=self.room_id, user=self.user, version=msg.get("v"), action=msg["action"])

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
