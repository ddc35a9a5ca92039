"""Abuse is normal traffic: odd bodies, floods and squatting get clear errors and
change nothing."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.urls import reverse

from games.models import Presence, Room, Seat
from games.table import services
from tests.games.test_api import logged_in
from tests.games.test_consumers import (
    ann_at_a_table,
    connect,
    cookie_for,
    drain,
    entered,
    receive_until,
)

pytestmark = pytest.mark.django_db(transaction=True)

DEEP = "[" * 2000 + "]" * 2000  # under the 4 KB frame limit, past the parser's recursion limit


def test_deeply_nested_json_over_the_socket_is_an_error_and_leaves_no_ghost(make_user):
    room, ann_cookie = ann_at_a_table(
        make_user, private=True, discard_seconds=None, claim_seconds=None
    )

    async def run():
        sock = connect(room, ann_cookie)
        assert (await sock.connect())[0]
        await entered(sock)
        assert await database_sync_to_async(Presence.objects.filter(room=room).count)() == 1
        inside = '{"t": "act", "v": 1, "action": ' + "[" * 1900 + "]" * 1900 + "}"
        for frame in (DEEP, inside):
            assert len(frame.encode()) <= 4096
            await sock.send_to(text_data=frame)
            err = await receive_until(sock, "error")
            assert err["d"]["code"] == "bad_json"
        await sock.send_json_to({"t": "ready"})  # the socket still works
        assert (await receive_until(sock, "state"))["d"]["seat"] == 0
        await sock.disconnect()
        # The socket closed normally, so its presence row went with it.
        assert await database_sync_to_async(Presence.objects.filter(room=room).count)() == 0

    async_to_sync(run)()


def test_deeply_nested_json_over_rest_is_a_400(make_user):
    api = logged_in(make_user("ann"))
    r = api.post("/api/rooms/", data=DEEP, content_type="application/json")
    assert r.status_code == 400
    assert r.json()["code"] == "parse_error" and "deep" in r.json()["detail"]
    assert Room.objects.count() == 0


def test_rest_refusals_do_not_echo_huge_values(make_user):
    api = logged_in(make_user("ann"))
    huge = "x" * 1_000_000
    for body in (
        {"variant": "sichuan", "rules": {huge: 1}},
        {"variant": huge},
        {"variant": "sichuan", huge: 1},
        {"variant": "sichuan", "hands": huge},
    ):
        r = api.post("/api/rooms/", body, format="json")
        assert r.status_code == 400, r.content[:200]
        assert len(r.content) < 1000 and r.json()["code"] and r.json()["detail"]
    assert Room.objects.count() == 0


def test_nobody_can_sign_up_as_a_bot_and_rooms_with_bots_still_work(client, make_user):
    for name in ("bot-south", "BOT-East", "bot_west"):
        r = client.post(
            reverse("account_signup"),
            {
                "username": name,
                "email": f"{name}@example.com",
                "password1": "green-felt-8trs",
                "password2": "green-felt-8trs",
            },
        )
        assert r.status_code == 200 and "bot" in r.content.decode()  # the form, with the error
    from django.contrib.auth import get_user_model

    User = get_user_model()
    assert not User.objects.filter(username__istartswith="bot", is_bot=False).exists()
    # An account that got a bot's name before the rule (or from an admin) blocks nothing.
    User.objects.create_user(username="bot-south", email="s@example.com", password="x-y-z-1-2-3")
    room = services.room_create(owner=make_user("ann"), variant="sichuan", bots=3)
    seats = Seat.objects.filter(room=room).select_related("user").order_by("index")
    assert [s.is_bot for s in seats] == [False, True, True, True]


def test_open_rooms_per_user_are_limited_and_creation_is_throttled(make_user, settings):
    ann = make_user("ann")
    api = logged_in(ann)
    body = {"variant": "sichuan", "bots": 0}
    codes = [api.post("/api/rooms/", body, format="json").status_code for _ in range(3)]
    assert codes == [201, 201, 201]
    r = api.post("/api/rooms/", body, format="json")
    assert r.status_code == 409 and r.json()["code"] == "too_many_rooms"
    assert Room.objects.filter(owner=ann, status="open").count() == settings.GAME_MAX_OPEN_ROOMS
    # Past the rate even refused attempts stop reaching the service.
    statuses = [api.post("/api/rooms/", body, format="json").status_code for _ in range(10)]
    assert statuses[-1] == 429
    assert api.post("/api/rooms/", body, format="json").json()["code"] == "throttled"
    # Somebody else is not held back by ann, and listing is never throttled.
    assert logged_in(make_user("bob")).post("/api/rooms/", body, format="json").status_code == 201
    assert all(api.get("/api/rooms/").status_code == 200 for _ in range(15))


def test_join_code_guessing_is_throttled(make_user):
    ann = make_user("ann")
    room = services.room_create(
        owner=ann, variant="sichuan", private=True, discard_seconds=None, claim_seconds=None
    )
    api = logged_in(make_user("eve"))
    statuses = [
        api.post(f"/api/rooms/{room.pk}/join/", {"code": f"AAAA{i:02d}"}, format="json").status_code
        for i in range(25)
    ]
    assert statuses[0] == 403 and 429 in statuses
    assert statuses.index(429) <= 20
    # Even the right code waits out the throttle: guessing cannot go faster.
    r = api.post(f"/api/rooms/{room.pk}/join/", {"code": room.code}, format="json")
    assert r.status_code == 429
    assert not Seat.objects.filter(room=room, user__username="eve").exists()


def test_a_flooding_socket_gets_errors_then_is_closed(make_user):
    room, ann_cookie = ann_at_a_table(make_user)

    async def run():
        sock = connect(room, ann_cookie)
        assert (await sock.connect())[0]
        await entered(sock)
        for _ in range(200):
            await sock.send_to(text_data='{"t": "nonsense"}')
        codes, closed = [], None
        while True:
            out = await sock.receive_output(timeout=5)
            if out["type"] == "websocket.close":
                closed = out["code"]
                break
            msg = json.loads(out["text"])
            if msg["t"] == "error":
                codes.append(msg["d"]["code"])
        assert "bad_message" in codes and "rate_limited" in codes
        assert closed == 4429
        assert len(codes) < 200  # closed before working through the whole flood

    async_to_sync(run)()


def test_a_ready_that_changes_nothing_is_not_rebroadcast(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=1)  # two seats still free
    services.room_join(room_id=room.pk, user=bob)
    ann_cookie, bob_cookie = cookie_for(ann), cookie_for(bob)

    def bobs(room_msg):
        return next(s for s in room_msg["d"]["seats"] if s["name"] == "bob")

    async def run():
        a, b = connect(room, ann_cookie), connect(room, bob_cookie)
        await a.connect()
        await b.connect()
        # Bob's arrival is the last presence broadcast: once ann's socket has it, bob's
        # has it queued too, and the drains leave nothing of the joins behind.
        while not bobs(await receive_until(a, "room"))["connected"]:
            pass
        await drain(a)
        await drain(b)
        for _ in range(5):
            await a.send_json_to({"t": "ready"})
        # A socket handles its frames in order: the reply to this one means the five
        # readies are done, and whatever they broadcast is on its way to bob before bob's
        # own ready is.
        await a.send_json_to({"t": "no such message"})
        await receive_until(a, "error")
        await b.send_json_to({"t": "ready"})
        seen = []
        while True:
            msg = await receive_until(b, "room", seen=seen)
            if bobs(msg)["ready"]:
                break
        rooms = [m for m in seen if m["t"] == "room"]  # ann's ready once, then bob's
        assert [(m["d"]["seats"][0]["ready"], bobs(m)["ready"]) for m in rooms] == [
            (True, False),
            (True, True),
        ]
        await a.disconnect()
        await b.disconnect()

    async_to_sync(run)()


def test_the_settled_message_carries_no_account_balances(make_user):
    from tests.games.test_consumers import play_hand

    room, ann_cookie = ann_at_a_table(make_user, hands=1)
    watcher_cookie = cookie_for(make_user("watcher"))

    async def run():
        sock = connect(room, ann_cookie)
        await sock.connect()
        await sock.send_json_to({"t": "ready"})
        seen = []
        await play_hand(sock, 0, seen)
        settled = next((m for m in seen if m["t"] == "settled"), None)
        if settled is None:
            settled = await receive_until(sock, "settled")
        assert "balances" not in settled["d"]
        assert "balance" not in json.dumps(settled)
        # A spectator who comes later gets the same, table-only, snapshot.
        watcher = connect(room, watcher_cookie)
        await watcher.connect()
        late = await receive_until(watcher, "settled")  # the snapshot's last message
        assert "balance" not in json.dumps(late)
        await sock.disconnect()
        await watcher.disconnect()

    async_to_sync(run)()


def test_join_code_guessing_through_the_lobby_form_is_throttled_too(client, make_user):
    ann = make_user("ann")
    room = services.room_create(
        owner=ann, variant="sichuan", private=True, discard_seconds=None, claim_seconds=None
    )
    client.force_login(make_user("eve"))
    client.cookies["django_language"] = "en"
    for i in range(20):
        client.post(reverse("room-join-code"), {"code": f"ZZZZ{i:02d}"})
    r = client.post(reverse("room-join-code"), {"code": room.code}, follow=True)
    assert "加入尝试过于频繁" in r.content.decode()  # eve reads Chinese (the default)
    assert not Seat.objects.filter(room=room, user__username="eve").exists()
