"""Rooms whose seats are held to the end of the match (ranked play): there, leaving hands
the seat to 托管 instead of giving it up, and the match counts.  The app that holds
rooms registers a test here; the table asks it (the table imports no such app)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone

from games.models import Hand, Room, Seat
from games.rules import HandState
from games.table import publish
from games.table.clocks import set_deadlines
from games.table.selectors import seats_with_users

_tests: list[Callable[[int], bool]] = []


def register(test: Callable[[int], bool]) -> None:
    """Add ``test(room_id) -> bool``: whether that room's seats are held."""
    if test not in _tests:
        _tests.append(test)


def seats_held(room_id: int) -> bool:
    return any(test(room_id) for test in _tests)


def seat_hold(room: Room, seat: Seat) -> Room:
    """Leaving a room whose seats are held: the seat goes to 托管 for the rest of the
    match and stays its player's (call with the room row locked)."""
    if not seat.auto:
        seat.auto = True
        seat.save(update_fields=["auto"])
        hand = Hand.objects.filter(room=room, status=Hand.Status.PLAYING).first()
        if hand is not None:  # the decision in hand gets the bots' delay
            hand.deadlines.get("seats", {}).pop(str(seat.index), None)
            state = HandState.from_json(hand.state)
            set_deadlines(room, hand, state, seats_with_users(room.pk), timezone.now())
            hand.save(update_fields=["deadlines", "deadline_at"])
    publish.room_changed_on_commit(room.pk)
    return room
