"""What records does when the table says so (connected in ``RecordsConfig.ready``)."""

from __future__ import annotations

from django.dispatch import receiver

from config import obligations
from games.table.signals import match_may_have_ended
from games.table.sweeper import swept
from records.services import MATCH_RECORD


@receiver(match_may_have_ended)
def match_record_on_commit(sender, room_id, **kwargs) -> None:
    """After the table's commit, record the room's match if it is over (the task
    ``record_match``, which leaves a room still playing alone)."""
    obligations.send_on_commit(MATCH_RECORD, room_id)


@receiver(swept)
def records_owed_on_sweep(sender, **kwargs) -> None:
    obligations.resend_due(MATCH_RECORD)
