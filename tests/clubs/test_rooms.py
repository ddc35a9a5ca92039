"""Club rooms: rules from the preset's version, locked options, club-only visibility."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from clubs import services as club_services
from games.models import Hand, Room, Seat
from games.rules import available, get_variant
from games.table import services
from tests.games.test_consumers import connect, cookie_for, drain, receive_until, refused

pytestmark = pytest.mark.django_db


def open_room(client, preset, **extra):
    return client.post("/api/rooms/", {"preset": preset.pk, **extra}, format="json")


def test_a_room_from_a_preset_carries_club_preset_and_rules(client_for, people, club, preset):
    r = open_room(client_for(people["member"]), preset, rules={"huan_san_zhang": True}, bots=3)

    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["club"] == club.pk
    assert body["preset"] == {"id": preset.pk, "version": 1}
    assert body["variant"] == "sichuan"
    assert body["rules"]["mode"] == "plain"  # the preset's
    assert body["rules"]["fan_cap"] == 3  # the preset's, locked
    assert body["rules"]["huan_san_zhang"] is True  # the room's own, unlocked
    assert body["rules"]["dealer_rule"] == "discarder"  # derived from the preset's mode
    assert body["club_name"] == "Tea House" and body["preset_name"] == "House"
    assert body["rule_choices"] == {"mode": "plain", "fan_cap": 3, "huan_san_zhang": True}


def test_a_locked_option_cannot_be_overridden(client_for, people, preset):
    r = open_room(client_for(people["member"]), preset, rules={"fan_cap": 5})

    assert r.status_code == 400 and r.json()["code"] == "locked_option"
    assert "fan_cap" in r.json()["detail"]
    assert not Room.objects.exists()


def test_an_unlocked_override_is_validated_like_the_lobby(client_for, people, preset):
    r = open_room(client_for(people["member"]), preset, rules={"base": -1})

    assert r.status_code == 400 and r.json()["code"] == "bad_rules"
    assert "base" in r.json()["detail"]


def test_a_preset_for_another_variant_is_refused(client_for, people, preset):
    r = open_room(client_for(people["member"]), preset, variant="hangzhou")

    assert r.status_code == 400 and r.json()["code"] == "bad_variant"


def test_a_non_member_cannot_open_a_room_from_a_preset(client_for, people, preset):
    r = open_room(client_for(people["outsider"]), preset)
    missing = client_for(people["outsider"]).post(
        "/api/rooms/", {"preset": preset.pk + 1000}, format="json"
    )

    # Told exactly what a missing preset gets: another club's presets are not revealed.
    assert (r.status_code, r.json()) == (missing.status_code, missing.json())
    assert r.status_code == 404 and r.json()["code"] == "no_preset"


def test_an_unknown_preset_is_404(client_for, people):
    r = client_for(people["member"]).post("/api/rooms/", {"preset": 999}, format="json")

    assert r.status_code == 404 and r.json()["code"] == "no_preset"


def test_a_room_keeps_its_version_after_the_preset_moves_on(client_for, people, club, preset):
    member = client_for(people["member"])
    first = open_room(member, preset, bots=3).json()

    client_for(people["manager"]).put(
        f"/api/clubs/{club.pk}/presets/{preset.pk}/",
        {"rules": {"mode": "xuezhan", "fan_cap": 2}, "locked": ["fan_cap"]},
        format="json",
    )
    again = member.get(f"/api/rooms/{first['id']}/").json()
    second = open_room(member, preset).json()

    assert again["preset"] == {"id": preset.pk, "version": 1}
    assert again["rules"]["mode"] == "plain" and again["rules"]["fan_cap"] == 3
    assert second["preset"] == {"id": preset.pk, "version": 2}
    assert second["rules"]["mode"] == "xuezhan" and second["rules"]["fan_cap"] == 2
    # The first room's hands are dealt with its own version's rules.
    room = Room.objects.get(pk=first["id"])
    services.room_ready(room_id=room.pk, user=people["member"])
    assert room.hands.get().rules["mode"] == "plain"


# --------------------------------------------------------------------------
# Visibility


@pytest.fixture
def club_room(client_for, people, preset):
    return Room.objects.get(pk=open_room(client_for(people["owner"]), preset).json()["id"])


def lobby_ids(client):
    return {r["id"] for r in client.get("/api/rooms/").json()}


def test_the_lobby_lists_a_club_room_to_members_only(client_for, people, club_room):
    public = services.room_create(owner=people["outsider"], variant="sichuan")

    for name in ("owner", "manager", "member"):
        assert lobby_ids(client_for(people[name])) == {club_room.pk, public.pk}, name
    assert lobby_ids(client_for(people["outsider"])) == {public.pk}
    assert lobby_ids(client_for(None)) == {public.pk}


def test_a_removed_member_no_longer_sees_the_club_room(client_for, people, club, club_room):
    club_services.member_remove(club_id=club.pk, actor=people["owner"], user_id=people["member"].pk)

    c = client_for(people["member"])
    assert club_room.pk not in lobby_ids(c)
    assert c.get(f"/api/rooms/{club_room.pk}/").status_code == 404
    assert c.get(f"/rooms/{club_room.pk}/").status_code == 404


def test_an_outsider_cannot_join_a_club_room_even_by_its_code(client_for, people, club_room):
    c = client_for(people["outsider"])
    c.force_login(people["outsider"])

    api = c.post(f"/api/rooms/{club_room.pk}/join/", {"code": club_room.code}, format="json")
    page = c.post("/rooms/join/", {"code": club_room.code})

    assert api.status_code == 404 and api.json()["code"] == "no_room"
    assert page.status_code == 302 and page["Location"] == "/lobby/"
    assert not club_room.seats.filter(user=people["outsider"]).exists()


@pytest.mark.django_db(transaction=True)
def test_the_table_socket_refuses_outsiders(people, club, preset):
    room = services.room_create(owner=people["owner"], variant="", preset=preset.pk)
    outsider, member = cookie_for(people["outsider"]), cookie_for(people["member"])

    async def run():
        assert await refused(connect(room, outsider)) == 4403
        comm = connect(room, member)
        connected, _ = await comm.connect()
        assert connected
        first = await comm.receive_json_from(timeout=10)
        assert first["t"] == "room" and first["d"]["club"] == club.pk
        await comm.disconnect()

    async_to_sync(run)()


@pytest.mark.parametrize("variant", [v.key for v in available()])
def test_every_registered_variant_gets_presets_and_rooms(client_for, people, club, variant):
    preset = client_for(people["manager"]).post(
        f"/api/clubs/{club.pk}/presets/", {"variant": variant, "name": variant}, format="json"
    )
    room = client_for(people["member"]).post(
        "/api/rooms/", {"preset": preset.json()["id"], "bots": 3}, format="json"
    )

    assert preset.status_code == 201 and room.status_code == 201, room.json()
    assert room.json()["variant"] == variant
    assert room.json()["rules"] == get_variant(variant).resolve_options().to_json()


async def closed_with(comm) -> int:
    """Read a socket's output up to its close; the close code."""
    out = await comm.receive_output(timeout=10)
    while out["type"] != "websocket.close":
        out = await comm.receive_output(timeout=10)
    return out["code"]


