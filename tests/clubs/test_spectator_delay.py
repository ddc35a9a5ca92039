"""A club preset's spectator delay: versioned with the rules, taken by the rooms
made from it, and a floor those rooms may not go below."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from clubs.models import PresetVersion
from games.models import Room
from tests.games.test_consumers import connect, cookie_for, drain

pytestmark = pytest.mark.django_db


def presets_url(club):
    return f"/api/clubs/{club.pk}/presets/"


def make_preset(client, club, **extra):
    body = {"variant": "sichuan", "name": "Slow", "rules": {}, **extra}
    return client.post(presets_url(club), body, format="json")


def test_a_preset_version_carries_its_delay_and_rooms_take_it(client_for, people, club):
    manager = client_for(people["manager"])
    r = make_preset(manager, club, spectator_delay=30)
    assert r.status_code == 201, r.json()
    assert r.json()["spectator_delay"] == 30
    pid = r.json()["id"]

    r = client_for(people["member"]).post("/api/rooms/", {"preset": pid}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["spectator_delay"] == 30
    assert Room.objects.get(pk=r.json()["id"]).spectator_delay == 30


def test_a_room_may_ask_for_more_delay_than_its_preset_never_less(client_for, people, club):
    pid = make_preset(client_for(people["manager"]), club, spectator_delay=30).json()["id"]
    member = client_for(people["member"])

    r = member.post("/api/rooms/", {"preset": pid, "spectator_delay": 10}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_delay"
    assert "30" in r.json()["detail"]
    assert not Room.objects.exists()

    r = member.post("/api/rooms/", {"preset": pid, "spectator_delay": 90}, format="json")
    assert r.status_code == 201 and r.json()["spectator_delay"] == 90


@pytest.mark.parametrize("bad", [-1, 301, "30", 2.5, True, [30], {"s": 1}])
def test_a_bad_preset_delay_is_refused_and_nothing_is_saved(client_for, people, club, bad):
    r = make_preset(client_for(people["manager"]), club, spectator_delay=bad)

    assert r.status_code == 400 and r.json()["code"] == "bad_delay", r.json()
    assert not PresetVersion.objects.exists()


def test_a_new_version_keeps_the_delay_unless_it_changes_it(client_for, people, club):
    manager = client_for(people["manager"])
    pid = make_preset(manager, club, spectator_delay=20).json()["id"]
    url = f"{presets_url(club)}{pid}/"

    # Same rules, same delay: nothing new to save.
    r = manager.put(url, {"rules": {}}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unchanged"
    # Only the delay changes: that is a new version.
    r = manager.put(url, {"rules": {}, "spectator_delay": 60}, format="json")
    assert r.status_code == 200 and r.json()["version"] == 2 and r.json()["spectator_delay"] == 60
    # New rules without a delay keep the latest version's.
    r = manager.put(url, {"rules": {"mode": "plain"}}, format="json")
    assert r.status_code == 200 and r.json()["version"] == 3 and r.json()["spectator_delay"] == 60
    r = manager.put(url, {"rules": {}, "spectator_delay": 999}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bad_delay"
    assert PresetVersion.objects.filter(preset_id=pid).count() == 3
    versions = client_for(people["manager"]).get(f"{url}versions/").json()
    assert [v["spectator_delay"] for v in versions] == [20, 60, 60]


def test_a_room_from_an_older_version_keeps_that_versions_delay(client_for, people, club):
    manager = client_for(people["manager"])
    pid = make_preset(manager, club, spectator_delay=15).json()["id"]
    member = client_for(people["member"])
    first = member.post("/api/rooms/", {"preset": pid}, format="json").json()
    manager.put(f"{presets_url(club)}{pid}/", {"rules": {}, "spectator_delay": 45}, format="json")

    assert Room.objects.get(pk=first["id"]).spectator_delay == 15  # made before the change
    second = member.post("/api/rooms/", {"preset": pid}, format="json").json()
    assert second["spectator_delay"] == 45


@pytest.mark.django_db(transaction=True)
def test_a_club_rooms_spectator_gets_the_table_late(client_for, people, club):
    """The preset's delay reaches the socket: a member watching sees the hand's start only
    after it (a live player sees it at once)."""
    import time

    from games.table import services

    pid = make_preset(client_for(people["manager"]), club, spectator_delay=2).json()["id"]
    room = services.room_create(owner=people["member"], variant="", preset=pid, bots=3)
    player_cookie, watcher_cookie = cookie_for(people["member"]), cookie_for(people["manager"])

    async def run():
        player = connect(room, player_cookie)
        await player.connect()
        watcher = connect(room, watcher_cookie)
        assert (await watcher.connect())[0]
        await drain(player)
        await drain(watcher)
        started = time.monotonic()
        await player.send_json_to({"t": "ready"})
        first = None
        while first is None or first["t"] != "state":
            first = await player.receive_json_from(timeout=5)
        assert time.monotonic() - started < 1.5  # the player is not delayed
        early = await drain(watcher)
        assert not [m for m in early if m["t"] == "state"]
        while True:
            msg = await watcher.receive_json_from(timeout=5)
            if msg["t"] == "state":
                break
        assert time.monotonic() - started >= 1.8
        assert msg["d"]["seat"] is None and msg["v"] == first["v"]
        await player.disconnect()
        await watcher.disconnect()

    async_to_sync(run)()
