"""When a hand of a room with a spectator delay becomes public: ``delay`` seconds after it
ended (a hand in play is not public at all).  The table applies it to what it shows
(``games.table.late``); the boards, the members' totals and the match records leave out
what is not public yet (``hands_held``, ``held``)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone

from games.models import Hand

#: The longest spectator delay a room or a club preset may set, in seconds.
SPECTATOR_DELAY_MAX = 300


def cutoff(delay: int, now: datetime | None = None) -> datetime:
    """The moment a spectator ``delay`` seconds late sees now."""
    return (now or timezone.now()) - timedelta(seconds=delay)


def held(rows: QuerySet, *, ended: str, delay: str, now: datetime | None = None) -> list[int]:
    """Of ``rows``, the pks still inside their room's delay: ``delay`` (a lookup to the
    room's ``spectator_delay``) set and ``ended`` (a lookup to when the row's hand or
    match ended) less than that long ago, or not yet."""
    now = now or timezone.now()
    recent = rows.filter(**{f"{delay}__gt": 0}).exclude(
        **{f"{ended}__lte": now - timedelta(seconds=SPECTATOR_DELAY_MAX)}
    )
    return [
        pk
        for pk, at, seconds in recent.values_list("pk", ended, delay)
        if at is None or at > cutoff(seconds, now)
    ]


def hands_held(now: datetime | None = None, **where) -> list[int]:
    """The ids of the hands (of rooms ``where`` says, e.g. ``room__club_id``) that are not
    public yet: in play or ended less than their room's delay ago."""
    return held(
        Hand.objects.filter(**where), ended="ended_at", delay="room__spectator_delay", now=now
    )
