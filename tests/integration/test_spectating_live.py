"""Spectating across Daphne processes: the player on one server, the spectators on
another (with Redis; one server on the embedded profile, whose in-memory layer cannot span
processes).  The delay and the watchers count hold there because nothing about them lives
only in one process: the delayed join snapshot is rebuilt from the action log, a spectator's
socket holds what the channel layer brings it, and watchers are presence rows.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from django.db import connection
from websockets.asyncio.client import connect

from games.table import services
from tests.live import DaphneServer, choose, database_url, free_port, server_env, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
OUT = Path(__file__).resolve().parents[2] / "test-output"
DELAY = 2


class Socket:
    """One table socket: every frame with the loop time it arrived at."""

    def __init__(self, port, room_id, cookie):
        self.url = f"ws://127.0.0.1:{port}/ws/rooms/{room_id}/"
        self.origin = f"http://127.0.0.1:{port}"
        self.cookie = cookie
        self.frames: list[tuple[float, dict]] = []
        self.ws = None
        self.reader = None
        self.arrived = asyncio.Event()  # set at each frame; cleared by whoever waits for one

    async def open(self):
        self.ws = await connect(
            self.url,
            origin=self.origin,
            additional_headers={"Cookie": self.cookie},
            proxy=None,
            open_timeout=5,
        )
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self):
        loop = asyncio.get_running_loop()
        async for raw in self.ws:
            self.frames.append((loop.time(), json.loads(raw)))
            self.arrived.set()

    async def close(self):
        await self.ws.close()
        self.reader.cancel()

    def states(self, since: float = 0.0):
        return [(t, m) for t, m in self.frames if m["t"] == "state" and t >= since]

    def watchers(self):
        rooms = [m for _, m in self.frames if m["t"] == "room"]
        return rooms[-1]["d"]["watchers"] if rooms else None

    async def wait(self, check, timeout=10.0):
        """Until ``check()`` holds, looked at again as each frame arrives."""

        async def frames_until():
            while not check():
                self.arrived.clear()
                await self.arrived.wait()

        try:
            await asyncio.wait_for(frames_until(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out after {timeout} s") from None


async def play(sock: Socket, stop: asyncio.Event):
    """Act on every state that offers the player something, until told to stop."""
    acted = -1
    stopped = asyncio.ensure_future(stop.wait())
    while not stop.is_set():
        sock.arrived.clear()
        states = sock.states()
        if states:
            msg = states[-1][1]
            if msg["d"]["legal"] and msg["v"] > acted and msg["d"]["phase"] != "ended":
                acted = msg["v"]
                action = choose(msg["d"]["legal"])
                await sock.ws.send(json.dumps({"t": "act", "v": msg["v"], "action": action}))
        arrived = asyncio.ensure_future(sock.arrived.wait())
        await asyncio.wait([arrived, stopped], return_when=asyncio.FIRST_COMPLETED)
        arrived.cancel()


def test_a_delayed_spectator_on_another_server(django_user_model):
    ann, bob, cat = (
        django_user_model.objects.create_user(username=n, password="green-felt-8trs")
        for n in ("ann", "bob", "cat")
    )
    room = services.room_create(
        owner=ann, variant="sichuan", bots=3, hands=1, spectator_delay=DELAY
    )
    cookies = [session_cookie(u) for u in (ann, bob, cat)]
    OUT.mkdir(exist_ok=True)
    env = server_env(database_url(connection.settings_dict), GAME_BOT_DELAY="0.2")
    servers = [
        DaphneServer(free_port(), env, OUT / f"daphne-spectating-{k}.log")
        for k in range(2 if os.environ.get("REDIS_URL") else 1)
    ]
    player_port, watcher_port = servers[0].port, servers[-1].port

    async def main():
        loop = asyncio.get_running_loop()
        player = Socket(player_port, room.pk, cookies[0])
        watcher = Socket(watcher_port, room.pk, cookies[1])
        await player.open()
        await watcher.open()
        # The player, on the other server, hears that one person watches.
        await player.wait(lambda: player.watchers() == 1)
        t0 = loop.time()
        await player.ws.send(json.dumps({"t": "ready"}))
        await player.wait(lambda: player.states(), timeout=3)
        assert player.states()[0][0] - t0 < 1.5  # players see the table as it is
        stop = asyncio.Event()
        task = asyncio.ensure_future(play(player, stop))
        await asyncio.sleep(DELAY - 0.7)  # most of the delay: what is under test here
        assert watcher.states() == [], "the spectator saw the hand before the delay"
        await watcher.wait(lambda: watcher.states(), timeout=5)
        first_at, first = watcher.states()[0]
        assert first_at - t0 >= DELAY - 0.3 and first["d"]["seat"] is None
        # Moves keep coming; a second spectator joins mid-hand on the watcher's server:
        # their snapshot is the hand as it was DELAY seconds ago.
        await asyncio.sleep(1.5)  # the hand moves on meanwhile (the player is acting)
        late = Socket(watcher_port, room.pk, cookies[2])
        joined = loop.time()
        seen_live, last = player.states()[-1]
        live_v = last["v"]
        await late.open()
        await late.wait(lambda: late.states(), timeout=5)
        snap_at, snap = late.states()[0]
        assert snap_at - joined < 1.0  # the snapshot comes at once ...
        assert snap["v"] < live_v  # ... and it is behind the table
        # ... and catches up with what the player saw, once that is old enough.
        await late.wait(lambda: any(m["v"] >= live_v for _, m in late.states()), timeout=8)
        caught = next(t for t, m in late.states() if m["v"] >= live_v)
        assert caught - seen_live >= DELAY - 0.3
        await player.wait(lambda: player.watchers() == 2)
        stop.set()
        await task
        for sock in (player, watcher, late):
            for _, m in sock.frames:
                if sock is not player and m["t"] == "state" and m["d"]["phase"] != "ended":
                    assert m["d"]["legal"] == [] and all(
                        "hand" not in p for p in m["d"]["players"] if p["won"] is None
                    )
        await late.close()
        await watcher.close()
        await player.wait(lambda: player.watchers() == 0)
        await player.close()

    for server in servers:
        server.start()
    try:
        asyncio.run(asyncio.wait_for(main(), 90))
    finally:
        for server in servers:
            server.stop()
