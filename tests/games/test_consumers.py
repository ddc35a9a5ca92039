"""The table socket through the real ASGI application (auth, origin, routing).

Bots are swept by the test after each of its own moves, so a whole hand runs
deterministically; settlement arrives through Celery (eager here, a real
worker in the services profile) and is announced as ``settled``.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.table import services
from tests.games.conftest import sweep
from tests.live import choose, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")


def cookie_for(user) -> bytes:
    return session_cookie(user).encode()


def ann_at_a_table(make_user, **room_options):
    """A room with three bots and its owner ann, and ann's session cookie."""
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, **room_options)
    return room, cookie_for(ann)


def connect(room, cookie: bytes | None = None):
    """A communicator; compute ``cookie`` with cookie_for() outside the event loop."""
    headers = [ORIGIN, HOST]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, f"/ws/rooms/{room.pk}/", headers=headers)


async def receive_until(comm, kind, *, timeout=30, seen=None):
    """Messages up to and including the first of ``kind``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        msg = await comm.receive_json_from(timeout=max(left, 0.01))
        if seen is not None:
            seen.append(msg)
        if msg["t"] == kind:
            return msg


async def dealt(room, cookie: bytes):
    """The player's socket, ready and dealt in: (the socket, its first state)."""
    comm = connect(room, cookie)
    await comm.connect()
    await comm.send_json_to({"t": "ready"})
    return comm, await receive_until(comm, "state")


async def entered(comm, seen=None):
    """What a socket is sent up to its snapshot's room frame, and what follows at once.
    The consumer accepts before it reads the room, so right after ``connect`` a drain
    may find nothing yet (on PostgreSQL and Redis, a few tens of milliseconds)."""
    out = []
    await receive_until(comm, "room", seen=out)
    out += await drain(comm)
    if seen is not None:
        seen.extend(out)
    return out


async def drain(comm, seen=None):
    out = []
    while not await comm.receive_nothing(timeout=0.05):
        msg = await comm.receive_json_from()
        out.append(msg)
        if seen is not None:
            seen.append(msg)
    return out


def assert_private(msg, seat):
    """Nothing in a message to ``seat`` shows what it may not see."""
    if msg["t"] != "state":
        return
    d = msg["d"]
    ended = d["phase"] == "ended"
    assert len(d["commitment"]) == 64 and len(d["client_seeds"]) == 4
    if not ended:
        assert "server_seed" not in d and "wall" not in d
    for p in d["players"]:
        if p["seat"] == seat or ended:
            continue
        if p["won"] is None:
            assert "hand" not in p, f"seat {seat} was shown seat {p['seat']}'s hand"
        assert "drawn" not in p
        assert all(m["tiles"] is None for m in p["melds"] if m["concealed"])
    for e in d["events"]:
        assert "private" not in e
        if e.get("seat") != seat and e["type"] == "TileDrawn":
            assert "tile" not in e


async def play_hand(comm, seat, seen):
    """Act as ``seat`` until hand_end; returns the hand_end message."""
    state = None
    while True:
        for msg in await drain(comm, seen):
            if msg["t"] == "state":
                state = msg
            if msg["t"] == "hand_end":
                return msg
            if msg["t"] == "error":
                # Acting on a state that bots had already moved past: a real client
                # just waits for the newer state, which is on its way.
                assert msg["d"]["code"] == "stale", msg
        if state is not None and state["d"]["legal"]:
            action = choose(state["d"]["legal"])
            await comm.send_json_to({"t": "act", "v": state["v"], "action": action})
            state = None
            await asyncio.sleep(0)
        await database_sync_to_async(sweep)()


async def refused(comm) -> int:
    """A socket the table refuses: accepted, then closed with a code the browser sees
    (a refused handshake would only tell it the connection failed); nothing sent first."""
    connected, _ = await comm.connect()
    assert connected
    out = await comm.receive_output(timeout=5)
    assert out["type"] == "websocket.close", out
    return out["code"]


def test_anonymous_and_foreign_origin_are_refused(make_user):
    room, ann_cookie = ann_at_a_table(make_user)

    async def run():
        comm = connect(room)
        assert await refused(comm) == 4401
        comm = WebsocketCommunicator(
            application,
            f"/ws/rooms/{room.pk}/",
            headers=[(b"origin", b"http://evil.example"), HOST, (b"cookie", ann_cookie)],
        )
        connected, _ = await comm.connect()
        assert not connected

    async_to_sync(run)()


