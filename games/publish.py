"""Publishing to table sockets, always on commit.

A table's messages go to one group, ``room.<id>``, which every socket in the room
joins (players and spectators), as ``table.frames``: a list of frames, each
``[key, audience, text]``.  ``text`` is the message as it goes out (JSON, made once
here); ``key`` orders a hand's frames (``[hand, version, 0 state / 1 hand_end]``,
None for the others); ``audience`` says which sockets may send it on: a user id (the
sockets of that user, for a seat's private view), ``WATCH`` (spectators: the view with
no concealed tile) or ``EVERYONE``.  One publish an action, whoever watches, instead
of one a seat: the channel layer was a fifth of the table server's work.

A seat's private view is addressed to whoever occupies the seat *when it is sent*
(``selectors.seat_viewers``), never to a socket fixed at connect: a socket kept open
after its user left the seat cannot send on the next occupant's tiles.  The frames
for other seats reach the server processes of every socket in the room, never a
client: ``consumers.TableConsumer.table_frames`` is the one place that picks what a
socket sends.  When occupancy changes, the users concerned are told to ``reseat``
(``table.reseat`` to the room's group, naming them: their sockets re-check which seat,
if any, they watch; one group a socket, not one more per user, halves what a burst of
sockets coming and going asks of Redis).  Views come from ``games.rules.view`` only;
nothing here decides visibility.

From a server thread (a socket's or a page's database call) messages are handed to
the event loop that thread serves: its own sockets' queues get them there and then, and
its publisher task sends them on to Redis in order, without the thread waiting (whatever
queued up meanwhile goes out in one pipelined round trip, ``games.layers``); elsewhere
(a Celery worker, a script) the call publishes and waits.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import weakref

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import close_old_connections, transaction

from games.messages import dumps, envelope, hand_end_payload, seat_states
from games.selectors import room_payload

log = logging.getLogger(__name__)

WATCH = "w"  # audience: sockets watching as spectators
EVERYONE = "*"  # audience: every socket in the room


def room_group(room_id) -> str:
    return f"room.{room_id}"


def frames_message(frames: list) -> dict:
    return {"type": "table.frames", "frames": frames}


class _Remote(list):
    """Messages handed over and delivered in this process already (``games.layers``'
    ``deliver_here``): what the other processes still need from Redis."""


async def _send_all(messages: list) -> None:
    layer = get_channel_layer()
    if isinstance(messages, _Remote):
        await layer.publish_prepared(messages)
        return
    # In order: a seat must never see version n+1 before version n.
    many = getattr(layer, "group_send_many", None)  # games.layers: one round trip
    if many is not None:
        await many(messages)
        return
    for group, message in messages:
        await layer.group_send(group, message)


# Per event loop: the queue its publisher task sends from, in the order handed over.
_QUEUES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def _publisher(queue: asyncio.Queue) -> None:
    """Send what was handed over, in order: everything queued meanwhile goes out in one
    ``_send_all`` (one round trip to Redis, ``games.layers``); then the calls queued with
    it (``after_sent_on_commit``), whose messages are all out by then.  (A round trip for
    each call's messages in turn: in a burst of hands ending, each hand's settlement
    waited for every earlier hand's round trip, one after the other; at 250 tables the
    ``settled`` came 8-19 s after the ``hand_end``.)"""
    loop = asyncio.get_running_loop()
    try:
        while True:
            items = [await queue.get()]
            while not queue.empty():
                items.append(queue.get_nowait())
            batch: list = []
            calls = []
            for item in items:
                if callable(item):
                    calls.append(item)
                    continue
                if isinstance(item, _Remote) and not isinstance(batch, _Remote):
                    batch = _Remote(batch)  # one layer a process: all are, or none
                batch.extend(item)
            await _send_logged(batch)
            for call in calls:
                fut = loop.run_in_executor(None, _run_after_sent, loop, call)
                fut.add_done_callback(_logged)
    finally:  # the loop is shutting down (a test's): let it go
        _QUEUES.pop(loop, None)


async def _send_logged(messages: list) -> None:
    if not messages:
        return
    try:
        await _send_all(messages)
    except Exception:  # a lost notice: sockets resync on the version gap or silence
        log.exception("publishing table messages failed")


def _run_after_sent(loop, fn) -> None:
    """``fn`` in a worker thread of ``loop`` (what it publishes goes through the queue)."""
    SyncToAsync.threadlocal.main_event_loop = loop
    SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
    close_old_connections()
    try:
        fn()
    finally:
        close_old_connections()


def _logged(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("after-publish call failed", exc_info=future.exception())


def _hand_over(loop, item) -> None:
    """On ``loop``: queue ``item`` (messages, or a call) for its publisher task (started on
    first use)."""
    queue = _QUEUES.get(loop)
    if queue is None:
        queue = _QUEUES[loop] = asyncio.Queue()
        queue.task = loop.create_task(_publisher(queue))  # a strong reference, till it ends
    here = getattr(get_channel_layer(), "deliver_here", None)  # games.layers
    if here is not None and not callable(item):
        # This process's sockets get the messages now, whatever the publisher is waiting
        # on: only the other processes' copies wait for their turn to Redis.
        try:
            item = _Remote(here(item))
        except Exception:
            log.exception("delivering table messages failed")
            return
    queue.put_nowait(item)


def _server_loop():
    """The running event loop this thread does database work for (a ``sync_to_async``
    worker's); None when there is none (a Celery worker, a script, a test's own thread)."""
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    if loop.is_closed() or not loop.is_running():
        return None
    return loop


def _queued(item) -> bool:
    """Hand ``item`` (messages, or a call) to the publisher of the running event loop
    this thread does database work for; False when there is none."""
    loop = _server_loop()
    if loop is None:
        return False
    try:
        loop.call_soon_threadsafe(_hand_over, loop, item)
    except RuntimeError:  # the loop closed meanwhile
        return False
    return True


# A process with no server loop (a Celery worker, a script) publishing through the Redis
# layer: one event loop of its own, in a thread, so the layer's connection to Redis is
# made once, not for every publish (``async_to_sync`` runs each call on a new loop, and
# the layer keeps a connection per loop: 2.5 ms a publish in the settlement task).
PUBLISH_TIMEOUT = 10.0  # seconds
_OWN_LOOP: tuple[int, asyncio.AbstractEventLoop] | None = None
_OWN_LOOP_LOCK = threading.Lock()


def _own_loop() -> asyncio.AbstractEventLoop:
    global _OWN_LOOP
    with _OWN_LOOP_LOCK:
        if _OWN_LOOP is None or _OWN_LOOP[0] != os.getpid():  # none yet, or forked since
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="publish-loop", daemon=True).start()
            _OWN_LOOP = (os.getpid(), loop)
        return _OWN_LOOP[1]


def _send(messages: list[tuple[str, dict]]) -> None:
    if _queued(messages):
        return
    if getattr(get_channel_layer(), "group_send_many", None) is not None:  # games.layers
        future = asyncio.run_coroutine_threadsafe(_send_all(messages), _own_loop())
        future.result(PUBLISH_TIMEOUT)
        return
    async_to_sync(_send_all)(messages)


def after_sent_on_commit(fn) -> None:
    """Call ``fn`` after commit, once the messages this transaction queued (and all
    queued before them) are published: the settlement task must not be queued before
    the ``hand_end`` it follows is out (its ``settled`` would overtake it)."""

    def hook():
        if not _queued(fn):
            fn()  # what was queued went out synchronously

    transaction.on_commit(hook)


def hand_changed_on_commit(
    room_id, hand, steps, *, viewers: dict[int, int], private: bool = False, watched: bool = True
) -> None:
    """Queue each step's per-seat states (and the result at the end) for commit
    (``hand_changed``)."""
    send_on_commit(
        hand_changed(room_id, hand, steps, viewers=viewers, private=private, watched=watched)
    )


def send_on_commit(messages: list) -> None:
    transaction.on_commit(lambda: _send(messages))


def send_here(messages: list) -> None:
    """Send ``messages`` now, from the server's event loop itself (``games.loopdb``'s
    writes): to this process's sockets at once, to the others through the publisher."""
    loop = asyncio.get_running_loop()
    _hand_over(loop, messages)


