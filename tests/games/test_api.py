"""The REST API through DRF with session auth and CSRF enforced."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Hand, Room

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(user) -> APIClient:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    from django.middleware.csrf import _get_new_csrf_string

    token = _get_new_csrf_string()
    client.cookies["csrftoken"] = token
    client.credentials(HTTP_X_CSRFTOKEN=token)
    return client


def test_variants_describe_their_house_rules(client):
    body = client.get("/api/variants/").json()
    from games.rules import available

    assert [v["key"] for v in body] == [v.key for v in available()]
    assert {"sichuan", "hangzhou"} <= {v["key"] for v in body}
    by_key = {v["key"]: v for v in body}
    hangzhou = {r["id"]: r for r in by_key["hangzhou"]["rules"]}
    assert hangzhou["discard_win_min_streak"]["default"] == 2
    assert hangzhou["max_streak_factor"]["choices"] == [2, 4, 8, 16]
    rules = {r["id"]: r for r in by_key["sichuan"]["rules"]}
    assert rules["fan_cap"]["default"] == 4 and rules["fan_cap"]["nullable"] is True
    assert rules["mode"]["choices"] == ["xuezhan", "plain"]
    assert rules["ding_que"]["label"] == {"zh-hans": "定缺", "en": "Declare a missing suit"}


def test_create_room_with_bots_returns_id_code_and_ws(make_user):
    ann = make_user("ann")
    api = logged_in(ann)
    r = api.post(
        "/api/rooms/",
        {"variant": "sichuan", "rules": {"mode": "plain"}, "hands": 4, "private": False, "bots": 3},
        format="json",
    )
    assert r.status_code == 201, r.content
    room = r.json()
    assert room["ws"] == f"/ws/rooms/{room['id']}/" and len(room["code"]) == 6
    assert [s["is_bot"] for s in room["seats"]] == [False, True, True, True]
    assert room["seats"][0]["bot_names"] is None
    assert room["seats"][1]["bot_names"] == {"zh-hans": "机器人·小墨", "en": "Bot Ink"}
    assert room["rules"]["mode"] == "plain" and room["my_seat"] == 0
    listed = api.get("/api/rooms/").json()
    assert room["id"] in [x["id"] for x in listed]
    assert "code" not in logged_in(make_user("bob")).get(f"/api/rooms/{room['id']}/").json()
    r = api.post(f"/api/rooms/{room['id']}/ready/", format="json")
    assert r.status_code == 200 and r.json()["status"] == "playing"
    assert Hand.objects.filter(room_id=room["id"]).count() == 1


def test_csrf_and_login_are_required_to_write(make_user):
    ann = make_user("ann")
    anon = APIClient(enforce_csrf_checks=True)
    assert anon.post("/api/rooms/", {"variant": "sichuan"}, format="json").status_code == 403
    no_token = APIClient(enforce_csrf_checks=True)
    no_token.force_login(ann)
    r = no_token.post("/api/rooms/", {"variant": "sichuan"}, format="json")
    assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    assert Room.objects.count() == 0


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"variant": "sichuan", "rules": {"no_such_rule": 1}}, "bad_rules"),
        ({"variant": "riichi"}, "unknown_variant"),
        ({"variant": "sichuan", "hands": "many"}, "bad_request"),
        ({"variant": "sichuan", "colour": "red"}, "bad_request"),
        ({"variant": "sichuan", "discard_seconds": None}, "bad_timer"),
    ],
)
def test_bad_room_requests_are_clear_json_errors(make_user, payload, code):
    r = logged_in(make_user("ann")).post("/api/rooms/", payload, format="json")
    assert r.status_code == 400
    assert r.json()["code"] == code and r.json()["detail"]
    assert Room.objects.count() == 0


def test_join_private_room_needs_the_code_and_full_rooms_refuse(make_user):
    ann, bob, cai = make_user("ann"), make_user("bob"), make_user("cai")
    api = logged_in(ann)
    room = api.post(
        "/api/rooms/",
        {"variant": "sichuan", "private": True, "bots": 2, "discard_seconds": None},
        format="json",
    ).json()
    bob_api = logged_in(bob)
    assert bob_api.get(f"/api/rooms/{room['id']}/").status_code == 404  # private: hidden
    r = bob_api.post(f"/api/rooms/{room['id']}/join/", {"code": "NOPE00"}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "wrong_code"
    r = bob_api.post(f"/api/rooms/{room['id']}/join/", {"code": room["code"]}, format="json")
    assert r.status_code == 200 and r.json()["my_seat"] == 3
    r = logged_in(cai).post(f"/api/rooms/{room['id']}/join/", {"code": room["code"]}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "room_full"
    r = bob_api.post(f"/api/rooms/{room['id']}/leave/", format="json")
    assert r.status_code == 200 and r.json()["free_seats"] == 1


def test_owner_adds_bots_through_the_api(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    room = logged_in(ann).post("/api/rooms/", {"variant": "sichuan"}, format="json").json()
    r = logged_in(bob).post(f"/api/rooms/{room['id']}/bots/", format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_owner"
    api = logged_in(ann)
    for expected_free in (2, 1, 0):
        r = api.post(f"/api/rooms/{room['id']}/bots/", format="json")
        assert r.status_code == 201 and r.json()["free_seats"] == expected_free
    r = api.post(f"/api/rooms/{room['id']}/bots/", format="json")
    assert r.status_code == 409 and r.json()["code"] == "room_full"
    r = api.delete(f"/api/rooms/{room['id']}/bots/2/")
    assert r.status_code == 200 and r.json()["seats"][2]["user_id"] is None


def test_schema_documents_the_room_endpoints(client):
    r = client.get("/api/schema/")
    assert r.status_code == 200
    text = r.content.decode()
    for path in ("/api/rooms/", "/api/rooms/{id}/join/", "/api/variants/", "/api/leaderboards/"):
        assert path in text