@pytest.mark.parametrize(
    "origin, host, proto",
    [
        ("http://localhost:8081", "localhost", None),  # another port of the host
        ("https://localhost", "localhost", None),  # another scheme
        ("http://localhost", "localhost:8000", None),  # the socket came to another port
        ("http://localhost", "localhost", "https"),  # the proxy says it came over TLS
        ("https://localhost", "localhost", "http"),
        ("http://localhost", "evil.example", None),  # a host the site is not
        (None, "localhost", None),
        ("http://localhost", None, None),
    ],
)
def test_a_socket_from_another_origin_is_refused(make_user, settings, origin, host, proto):
    """Scheme, host and port all count; the same page's socket opens."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    room, ann_cookie = ann_at_a_table(make_user)

    def opens(origin, host, proto) -> bool:
        headers = [(b"cookie", ann_cookie)]
        for name, value in (("origin", origin), ("host", host), ("x-forwarded-proto", proto)):
            if value is not None:
                headers.append((name.encode(), value.encode()))
        comm = WebsocketCommunicator(application, f"/ws/rooms/{room.pk}/", headers=headers)

        async def run():
            connected, _ = await comm.connect()
            await comm.disconnect()
            return connected

        return async_to_sync(run)()

    assert not opens(origin, host, proto)
    assert opens("http://localhost:8081", "localhost:8081", None)
    assert opens("https://localhost", "localhost", "https")


def test_a_session_that_no_longer_holds_is_refused(make_user):
    """The socket reads its user from the session as a page does: a session ended by a
    password change (its auth hash no longer matches) or a made-up cookie is nobody."""
    room, ann_cookie = ann_at_a_table(make_user)
    ann = room.owner
    ann.set_password("a-new-secret-42")
    ann.save()

    async def run():
        assert await refused(connect(room, ann_cookie)) == 4401
        assert await refused(connect(room, b"sessionid=not-a-session-key")) == 4401

    async_to_sync(run)()
    # A signed-in player's cookie still opens the table.
    fresh = cookie_for(ann)

    async def again():
        comm = connect(room, fresh)
        connected, _ = await comm.connect()
        assert connected
        assert (await receive_until(comm, "room"))["d"]["id"] == room.pk
        await comm.disconnect()

    async_to_sync(again)()


def test_private_room_refuses_strangers_and_missing_room_is_404(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(
        owner=ann, variant="sichuan", private=True, discard_seconds=None, claim_seconds=None
    )
    bob_cookie = cookie_for(bob)

    async def run():
        assert await refused(connect(room, bob_cookie)) == 4403
        comm = WebsocketCommunicator(
            application, "/ws/rooms/999999/", headers=[ORIGIN, HOST, (b"cookie", bob_cookie)]
        )
        assert await refused(comm) == 4404

    async_to_sync(run)()


@pytest.mark.parametrize("raw", [str(2**63), str(2**63 - 1), "9" * 40, "abc", "-1", "1e3"])
def test_a_room_id_no_primary_key_holds_or_not_an_id_closes_4404(make_user, raw):
    bob_cookie = cookie_for(make_user("bob"))

    async def run():
        comm = WebsocketCommunicator(
            application, f"/ws/rooms/{raw}/", headers=[ORIGIN, HOST, (b"cookie", bob_cookie)]
        )
        assert await refused(comm) == 4404

    async_to_sync(run)()


def test_join_ready_play_a_whole_hand_to_hand_end_and_settled(make_user):
    room, ann_cookie = ann_at_a_table(make_user, hands=1)

    async def run():
        comm = connect(room, ann_cookie)
        connected, _ = await comm.connect()
        assert connected
        first = await comm.receive_json_from()
        assert first["t"] == "room" and first["d"]["seats"][0]["name"] == "ann"
        await comm.send_json_to({"t": "ready"})
        seen = []
        end = await play_hand(comm, 0, seen)
        for msg in seen:
            assert_private(msg, 0)
        versions = [m["v"] for m in seen if m["t"] == "state"]
        assert versions == sorted(versions) and versions[-1] == end["v"]
        assert sorted(set(versions)) == list(range(versions[0], versions[-1] + 1))  # no gaps
        result = end["d"]["result"]
        assert sum(result["deltas"]) + result["pot"] == 0  # what was paid during play
        assert all("hand" in p for p in end["d"]["hands"])  # everything is shown at the end
        settled = next((m for m in seen if m["t"] == "settled"), None)
        if settled is None:  # it may already have come in the same batch as hand_end
            settled = await receive_until(comm, "settled", seen=seen)
        d = settled["d"]
        assert d["hand_id"] == end["d"]["hand_id"]
        # The settlement adds the end-of-hand payments to those made during play.
        assert d["transfers"] == end["d"]["transfers"] + d["details"]["end_transfers"]
        assert sum(d["deltas"]) + d["details"]["pot"] == 0
        assert d["ratings"] == []  # a one-hand game with bots is unrated
        assert d["scores"] == d["deltas"]  # the room's first hand
        # The standings moved with the settlement: a room message says so before settled.
        at = seen.index(settled)
        last_room = [m for m in seen[:at] if m["t"] == "room"][-1]
        assert [x["score"] for x in last_room["d"]["seats"]] == d["scores"]
        await comm.disconnect()

    async_to_sync(run)()


def test_stale_illegal_malformed_and_oversize_frames_get_errors(make_user):
    room, ann_cookie = ann_at_a_table(make_user)

    async def run():
        comm, state = await dealt(room, ann_cookie)
        v = state["v"]
        cases = [
            ({"t": "act", "v": v + 5, "action": {"type": "ding_que", "suit": "m"}}, "stale"),
            ({"t": "act", "v": v, "action": {"type": "discard", "tile": "1m"}}, "illegal"),
            ({"t": "act", "v": v, "action": "hu"}, "bad_message"),
            ({"t": "dance"}, "bad_message"),
            ([1, 2], "bad_message"),
        ]
        for frame, code in cases:
            await comm.send_json_to(frame)
            err = await receive_until(comm, "error")
            assert err["d"]["code"] == code and err["d"]["message"]
        await comm.send_to(text_data="{not json")
        assert (await receive_until(comm, "error"))["d"]["code"] == "bad_json"
        await comm.send_to(text_data=json.dumps({"t": "sync", "pad": "x" * 10000}))
        assert (await receive_until(comm, "error"))["d"]["code"] == "too_large"
        await comm.send_json_to({"t": "sync"})
        again = await receive_until(comm, "state")
        assert (
            again["v"] == v and again["d"]["players"][0]["hand"] == state["d"]["players"][0]["hand"]
        )
        await comm.disconnect()

    async_to_sync(run)()


def test_reconnect_mid_hand_gets_the_same_state(make_user):
    room, ann_cookie = ann_at_a_table(make_user)

    async def run():
        comm = connect(room, ann_cookie)
        await comm.connect()
        await comm.send_json_to({"t": "ready"})
        await receive_until(comm, "state")
        await database_sync_to_async(sweep)()  # bots choose their 定缺
        msgs = await drain(comm)
        last = [m for m in msgs if m["t"] == "state"][-1]
        await comm.disconnect()
        comm2 = connect(room, ann_cookie)
        await comm2.connect()
        assert (await comm2.receive_json_from())["t"] == "room"
        state = await comm2.receive_json_from()
        assert state["t"] == "state" and state["v"] == last["v"]
        assert state["d"]["players"] == last["d"]["players"]
        assert state["d"]["legal"] == last["d"]["legal"]
        await comm2.disconnect()

    async_to_sync(run)()


def test_spectator_sees_no_concealed_tile(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    ann_cookie, bob_cookie = cookie_for(ann), cookie_for(bob)

    async def run():
        player = connect(room, ann_cookie)
        await player.connect()
        watcher = connect(room, bob_cookie)
        connected, _ = await watcher.connect()
        assert connected
        await player.send_json_to({"t": "ready"})
        seen = []
        task = asyncio.ensure_future(play_hand(player, 0, []))
        end = await receive_until(watcher, "hand_end", seen=seen, timeout=60)
        await task
        states = [m for m in seen if m["t"] == "state"]
        assert states
        for msg in states:
            d = msg["d"]
            assert d["seat"] is None and d["legal"] == []
            if d["phase"] != "ended":
                for p in d["players"]:
                    assert "hand" not in p or p["won"] is not None
                    assert "drawn" not in p
        assert end["d"]["result"]
        if not any(m["t"] == "settled" for m in seen):  # let the settlement finish first
            await receive_until(watcher, "settled")
        await watcher.send_json_to({"t": "act", "v": 1, "action": {"type": "pass"}})
        assert (await receive_until(watcher, "error"))["d"]["code"] == "spectator"
        await player.disconnect()
        await watcher.disconnect()

    async_to_sync(run)()
