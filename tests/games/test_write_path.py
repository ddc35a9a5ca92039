"""The one write path of a move (``services.hand_act``): the room row locked first, the
hand read under that lock, the snapshot and the log written in the same transaction.

The tests run outside a test transaction (``transaction=True``), as the table socket's
calls do: each move is a transaction of its own."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from games.models import Hand, HandAction, Room
from games.rules import HandState, awaited
from games.rules.bots import choose_action
from games.table import services, timers
from tests.games.conftest import four_seated, wait_settled

pytestmark = pytest.mark.django_db(transaction=True)


def _table(make_user, prefix: str):
    users = [make_user(f"{prefix}{i}") for i in range(4)]
    room, _ = four_seated(users, hands=2)
    return room, users


def _move(room, users):
    """The move a bot would make for the first seat awaited now, from the database."""
    hand = Hand.objects.get(room=room, status=Hand.Status.PLAYING)
    state = HandState.from_json(hand.state)
    seat = awaited(state)[0]
    return hand, users[seat], choose_action(state, seat)


def test_a_move_waits_for_the_room_lock_and_then_acts_on_what_its_holder_wrote(make_user):
    """Whoever holds the room's lock may be changing the table: a move waits for that
    lock and is decided on the hand as the holder left it.  Here the holder plays the
    very move the other sends: that one is refused as stale, and nothing is written
    twice."""
    room, users = _table(make_user, "w")
    hand, user, action = _move(room, users)
    holding, release = threading.Event(), threading.Event()

    def holder():
        try:
            with transaction.atomic():
                Room.objects.select_for_update().get(pk=room.pk)
                holding.set()
                release.wait(10)
                services.hand_act(room_id=room.pk, user=user, version=hand.version, action=action)
        finally:
            close_old_connections()
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    assert holding.wait(10)
    errors = []

    def waiter():
        try:
            services.hand_act(room_id=room.pk, user=user, version=hand.version, action=action)
        except services.ServiceError as e:
            errors.append(e.code)
        finally:
            connection.close()

    second = threading.Thread(target=waiter)
    second.start()
    release.set()
    thread.join(10)
    second.join(10)
    assert errors == ["stale"]
    assert HandAction.objects.filter(hand=hand).count() == 1


def _play_to_the_end(room, users, *, left=()) -> Hand:
    """Bots' moves until the hand ends (the seats in ``left`` fired as their clocks run
    out, as the sweeper would an hour from now); the ended hand."""
    later = timezone.now() + timedelta(hours=1)
    for _ in range(400):
        hand = Hand.objects.filter(room=room, status=Hand.Status.PLAYING).first()
        if hand is None:
            ended = Hand.objects.filter(room=room).order_by("-number").first()
            # A real worker settles it: it must not still be writing when the test's
            # database is flushed.
            wait_settled(ended)
            return ended
        state = HandState.from_json(hand.state)
        if not awaited(state):  # a claim window nobody took: the sweeper closes it
            # On the left seats' clock: a window one of their moves opened closes then.
            timers.deadlines_fire_due(later)
            continue
        seat = awaited(state)[0]
        if seat in left:
            timers.hand_fire_deadline(room.pk, hand.pk, now=later)
        else:
            services.hand_act(
                room_id=room.pk,
                user=users[seat],
                version=hand.version,
                action=choose_action(state, seat),
            )
    raise AssertionError("the hand did not end")


def _moved_on(room, hand) -> Room:
    """The room after ``hand`` ended: the next hand is due, every seat unready."""
    moved = Room.objects.get(pk=room.pk)
    assert hand.status == Hand.Status.ENDED
    assert moved.hands_played == 1 and moved.status == Room.Status.PLAYING
    assert moved.match == hand.result["match"]
    due = hand.ended_at + timedelta(seconds=settings.GAME_NEXT_HAND_SECONDS)
    assert moved.next_hand_at == due
    assert not any(s.ready for s in moved.seats.all())
    return moved


def test_a_move_that_ends_the_hand_moves_the_room_on_with_it(make_user):
    room, users = _table(make_user, "e")
    hand = _play_to_the_end(room, users)
    moved = _moved_on(room, hand)
    assert [s.user_id for s in moved.seats.order_by("index")] == [u.pk for u in users]
    log = list(HandAction.objects.filter(hand=hand).order_by("seq").values_list("seq", flat=True))
    # Every action has its place in the log (seq: the engine's count of actions).
    assert log == list(range(1, HandState.from_json(hand.state).version + 1))


def test_a_seat_whose_player_left_during_the_hand_opens_when_it_ends(make_user):
    room, users = _table(make_user, "l")
    for _ in range(3):
        hand, user, action = _move(room, users)
        services.hand_act(room_id=room.pk, user=user, version=hand.version, action=action)
    services.room_leave(room_id=room.pk, user=users[3])
    hand = _play_to_the_end(room, users, left={3})
    moved = _moved_on(room, hand)
    seats = list(moved.seats.order_by("index"))
    assert [s.user_id for s in seats] == [u.pk for u in users[:3]] + [None]
    assert not seats[3].left
