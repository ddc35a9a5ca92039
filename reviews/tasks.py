"""Celery task: make a hand review (idempotent: a review is stored once)."""

from celery import shared_task
from django.db import OperationalError

from reviews import services


# Nobody reads the return value: the review is read from its row.
@shared_task(
    autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5, ignore_result=True
)
def review_hand(review_id: int) -> bool:
    """Replay the hand and store the seat's review, unless it is stored already."""
    return services.review_compute(review_id)
