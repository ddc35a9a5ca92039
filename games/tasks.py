"""Celery tasks: thin, idempotent wrappers around services.

Safe to run twice and under ``acks_late`` (a redelivered task finds its unique rows
already written and does nothing).  In the embedded profile they run in-process
(eager); with REDIS_URL on a real worker.
"""

from celery import shared_task
from django.db import OperationalError

from games.table import finisher, settling
from leaderboards.services import ratings_update_for_hand


@shared_task
def ping() -> str:
    """Answer "pong"; proves a task makes the round trip through the broker and a worker."""
    return "pong"


# Nobody reads these tasks' return values: no result is stored for them.
@shared_task(
    autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5, ignore_result=True
)
def settle_hand(hand_id: int) -> bool:
    """Store the hand's settlement and running scores, rate the players and tell the
    table ``settled``: one task, each step committed on its own and idempotent (rated
    here, not queued behind every hand that ended meanwhile: under load a table would
    wait out the queue twice).

    The sweeper sends it again until the hand is marked settled, last: a copy that
    finds the mark does nothing, one that runs before it repeats only the announcement."""
    if settling.hand_is_settled(hand_id):
        return False
    settlement = finisher.hand_settle(hand_id)
    if settlement is None:
        return False
    # hand_settle has committed; announced with what this task has just written or found.
    changes = ratings_update_for_hand(hand_id)
    finisher.settled_announce(settlement, changes)
    settling.hand_mark_settled(hand_id)
    return True
