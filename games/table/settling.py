"""A hand's settlement is an obligation stored with the hand, not a message hoped for.

The hand's last write marks it ``ENDED``; it stays owed a settlement until the
settlement task has stored, rated and announced it and set ``Hand.settled_at``.
The task is sent after the commit (``finisher.announce_ended``), but a send can
fail (the broker down) and a sent task can be lost (its worker killed, the broker
restarted), so every sweeper (``games.table.sweeper.sweep_once``) sends it again for each
hand still owed one a few seconds after its end, once the queue in front of it is
empty.  The task is idempotent, so a hand sent twice is settled and rated once.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from games.models import Hand

log = logging.getLogger(__name__)

SETTLE_TASK = "games.tasks.settle_hand"
# The most hands one sweep sends again: the oldest first, the rest at the next one.
RESEND_BATCH = 200
# Held in the shared cache by the process that resends, so one process in the whole
# deployment does it per period however many sweep.
RESEND_KEY = "games:settlement-resend"
_last_resend = float("-inf")


def settlement_send(hand_id: int) -> bool:
    """Queue the hand's settlement task.  A broker that cannot take it is logged, not
    raised into the request or socket that ended the hand: the sweep sends it again."""
    try:
        current_app.signature(SETTLE_TASK, args=(hand_id,)).delay()
    except BrokerError as e:
        log.warning(
            "could not queue the settlement of hand %s (%s); the sweep resends it", hand_id, e
        )
        return False
    return True


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
    return list(owed.order_by("ended_at").values_list("pk", flat=True)[:RESEND_BATCH])


def settlement_resend_due() -> int:
    """``settlements_resend``, at most once per resend period in this process and
    (through the cache) in the whole deployment.  Returns how many were sent."""
    global _last_resend
    period = settings.GAME_SETTLE_RESEND_SECONDS
    now = time.monotonic()
    if now - _last_resend < period:
        return 0
    _last_resend = now
    if not unsettled_hands() or not _resend_turn(period):
        return 0
    return settlements_resend()


def settlements_resend() -> int:
    """Send the settlement task again for every hand still owed one; returns how many
    were sent (none more once the broker refuses one: they wait for the next time).

    Only while the task queue is empty: with tasks waiting, the worker is behind and the
    hands owed are in the queue still (a burst of hand ends); sending them again would
    only queue duplicates behind them and back the queue up further.  A task really
    lost (never queued, the broker restarted) is sent once the queue has drained."""
    if _waiting() > 0:
        return 0
    owed = unsettled_hands()
    for sent, hand_id in enumerate(owed):
        if not settlement_send(hand_id):
            return sent
    if owed:
        log.info("sent the settlement of %d hands again: %s", len(owed), owed[:10])
    return len(owed)


def _waiting() -> int:
    """Tasks waiting in the settlement task's queue (0: none, or the broker cannot say:
    then the resend is tried and fails as a send would)."""
    app = current_app
    try:
        with app.connection_for_read() as conn:
            conn.ensure_connection(max_retries=1)
            declared = conn.default_channel.queue_declare(
                queue=app.conf.task_default_queue, passive=True
            )
    except Exception as e:  # the broker's and the transport's own errors differ
        log.debug("settlement queue length unknown (%s)", e)
        return 0
    return declared.message_count


def _resend_turn(period: float) -> bool:
    """This process resends this period (no other process has taken it).  A cache that
    cannot answer lets every process resend: duplicates are harmless, losses are not."""
    try:
        return cache.add(RESEND_KEY, 1, timeout=max(1, int(period) - 1))
    except Exception as e:  # the cache's own errors differ by backend
        log.debug("settlement resend turn unknown (%s): resending", e)
        return True


def hand_is_settled(hand_id: int) -> bool:
    return Hand.objects.filter(pk=hand_id, settled_at__isnull=False).exists()


def hand_mark_settled(hand_id: int) -> None:
    """The settlement task is done with the hand: stored, rated and announced."""
    Hand.objects.filter(pk=hand_id, settled_at__isnull=True).update(settled_at=timezone.now())
