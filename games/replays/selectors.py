"""Reads for a hand's record: who may see it, and the record and frames its page and
REST answer with (``games.rules.record``), rebuilt from the seeds and the action log."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from clubs import selectors as club_selectors
from config.refusals import ServiceError
from games.models import Hand, Settlement
from games.rules.record import make_record
from games.table import late
from games.table.bot_accounts import display_names
from games.table.selectors import deal_inputs


def hand_visible_to(hand: Hand, user) -> bool:
    """A private (or club) room's hands are for the players who sat at them; every
    other hand is public."""
    room = hand.room
    if not (room.private or club_selectors.room_hidden_from(room.club_id, user)):
        return True
    return user is not None and user.is_authenticated and user.pk in hand.players


def readable_hand(pk, user) -> Hand:
    """The hand ``pk`` if ``user`` may read its record now (``hand_visible_to``, and past
    the spectator delay), else the refusal to answer with."""
    hand = Hand.objects.filter(pk=pk).select_related("room").first()
    if hand is None:
        raise ServiceError("unknown_hand", "no such hand", 404)
    if not hand_visible_to(hand, user):
        raise ServiceError(
            "private_hand", "this hand was played at a private table: only its players see it", 403
        )
    if late.replay_held(hand, user):
        raise ServiceError(
            "replay_delayed",
            f"spectators see this table {hand.room.spectator_delay} s late: this hand's record "
            "opens to them once it ended that long ago",
            403,
        )
    return hand


def _players(hand: Hand) -> list[dict]:
    ids = [p for p in hand.players if p]
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=ids)}
    out = []
    for seat, user_id in enumerate(hand.players):
        user = users.get(user_id)
        out.append(
            {
                "seat": seat,
                "user_id": user_id,
                "name": user.shown_name if user else None,
                "is_bot": bool(user and user.is_bot),
                "bot_names": display_names(user),
            }
        )
    return out


def hand_record(hand: Hand) -> dict | None:
    """The hand's record (``games.rules.record.make_record``) with the site's facts: id,
    room, players, status and the stored settlement.  Before the hand is over it holds
    no server seed and no actions (the caller checks who may read it).  None for a hand
    that cannot be re-dealt: dealt before verifiable deals (no client seeds), or a log
    that no longer applies (``manage.py hand_verify`` says which)."""
    over = hand.status == Hand.Status.ENDED
    log = [(a.seat, a.action) for a in hand.actions.order_by("seq")] if over else []
    try:
        seeds, dealer, match = deal_inputs(hand)
        record = make_record(hand.variant, hand.rules, seeds, dealer, match, log, over=over)
    except ValueError:
        return None
    settlement = Settlement.objects.filter(hand=hand).first() if over else None
    record.update(
        {
            "id": hand.pk,
            "room": hand.room_id,
            "players": _players(hand),
            "status": hand.status,
            "started_at": hand.started_at.isoformat(),
            "ended_at": hand.ended_at.isoformat() if hand.ended_at else None,
            "settlement": (
                {"transfers": settlement.transfers, "deltas": settlement.deltas}
                if settlement is not None
                else None
            ),
        }
    )
    return record
