"""Asking for a hand review over REST: who may ask, what is stored, who may read it."""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from games.models import Hand
from games.replays.selectors import hand_record
from games.rules.review import review
from games.table import services as game_services
from reviews.models import HandReview
from reviews.throttles import ReviewRequestThrottle
from tests.games.test_api import logged_in
from tests.games.test_fair import played_hand

pytestmark = pytest.mark.django_db(transaction=True)


def url(hand) -> str:
    return f"/api/hands/{hand.pk}/reviews/"


def wait_done(client, hand, seat: int, timeout: float = 30) -> dict:
    """Poll the seat's review as the page does until it is no longer pending (inline on
    the embedded profile, on a real worker with the services profile)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = client.get(f"{url(hand)}{seat}/")
        assert r.status_code == 200, r.content
        if r.json()["status"] != "pending":
            return r.json()
        time.sleep(0.2)
    raise AssertionError(f"the review of hand {hand.pk} seat {seat} stayed pending")


def test_a_player_asks_polls_and_gets_the_stored_review_once(make_user, client):
    ann, room, hand = played_hand(make_user)
    me = logged_in(ann)
    r = me.post(url(hand))
    assert r.status_code in (200, 202), r.content
    first = r.json()
    assert first["hand"] == hand.pk and first["seat"] == 0 and first["hand_number"] == 1
    assert first["status"] in ("pending", "done")
    assert (r.status_code == 202) == (first["status"] == "pending")
    done = wait_done(me, hand, 0)
    assert done["status"] == "done" and done["done_at"]
    # What the pure review says of that seat in that hand, stored as it said it.
    assert done["entries"] == review(hand_record(hand), 0)
    assert done["entries"], "ann's seat (played for her by the bot) had choices to make"
    for e in done["entries"]:
        assert e["seq"] >= 1 and e["played"]["type"] and e["strong"]["type"]
        assert e["reason"]["zh-hans"] and e["reason"]["en"]
    stored = HandReview.objects.get(hand=hand, seat=0)
    assert stored.requested_by == ann and stored.entries == done["entries"]

    # Asking again answers the stored review: no second row, nothing recomputed.
    again = me.post(url(hand))
    assert again.status_code == 200 and again.json() == done
    assert HandReview.objects.filter(hand=hand).count() == 1
    assert HandReview.objects.get(pk=stored.pk).done_at == stored.done_at

    # A public hand's replay is anyone's, and so is its review.
    listed = client.get(url(hand))
    assert listed.status_code == 200 and listed.json() == [done]
    assert client.get(f"{url(hand)}0/").json() == done
    missing = client.get(f"{url(hand)}1/")
    assert missing.status_code == 404 and missing.json()["code"] == "no_review"


def test_a_hand_still_being_played_is_refused(make_user):
    ann = make_user("ann")
    room = game_services.room_create(owner=ann, variant="sichuan", bots=3, hands=1)
    game_services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    assert hand.status == Hand.Status.PLAYING
    r = logged_in(ann).post(url(hand))
    assert r.status_code == 409
    assert r.json()["code"] == "hand_in_play" and "still being played" in r.json()["detail"]
    assert not HandReview.objects.exists()


def test_only_the_hands_players_may_ask_and_a_private_hands_reviews_are_theirs(make_user, client):
    ann, room, hand = played_hand(make_user, private=True)
    bob = logged_in(make_user("bob"))
    # Someone who did not sit there: the replay's own refusal, for asking and reading.
    for r in (bob.post(url(hand)), bob.get(url(hand)), client.get(url(hand))):
        assert r.status_code == 403 and r.json()["code"] == "private_hand"
    assert client.post(url(hand)).status_code == 403  # not signed in
    assert not HandReview.objects.exists()
    me = logged_in(ann)
    assert me.post(url(hand)).status_code in (200, 202)
    wait_done(me, hand, 0)
    assert bob.get(f"{url(hand)}0/").status_code == 403
    assert me.get(url(hand)).json()[0]["seat"] == 0


def test_a_public_hand_is_readable_but_only_its_players_may_ask(make_user):
    ann, room, hand = played_hand(make_user)
    r = logged_in(make_user("bob")).post(url(hand))
    assert r.status_code == 403
    assert r.json()["code"] == "not_your_hand" and "did not play" in r.json()["detail"]
    unknown = logged_in(ann).post("/api/hands/987654/reviews/")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_hand"
    assert not HandReview.objects.exists()


def test_asking_is_throttled(make_user, monkeypatch):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["review_request"] == "10/min"
    ann, room, hand = played_hand(make_user)
    monkeypatch.setattr(ReviewRequestThrottle, "THROTTLE_RATES", {"review_request": "2/min"})
    me = logged_in(ann)
    codes = [me.post(url(hand)).status_code for _ in range(3)]
    assert codes[:2] != [429, 429] and codes[2] == 429, codes
    r = me.post(url(hand))
    assert r.status_code == 429 and r.json()["code"] == "throttled"
    # Reading (the page's polling) is not counted.
    assert me.get(url(hand)).status_code == 200
    assert HandReview.objects.filter(hand=hand).count() == 1
    assert wait_done(me, hand, 0)["status"] == "done"


def test_the_schema_describes_the_review_endpoints(client):
    text = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/hands/{id}/reviews/" in text and "/api/hands/{id}/reviews/{seat}/" in text
    assert "hand_review_request" in text and "hand_reviews_list" in text
