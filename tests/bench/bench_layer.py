"""Benchmark: one table action's frames to a table's four sockets through the channel layer.

    python tests/bench/bench_layer.py [messages]

What ``games.layers.PubSubLayer`` changed, with channels_redis' own pub/sub layer as the
peer in the same run, on the same Redis (``REDIS_URL``, or db 11 of the local one): a
``table.frames`` message as the publisher sends it for one action (four seats' states
and the spectators' view, ~1.5 KB of JSON each) to a group whose four channels all live
in this process, as a room's sockets do on the Daphne process its actions run in
(``deploy/nginx.conf``).  Each message is sent and then received on all four channels
before the next, so the figures are per action: this process's CPU (sending, reading
Redis, decoding, queueing; Redis's own CPU is not in it) and the wall time from the send
to the fourth receiver's wake-up.  The two layers take turns for three rounds; each round's figures
are printed.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import string
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from channels_redis.pubsub import RedisPubSubChannelLayer  # noqa: E402

from games.layers import PubSubLayer  # noqa: E402

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/11")


def frames_message(rng: random.Random) -> dict:
    """A message shaped as ``games.publish`` sends one action: five frames of JSON text."""

    def text() -> str:
        junk = "".join(rng.choices(string.ascii_letters, k=1500))
        return json.dumps({"t": "state", "v": 12, "d": {"junk": junk}})

    frames = [[[3, 12, 0], uid, text()] for uid in (11, 12, 13, 14)]
    frames.append([[3, 12, 0], "w", text()])
    return {"type": "table.frames", "frames": frames}


async def one_round(cls, messages: int, message: dict) -> tuple[float, list[float]]:
    layer = cls(hosts=[REDIS_URL], prefix=f"bench{uuid.uuid4().hex[:8]}")
    group = "room.1"
    channels = [await layer.new_channel() for _ in range(4)]
    for channel in channels:
        await layer.group_add(group, channel)
    send = getattr(layer, "group_send_many", None)
    latencies = []

    async def received(channel) -> float:
        got = await layer.receive(channel)
        assert len(got["frames"]) == 5
        return time.perf_counter()

    try:
        cpu0 = time.process_time()
        for _ in range(messages):
            receivers = asyncio.gather(*(received(c) for c in channels))
            await asyncio.sleep(0)  # the receivers wait on their queues, as sockets do
            sent = time.perf_counter()
            if send is not None:
                await send([(group, message)])
            else:
                await layer.group_send(group, message)
            latencies.append(max(await receivers) - sent)
        await asyncio.sleep(0.2)  # Redis's copies still on their way back: read, dropped
        cpu = time.process_time() - cpu0
    finally:
        await layer.flush()
    return cpu, latencies


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def main() -> None:
    messages = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    message = frames_message(random.Random(1))
    sides = [("channels_redis pub/sub", RedisPubSubChannelLayer), ("games.layers", PubSubLayer)]
    print(
        f"one action's frames ({sum(len(f[2]) for f in message['frames'])} bytes of JSON)"
        f" to 4 sockets in this process, {messages} messages a round"
    )
    print(f"{'round':>5}  {'layer':24}{'CPU ms/action':>14}{'p50 ms':>9}{'p99 ms':>9}")
    for r in range(3):
        for name, cls in sides:
            cpu, lat = asyncio.run(one_round(cls, messages, message))
            print(
                f"{r + 1:>5}  {name:24}{cpu * 1000 / messages:>14.3f}"
                f"{pct(lat, 0.5):>9.3f}{pct(lat, 0.99):>9.3f}"
            )


if __name__ == "__main__":
    main()
