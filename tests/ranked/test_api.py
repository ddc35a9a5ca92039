"""The public REST contract of ranked play, as issue-stated shapes."""

import pytest
from django.test import Client

from ranked import matcher
from ranked.models import QueueEntry

pytestmark = pytest.mark.django_db


def client_for(user, address="10.1.0.1"):
    c = Client(REMOTE_ADDR=address)
    c.force_login(user)
    return c


def test_queue_join_poll_leave(four):
    c = client_for(four[0])
    assert c.get("/api/ranked/queue/").status_code == 404
    r = c.post("/api/ranked/queue/", {"variant": "sichuan"}, content_type="application/json")
    assert r.status_code == 201 and r.json()["variant"] == "sichuan"
    assert QueueEntry.objects.get().address == "10.1.0.1"
    body = c.get("/api/ranked/queue/").json()
    assert set(body) == {"variant", "waited_seconds", "players_queued", "room"}
    assert body["variant"] == "sichuan" and body["players_queued"] == 1 and body["room"] is None
    r = c.post("/api/ranked/queue/", {"variant": "guangzhou"}, content_type="application/json")
    assert r.status_code == 409 and set(r.json()) == {"code", "detail"}
    assert r.json()["code"] == "queued_elsewhere"
    assert c.delete("/api/ranked/queue/").status_code == 204
    assert c.get("/api/ranked/queue/").status_code == 404


def test_seated_players_see_their_room_and_cannot_queue(four):
    clients = [client_for(u, f"10.1.0.{i}") for i, u in enumerate(four)]
    for c in clients:
        c.post("/api/ranked/queue/", {"variant": "ningbo"}, content_type="application/json")
    matcher.match_pass()
    rooms = {c.get("/api/ranked/queue/").json()["room"] for c in clients}
    assert len(rooms) == 1 and None not in rooms
    clients[0].delete("/api/ranked/queue/")
    r = clients[0].post(
        "/api/ranked/queue/", {"variant": "ningbo"}, content_type="application/json"
    )
    assert r.status_code == 409 and r.json()["code"] == "seated_ranked"


def test_bad_input_is_a_clear_refusal(four):
    c = client_for(four[0])
    for body in ({}, {"variant": "x"}, {"variant": "sichuan", "bots_after": "soon"}, [1]):
        r = c.post("/api/ranked/queue/", body, content_type="application/json")
        assert r.status_code == 400 and set(r.json()) == {"code", "detail"}, body
    assert not QueueEntry.objects.exists()
    assert Client().post("/api/ranked/queue/", {"variant": "sichuan"}).status_code == 403


def test_queue_joins_are_throttled(four, settings):
    settings.RANKED_QUEUE_RATE = "3/min"
    c = client_for(four[0])
    codes = [
        c.post(
            "/api/ranked/queue/", {"variant": "sichuan"}, content_type="application/json"
        ).status_code
        for _ in range(4)
    ]
    assert codes == [201, 201, 201, 429]


def test_board_shape_and_seasons(four):
    r = Client().get("/api/ranked/sichuan/board/")
    assert r.status_code == 200
    body = r.json()
    assert set(body["season"]) == {"id", "name", "starts", "ends"}
    assert body["players"] == []
    assert Client().get("/api/ranked/sichuan/board/?season=999").status_code == 404
    assert Client().get("/api/ranked/nope/board/").status_code == 400
    same = Client().get(f"/api/ranked/sichuan/board/?season={body['season']['id']}")
    assert same.json() == body


def test_pages_answer_in_both_languages(four):
    c = client_for(four[0])
    for lang, word in (("en", "Ranked play"), ("zh-hans", "排位")):
        c.cookies["django_language"] = lang
        four[0].language = lang
        four[0].save(update_fields=["language"])
        for url in ("/play/", "/play/sichuan/board/", "/accounts/profile/"):
            r = c.get(url)
            assert r.status_code == 200, url
            assert word in r.content.decode(), (lang, url)
