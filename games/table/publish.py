"""Publishing to table sockets, always on commit.

A table's messages go to one group, ``room.<id>``, which every socket in the room
joins, as ``table.frames``: a list of ``[key, audience, text]``.  ``text`` is the
message as it goes out (JSON, made once here); ``key`` orders a hand's frames
(``[hand, version, 0 state / 1 hand_end]``, None for the others); ``audience`` is a
user id (a seat's private view, addressed to whoever occupies the seat when it is
sent: ``selectors.seat_viewers``), ``WATCH`` (spectators) or ``EVERYONE``.  Frames for
other seats reach server processes, never a client:
``consumers.TableConsumer.table_frames`` is the one place that picks what a socket
sends.  When occupancy changes, ``table.reseat`` names the users whose sockets must
re-read their seat.  Views come from ``games.rules.view`` only.

Every send happens after the transaction that made the change commits; a send that
fails is logged and lost, and the sockets notice the version gap and resync.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.db.models import F

from games.models import Room
from games.table.messages import dumps, envelope, hand_end_payload, seat_states
from games.table.selectors import room_payload

log = logging.getLogger(__name__)

WATCH = "w"  # audience: sockets watching as spectators
EVERYONE = "*"  # audience: every socket in the room


def room_group(room_id) -> str:
    return f"room.{room_id}"


def frames_message(frames: list) -> dict:
    return {"type": "table.frames", "frames": frames}


async def _send_all(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    # In order: a seat must never see version n+1 before version n.
    for group, message in messages:
        await layer.group_send(group, message)


def _send(messages: list[tuple[str, dict]]) -> None:
    """Send now and wait for it: from a server's worker thread on the server's event
    loop (``async_to_sync``), elsewhere (a Celery worker, a script) on a loop of its own."""
    try:
        async_to_sync(_send_all)(messages)
    except Exception:  # a lost notice: sockets resync on the version gap or silence
        log.exception("publishing table messages failed")


def after_sent_on_commit(fn) -> None:
    """Call ``fn`` after commit, once the messages this transaction queued are sent
    (on-commit callbacks run in the order registered, and each send waits for its
    publish): the settlement task must not be queued before the ``hand_end`` it follows
    is out (its ``settled`` would overtake it)."""
    transaction.on_commit(fn)


def hand_changed_on_commit(
    room_id,
    hand,
    steps,
    *,
    viewers: dict[int, int],
    private: bool = False,
    private_to=None,
) -> None:
    """Send each step's per-seat states (and the result at the end) after commit.

    ``viewers`` maps a seat to the user who may see its view (``selectors.seat_viewers``
    of the seats read under the room lock); seats with nobody to tell are not built.  The
    spectators' view of a public room is always built: asking whether anyone watches
    would cost the move a query, and the view costs less.

    ``private_to`` (one entry a step): the seat a step is news to alone (an answer that
    left a claim window open), None for a step everyone is told of.  Nobody else gets a
    frame for it, so a table where somebody could claim sends the others the same frames
    as one where nobody could: the last step they are told of carries the clocks.  A
    private step that a step everyone is told of follows in the same batch (an answer
    that let its window close at once) has no frame of its own: its events, its seat's
    alone (``only``), go with that step's frame, so a socket sees each version once."""
    frames = []
    only = private_to or [None] * len(steps)
    last = len(steps) - 1
    last_public = max((i for i, seat in enumerate(only) if seat is None), default=-1)
    carried: list = []
    for i, (state, events) in enumerate(steps):
        if only[i] is not None and i < last_public:
            carried += events
            continue
        events, carried = carried + events, []
        deadlines = hand.deadlines if i in (last, last_public) else {}
        key = [hand.number, state.public_version, 0]
        if only[i] is not None:
            seats = [only[i]] if only[i] in viewers else []
        else:
            seats = sorted(viewers)
            if not private:  # a private room has no spectators to tell
                seats.append(None)
        built = seat_states(state, seats, deadlines, hand.number, events)
        for seat in seats:
            frames.append([key, WATCH if seat is None else viewers[seat], dumps(built[seat])])
        if state.phase == "ended":
            payload = hand_end_payload(state, hand)
            end = envelope("hand_end", state.public_version, payload)
            frames.append([[hand.number, state.public_version, 1], EVERYONE, dumps(end)])
    messages = [(room_group(room_id), frames_message(frames))]
    transaction.on_commit(lambda: _send(messages))


def _to_everyone(room_id, env: dict) -> None:
    _send([(room_group(room_id), frames_message([[None, EVERYONE, dumps(env)]]))])


def room_changed_on_commit(room_id) -> None:
    """Send the room's payload to its sockets after commit.  The payload is read in a
    transaction that bumps the room's ``revision`` (the bump's row lock orders two
    changes at once: two spectators leaving), and sent after that transaction, so no
    lock is held over the channel layer's round trip; two frames may then reach a
    socket crossed, and the client keeps the one with the higher revision."""

    def send():
        with transaction.atomic():
            if not Room.objects.filter(pk=room_id).update(revision=F("revision") + 1):
                return  # the room is gone
            payload = room_payload(room_id)
        if payload is not None:
            _to_everyone(room_id, envelope("room", None, payload))

    transaction.on_commit(send)


def reseat_on_commit(room_id, user_ids) -> None:
    """Tell these users' sockets in the room that their seat changed (joined, left)."""
    targets = sorted({u for u in user_ids if u})
    if targets:
        messages = [(room_group(room_id), {"type": "table.reseat", "users": targets})]
        transaction.on_commit(lambda: _send(messages))


def settled(room_id, payload: dict) -> None:
    _to_everyone(room_id, envelope("settled", None, payload))


def phrase_said(room_id, payload: dict) -> None:
    """A quick phrase (快捷语) from a seat, to everyone at the table, now: it changes
    nothing stored, so there is no commit to wait for."""
    _to_everyone(room_id, envelope("phrase", None, payload))
