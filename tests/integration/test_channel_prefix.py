"""Two deployments on one Redis: a table's frames reach only the deployment they were
sent in.  Redis pub/sub ignores database numbers, so the channel layer's prefix
(``CHANNEL_LAYER_PREFIX``) is what keeps them apart; by default it names the database.

Each deployment's layer is built from the settings as a process with that
environment reads them, against a private Redis (``tests.integration.faults``)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
from asgiref.sync import async_to_sync
from django.utils.module_loading import import_string

from tests.integration import faults
from tests.live import ROOT

pytestmark = pytest.mark.skipif(
    faults.REDIS_SERVER is None, reason="needs redis-server (Debian's redis-server package)"
)
FRAME = {"type": "table.frames", "frames": [[None, "*", '{"t": "room"}']]}


def layer_config(**env: str) -> dict:
    """The channel layer's settings in a process started with ``env``."""
    probe = (
        "import json; from django.conf import settings; "
        "print(json.dumps(settings.CHANNEL_LAYERS['default']))"
    )
    full = {k: v for k, v in os.environ.items() if k != "CHANNEL_LAYER_PREFIX"}
    full.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=full, capture_output=True, text=True,
        check=True, timeout=60,
    )  # fmt: skip
    return json.loads(out.stdout)


def make_layer(config: dict):
    return import_string(config["BACKEND"])(**config["CONFIG"])


async def heard(config_a: dict, config_b: dict) -> list[dict]:
    """What a socket of deployment A in group ``room.1`` receives when deployment B sends
    three frames to ``room.1`` and then A itself sends one: A's own frame always comes
    (the subscription was live), B's only if the two deployments share a layer."""
    listener, ours, theirs = make_layer(config_a), make_layer(config_a), make_layer(config_b)
    channel = await listener.new_channel()
    await listener.group_add("room.1", channel)
    inbox: asyncio.Queue = asyncio.Queue()

    async def read():  # one receive at a time, never cancelled midway (that unsubscribes)
        while True:
            await inbox.put(await listener.receive(channel))

    reader = asyncio.ensure_future(read())
    # Pub/sub delivers only once the subscription is in place: send until one arrives.
    for _ in range(100):
        await ours.group_send("room.1", {"type": "table.ping"})
        try:
            await asyncio.wait_for(inbox.get(), 0.1)
            break
        except TimeoutError:
            continue
    else:
        raise AssertionError("the listener never subscribed")
    for n in range(3):
        await theirs.group_send("room.1", {**FRAME, "n": n})
    await ours.group_send("room.1", {"type": "table.marker"})
    out = []
    while not out or out[-1]["type"] != "table.marker":
        out.append(await asyncio.wait_for(inbox.get(), 5))
    reader.cancel()
    for layer in (listener, ours, theirs):
        await layer.flush()
    return [m for m in out if m["type"] != "table.ping"]


@pytest.fixture(scope="module")
def redis():
    server = faults.Redis()
    server.start()
    yield server
    server.stop()


def test_deployments_with_their_own_prefix_do_not_hear_each_other(redis):
    url = f"redis://127.0.0.1:{redis.port}/3"
    a = layer_config(REDIS_URL=url, CHANNEL_LAYER_PREFIX="hall-a")
    b = layer_config(REDIS_URL=url, CHANNEL_LAYER_PREFIX="hall-b")
    assert (a["CONFIG"]["prefix"], b["CONFIG"]["prefix"]) == ("hall-a", "hall-b")

    assert [m["type"] for m in async_to_sync(heard)(a, b)] == ["table.marker"]
    # The same prefix on the same Redis is one layer: B's frames reach A's socket.
    shared = async_to_sync(heard)(a, a)
    assert [m.get("n") for m in shared if m["type"] == "table.frames"] == [0, 1, 2]


def test_by_default_each_redis_database_is_its_own_layer(redis):
    """Pub/sub would join deployments on databases 3 and 4: the default prefix does not."""
    a = layer_config(REDIS_URL=f"redis://127.0.0.1:{redis.port}/3")
    b = layer_config(REDIS_URL=f"redis://127.0.0.1:{redis.port}/4")
    assert a["CONFIG"]["prefix"] != b["CONFIG"]["prefix"]

    assert [m["type"] for m in async_to_sync(heard)(a, b)] == ["table.marker"]
