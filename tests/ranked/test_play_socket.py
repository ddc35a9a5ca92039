"""The play page's socket through the real ASGI application (session, origin, routing,
the configured channel layer): it keeps its player queued, lets the queue go after the
grace once closed, and opens the table in every tab of a seated player."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from ranked import matcher, services
from ranked.models import QueueEntry, RankedMatch
from tests.live import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def socket_for(cookie: str | None):
    headers = HEADERS + ([(b"cookie", cookie.encode())] if cookie else [])
    return WebsocketCommunicator(application, "/ws/play/", headers=headers)


async def next_queue(comm, timeout=10):
    msg = await comm.receive_json_from(timeout=timeout)
    assert msg["t"] == "queue"
    return msg["d"]


async def queue_until(comm, check, timeout=10):
    """Queue states from the socket until one passes ``check``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        d = await next_queue(comm, max(0.01, deadline - asyncio.get_running_loop().time()))
        if check(d):
            return d


def test_a_signed_out_socket_is_closed_4401():
    async def run():
        comm = socket_for(None)
        await comm.connect()
        out = await comm.receive_output(timeout=5)
        await comm.disconnect()
        return out

    assert async_to_sync(run)() == {"type": "websocket.close", "code": 4401}


def test_the_socket_keeps_its_player_queued_and_the_grace_starts_when_it_closes(four, settings):
    settings.RANKED_QUEUE_GRACE = 1  # a beat every 0.25 s
    services.queue_join(user=four[0], variant="sichuan", address="10.3.0.1")
    cookie = session_cookie(four[0])

    async def run():
        comm = socket_for(cookie)
        await comm.connect()
        first = await next_queue(comm)
        # Three graces with nothing but the socket open: every pass still finds the entry.
        for _ in range(6):
            await asyncio.sleep(0.5)
            await database_sync_to_async(matcher.match_pass)()
            assert await database_sync_to_async(QueueEntry.objects.filter(user=four[0]).exists)()
        await comm.disconnect()
        kept = await database_sync_to_async(QueueEntry.objects.filter(user=four[0]).exists)()
        await asyncio.sleep(1.2)  # the grace, from the close
        await database_sync_to_async(matcher.match_pass)()
        return first, kept

    first, kept = async_to_sync(run)()
    assert first["variant"] == "sichuan" and first["room"] is None
    assert first["players_queued"] == 1
    assert kept and not QueueEntry.objects.exists()


def test_a_seated_player_is_told_in_every_tab_at_once(four, make_user):
    for i, u in enumerate(four):
        services.queue_join(user=u, variant="guangzhou", address=f"10.3.1.{i}")
    cookies = [session_cookie(four[0]), session_cookie(four[0]), session_cookie(four[3])]
    stranger = make_user("r8")
    services.queue_join(user=stranger, variant="sichuan", address="10.3.1.9")
    cookies.append(session_cookie(stranger))

    async def run():
        tabs = [socket_for(c) for c in cookies]
        for t in tabs:
            await t.connect()
            assert (await next_queue(t))["room"] is None
        formed = await database_sync_to_async(matcher.match_pass)()
        # Told at once: well before a beat (5 s) would have brought it.
        rooms = [(await next_queue(t, timeout=3))["room"] for t in tabs[:3]]
        quiet = await tabs[3].receive_nothing(timeout=0.5)
        for t in tabs:
            await t.disconnect()
        return formed, rooms, quiet

    formed, rooms, quiet = async_to_sync(run)()
    match = RankedMatch.objects.get()
    assert formed == 1 and rooms == [match.room_id] * 3
    assert quiet  # the one not seated hears nothing until its beat


def test_joining_and_leaving_show_in_the_players_other_tabs(four):
    cookie = session_cookie(four[1])

    async def run():
        comm = socket_for(cookie)
        await comm.connect()
        idle = await next_queue(comm)
        await database_sync_to_async(services.queue_join)(
            user=four[1], variant="ningbo", address="10.3.2.1"
        )
        queued = await queue_until(comm, lambda d: d is not None)
        await database_sync_to_async(services.queue_leave)(user=four[1])
        left = await queue_until(comm, lambda d: d is None)
        await comm.send_json_to({"t": "sync"})
        again = await next_queue(comm)
        await comm.disconnect()
        return idle, queued, left, again

    idle, queued, left, again = async_to_sync(run)()
    assert idle is None and queued["variant"] == "ningbo" and left is None and again is None


def test_a_closed_socket_of_a_seated_player_leaves_the_seating_alone(four):
    for i, u in enumerate(four):
        services.queue_join(user=u, variant="sichuan", address=f"10.3.3.{i}")
    matcher.match_pass()
    cookie = session_cookie(four[0])

    async def run():
        comm = socket_for(cookie)
        await comm.connect()
        d = await next_queue(comm)
        await comm.disconnect()
        return d

    match = RankedMatch.objects.get()
    assert async_to_sync(run)()["room"] == match.room_id
    matcher.match_pass()
    match.refresh_from_db()
    assert match.status == RankedMatch.Status.WAITING
    assert QueueEntry.objects.get(user=four[0]).room_id == match.room_id


def test_opening_play_sockets_is_throttled_per_player(four, settings):
    settings.RANKED_PLAY_CONNECTS_PER_MINUTE = 2
    cookie, other_cookie = session_cookie(four[0]), session_cookie(four[1])

    async def run():
        opened = []
        for _ in range(2):
            comm = socket_for(cookie)
            connected, _ = await comm.connect()
            assert connected
            assert (await next_queue(comm)) is None  # not queued: a live socket all the same
            opened.append(comm)
        third = socket_for(cookie)
        await third.connect()
        refusal = await third.receive_json_from(timeout=5)
        closed = await third.receive_output(timeout=5)
        # Another player is not counted against this one.
        other = socket_for(other_cookie)
        other_ok, _ = await other.connect()
        for comm in [*opened, other]:
            await comm.disconnect()
        return refusal, closed, other_ok

    refusal, closed, other_ok = async_to_sync(run)()
    assert refusal["t"] == "error" and refusal["d"]["code"] == "too_many_sockets"
    assert closed == {"type": "websocket.close", "code": 4429}
    assert other_ok


def test_syncs_faster_than_one_a_second_are_not_answered(four, settings):
    settings.RANKED_QUEUE_GRACE = 120  # no beat (every 30 s) while this runs
    cookie = session_cookie(four[0])

    async def run():
        comm = socket_for(cookie)
        await comm.connect()
        await next_queue(comm)  # the first state, sent on connect
        for _ in range(20):
            await comm.send_json_to({"t": "sync"})
        answered = 0
        while not await comm.receive_nothing(timeout=0.5):
            await next_queue(comm)
            answered += 1
        await comm.disconnect()
        return answered

    assert async_to_sync(run)() <= 1
