"""Writing match records.

``match_finished`` records a match once it is over: it reads the room's hands and
settlements and writes the record once.  The settlement of every hand asks for it
through the table's ``match_may_have_ended`` signal (``records.receivers``): after its
commit, a task that records the match if that hand was its last.  The record is an
obligation (``MATCH_RECORD``): a room finished without one is sent again by the sweeps.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Max, Q
from django.dispatch import Signal
from django.utils import timezone

from config.obligations import RESEND_BATCH, Obligation
from games.models import DissolveVote, Hand, Room, Settlement
from records.models import Match, MatchPlayer
from records.summary import summarise

# Sent once per match, after the commit that recorded it (``match``: the new record).
match_recorded = Signal()


def _win_records(hand: Hand) -> list:
    state = hand.state or {}
    return list(state.get("won") or [None] * 4)


def ended_by_of(room: Room) -> str:
    """How a finished room's match ended: its players voted to end it (解散), or every
    hand played (or the match over by its own rules), else cut short."""
    if DissolveVote.objects.filter(room=room, status=DissolveVote.Status.PASSED).exists():
        return Match.EndedBy.DISSOLVED
    if room.hands_played >= room.hands_total or (room.match or {}).get("finished"):
        return Match.EndedBy.COMPLETE
    return Match.EndedBy.DISSOLVED


def records_owed(seconds: float) -> list[int]:
    """Rooms owed their match record for ``seconds`` or more, oldest first: finished,
    with hands that are all settled (the record reads their settlements), the last
    settled that long ago, and no record.  Only the last day is looked at: a record owed
    longer is ``manage.py records_backfill``'s."""
    now = timezone.now()
    recent = Hand.objects.filter(settled_at__gte=now - timedelta(days=1)).values("room_id")
    owed = (
        Room.objects.filter(pk__in=recent, status=Room.Status.FINISHED, record__isnull=True)
        .annotate(
            last=Max("hands__settled_at"),
            unsettled=Count(
                "hands",
                filter=Q(hands__status=Hand.Status.ENDED, hands__settled_at__isnull=True),
            ),
        )
        .filter(unsettled=0, last__lte=now - timedelta(seconds=seconds))
    )
    return list(owed.order_by("last").values_list("pk", flat=True)[:RESEND_BATCH])


#: A finished match's record: queued when the table says its match may have ended
#: (``records.receivers``), sent again by the sweeps while owed.
MATCH_RECORD = Obligation(
    name="match record",
    task="records.tasks.record_match",
    owed=records_owed,
    period=lambda: settings.GAME_SETTLE_RESEND_SECONDS,
)


def match_finished(room, ended_by: str = Match.EndedBy.COMPLETE) -> Match | None:
    """Record the match of ``room`` (a Room or its id) and return the record.

    Idempotent: a match already recorded is returned as it is.  Nothing is written
    (None) while the room is still playing, when it dealt no hand to the end, or while
    one of its finished hands still awaits its settlement: the last settlement to be
    stored calls this again."""
    room_id = room.pk if isinstance(room, Room) else room
    existing = Match.objects.filter(room_id=room_id).first()
    if existing is not None:
        return existing
    room = Room.objects.filter(pk=room_id).first()
    if room is None or room.status != Room.Status.FINISHED:
        return None
    hands = list(Hand.objects.filter(room=room, status=Hand.Status.ENDED).order_by("number"))
    if not hands:
        return None
    deltas = dict(Settlement.objects.filter(hand__in=hands).values_list("hand_id", "deltas"))
    if len(deltas) < len(hands):
        return None
    summary = summarise(
        [
            {"id": h.pk, "number": h.number, "deltas": deltas[h.pk], "won": _win_records(h)}
            for h in hands
        ]
    )
    last = hands[-1]
    ids = {u for h in hands for u in h.players if u}
    users = get_user_model().objects.in_bulk(ids)
    with transaction.atomic():
        match, created = Match.objects.get_or_create(
            room=room,
            defaults={
                "variant": room.variant,
                "club_id": room.club_id,
                "started_at": hands[0].started_at,
                "ended_at": last.ended_at or timezone.now(),
                "ended_by": ended_by,
                "summary": summary,
            },
        )
        if not created:
            return match
        players = []
        for p in summary["players"]:
            user = users.get(last.players[p["seat"]])
            players.append(
                MatchPlayer(
                    match=match,
                    seat=p["seat"],
                    user=user,
                    name=user.shown_name if user else "",
                    is_bot=bool(user and user.is_bot),
                    total=p["total"],
                )
            )
        MatchPlayer.objects.bulk_create(players)
        match.participants.set([u for u in users.values() if not u.is_bot])
        transaction.on_commit(lambda: match_recorded.send(sender=Match, match=match))
    return match
