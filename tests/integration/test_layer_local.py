"""``games.layers.PubSubLayer`` delivers a process's own group messages in the process.

Two layer instances stand for two server processes on one Redis.  A message sent with
``group_send_many`` reaches the sender's channels in the group at once and exactly once
(Redis brings it back too: that copy is dropped before any queue), and the other process's channels
through Redis, also once; plain ``group_send`` and the other process's messages come
through Redis as before.  Collected only with REDIS_URL (``conftest.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid

from asgiref.sync import async_to_sync

from games.layers import PubSubLayer


async def _next(layer, channel, timeout=2.0):
    return await asyncio.wait_for(layer.receive(channel), timeout)


async def _nothing_more(layer, channel, wait=0.3) -> bool:
    """Nothing ``receive`` would return is waiting on the channel, ``wait`` seconds on
    (looked at in the queue: a receive that timed out would end the channel)."""
    await asyncio.sleep(wait)
    queued = layer._get_layer().channels[channel]._queue
    extra = [layer.deserialize(m) for m in queued]
    assert not extra, f"received a second copy: {extra!r}"
    return True


@contextlib.asynccontextmanager
async def _two_processes():
    """Two layers on one Redis and a fresh prefix: two server processes' (here, there)."""
    prefix = f"t{uuid.uuid4().hex[:8]}"
    here = PubSubLayer(hosts=[os.environ["REDIS_URL"]], prefix=prefix)
    there = PubSubLayer(hosts=[os.environ["REDIS_URL"]], prefix=prefix)
    try:
        yield here, there
    finally:
        await here.flush()
        await there.flush()


def test_own_messages_come_once_in_process_and_once_elsewhere_through_redis():
    async def run():
        group = "room.1"
        async with _two_processes() as (here, there):
            a, b = await here.new_channel(), await here.new_channel()
            c = await there.new_channel()
            for layer, ch in ((here, a), (here, b), (there, c)):
                await layer.group_add(group, ch)
            frames = {"type": "table.frames", "frames": [[[1, 2, 0], 7, "{}"]]}

            await here.group_send_many([(group, frames), (group, {"type": "t.two"})])
            # In process: at once, in order, before any round trip through Redis.
            assert here._get_layer().channels[a].qsize() == 2
            assert await _next(here, a) == frames
            assert (await _next(here, a))["type"] == "t.two"
            assert await _next(here, b) == frames
            assert (await _next(here, b))["type"] == "t.two"
            got = await _next(there, c)
            assert got["frames"] == [[[1, 2, 0], 7, "{}"]]  # through Redis, msgpack'd
            assert (await _next(there, c))["type"] == "t.two"
            # Redis's copies of the two for ``here`` are dropped, not delivered again.
            assert await _nothing_more(here, a) and await _nothing_more(here, b)
            assert await _nothing_more(there, c)

            # The other process's messages and plain group_send come through Redis.
            await there.group_send_many([(group, {"type": "t.three"})])
            assert (await _next(here, a))["type"] == "t.three"
            assert (await _next(here, b))["type"] == "t.three"
            assert (await _next(there, c))["type"] == "t.three"
            await here.group_send(group, {"type": "t.four"})
            for layer, ch in ((here, a), (here, b), (there, c)):
                assert (await _next(layer, ch))["type"] == "t.four"
                assert await _nothing_more(layer, ch)

            # Each receiver gets its own message: one changing it changes no other's.
            await here.group_send_many([(group, {"type": "t.five", "n": 1})])
            first = await _next(here, a)
            first["n"] = 2
            assert (await _next(here, b))["n"] == 1
            assert (await _next(there, c))["n"] == 1

            # A process with no channel in the group delivers nothing in process.
            await here.group_discard(group, a)
            await here.group_discard(group, b)
            await here.group_send_many([(group, {"type": "t.six"})])
            assert (await _next(there, c))["type"] == "t.six"
            assert await _nothing_more(here, a, 0.2)

    async_to_sync(run)()


