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

_holders: list[tuple[Callable[[int], bool], Callable[[Room, Seat], None]]] = []


def register(test: Callable[[int], bool], left_before_start: Callable[[Room, Seat], None]) -> None:
    """Add ``test(room_id) -> bool``: whether that room's seats are held; and what
    happens when a player leaves such a room before its first deal,
    ``left_before_start(room, seat)`` (the room row locked; the app ends or keeps the
    room)."""
    if all(test is not t for t, _ in _holders):
        _holders.append((test, left_before_start))


def holder_of(room_id: int):
    return next((h for h in _holders if h[0](room_id)), None)


def seats_held(room_id: int) -> bool:
    return holder_of(room_id) is not None


def seat_hold(room: Room, seat: Seat) -> Room:
    """Leaving a room whose seats are held: the seat goes to 托管 for the rest of the
    match and stays its player's (call with the room row locked).  Before the first
    deal the holder decides instead (the match has not started: there is nothing to
    play on for them)."""
    holder = holder_of(room.pk)
    if room.status == Room.Status.OPEN and holder is not None:
        holder[1](room, seat)
        return room
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
