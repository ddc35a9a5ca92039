"""Rooms opened for players chosen elsewhere (ranked matching): seated together at once,
or called off when they never all came.  Same locking policy as ``services``."""

from __future__ import annotations

from django.db import transaction

from games.models import Room, Seat
from games.table import publish, services


@transaction.atomic
def room_open_seated(*, players: list, variant: str, hands: int) -> Room:
    """A private room of ``variant`` with these four players seated (in this order),
    timers on, each to ready at the table.  Call in the transaction that chose them."""
    room = services.room_create(owner=players[0], variant=variant, hands=hands, private=True)
    for index, user in enumerate(players[1:], start=1):
        Seat.objects.filter(room=room, index=index).update(user=user)
    return room


@transaction.atomic
def room_call_off(*, room_id) -> Room | None:
    """End a room whose game has not started (its players never all came)."""
    room = Room.objects.select_for_update().filter(pk=room_id).first()
    if room is not None and room.status == Room.Status.OPEN:
        room.status = Room.Status.FINISHED
        room.save(update_fields=["status"])
        publish.room_changed_on_commit(room.pk)
    return room
