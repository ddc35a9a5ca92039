"""Asking for a hand review and making it: the only writes to :class:`HandReview`.

``review_request`` checks who asks and for what, stores the request once per hand
and seat and queues the task after the commit; ``review_compute`` (the task's body)
replays the hand with the pure ``games.rules.review`` and stores the result once.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from config.refusals import ServiceError
from games.models import Hand
from games.replays import selectors as replay_selectors
from games.rules.record import RecordError
from games.rules.review import review
from games.table import selectors as game_selectors
from reviews.models import HandReview

log = logging.getLogger(__name__)

REVIEW_TASK = "reviews.tasks.review_hand"


def review_request(*, hand_id, user) -> HandReview:
    """The review of ``user``'s own seat in a finished hand: the stored one if it was
    asked for before, else a new request whose task is queued on commit.  A request
    still pending ``REVIEW_RESEND_SECONDS`` after its task was sent (a broker that was
    down, a worker that died) is sent again: the task is idempotent."""
    hand = replay_selectors.readable_hand(hand_id, user)
    if hand.status != Hand.Status.ENDED:
        raise ServiceError(
            "hand_in_play", "this hand is still being played: a review opens when it ends", 409
        )
    if not user.is_authenticated or user.pk not in hand.players:
        raise ServiceError(
            "not_your_hand",
            "you did not play this hand: only its players may ask for a review of their play",
            403,
        )
    try:
        game_selectors.deal_inputs(hand)
    except ValueError:
        raise ServiceError(
            "no_record", "this hand was dealt before verifiable deals: it has no record", 409
        ) from None
    seat = hand.players.index(user.pk)
    now = timezone.now()
    with transaction.atomic():
        row, created = HandReview.objects.get_or_create(
            hand=hand, seat=seat, defaults={"requested_by": user, "sent_at": now}
        )
        stale = now - timedelta(seconds=settings.REVIEW_RESEND_SECONDS)
        if not created and row.status == HandReview.Status.PENDING and row.sent_at <= stale:
            row.sent_at = now
            row.save(update_fields=["sent_at"])
            created = True
        if created:
            transaction.on_commit(lambda: review_send(row.pk))
    row.refresh_from_db()  # run inline (the embedded profile), the task may be done already
    return row


def review_send(review_id: int) -> bool:
    """Queue the review task.  A broker that cannot take it is logged, not raised into
    the request: the review stays pending and asking again later sends it again."""
    try:
        current_app.signature(REVIEW_TASK, args=(review_id,)).delay()
    except BrokerError as e:
        log.warning("could not queue review %s (%s); asking again resends it", review_id, e)
        return False
    return True


def review_compute(review_id: int) -> bool:
    """Make and store the review once: True if this call stored it, False if it was
    done (or failed) already or is gone.  The replay runs outside any transaction;
    the result is written under the row's lock, so two copies of the task store one."""
    row = HandReview.objects.filter(pk=review_id).select_related("hand").first()
    if row is None or row.status != HandReview.Status.PENDING:
        return False
    record = replay_selectors.hand_record(row.hand)
    entries, error = None, ""
    try:
        if record is None:
            raise RecordError("the hand has no record: it cannot be replayed")
        entries = review(record, row.seat)
    except RecordError as e:
        log.error("hand %s: review of seat %s failed: %s", row.hand_id, row.seat, e)
        error = str(e)[:300]
    with transaction.atomic():
        row = HandReview.objects.select_for_update().filter(pk=review_id).first()
        if row is None or row.status != HandReview.Status.PENDING:
            return False
        row.entries, row.error = entries, error
        row.status = HandReview.Status.DONE if entries is not None else HandReview.Status.FAILED
        row.done_at = timezone.now()
        row.save(update_fields=["entries", "error", "status", "done_at"])
    return True