def test_frames_do_not_wait_for_the_sockets_subscribing():
    """The shard's lock orders the process's subscribes and unsubscribes, one loop pass
    each: a thousand sockets sitting down held the tables' frames behind it.  Delivery in
    process needs no Redis at all, and the publish to the others does not take the lock."""

    async def run():
        group = "room.2"
        async with _two_processes() as (here, there):
            a = await here.new_channel()
            c = await there.new_channel()
            await here.group_add(group, a)
            await there.group_add(group, c)
            (shard,) = here._get_layer()._shards
            async with shard._lock:  # a subscribe under way, as in a burst of sit-downs
                prepared = here.deliver_here([(group, {"type": "t.one"})])
                assert here._get_layer().channels[a].qsize() == 1  # there already
                await asyncio.wait_for(here.publish_prepared(prepared), 2.0)
                assert (await _next(there, c))["type"] == "t.one"
            assert (await _next(here, a))["type"] == "t.one"
            assert await _nothing_more(here, a) and await _nothing_more(there, c)

    async_to_sync(run)()


def test_a_consumer_that_asks_is_handed_this_process_s_messages_by_a_call():
    """``deliver_directly``: the process's own group messages for that channel come to the
    consumer's callable, at once and in order, none through its queue (nor Redis's copy);
    the other process's still come through the queue; after ``stop_directly``, all do."""

    async def run():
        group = "room.3"
        async with _two_processes() as (here, there):
            a, b = await here.new_channel(), await here.new_channel()
            c = await there.new_channel()
            for layer, ch in ((here, a), (here, b), (there, c)):
                await layer.group_add(group, ch)
            taken = []
            here.deliver_directly(a, taken.append)

            await here.group_send_many([(group, {"type": "t.one"}), (group, {"type": "t.two"})])
            assert [m["type"] for m in taken] == ["t.one", "t.two"]  # before any await
            assert (await _next(here, b))["type"] == "t.one"  # b did not ask: its queue
            assert (await _next(there, c))["type"] == "t.one"
            taken[0]["n"] = 1  # a copy of its own
            assert "n" not in (await _next(here, b))
            assert await _nothing_more(here, a)  # nor the echo from Redis

            await there.group_send_many([(group, {"type": "t.three"})])
            assert (await _next(here, a))["type"] == "t.three"  # another process's: queued
            assert (await _next(here, b))["type"] == "t.three"
            assert len(taken) == 2

            here.stop_directly(a)
            await here.group_send_many([(group, {"type": "t.four"})])
            assert (await _next(here, a))["type"] == "t.four"
            assert (await _next(here, b))["type"] == "t.four"
            assert len(taken) == 2

            # A callable that fails fails alone: the group's other channels still get it.
            here.deliver_directly(a, lambda message: 1 / 0)
            await here.group_send_many([(group, {"type": "t.five"})])
            assert (await _next(here, b))["type"] == "t.five"
            here.stop_directly(a)

    async_to_sync(run)()


def test_a_group_only_channel_gets_its_groups_messages_without_a_subscription_of_its_own():
    """``new_group_channel``: the table socket's channel, never sent to by name, is not
    subscribed in Redis; its groups' messages (this process's and another's) still come."""

    async def run():
        group = "room.4"
        async with _two_processes() as (here, there):
            a = await here.new_group_channel()
            c = await there.new_channel()
            (shard,) = here._get_layer()._shards
            assert a not in shard._subscribed_to
            await here.group_add(group, a)
            await there.group_add(group, c)
            await here.group_send_many([(group, {"type": "t.one"})])
            assert (await _next(here, a))["type"] == "t.one"
            await there.group_send_many([(group, {"type": "t.two"})])
            assert (await _next(here, a))["type"] == "t.two"
            assert await _nothing_more(here, a)
            assert a not in shard._subscribed_to
            await here.group_discard(group, a)

    async_to_sync(run)()
