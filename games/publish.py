"""Publishing to table sockets, always on commit and always per seat.

Groups: ``room.<id>`` (everyone at the table, spectators included: room
changes, hand results, settlements), ``room.<id>.user.<uid>`` (every socket
of one signed-in user in that room) and ``room.<id>.watch`` (spectators: the
view with no concealed tile).  A seat's private view goes to the user group
of whoever occupies the seat *when it is sent* (``selectors.seat_viewers``),
never to a group fixed at connect: a socket kept open after its user left
the seat cannot receive the next occupant's tiles.  When occupancy changes,
the users concerned are told to ``reseat`` (their sockets re-check which
seat, if any, they watch).  Views come from ``games.rules.view`` only;
nothing here decides visibility.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games.messages import envelope, hand_end_payload, seat_state
from games.selectors import room_payload


def room_group(room_id) -> str:
    return f"room.{room_id}"


def user_group(room_id, user_id: int) -> str:
    return f"room.{room_id}.user.{user_id}"


def watch_group(room_id) -> str:
    return f"room.{room_id}.watch"


async def _send_all(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    # In order: a seat must never see version n+1 before version n.
    for group, env in messages:
        await layer.group_send(group, {"type": "table.send", "envelope": env})


def _send(messages: list[tuple[str, dict]]) -> None:
    """One hop into the event loop for the whole batch, not one per message."""
    async_to_sync(_send_all)(messages)


def hand_changed_on_commit(
    room_id, hand, steps, *, viewers: dict[int, int], private: bool = False
) -> None:
    """Queue each step's per-seat states (and the result at the end) for commit.

    ``viewers`` maps a seat to the user who may see its view (``selectors.seat_viewers``
    of the seats read under the room lock); seats with nobody to tell are not built."""
    messages = []
    last = len(steps) - 1
    for i, (state, events) in enumerate(steps):
        deadlines = hand.deadlines if i == last else {}
        for seat, user_id in sorted(viewers.items()):
            messages.append(
                (
                    user_group(room_id, user_id),
                    seat_state(state, seat, deadlines, hand.number, events),
                )
            )
        if not private:  # a private room has no spectators to tell
            messages.append(
                (watch_group(room_id), seat_state(state, None, deadlines, hand.number, events))
            )
        if state.phase == "ended":
            payload = hand_end_payload(state, hand)
            messages.append((room_group(room_id), envelope("hand_end", state.version, payload)))
    transaction.on_commit(lambda: _send(messages))


def room_changed_on_commit(room_id) -> None:
    def send():
        payload = room_payload(room_id)
        if payload is not None:
            _send([(room_group(room_id), envelope("room", None, payload))])

    transaction.on_commit(send)


def reseat_on_commit(room_id, user_ids) -> None:
    """Tell these users' sockets in the room that their seat changed (joined, left)."""
    targets = sorted({u for u in user_ids if u})
    if targets:
        env = {"type": "table.reseat"}

        async def send():
            layer = get_channel_layer()
            for uid in targets:
                await layer.group_send(user_group(room_id, uid), env)

        transaction.on_commit(lambda: async_to_sync(send)())


def settled(room_id, payload: dict) -> None:
    _send([(room_group(room_id), envelope("settled", None, payload))])
