"""Celery task: record a finished match (idempotent, like the settlement it follows)."""

from celery import shared_task
from django.db import OperationalError

from games.models import Room
from games.table import publish
from records import services


@shared_task(
    autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5, ignore_result=True
)
def record_match(room_id: int) -> bool:
    """Record the room's match if it is over; a room still playing is left alone."""
    room = Room.objects.filter(pk=room_id).first()
    if room is None or room.status != Room.Status.FINISHED:
        return False
    match = services.match_finished(room, ended_by=services.ended_by_of(room))
    if match is None:
        return False
    # The table learns the record's id (its 大结算 is read from it).
    publish.room_changed_on_commit(room_id)
    return True
