"""托管 (auto-play): a seated player hands their decisions to the bot policy, and takes
them back.

Kept out of ``services`` because it only flips a seat's flag and then reuses the room's
own machinery: a seat with ``auto`` set is ``bot_controlled``, so the deadline code gives it
the bots' short delay and the sweeper plays it with the same policy as a bot.  Same locking
policy as ``services``: lock the room row first.
"""

from __future__ import annotations

from django.db import transaction

from config.refusals import ServiceError
from games.models import Presence, Room, Seat
from games.table import presence, publish, selectors, services


@transaction.atomic
def seat_auto_play(*, room_id, user, on: bool) -> Room:
    """Turn 托管 on or off for ``user``'s seat; the current decision is re-clocked."""
    if not isinstance(on, bool):
        raise ServiceError("bad_request", "auto must be true or false")
    room = services.room_lock(room_id)
    if not on:  # handing a seat to 托管 is always allowed (the club does it on removal)
        services.check_member(room, user)
    seats = selectors.seats_with_users(room.pk)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise ServiceError("not_seated", "you are not seated in this room", 409)
    if seat.auto == on:
        return room
    seat.auto = on
    seat.save(update_fields=["auto"])
    hand = services.hand_in_play(room)
    if hand is not None:
        # Forget this seat's running clock so the new delay (the bots' or the table's)
        # applies to the decision in hand, then let the room recompute every clock.
        hand.deadlines.get("seats", {}).pop(str(seat.index), None)
        hand.save(update_fields=["deadlines"])
    presence.refresh_deadlines(room)
    publish.room_changed_on_commit(room.pk)
    return room


@transaction.atomic
def seat_put_out(*, room_id, user) -> Room:
    """The room's club put ``user`` out (removed, or they left it) while a hand is on: out
    of their seat as a leave puts one (``services.room_leave``: played by a bot to the
    hand's end, then open for someone else), without the walk-out penalty nor its end of
    the match; between hands ``room_leave`` itself costs nothing."""
    room = services.room_lock(room_id)
    seats = selectors.seats_with_users(room.pk)
    seat = next((s for s in seats if s.user_id == user.pk and not s.left), None)
    hand = services.hand_in_play(room)
    if seat is None or hand is None:
        return services.room_leave(room_id=room_id, user=user) if seat is not None else room
    Presence.objects.filter(room=room, user=user).delete()
    seat.left, seat.ready = True, False
    seat.save(update_fields=["left", "ready"])
    hand.deadlines.get("seats", {}).pop(str(seat.index), None)  # its clock is the bots'
    hand.save(update_fields=["deadlines"])
    presence.refresh_deadlines(room)
    publish.room_changed_on_commit(room.pk)
    publish.reseat_on_commit(room.pk, [user.pk])
    return room


def club_member_gone(sender, club_id, user, **kwargs) -> None:
    """``clubs.signals.member_gone``: one no longer a member is out of the club's tables
    at once.  After commit their sockets there re-read their access and close (4403).  A
    seat they hold is given up as a leave gives it up, without the penalty for walking
    out (the club put them out): freed at once between hands, played by a bot to the end
    of a hand on, then open for someone else."""
    rooms = Room.objects.filter(club_id=club_id).exclude(status=Room.Status.FINISHED)
    for room_id in rooms.values_list("pk", flat=True):
        publish.reseat_on_commit(room_id, [user.pk])
    seated = Seat.objects.filter(room__in=rooms, user=user, left=False)
    for room_id in seated.values_list("room_id", flat=True):
        seat_put_out(room_id=room_id, user=user)
