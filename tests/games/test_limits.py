"""Per-user caps: table sockets open at once (every server process counted, through the
presence rows), and tables sat at while their games are not over (bot tables too)."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from config.asgi import application
from games.models import Presence, Room, Seat
from games.table import services
from tests.games.test_consumers import HOST, ORIGIN, connect, cookie_for, drain

pytestmark = pytest.mark.django_db(transaction=True)


def bot_table(user) -> Room:
    """A room of ``user`` and three bots, its first hand dealt: a table in play."""
    room = services.room_create(owner=user, variant="sichuan", bots=3, hands=64)
    services.room_ready(room_id=room.pk, user=user)
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    return room


def test_a_fourth_table_is_refused_over_rest_and_the_join_form(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    ann.language = "en"
    ann.save(update_fields=["language"])
    tables = [bot_table(ann) for _ in range(settings.GAME_MAX_TABLES)]
    waiting = services.room_create(owner=bob, variant="sichuan")
    api = Client()
    api.force_login(ann)

    create = api.post("/api/rooms/", {"variant": "sichuan", "bots": 3}, "application/json")
    join = api.post(f"/api/rooms/{waiting.pk}/join/", {}, "application/json")
    page = api.post("/rooms/join/", {"code": waiting.code}, follow=True)

    assert create.status_code == 409 and create.json()["code"] == "too_many_tables"
    assert "3 tables" in create.json()["detail"]
    assert join.status_code == 409 and join.json()["code"] == "too_many_tables"
    assert "finish or leave one first" in page.content.decode()
    assert Room.objects.filter(owner=ann).count() == len(tables)
    assert not Seat.objects.filter(room=waiting, user=ann).exists()

    # A game that is over frees its place.
    Room.objects.filter(pk=tables[0].pk).update(status=Room.Status.FINISHED)
    again = api.post(f"/api/rooms/{waiting.pk}/join/", {}, "application/json")
    assert again.status_code == 200 and again.json()["my_seat"] == 1


def test_the_refusal_reads_in_chinese(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    for _ in range(settings.GAME_MAX_TABLES):
        bot_table(ann)
    waiting = services.room_create(owner=bob, variant="sichuan")
    ann.language = "zh-hans"
    ann.save(update_fields=["language"])
    page = Client()
    page.force_login(ann)

    shown = page.post("/rooms/join/", {"code": waiting.code}, follow=True).content.decode()
    lobby = page.get("/lobby/").content.decode()
    strings = re.search(r'id="lobby-strings" type="application/json">(.*?)</script>', lobby)
    errors = json.loads(strings.group(1))["errors"]

    assert "请先打完或离开一桌" in shown
    # The lobby's script shows a refusal's code in the reader's language.
    assert "请先打完或离开一桌" in errors["too_many_tables"]
    assert "关闭一个后刷新" in errors["too_many_sockets"]


def presence_count(user) -> int:
    return Presence.objects.filter(user=user).count()


def test_one_socket_over_the_cap_is_told_why_and_closed(make_user):
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    cookie = cookie_for(ann)
    cap = settings.GAME_MAX_SOCKETS

    async def run():
        socks = []
        for _ in range(cap):
            comm = connect(room, cookie)
            assert (await comm.connect())[0]
            assert (await comm.receive_json_from(timeout=10))["t"] == "room"
            socks.append(comm)
        extra = connect(room, cookie)
        assert (await extra.connect())[0]
        error = await extra.receive_json_from(timeout=10)
        close = await extra.receive_output(timeout=5)
        # One closed, one more is let in.
        await socks.pop().disconnect()
        again = connect(room, cookie)
        assert (await again.connect())[0]
        first = await again.receive_json_from(timeout=10)
        socks.append(again)
        for comm in socks:
            await drain(comm)
            await comm.disconnect()
        return error, close, first

    error, close, first = async_to_sync(run)()

    assert error["t"] == "error" and error["d"]["code"] == "too_many_sockets"
    assert f"{settings.GAME_MAX_SOCKETS} table pages" in error["d"]["message"]
    assert close == {"type": "websocket.close", "code": 4429}
    assert first["t"] == "room"
    assert presence_count(ann) == 0  # every socket's row went with it, the refused one had none


def test_sockets_of_a_dead_server_stop_counting_after_the_presence_ttl(make_user):
    """A server killed with the user's sockets open never deletes their rows: they count
    only while a heartbeat keeps them fresh, so the user is not locked out for good."""
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    cookie = cookie_for(ann)
    now = timezone.now()
    Presence.objects.bulk_create(
        Presence(room=room, user=ann, channel=f"dead-server!{n}", seen_at=now)
        for n in range(settings.GAME_MAX_SOCKETS)
    )

    async def attempt():
        comm = connect(room, cookie)
        assert (await comm.connect())[0]
        first = await comm.receive_json_from(timeout=10)
        if first["t"] == "error":
            assert (await comm.receive_output(timeout=5))["code"] == 4429
        else:
            await drain(comm)
        await comm.disconnect()
        return first

    assert async_to_sync(attempt)()["d"]["code"] == "too_many_sockets"
    # That server's last heartbeat is now older than the TTL.
    stale = now - timedelta(seconds=settings.GAME_PRESENCE_TTL + 1)
    Presence.objects.filter(channel__startswith="dead-server!").update(seen_at=stale)
    assert async_to_sync(attempt)()["t"] == "room"


def test_a_socket_over_the_cap_is_refused_before_its_room_is_looked_up(make_user):
    """The cap is the first thing a signed-in handshake meets: at it, even a room that
    does not exist, or one the user may not enter, answers "too many", and nothing is
    written for the refused socket."""
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    closed = services.room_create(owner=ann, variant="sichuan", private=True)
    cookie = cookie_for(bob)
    now = timezone.now()
    Presence.objects.bulk_create(
        Presence(room=room, user=bob, channel=f"open!{n}", seen_at=now)
        for n in range(settings.GAME_MAX_SOCKETS)
    )

    async def attempt(path):
        comm = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST, (b"cookie", cookie)])
        assert (await comm.connect())[0]
        first = await comm.receive_json_from(timeout=10)
        close = await comm.receive_output(timeout=5)
        await comm.disconnect()
        return first["d"]["code"], close["code"]

    for path in ("/ws/rooms/999999/", f"/ws/rooms/{closed.pk}/", f"/ws/rooms/{room.pk}/"):
        assert async_to_sync(attempt)(path) == ("too_many_sockets", 4429), path
    assert presence_count(bob) == settings.GAME_MAX_SOCKETS