def hand_changed(
    room_id, hand, steps, *, viewers: dict[int, int], private: bool = False, watched: bool = True
) -> list:
    """Each step's per-seat states (and the result at the end): the messages to send.

    ``viewers`` maps a seat to the user who may see its view (``selectors.seat_viewers``
    of the seats read under the room lock); seats with nobody to tell are not built, nor
    is the spectators' view when nobody watches (``watched`` False: no spectator's
    presence, read under the room lock; one who comes later starts from a snapshot)."""
    frames = []
    last = len(steps) - 1
    for i, (state, events) in enumerate(steps):
        deadlines = hand.deadlines if i == last else {}
        key = [hand.number, state.version, 0]
        seats = sorted(viewers)
        if watched and not private:  # a private room has no spectators to tell
            seats.append(None)
        built = seat_states(state, seats, deadlines, hand.number, events)
        for seat in seats:
            frames.append([key, WATCH if seat is None else viewers[seat], dumps(built[seat])])
        if state.phase == "ended":
            payload = hand_end_payload(state, hand)
            end = envelope("hand_end", state.version, payload)
            frames.append([[hand.number, state.version, 1], EVERYONE, dumps(end)])
    return [(room_group(room_id), frames_message(frames))]


def _to_everyone(room_id, env: dict) -> None:
    _send([(room_group(room_id), frames_message([[None, EVERYONE, dumps(env)]]))])


