"""Celery tasks: thin, idempotent wrappers around services.

Both are safe to run twice and under ``acks_late`` (a redelivered task finds
its unique row already written and does nothing).  In the embedded profile
they run in-process (eager); with REDIS_URL on a real worker.
"""

from celery import shared_task
from django.db import OperationalError

from games import finisher
from leaderboards.services import ratings_update_for_hand


@shared_task
def ping() -> str:
    """Answer "pong"; proves a task makes the round trip through the broker and a worker."""
    return "pong"


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def settle_hand(hand_id: int) -> bool:
    """Store the hand's settlement and running scores, then queue the rating update."""
    settlement = finisher.hand_settle(hand_id)
    if settlement is None:
        return False
    update_ratings.delay(hand_id)  # hand_settle has committed: safe to enqueue
    return True


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def update_ratings(hand_id: int) -> int:
    """Update OpenSkill ratings for the hand's players, then announce ``settled``."""
    changes = ratings_update_for_hand(hand_id)
    finisher.settled_announce(hand_id)
    return len(changes)
