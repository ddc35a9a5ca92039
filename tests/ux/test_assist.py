"""托管 (auto-play): the seat is played by the bot policy at the bots' pace until taken back."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.models import Hand, HandAction, Seat
from games.rules import HandState
from games.table import assist, services
from tests.games.conftest import play_out, sweep

pytestmark = pytest.mark.django_db(transaction=True)  # publish and settle run on commit


def test_auto_play_plays_the_seat_at_once_and_stops_when_taken_back(make_user, client, settings):
    settings.GAME_BOT_DELAY = 5  # bots (and 托管) take 5 seconds; ann's own clock is 15
    ann = make_user("ann")
    room = services.room_create(owner=ann, variant="sichuan", bots=3)
    services.room_ready(room_id=room.pk, user=ann)
    hand = Hand.objects.get(room=room)
    soon = timezone.now() + timedelta(seconds=6)
    assert datetime.fromisoformat(hand.deadlines["seats"]["0"]) > soon

    client.force_login(ann)
    response = client.post(f"/api/rooms/{room.pk}/auto/", {"auto": True}, "application/json")
    assert response.status_code == 200
    assert response.json()["seats"][0]["auto"] is True
    assert Seat.objects.get(room=room, index=0).bot_controlled
    hand.refresh_from_db()
    assert datetime.fromisoformat(hand.deadlines["seats"]["0"]) <= soon  # re-clocked

    sweep(minutes=0.1)  # six seconds: the bots' pace, long before ann's 15 seconds
    hand.refresh_from_db()
    assert HandState.from_json(hand.state).vs["que"][0] is not None
    assert [a.source for a in HandAction.objects.filter(hand=hand, seat=0)] == ["bot"]

    assist.seat_auto_play(room_id=room.pk, user=ann, on=False)
    assert not Seat.objects.get(room=room, index=0).bot_controlled
    play_out(room)
    # From then on her clock ran out each time: nothing more was played as 托管.
    # (The table's closes of her claim windows are logged for her seat, as "server".)
    later = HandAction.objects.filter(hand=hand, seat=0).exclude(source="server")
    later = later.order_by("seq")[1:]
    assert later and {a.source for a in later} == {"timeout"}


def test_auto_play_refusals_are_clear_and_change_nothing(make_user, client):
    ann, bob = make_user("ann"), make_user("bob")
    room = services.room_create(owner=ann, variant="sichuan", bots=2)
    client.force_login(bob)

    not_seated = client.post(f"/api/rooms/{room.pk}/auto/", {"auto": True}, "application/json")
    bad = client.post(f"/api/rooms/{room.pk}/auto/", {"auto": "yes please"}, "application/json")
    missing = client.post("/api/rooms/99999/auto/", {"auto": True}, "application/json")

    assert (not_seated.status_code, not_seated.json()["code"]) == (409, "not_seated")
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_request")
    assert (missing.status_code, missing.json()["code"]) == (404, "no_room")
    assert not Seat.objects.filter(room=room, auto=True).exists()