@pytest.mark.django_db(transaction=True)
def test_a_removed_spectator_is_closed_at_once_and_sent_nothing_more(people, club, preset):
    room = services.room_create(owner=people["owner"], variant="", preset=preset.pk, bots=3)
    member = cookie_for(people["member"])

    async def run():
        comm = connect(room, member)
        assert (await comm.connect())[0]
        assert (await receive_until(comm, "room"))["d"]["club"] == club.pk
        await drain(comm)
        await database_sync_to_async(club_services.member_remove)(
            club_id=club.pk, actor=people["owner"], user_id=people["member"].pk
        )
        assert await closed_with(comm) == 4403
        # The table moves on (the hand is dealt); the closed socket hears none of it.
        await database_sync_to_async(services.room_ready)(room_id=room.pk, user=people["owner"])
        assert await database_sync_to_async(Hand.objects.filter(room=room).exists)()
        assert await comm.receive_nothing(timeout=0.5)
        assert await refused(connect(room, member)) == 4403

    async_to_sync(run)()


@pytest.mark.django_db(transaction=True)
def test_a_removed_player_is_closed_and_their_seat_played_for_them(people, club, preset):
    room = services.room_create(owner=people["owner"], variant="", preset=preset.pk, bots=2)
    services.room_join(room_id=room.pk, user=people["member"])
    for name in ("owner", "member"):
        services.room_ready(room_id=room.pk, user=people[name])
    assert Hand.objects.filter(room=room, status=Hand.Status.PLAYING).exists()
    member = cookie_for(people["member"])
    index = Seat.objects.get(room=room, user=people["member"]).index

    async def run():
        comm = connect(room, member)
        assert (await comm.connect())[0]
        assert (await receive_until(comm, "state"))["d"]["seat"] == index
        await database_sync_to_async(club_services.member_remove)(
            club_id=club.pk, actor=people["owner"], user_id=people["member"].pk
        )
        assert await closed_with(comm) == 4403
        assert await refused(connect(room, member)) == 4403

    async_to_sync(run)()
    seat = Seat.objects.get(room=room, user=people["member"])
    assert seat.left and seat.bot_controlled  # a bot plays it to the hand's end
    assert not Hand.objects.get(room=room).actions.filter(action__type="leave").exists()


