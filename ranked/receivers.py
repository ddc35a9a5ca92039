"""Where ranked play hooks into the table and the records (their signals and hooks call
the services here; no logic of their own)."""

from __future__ import annotations

from django.dispatch import receiver

from games.table.sweeper import swept
from ranked import matcher, services
from ranked.models import RankedMatch, RankedSeat
from records.services import match_recorded


def ranked_room(room_id: int) -> bool:
    """A ranked match counts to its end: its seats are held."""
    return RankedSeat.objects.filter(match__room_id=room_id, active=True).exists()


@receiver(swept)
def match_on_sweep(sender, **kwargs):
    matcher.match_pass_due()


@receiver(match_recorded)
def settle_on_record(sender, match, **kwargs):
    if RankedMatch.objects.filter(room_id=match.room_id).exists():
        services.match_settle(match.room_id)
