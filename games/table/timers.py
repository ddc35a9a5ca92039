"""What happens at a table with nobody sending anything: decisions whose clock ran out
(a bot's, a seat on 托管, a human's timeout) and the next hand's countdown.  Any
process may call these at any time (``games.table.sweeper`` does, several times a second);
the room lock and a re-read make exactly one of them act."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Hand, Room
from games.rules import HandState, Rejection, apply, awaited
from games.rules.bots import choose_action
from games.table import store
from games.table.clocks import bot_level, close_due, set_deadlines, timeout_action, untimed
from games.table.services import hand_save_steps, hand_start_next, room_lock

log = logging.getLogger(__name__)

MAX_FIRE_STEPS = 400  # actions one deadline sweep may take at a table (a loop guard)
# Seconds past due after which a process fires a deadline of a room it has no socket in
# (the room's own process fires it first, unless it died or nobody is connected).
OTHERS_GRACE = 1.0


def deadlines_fire_due(now: datetime | None = None, *, mine: set[int] | None = None) -> int:
    """Fire every deadline that has passed (any process may call this at any time).
    ``mine``: the rooms this process has sockets in, whose deadlines it fires as they
    fall due; another room's only once it is ``OTHERS_GRACE`` overdue (None: every
    room's at once).

    Returns how many actions were taken."""
    now = now or timezone.now()
    taken = 0
    overdue = now - timedelta(seconds=OTHERS_GRACE)
    due = Hand.objects.filter(status=Hand.Status.PLAYING, deadline_at__lte=now)
    for room_id, hand_id, at in due.values_list("room_id", "pk", "deadline_at"):
        if mine is not None and room_id not in mine and at > overdue:
            continue
        # One table's failure must not starve the others (its transaction rolled back;
        # the next sweep tries it again).
        try:
            taken += hand_fire_deadline(room_id, hand_id, now)
        except Exception:
            log.exception("firing the deadline of hand %s failed", hand_id)
    rooms = Room.objects.exclude(status=Room.Status.FINISHED).filter(next_hand_at__lte=now)
    for room_id, at in rooms.values_list("pk", "next_hand_at"):
        if mine is not None and room_id not in mine and at > overdue:
            continue
        try:
            room_next_hand(room_id, now)
        except Exception:
            log.exception("starting the next hand of room %s failed", room_id)
    return taken


@transaction.atomic
def hand_fire_deadline(room_id, hand_id, now: datetime | None = None) -> int:
    """Decide for every seat whose deadline has passed: with the bot policy for a bot or
    a seat on 托管, with ``clocks.timeout_action`` (never a claim or a win) for a human;
    close a claim window nobody claimed once its minimum time is over (``clocks``).

    Every server process sweeps the same deadlines: a room another transaction holds
    (another sweeper, or a move) is passed by rather than waited for, and the hand is
    read under the lock only while its deadline is still due, so the first process
    does the work and the rest find it done; a deadline passed by and still due is
    met by the next sweep."""
    now = now or timezone.now()
    room = store.lock_room(room_id, skip_locked=True)
    if room is None:
        return 0
    hand, seats, fresh = store.read_table(room, presence=untimed(room), now=now)
    if hand is None or hand.pk != hand_id or hand.deadline_at is None or hand.deadline_at > now:
        return 0
    state = HandState.from_json(hand.state)
    steps = []
    while len(steps) < MAX_FIRE_STEPS and state.phase != "ended":
        waiting = awaited(state)
        due = [
            int(k)
            for k, iso in sorted(hand.deadlines.get("seats", {}).items())
            if datetime.fromisoformat(iso) <= now and int(k) in waiting
        ]
        if close_due(hand, state, now):
            # A claim window nobody claimed, its minimum time over: the hand goes on.
            seat, action, source = state.claim["from"], {"type": "close"}, "server"
        elif not due:
            break
        elif seats[due[0]].bot_controlled:  # a bot, 托管, or a seat its player left
            seat = due[0]
            level = bot_level(room, seats[seat])
            action, source = choose_action(state, seat, level=level), "bot"
        else:
            seat = due[0]
            action, source = timeout_action(state, seat), "timeout"
        out = apply(state, seat, action)
        if isinstance(out, Rejection):  # pragma: no cover - only legal actions are picked
            raise RuntimeError(f"timeout action refused: {out.reason}")
        steps.append((seat, action, source, *out))
        state = out[0]
        if state.phase != "ended":
            # Seats newly awaited get a fresh clock; only bots with no delay act
            # again within this sweep.
            set_deadlines(room, hand, state, seats, now, fresh=fresh)
    if not steps:
        return 0
    hand_save_steps(room, hand, steps, seats, now, fresh=fresh)
    return len(steps)


@transaction.atomic
def room_next_hand(room_id, now: datetime | None = None) -> Hand | None:
    now = now or timezone.now()
    room = room_lock(room_id)
    if room.next_hand_at is None or room.next_hand_at > now:
        return None
    hand = hand_start_next(room, force=True)
    if hand is None and room.status == Room.Status.OPEN:
        # A countdown whose table lost a player meanwhile: nothing to start, stop it.
        room.next_hand_at = None
        room.save(update_fields=["next_hand_at"])
    return hand
