"""The table socket on the Redis layer: a table's frames published in its process reach
it by a call (``games.layers``' ``deliver_directly``), not through its channel's queue.

An idle socket sends them in the very turn of the loop they were published in; one that
is busy keeps them, in order, for when it is free.  Collected only with REDIS_URL
(``conftest.py``): the embedded profile's in-memory layer has no such call.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import publish, services
from tests.games.conftest import _table_settings  # noqa: F401 - autouse, as in tests/games
from tests.games.test_consumers import ann_at_a_table, connect, drain

pytestmark = pytest.mark.django_db(transaction=True)


def _probe(room_id, n: int) -> list:
    text = f'{{"t": "probe", "v": null, "d": {{"n": {n}}}}}'
    return [(publish.room_group(room_id), publish.frames_message([[None, publish.EVERYONE, text]]))]


def _consumer(channel_name: str):
    """The socket's consumer, by the callable it registered with the layer."""
    return get_channel_layer()._direct[channel_name].__self__


def _probes_out(comm) -> list[int]:
    """The probes the socket has sent and the test not yet received (looked at in place)."""
    texts = [m.get("text", "") for m in list(comm.output_queue._queue)]
    return [json.loads(t)["d"]["n"] for t in texts if '"probe"' in t]


async def _seated_socket(room, cookie):
    """Ann's socket at her table, its snapshot received: (the socket, its channel)."""
    layer = get_channel_layer()
    before = set(layer._direct)
    comm = connect(room, cookie)
    await comm.connect()
    first = await drain(comm)
    assert [m["t"] for m in first][:2] == ["room", "state"]
    (channel,) = set(layer._direct) - before  # the socket asked for its messages
    return comm, channel


def test_an_idle_socket_sends_a_frame_in_the_turn_it_was_published(make_user):
    room, cookie = ann_at_a_table(make_user)
    services.room_ready(room_id=room.pk, user=room.owner)

    async def run():
        layer = get_channel_layer()
        comm, channel = await _seated_socket(room, cookie)
        publish.send_here(_probe(room.pk, 1))
        # No await since: it is out already, not waiting in the channel's queue.
        assert _probes_out(comm) == [1]
        assert layer._get_layer().channels[channel].empty()
        await comm.disconnect()
        for _ in range(50):
            if channel not in layer._direct:
                break
            await asyncio.sleep(0.02)
        assert channel not in layer._direct  # a closed socket is handed nothing

    async_to_sync(run)()


def test_frames_for_a_busy_socket_wait_and_go_out_in_order(make_user):
    room, cookie = ann_at_a_table(make_user)
    services.room_ready(room_id=room.pk, user=room.owner)

    async def run():
        comm, channel = await _seated_socket(room, cookie)
        consumer = _consumer(channel)

        # Busy sending (its sequence lock held, as while a snapshot is read): kept.
        async with consumer.seq_lock:
            for n in range(1, 4):
                publish.send_here(_probe(room.pk, n))
            await asyncio.sleep(0.05)
            assert _probes_out(comm) == []
        await asyncio.sleep(0.05)
        assert _probes_out(comm) == [1, 2, 3]
        await drain(comm)

        # Busy in a handler (a sync reads the database): after it, in order.
        await comm.send_json_to({"t": "sync"})
        for _ in range(100):
            if consumer._busy:
                break  # the frame is in its handler, which waits for the database
            await asyncio.sleep(0)
        assert consumer._busy
        publish.send_here(_probe(room.pk, 4))
        assert _probes_out(comm) == []
        out = await drain(comm)
        kinds = [m["t"] for m in out]
        assert kinds.count("probe") == 1 and kinds.index("probe") > kinds.index("state"), kinds
        await comm.disconnect()

    async_to_sync(run)()
