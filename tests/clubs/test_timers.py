"""A preset sets its rooms' timers, 不限时 among them, and may lock them; a club room's
form offers them, starting from the preset's."""

from __future__ import annotations

import pytest

from clubs import selectors, services
from games.models import Room

pytestmark = pytest.mark.django_db

UNTIMED = {"discard_seconds": None, "claim_seconds": None}


def open_room(client, preset, **extra):
    return client.post("/api/rooms/", {"preset": preset.pk, **extra}, format="json")


def set_timers(client, club, preset, timers):
    return client.put(
        f"/api/clubs/{club.pk}/presets/{preset.pk}/",
        {"rules": {"mode": "plain", "fan_cap": 3}, "locked": ["fan_cap"], "timers": timers},
        format="json",
    )


def test_a_member_opens_an_untimed_club_room(client_for, people, preset):
    r = open_room(client_for(people["member"]), preset, **UNTIMED)

    assert r.status_code == 201, r.json()
    room = Room.objects.get(pk=r.json()["id"])
    assert (room.discard_seconds, room.claim_seconds) == (None, None)


def test_a_public_lobby_room_still_needs_a_timer(client_for, people):
    r = client_for(people["member"]).post(
        "/api/rooms/", {"variant": "sichuan", **UNTIMED}, format="json"
    )

    assert r.status_code == 400 and r.json()["code"] == "bad_timer"


def test_the_preset_timers_are_the_rooms_unless_it_asks_otherwise(client_for, people, club, preset):
    manager = client_for(people["manager"])
    saved = set_timers(manager, club, preset, {"discard_seconds": 30, "claim_seconds": 10})
    assert saved.status_code == 200, saved.json()
    assert saved.json()["timers"] == {"discard_seconds": 30, "claim_seconds": 10, "locked": False}

    via_service = services.room_rules(preset_id=preset.pk, user=people["member"])
    asked = open_room(client_for(people["member"]), preset, discard_seconds=20, claim_seconds=5)

    assert (via_service.discard_seconds, via_service.claim_seconds) == (30, 10)
    assert asked.status_code == 201, asked.json()
    room = Room.objects.get(pk=asked.json()["id"])
    assert (room.discard_seconds, room.claim_seconds) == (20, 5)


def test_locked_timers_are_kept(client_for, people, club, preset):
    manager = client_for(people["manager"])
    assert set_timers(manager, club, preset, {**UNTIMED, "locked": True}).status_code == 200
    member = client_for(people["member"])
    before = Room.objects.count()

    refused = open_room(member, preset, discard_seconds=15, claim_seconds=8)
    kept = open_room(member, preset, **UNTIMED)

    assert refused.status_code == 400 and refused.json()["code"] == "locked_timer"
    assert kept.status_code == 201
    assert Room.objects.count() == before + 1


@pytest.mark.parametrize(
    "timers",
    [
        {"discard_seconds": 2},
        {"claim_seconds": 301},
        {"discard_seconds": "15"},
        {"locked": "yes"},
        {"speed": 3},
        [15, 8],
    ],
)
def test_bad_timers_are_refused_and_change_nothing(client_for, people, club, preset, timers):
    r = set_timers(client_for(people["manager"]), club, preset, timers)

    assert r.status_code == 400 and r.json()["code"] == "bad_timer"
    assert preset.versions.count() == 1


def test_the_history_shows_timer_changes(client_for, people, club, preset):
    set_timers(client_for(people["manager"]), club, preset, {**UNTIMED, "locked": True})

    newest = selectors.version_history(preset)[0]["diff"]

    rows = {row["option"]: row for row in newest}
    assert rows["discard_seconds"]["old"] == {"zh-hans": "15 秒", "en": "15 s"}
    assert rows["discard_seconds"]["new"] == {"zh-hans": "不限时", "en": "no timer"}
    assert rows["claim_seconds"]["lock_changed"] and rows["claim_seconds"]["lock_new"]


@pytest.mark.parametrize(
    ("lang", "texts"), [("zh-hans", ["计时", "不限时"]), ("en", ["Timers", "No timer"])]
)
def test_the_room_form_offers_the_timers(client_for, people, club, preset, lang, texts):
    people["member"].language = lang
    people["member"].save(update_fields=["language"])

    page = client_for(people["member"]).get(f"/clubs/{club.pk}/presets/{preset.pk}/play/")

    html = page.content.decode()
    assert 'id="opt-no-timer"' in html and 'id="opt-discard"' in html
    for text in texts:
        assert text in html