def test_a_removed_member_waiting_at_a_club_table_gives_up_the_seat(people, club, preset):
    room = services.room_create(owner=people["owner"], variant="", preset=preset.pk, bots=1)
    services.room_join(room_id=room.pk, user=people["member"])

    club_services.member_remove(club_id=club.pk, actor=people["owner"], user_id=people["member"].pk)

    assert not Seat.objects.filter(room=room, user=people["member"]).exists()


def test_a_removed_player_cannot_act_at_the_table_over_rest(client_for, people, club, preset):
    """Still seated (played for them until the hand ends), but out of the club: the REST
    doors refuse them as the socket does, and change nothing."""
    room = services.room_create(owner=people["owner"], variant="", preset=preset.pk, bots=2)
    services.room_join(room_id=room.pk, user=people["member"])
    for name in ("owner", "member"):
        services.room_ready(room_id=room.pk, user=people[name])
    club_services.member_remove(club_id=club.pk, actor=people["owner"], user_id=people["member"].pk)
    seat = Seat.objects.get(room=room, user=people["member"])
    assert seat.left  # the club put them out: a bot plays the seat
    c = client_for(people["member"])

    take_back = c.post(f"/api/rooms/{room.pk}/auto/", {"auto": False}, format="json")
    ready = c.post(f"/api/rooms/{room.pk}/ready/", {}, format="json")
    detail = c.get(f"/api/rooms/{room.pk}/")
    with pytest.raises(services.ServiceError) as act:
        services.hand_act(room_id=room.pk, user=people["member"], version=0, action={})

    assert take_back.status_code == 403 and take_back.json()["code"] == "not_member"
    assert ready.status_code == 403 and ready.json()["code"] == "not_member"
    assert act.value.code == "not_seated"  # the seat is the bots' to the hand's end
    assert detail.status_code == 404  # nor the room's join code
    seat.refresh_from_db()
    assert seat.left and not seat.auto and not seat.ready
    # Still in the club, the same doors answer.
    again = client_for(people["owner"]).post(f"/api/rooms/{room.pk}/auto/", {"auto": True})
    assert again.status_code == 200


def test_a_removed_owner_cannot_add_bots_to_their_club_table(client_for, people, club, preset):
    room = services.room_create(owner=people["manager"], variant="", preset=preset.pk)
    club_services.member_remove(
        club_id=club.pk, actor=people["owner"], user_id=people["manager"].pk
    )

    r = client_for(people["manager"]).post(f"/api/rooms/{room.pk}/bots/")

    assert r.status_code == 403 and r.json()["code"] == "not_member"
    assert not Seat.objects.filter(room=room, user__is_bot=True).exists()
