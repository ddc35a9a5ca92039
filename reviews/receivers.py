"""What reviews does on the table's signals (connected in ``ReviewsConfig.ready``)."""

from __future__ import annotations

from django.dispatch import receiver

from config import obligations
from games.table.sweeper import swept
from reviews.services import REVIEW


@receiver(swept)
def reviews_owed_on_sweep(sender, **kwargs) -> None:
    obligations.resend_due(REVIEW)