def room_changed_on_commit(room_id, *, merge: bool = False) -> None:
    """Send the room's payload (read when sent) to its sockets after commit.

    ``merge``: a change that may go out up to ``ROOM_MERGE`` seconds later, in one
    payload with the room's other such changes (``_merged``): who is connected, who is
    ready.  A table sitting down or getting up is four of each within moments, and each
    payload is several reads and a send to every socket in the room."""

    def send():
        payload = room_payload(room_id)
        if payload is not None:
            _to_everyone(room_id, envelope("room", None, payload))

    transaction.on_commit((lambda: _merged(room_id, send)) if merge else send)


ROOM_MERGE = 0.05  # seconds
# Per event loop: the rooms whose merged payload is due from it (not yet read).
_DUE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_DUE_LOCK = threading.Lock()


def _merged(room_id, send) -> None:
    """``send`` in ``ROOM_MERGE`` seconds, in a worker thread of this server's loop,
    unless a send of this room is due already: that one reads the room after this
    change committed, so it carries it.  (The room leaves the due set before it is
    read: whatever commits after that gets a send of its own.)  Without a server loop
    (a Celery worker, a script): at once."""
    loop = _server_loop()
    if loop is None:
        send()
        return
    with _DUE_LOCK:
        due = _DUE.setdefault(loop, set())
        if room_id in due:
            return
        due.add(room_id)

    def run():
        with _DUE_LOCK:
            due.discard(room_id)
        send()

    def later():
        fut = loop.run_in_executor(None, _run_after_sent, loop, run)
        fut.add_done_callback(_logged)

    try:
        loop.call_soon_threadsafe(loop.call_later, ROOM_MERGE, later)
    except RuntimeError:  # the loop closed meanwhile
        run()


def reseat_on_commit(room_id, user_ids) -> None:
    """Tell these users' sockets in the room that their seat changed (joined, left)."""
    targets = sorted({u for u in user_ids if u})
    if targets:
        messages = [(room_group(room_id), {"type": "table.reseat", "users": targets})]
        transaction.on_commit(lambda: _send(messages))


def settled(room_id, payload: dict) -> None:
    _to_everyone(room_id, envelope("settled", None, payload))
