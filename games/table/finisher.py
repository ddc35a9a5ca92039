"""What happens when a hand ends (in the spirit of lila's ``Finisher``): the room moves
on (``hand_ended``, in the transaction of the hand's last action), and the settlement
task stores the variant's ``settle`` once per hand, applies it to the running scores and
balances (``hand_settle``) and tells the table (``settled_announce``).

The services call this module; it calls no service.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F

from games.locks import users_lock
from games.models import Hand, Room, Seat, Settlement
from games.rules import HandState, settle
from games.table import publish, settling, signals
from games.table.selectors import settled_payload
from games.table.vote_state import dissolve_passed


def _only_bots(seats: list[Seat]) -> bool:
    """Nobody but bots is left in these seats (as they are now)."""
    return not any(s.user_id and not s.left and not s.is_bot for s in seats)


def close_if_only_bots(room: Room, seats: list[Seat]) -> bool:
    """Nobody but bots is left: close the room rather than list (or play) it forever.

    Call with the room row locked; ``seats`` as they are now."""
    if not _only_bots(seats):
        return False
    room.status = Room.Status.FINISHED
    room.next_hand_at = None
    room.save(update_fields=["status", "next_hand_at"])
    return True


def hand_ended(room: Room, hand: Hand, state, seats: list[Seat], now: datetime) -> None:
    """The hand's last action is being recorded (room locked): the room moves on to the
    next hand of the match (or finishes: played out, or a dissolve vote passed), its
    seats are reset and whoever left during the hand is out of the room, their seat
    open; ``announce_ended`` after it."""
    match = state.result["match"]
    room.hands_played += 1
    room.match = match
    over = room.hands_played >= room.hands_total or match.get("finished")
    # Played out, its players voted to end it, or nobody but bots stays for the next hand.
    if over or dissolve_passed(room.pk) or _only_bots([s for s in seats if not s.left]):
        room.status, room.next_hand_at = Room.Status.FINISHED, None
    else:
        room.next_hand_at = now + timedelta(seconds=settings.GAME_NEXT_HAND_SECONDS)
    room.save(update_fields=["hands_played", "match", "status", "next_hand_at"])
    Seat.objects.filter(room=room, left=False).update(ready=False)
    Seat.objects.filter(room=room, left=True).update(user=None, left=False, ready=False, auto=False)


def announce_ended(room: Room, hand: Hand) -> None:
    """After ``hand_ended``'s writes (and the hand's messages, queued first: the table
    hears ``hand_end`` before the room moves on and before ``settled``): the room's new
    payload and the settlement, queued for after the commit."""
    publish.room_changed_on_commit(room.pk)
    hand_id = hand.pk
    # Queued once the hand's messages are out: its ``settled`` must not overtake them.
    # A send that fails is logged; the hand stays owed its settlement (``games.table.settling``).
    publish.after_sent_on_commit(lambda: settling.settlement_send(hand_id))


@transaction.atomic
def hand_settle(hand_id) -> Settlement | None:
    """Store the hand's settlement and apply it to seats and balances, once; the
    settlement returned holds its hand (as read here, under the lock).

    Idempotent: the settlement row is unique per hand, so a retried task finds it and
    does nothing more.

    Locks in ``games.locks`` order: the players' rows (their balances move), then the
    room's (its seats' running scores move), then the hand's."""
    found = Hand.objects.filter(pk=hand_id).values_list("room_id", "players").first()
    if found is None:
        return None
    room_id, players = found
    users_lock(players or [])
    Room.objects.select_for_update().filter(pk=room_id).values_list("pk").first()
    hand = Hand.objects.select_for_update().filter(pk=hand_id).first()
    if hand is None or hand.status != Hand.Status.ENDED:
        return None
    existing = Settlement.objects.filter(hand=hand).first()
    if existing is not None:
        existing.hand = hand
        return existing
    out = settle(HandState.from_json(hand.state))
    settlement = Settlement.objects.create(
        hand=hand,
        transfers=out["transfers"],
        deltas=out["deltas"],
        details={
            **out["details"],
            "winners": out["winners"],
            "end_transfers": out["end_transfers"],
            "pot": out["pot"],
        },
    )
    users = get_user_model().objects
    for seat, delta in enumerate(out["deltas"]):
        Seat.objects.filter(room_id=hand.room_id, index=seat).update(score=F("score") + delta)
        if hand.players[seat] is not None:
            users.filter(pk=hand.players[seat]).update(balance=F("balance") + delta)
    # The match's record, if this was its last hand.
    signals.match_may_have_ended.send(sender=Room, room_id=hand.room_id)
    return settlement


def settled_announce(settlement: Settlement, changes) -> None:
    """Tell the table the hand's settlement (after ratings, so it carries them): the
    settlement task's own, with its hand and rating changes, not read again."""
    hand = settlement.hand
    # The seats' running scores moved with the settlement: the room's standings first.
    publish.room_changed_on_commit(hand.room_id)
    publish.settled(hand.room_id, settled_payload(hand, settlement=settlement, changes=changes))
