"""Asking for a hand review and making it: the only writes to :class:`HandReview`.

``review_request`` checks who asks and for what, stores the request once per hand
and seat and queues the task after the commit; ``review_compute`` (the task's body)
replays the hand with the pure ``games.rules.review`` and stores the result once.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config import obligations
from config.obligations import RESEND_BATCH, Obligation
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
            obligations.send_on_commit(REVIEW, row.pk)
    row.refresh_from_db()  # run inline (the embedded profile), the task may be done already
    return row


def reviews_owed(seconds: float) -> list[int]:
    """Reviews still pending ``seconds`` or more after their task was last sent, oldest
    first."""
    stale = timezone.now() - timedelta(seconds=seconds)
    owed = HandReview.objects.filter(status=HandReview.Status.PENDING, sent_at__lte=stale)
    return list(owed.order_by("sent_at").values_list("pk", flat=True)[:RESEND_BATCH])


def reviews_sent(ids: list[int]) -> None:
    HandReview.objects.filter(pk__in=ids).update(sent_at=timezone.now())


#: A hand's review: queued when asked for, sent again by the sweeps while pending
#: (a review still being made is not sent again within the period).
REVIEW = Obligation(
    name="review",
    task=REVIEW_TASK,
    owed=reviews_owed,
    period=lambda: settings.REVIEW_RESEND_SECONDS,
    sent=reviews_sent,
)


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
