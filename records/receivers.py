"""What records does when the table says so (connected in ``RecordsConfig.ready``)."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from games.table.signals import match_may_have_ended
from records.tasks import record_match


@receiver(match_may_have_ended)
def match_record_on_commit(sender, room_id, **kwargs) -> None:
    """After the table's commit, record the room's match if it is over (the task
    ``record_match``, which leaves a room still playing alone)."""
    transaction.on_commit(lambda: record_match.delay(room_id))
