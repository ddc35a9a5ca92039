"""A room with a spectator delay: nothing reaches a spectator sooner than the delay, by
any door (the socket's first room frame, the REST room and lobby, the hand's record,
replay and page, the room page's list of hands).  Seated players are not delayed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.utils import timezone

from games.models import Hand, Settlement
from games.table import services
from tests.games.conftest import play_out
from tests.games.test_consumers import connect, cookie_for, drain

pytestmark = pytest.mark.django_db(transaction=True)
DELAY = 30


@pytest.fixture
def table(make_user):
    """ann and three bots played a hand just now (the first of two), at a room spectators
    see ``DELAY`` seconds late; bob watches.  (room, hand, ann, bob)"""
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(
        owner=ann, variant="sichuan", bots=3, hands=2, spectator_delay=DELAY
    )
    services.room_ready(room_id=room.pk, user=ann)
    hand = play_out(room)
    assert any(Settlement.objects.get(hand=hand).deltas)  # the hand moved the scores
    happened(hand, ago=0)
    return room, hand, ann, bob


def happened(hand, *, ago: float) -> None:
    """The hand was dealt 20 s, ended 5 s and was settled 4 s before ``ago`` seconds ago
    (the test's sweeps ran the clock ahead to play it)."""
    then = timezone.now() - timedelta(seconds=ago)
    Hand.objects.filter(pk=hand.pk).update(
        started_at=then - timedelta(seconds=20), ended_at=then - timedelta(seconds=5)
    )
    Settlement.objects.filter(hand=hand).update(created_at=then - timedelta(seconds=4))
    hand.refresh_from_db()


def client_of(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def first_room_frame(room, user) -> dict:
    cookie = cookie_for(user)

    async def run():
        comm = connect(room, cookie)
        assert (await comm.connect())[0]
        first = await comm.receive_json_from(timeout=10)
        await drain(comm)
        await comm.disconnect()
        return first

    msg = async_to_sync(run)()
    assert msg["t"] == "room"
    return msg["d"]


def scores(payload) -> list[int]:
    return [s["score"] for s in payload["seats"]]


def test_the_room_reaches_a_spectator_as_it_stood_the_delay_ago(table):
    room, hand, ann, bob = table
    live_scores = list(Settlement.objects.get(hand=hand).deltas)

    for seen in (
        first_room_frame(room, bob),
        client_of(bob).get(f"/api/rooms/{room.pk}/").json(),
        next(r for r in client_of(bob).get("/api/rooms/").json() if r["id"] == room.pk),
    ):
        # 30 s ago the hand had not been dealt: nothing played, nothing won.
        assert seen["hands_played"] == 0 and scores(seen) == [0, 0, 0, 0]
        assert seen["next_hand_number"] == 1 and seen["next_commitment"] == hand.commitment
    for seen in (first_room_frame(room, ann), client_of(ann).get(f"/api/rooms/{room.pk}/").json()):
        assert seen["hands_played"] == 1 and scores(seen) == live_scores  # a player: live


def test_a_finished_hands_record_and_replay_wait_for_the_delay(table):
    room, hand, ann, bob = table
    urls = (f"/api/hands/{hand.pk}/", f"/api/hands/{hand.pk}/frames/")

    for url in urls:
        r = client_of(bob).get(url)
        assert r.status_code == 403 and r.json()["code"] == "replay_delayed", url
        assert f"{DELAY} s late" in r.json()["detail"]
        assert client_of(ann).get(url).status_code == 200, url  # she played it
    review = client_of(bob).get(f"/api/hands/{hand.pk}/reviews/0/")  # a review waits too
    assert review.status_code == 403 and review.json()["code"] == "replay_delayed"
    page = client_of(bob).get(f"/hands/{hand.pk}/")
    assert page.status_code == 403 and b'id="hand-delayed"' in page.content
    assert hand.server_seed.encode() not in page.content
    assert f"/hands/{hand.pk}/".encode() not in client_of(bob).get(f"/rooms/{room.pk}/").content
    assert f"/hands/{hand.pk}/".encode() in client_of(ann).get(f"/rooms/{room.pk}/").content

    # Once the hand ended longer ago than the delay, it is anyone's to replay.
    happened(hand, ago=DELAY)
    for url in urls:
        r = client_of(bob).get(url)
        assert r.status_code == 200, (url, r.content[:300])
    review = client_of(bob).get(f"/api/hands/{hand.pk}/reviews/0/")
    assert review.status_code == 404 and review.json()["code"] == "no_review"  # nobody asked
    assert client_of(bob).get(f"/hands/{hand.pk}/").status_code == 200
    late = client_of(bob).get(f"/api/rooms/{room.pk}/").json()
    assert late["hands_played"] == 1 and scores(late) == Settlement.objects.get(hand=hand).deltas
