"""The channel layer the table server publishes through.

``PubSubLayer`` is channels_redis' pub/sub layer with two additions:

- ``group_send_many``: several group messages in one pipelined round trip to Redis, in
  order.  The table server's publisher (``games.publish``) hands it whatever has queued
  up since its last send: one ``group_send`` at a time awaited Redis's answer to each
  before the next, so under load the queue grew faster than it drained (at 250 paced
  tables, p99 of the hop from commit to Redis 250 ms).  Messages to one group go to one
  shard in the order given, so a table's frames keep their order.
- **Delivery in the process first**: a message ``group_send_many`` sends goes straight
  into the queues of this process's channels in the group (as the layer's reader would
  put it there), and on to Redis for the other processes, marked with this layer's
  origin; when Redis brings it back, this process's reader drops it before it reaches
  any queue (``_Shard``).  A table's sockets share the server process its actions run
  in (``deploy/nginx.conf`` routes a room to one Daphne), so most frames never wait for
  the round trip through Redis, and are decoded by no one here (it was msgpack-decoded
  once per socket).  A channel that joins the group between the send and the echo
  misses the message, as it would have a message published just before it joined: a
  socket joins its groups before it reads its snapshot (``consumers``), which already
  holds what was committed.
- **Straight to the consumer**: a channel whose consumer registered a callable
  (``deliver_directly``; the table socket does) is handed such a message by a call, not
  through its queue: the consumer sends a table's frames in the same turn of the loop,
  or keeps the message for when its current handler returns (``consumers``).  Its queue
  still brings what other processes publish.

Written against channels-redis 4.3 (its per-loop layer, that layer's ``channels``,
``groups`` and shards, and a shard's ``_receive_message``), which ``requirements.txt``
pins.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

# Marks a published message that its sender's process has delivered to itself: this
# byte (one msgpack never starts with, nor a Fernet token) and the sender's origin id.
_MARK = b"\xc1"
_MARKED = len(_MARK) + 16

log = logging.getLogger(__name__)


class _Shard(RedisSingleShardConnection):
    """A connection to one Redis whose reader drops this process's own marked messages
    (they are in the queues already) before they reach any channel's queue."""

    def _receive_message(self, message):
        if message is not None:
            data = message["data"]
            if data[:_MARKED] == self.channel_layer.channel_layer._origin:
                return
        super()._receive_message(message)


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._shards = [_Shard(shard.host, self) for shard in self._shards]


class PubSubLayer(RedisPubSubChannelLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._origin = _MARK + uuid.uuid4().bytes
        self._direct: dict[str, Callable[[dict], None]] = {}

    async def new_group_channel(self) -> str:
        """A channel of this process for a consumer that is only ever sent group messages
        (the table socket): as ``new_channel``'s, without subscribing to it in Redis.  A
        group's messages reach it through the group's subscription; a socket sitting down
        (and getting up) then costs one subscribe (and unsubscribe) fewer under the shard's
        lock, where its table's four had five (issue 15: a thousand sockets sitting down).
        A message sent to the channel itself by name would not arrive."""
        layer = self._get_layer()
        channel = f"{layer.prefix}specific.{uuid.uuid4().hex}"
        layer.channels[channel] = asyncio.Queue()
        return channel

    def deliver_directly(self, channel: str, take: Callable[[dict], None]) -> None:
        """Hand this process's messages for ``channel`` to ``take`` (called on the event
        loop, in the order sent; it must not block) instead of the channel's queue."""
        self._direct[channel] = take

    def stop_directly(self, channel: str) -> None:
        self._direct.pop(channel, None)

    def _get_layer(self):
        """channels_redis' per-loop layer, with ``_Shard`` connections."""
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """Send each ``(group, message)``, in order: to this process's channels in the
        group at once, to the other processes' pipelined per shard."""
        await self.publish_prepared(self.deliver_here(messages))

    def deliver_here(self, messages: list[tuple[str, dict]]) -> list:
        """Put each ``(group, message)`` in the queues of this process's channels in the
        group, now and in order; return what the other processes still need, for
        ``publish_prepared``.  (The table server's publisher calls this the moment a
        message is handed over: the Redis round trip only ever delays other processes.)"""
        layer = self._get_layer()
        prepared = []
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            data = self.serialize(message)
            if self._deliver_here(layer, channel, message):
                data = self._origin + data
            prepared.append((layer._get_shard(channel), channel, data))
        return prepared

    async def publish_prepared(self, prepared: list) -> None:
        """Publish what ``deliver_here`` returned, in order, in one pipelined round trip
        per shard.  Not under the shard's lock: that lock also orders every subscribe and
        unsubscribe of the process's sockets, one loop pass each, and a burst of sockets
        coming or going (a thousand at a time) held the tables' frames behind it for
        seconds.  The publishes go on a connection of the shard's pool, not its pub/sub
        connection; this process's publishes keep their order because one task sends them
        (``games.publish``)."""
        by_shard: dict = {}
        for shard, channel, data in prepared:
            by_shard.setdefault(shard, []).append((channel, data))
        for shard, items in by_shard.items():
            shard._ensure_redis()
            pipe = shard._redis.pipeline(transaction=False)
            for channel, data in items:
                pipe.publish(channel, data)
            await pipe.execute()

    def _deliver_here(self, layer, group_channel: str, message: dict) -> bool:
        """Hand ``message`` to each of this process's channels in the group: its
        consumer's ``take`` (``deliver_directly``) or its queue, each a copy
        (``deserialize`` makes the queued ones'); False when there are none."""
        members = layer.groups.get(group_channel)
        if not members:
            return False
        for name in list(members):  # a consumer may leave the group as it is handed one
            take = self._direct.get(name)
            if take is not None:
                try:
                    take(dict(message))
                except Exception:  # one socket's failure is not the others'
                    log.exception("handing a message to %s failed", name)
                continue
            queue = layer.channels.get(name)
            if queue is not None:
                queue.put_nowait(message)
        return True

    def deserialize(self, message):
        if isinstance(message, dict):  # delivered in this process, never serialized
            return dict(message)
        if message[:1] == _MARK:  # another process's, delivered there already
            message = message[_MARKED:]
        return super().deserialize(message)
