"""A hand's settlement is an obligation stored with the hand, not a message hoped for.

The hand's last write marks it ``ENDED``; it stays owed a settlement until the
settlement task has stored, rated and announced it and set ``Hand.settled_at``.
The task is sent after the commit (``finisher.announce_ended``), but a send can
fail (the broker down) and a sent task can be lost (its worker killed, the broker
restarted), so every sweeper (``games.table.sweeper.sweep_once``) sends it again for each
hand still owed one a few seconds after its end, once the queue in front of it is
empty.  The task is idempotent, so a hand sent twice is settled and rated once.  The
queueing and the resend are ``config.obligations``', as for a match's record and a
hand's review.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from config import obligations
from games.models import Hand

SETTLE_TASK = "games.tasks.settle_hand"


def unsettled_hands(now: datetime | None = None, *, older_than: float | None = None) -> list[int]:
    """Ids of the hands that ended at least ``older_than`` seconds ago (the resend
    period by default) and are still owed their settlement, oldest first."""
    now = now or timezone.now()
    if older_than is None:
        older_than = settings.GAME_SETTLE_RESEND_SECONDS
    owed = Hand.objects.filter(
        status=Hand.Status.ENDED,
        settled_at__isnull=True,
        ended_at__lte=now - timedelta(seconds=older_than),
    )
    return list(owed.order_by("ended_at").values_list("pk", flat=True)[: obligations.RESEND_BATCH])


SETTLEMENT = obligations.Obligation(
    name="settlement",
    task=SETTLE_TASK,
    owed=lambda seconds: unsettled_hands(older_than=seconds),
    period=lambda: settings.GAME_SETTLE_RESEND_SECONDS,
)


def settlement_send(hand_id: int) -> bool:
    """Queue the hand's settlement task (False: the broker refused it; the sweep resends)."""
    return obligations.send(SETTLEMENT, hand_id)


def settlements_resend() -> int:
    """Send the settlement task again for every hand still owed one, if the task queue is
    empty; returns how many were sent."""
    return obligations.resend(SETTLEMENT)


def settlement_resend_due() -> int:
    """``settlements_resend``, at most once per resend period in this process and
    (through the cache) in the whole deployment.  Returns how many were sent."""
    return obligations.resend_due(SETTLEMENT)


def hand_is_settled(hand_id: int) -> bool:
    return Hand.objects.filter(pk=hand_id, settled_at__isnull=False).exists()


def hand_mark_settled(hand_id: int) -> None:
    """The settlement task is done with the hand: stored, rated and announced."""
    Hand.objects.filter(pk=hand_id, settled_at__isnull=True).update(settled_at=timezone.now())
