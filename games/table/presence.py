"""Who has a table socket open: presence rows, written as sockets open and close and
kept fresh by each server's heartbeat (``games.table.sweeper``).

At a table without timers whether a player is connected decides whether their
decision has a clock (``clocks.seat_delay``), so a presence change there restarts the
clocks of the decision in hand.  Like every write at a table, each change locks the
room row first."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.refusals import ServiceError
from games.models import Presence, Room
from games.rules import HandState
from games.table import publish
from games.table.clocks import set_deadlines, untimed
from games.table.selectors import seat_viewers, seats_with_users
from games.table.services import hand_in_play, room_lock, room_lock_playing


def refresh_deadlines(room: Room) -> None:
    """Recompute the current decision's clocks after a presence change (room locked)."""
    hand = hand_in_play(room)
    if hand is None:
        return
    state = HandState.from_json(hand.state)
    seats = seats_with_users(room.pk)
    before = (hand.deadlines, hand.deadline_at)
    set_deadlines(room, hand, state, seats, timezone.now())
    if (hand.deadlines, hand.deadline_at) != before:
        hand.save(update_fields=["deadlines", "deadline_at"])
        publish.hand_changed_on_commit(
            room.pk, hand, [(state, [])], viewers=seat_viewers(seats), private=room.private
        )


def _mark_presence(room: Room, user, channel: str, present: bool) -> None:
    """The socket ``channel``'s presence row in the locked ``room``: written or gone."""
    if present:
        Presence.objects.update_or_create(
            channel=channel, defaults={"room": room, "user": user, "seen_at": timezone.now()}
        )
    else:
        Presence.objects.filter(channel=channel).delete()


@transaction.atomic
def seat_presence(*, room_id, user, channel: str, present: bool) -> None:
    """A seated player's socket opened or closed: a player who goes away (or comes back)
    at a table without timers gets (or loses) a clock for the decision in hand."""
    room, playing = room_lock_playing(room_id)
    _mark_presence(room, user, channel, present)
    if playing and untimed(room):  # with both timers set, presence changes no clock
        refresh_deadlines(room)
    publish.room_changed_on_commit(room.pk)


@transaction.atomic
def watch_presence(*, room_id, user, channel: str, present: bool) -> None:
    """A spectator's socket opened or closed: the watchers count changes (spectators
    change no clock); the row is beaten and expired like a player's."""
    try:
        room = room_lock(room_id)
    except ServiceError:
        if not present:
            Presence.objects.filter(channel=channel).delete()
        return
    _mark_presence(room, user, channel, present)
    publish.room_changed_on_commit(room.pk)


def presence_heartbeat(channels) -> int:
    """A server vouches for its open sockets."""
    return Presence.objects.filter(channel__in=list(channels)).update(seen_at=timezone.now())


def presence_expire(now: datetime | None = None) -> int:
    """Drop sockets whose server stopped beating (it died) and restart affected clocks."""
    since = (now or timezone.now()) - timedelta(seconds=settings.GAME_PRESENCE_TTL)
    stale = Presence.objects.filter(seen_at__lt=since)
    rooms = set(stale.values_list("room_id", flat=True))
    removed, _ = stale.delete()
    for room_id in rooms:
        with transaction.atomic():
            room = Room.objects.select_for_update().filter(pk=room_id).first()
            if room is None:
                continue
            refresh_deadlines(room)
            publish.room_changed_on_commit(room.pk)
    return removed
