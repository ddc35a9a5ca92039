"""A socket sees its hand's versions in order, whatever order the channel layer delivers.

Consecutive actions at a table may be published by different server processes, and
one's messages can overtake the other's.  Here the publisher's batches are recorded
(``publish._send`` is the hop into the channel layer) and then delivered, through the
real channel layer and the real socket, in an order of the test's choosing: the socket
must send them in version order, hold a frame past a gap until the missing ones come,
and send a snapshot instead when they do not.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.models import Hand
from games.table import consumers, publish, selectors, services
from tests.games.conftest import sweep
from tests.games.test_consumers import ann_at_a_table, connect, drain, receive_until
from tests.live import choose

pytestmark = pytest.mark.django_db(transaction=True)


def _batches_of_play(room, ann, count: int) -> list[list]:
    """Play on (ann's moves, then the bots' sweep) until ``count`` publish batches that
    each carry ann's state frames were recorded; the batches, unsent."""
    recorded: list[list] = []
    real = publish._send
    publish._send = recorded.append
    try:
        for _ in range(200):
            if len(_steps(recorded)) >= count:
                break
            state = next(e for e in selectors.table_snapshot(room.pk, 0) if e["t"] == "state")
            if state["d"]["legal"]:
                action = choose(state["d"]["legal"])
                services.hand_act(room_id=room.pk, user=ann, version=state["v"], action=action)
            else:
                sweep()
    finally:
        publish._send = real
    batches = _steps(recorded)
    assert len(batches) >= count
    return batches[:count]


def _steps(recorded: list[list]) -> list[list]:
    """The batches that move the table on for ann.  A pass that left a claim window open
    comes back to her alone, on the version she is at: not a step of the table's."""
    batches, last = [], 0
    for b in recorded:
        if _versions(b) and _versions(b)[-1] > last:
            batches.append(b)
            last = _versions(b)[-1]
    return batches


def _versions(batch) -> list[int]:
    """The versions of the state frames for a seated player (addressed to a user) in a
    batch (``publish``: ``[key, audience, text]`` frames, key ``[hand, version, kind]``)."""
    return [
        key[1]
        for _, message in batch
        for key, audience, _ in message.get("frames", ())
        if isinstance(audience, int) and key[2] == 0
    ]


def _states(msgs) -> list[int]:
    return [m["v"] for m in msgs if m["t"] == "state"]


def test_overtaken_versions_go_out_in_order_and_a_lost_one_becomes_a_snapshot(make_user):
    room, cookie = ann_at_a_table(make_user)
    ann = room.owner
    services.room_ready(room_id=room.pk, user=ann)

    async def run():
        comm = connect(room, cookie)
        await comm.connect()
        first = []
        await receive_until(comm, "state", seen=first)  # the join snapshot
        first += await drain(comm)
        assert [m["t"] for m in first][:2] == ["room", "state"] and _states(first) == [0]
        b = await database_sync_to_async(_batches_of_play)(room, ann, 6)
        send = database_sync_to_async(publish._send)
        expected = [v for batch in b for v in _versions(batch)]
        assert expected == list(range(1, len(expected) + 1))  # one step a version

        # The second batch overtakes the first: held, then both go out in order.
        await send(b[1])
        assert _states(await drain(comm)) == []
        await send(b[0])
        got = await drain(comm)
        assert _states(got) == _versions(b[0]) + _versions(b[1])

        # The third is late and repeats what was already sent: dropped, not resent.
        await send(b[2])
        await send(b[3])
        await send(b[2])
        assert _states(await drain(comm)) == _versions(b[2]) + _versions(b[3])

        # The fifth batch never comes (its server died before sending it): the sixth
        # is held, and after the gap wait the socket gets a snapshot of the table as the
        # database has it, never the gapped frame.
        await send(b[5])
        got = []  # everything up to the snapshot's state frame (sent after GAP_WAIT), and after
        await receive_until(comm, "state", timeout=consumers.GAP_WAIT + 10, seen=got)
        got += await drain(comm)
        db_version = await database_sync_to_async(
            lambda: Hand.objects.get(room=room, number=1).version
        )()
        assert db_version == _versions(b[5])[-1]
        assert [m["t"] for m in got][:2] == ["room", "state"], got
        assert _states(got) == [db_version]
        # The lost batch, turning up after all, is old news.
        await send(b[4])
        assert _states(await drain(comm)) == []
        await comm.disconnect()

    async_to_sync(run)()


def test_a_socket_never_sees_a_version_skip_under_any_delivery_order(make_user):
    """Every batch delivered, in a scrambled order: what the socket sends counts up by
    one within the hand, or restarts from a snapshot (a room, then a state)."""
    import random

    room, cookie = ann_at_a_table(make_user)
    ann = room.owner
    services.room_ready(room_id=room.pk, user=ann)

    async def run():
        comm = connect(room, cookie)
        await comm.connect()
        await drain(comm)
        b = await database_sync_to_async(_batches_of_play)(room, ann, 8)
        send = database_sync_to_async(publish._send)
        order = list(range(len(b)))
        random.Random(15).shuffle(order)
        for i in order:
            await send(b[i])
        # Up to the newest version (live, or in a snapshot after GAP_WAIT), then whatever
        # else the socket still sends.
        newest, got = _versions(b[-1])[-1], []
        while not (got and got[-1]["t"] == "state" and got[-1]["v"] == newest):
            await receive_until(comm, "state", timeout=consumers.GAP_WAIT + 10, seen=got)
        got += await drain(comm)
        last, after_room = 0, False
        for m in got:
            if m["t"] == "room":
                after_room = True
            elif m["t"] == "state":
                assert after_room or m["v"] == last + 1, (m["v"], last)
                last, after_room = m["v"], False
        assert last == _versions(b[-1])[-1]  # the newest, whether live or by snapshot
        await comm.disconnect()

    async_to_sync(run)()


async def _listening():
    """(layer, a channel in room 0's group, the group, a marker message for it)."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = await layer.new_channel()
    group = publish.room_group(0)
    await layer.group_add(group, channel)
    marker = publish.frames_message([[None, publish.EVERYONE, json.dumps({"d": "after"})]])
    return layer, channel, group, marker


async def _received(layer, channel, count: int) -> list:
    """The next ``count`` messages on ``channel``: each ``settled``'s n, or "after"."""
    got = []
    for _ in range(count):
        message = await asyncio.wait_for(layer.receive(channel), 10)
        d = json.loads(message["frames"][0][2])["d"]
        got.append(d if d == "after" else d["n"])
    return got


def test_a_call_after_publishing_runs_once_what_was_queued_before_it_is_out():
    """A call queued after a transaction's messages (the settlement task, whose
    ``settled`` must not overtake the ``hand_end``) runs only once they are in the
    channel layer.  Here the call sends a
    marker straight to the layer, past the queue: it arrives after them only if the call
    waited for them."""

    async def run():
        layer, channel, group, marker = await _listening()

        def server_work():
            for n in range(3):
                publish.settled(0, {"n": n})  # hands them to this loop's publisher
            publish.after_sent_on_commit(
                lambda: async_to_sync(publish._send_all)([(group, marker)])
            )

        await database_sync_to_async(server_work)()
        assert await _received(layer, channel, 4) == [0, 1, 2, "after"]

    async_to_sync(run)()
