"""The whole stack, for real: Daphne, the database, the channel layer, Celery.

In the services profile (CI's second run) this is PostgreSQL, Redis and a real
Celery worker; in the embedded profile, SQLite and the in-process defaults.
Four WebSocket clients play a whole hand to ``settled``; Daphne is killed
(SIGKILL) mid-hand and restarted, the clients reconnect and finish, and the
action log is then checked to hold every action, replaying to the snapshot.

With Redis (the services profile) there are two Daphne processes and the players
are split between them, so every state a player sees after another's action has
crossed processes through the channel layer; the process that is killed serves
only half of the table. The in-memory layer of the embedded profile cannot span
processes, so there one process serves all four.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from games.models import Hand, HandAction, Settlement
from games.rules import HandState
from tests.live import (
    DaphneServer,
    choose,
    database_url,
    four_player_room,
    free_port,
    server_env,
)

pytestmark = pytest.mark.django_db(transaction=True)
OUT = Path(__file__).resolve().parents[2] / "test-output"
QUIET_SYNC = 2.0  # seconds of silence after which a client asks for the state


class Player:
    """A scripted client that reconnects (and resyncs) whenever its socket drops."""

    def __init__(self, seat, cookie, url, origin, refusals=("stale",)):
        self.seat, self.cookie, self.url, self.origin = seat, cookie, url, origin
        self.refusals = refusals
        self.max_version = -1
        self.acted: list[int] = []
        self.hand_end = None
        self.settled = None
        self.reconnects = 0
        self.syncs = 0
        self.on_version = None  # called with each version the client is shown

    async def run(self, deadline):
        loop = asyncio.get_running_loop()
        sent_ready = False
        while self.settled is None:
            if loop.time() > deadline:
                raise AssertionError(f"seat {self.seat} timed out at v{self.max_version}")
            try:
                async with connect(
                    self.url,
                    origin=self.origin,
                    additional_headers={"Cookie": self.cookie},
                    proxy=None,
                    open_timeout=5,
                ) as ws:
                    if not sent_ready:
                        await ws.send(json.dumps({"t": "ready"}))
                        sent_ready = True
                    while self.settled is None:
                        if loop.time() > deadline:
                            raise AssertionError(
                                f"seat {self.seat} timed out at v{self.max_version}"
                            )
                        try:
                            raw = await asyncio.wait_for(ws.recv(), QUIET_SYNC)
                        except TimeoutError:
                            # As every client must: a server that died between saving an
                            # action and announcing it leaves the others waiting, so
                            # after a quiet spell ask for the state.
                            await ws.send(json.dumps({"t": "sync"}))
                            self.syncs += 1
                            continue
                        await self.handle(ws, json.loads(raw))
                    return
            except (ConnectionClosed, OSError, TimeoutError):
                self.reconnects += 1
                await asyncio.sleep(0.3)

    async def handle(self, ws, msg):
        t, d = msg["t"], msg["d"]
        if t == "state":
            self.max_version = max(self.max_version, msg["v"])
            if self.on_version is not None:
                self.on_version(msg["v"])
            if d["legal"]:
                await ws.send(json.dumps({"t": "act", "v": msg["v"], "action": choose(d["legal"])}))
                self.acted.append(msg["v"])
        elif t == "hand_end":
            self.hand_end = d
        elif t == "settled":
            self.settled = d
        elif t == "error":
            # A stale version after a reconnect race is fine: a newer state follows (and,
            # while the database is away, a move it could not save: the client acts
            # again on the state it is sent after it asks).
            assert d["code"] in self.refusals, d


def test_four_clients_survive_a_daphne_crash_mid_hand(django_user_model):
    """A Daphne process killed (SIGKILL) mid-hand and started again: no move lost."""

    def kill_and_restart(servers):
        victim = servers[0]  # serves players 0 and 2 (or everyone, with one process)
        victim.kill()
        time.sleep(1.0)  # the outage: clients find nothing listening for a second
        victim.start()

    play_through_an_outage(django_user_model, kill_and_restart, reconnected=True)


def play_through_an_outage(django_user_model, outage, *, reconnected: bool, refusals=("stale",)):
    """Four clients play a hand to ``settled`` while ``outage(servers)`` strikes once the
    table is past version 25; then the log must hold every move anyone was shown."""
    users = [
        django_user_model.objects.create_user(username=f"p{i}", password="green-felt-8trs")
        for i in range(4)
    ]
    room, cookies = four_player_room(users)

    OUT.mkdir(exist_ok=True)
    env = server_env(database_url(connection.settings_dict))
    servers = [
        DaphneServer(free_port(), env, OUT / f"daphne-integration-{k}.log")
        for k in range(2 if os.environ.get("REDIS_URL") else 1)
    ]
    players = []
    for i in range(4):
        port = servers[i % len(servers)].port
        url = f"ws://127.0.0.1:{port}/ws/rooms/{room.pk}/"
        players.append(Player(i, cookies[i], url, f"http://127.0.0.1:{port}", refusals))
    crash = {"at": None}

    async def crash_mid_hand():
        past = asyncio.Event()
        for p in players:
            p.on_version = lambda v: v >= 25 and past.set()
        await past.wait()
        crash["at"] = max(p.max_version for p in players)
        await asyncio.to_thread(outage, servers)

    async def main():
        deadline = asyncio.get_running_loop().time() + 120
        await asyncio.gather(crash_mid_hand(), *(p.run(deadline) for p in players))

    for server in servers:
        server.start()
    try:
        asyncio.run(asyncio.wait_for(main(), 180))
    finally:
        for server in servers:
            server.stop()

    assert crash["at"] is not None
    if reconnected:  # the killed server's players came back through a new socket
        on_victim = [p for i, p in enumerate(players) if i % len(servers) == 0]
        assert all(p.reconnects >= 1 for p in on_victim)
    connection.close()  # this test's own connection may have been cut with the others
    hand = Hand.objects.get(room=room)
    assert hand.status == "ended"
    log = list(HandAction.objects.filter(hand=hand).order_by("seq"))
    # No action lost: the log is gapless, as long as the engine's final version (a pass
    # in a claim window moves only that one), and it covers everything any client saw
    # before the crash (clients see the public version).
    state = HandState.from_json(hand.state)
    assert [a.seq for a in log] == list(range(1, state.version + 1))
    assert state.public_version == hand.version
    assert hand.version > crash["at"]
    assert max(p.max_version for p in players) <= hand.version
    call_command("hand_verify", hand.pk)  # the log replays to the stored snapshot
    settlement = Settlement.objects.get(hand=hand)
    assert sum(settlement.deltas) + settlement.details["pot"] == 0
    for p in players:
        assert p.hand_end["hand_id"] == p.settled["hand_id"] == hand.pk
        assert p.hand_end["result"] == hand.result
        assert p.settled["deltas"] == settlement.deltas
        assert p.settled["ratings"] == []  # a one-hand room is unrated
