"""Match records written straight to the tables, for tests of reading them."""

from __future__ import annotations

import datetime

from django.utils import timezone

from games.models import Room
from records.models import Match, MatchPlayer
from records.summary import summarise


def recorded_match(
    users,
    *,
    totals=(3, 1, -1, -3),
    club=None,
    private=False,
    ended_at: datetime.datetime | None = None,
    hand_ids=(101, 102),
    ended_by="complete",
    variant="sichuan",
) -> Match:
    """A finished room and its record: ``users`` in seats 0-3 (None: nobody), two hands
    whose deltas add up to ``totals``."""
    owner = next(u for u in users if u is not None)
    room = Room.objects.create(
        owner=owner,
        variant=variant,
        club=club,
        private=private,
        status=Room.Status.FINISHED,
        hands_played=2,
        hands_total=2,
    )
    first = [t // 2 for t in totals]
    second = [t - f for t, f in zip(totals, first, strict=True)]
    win = {"seat": 0, "win_type": "self_draw", "from": None, "items": [], "total": 1}
    hands = [
        {"id": hand_ids[0], "number": 1, "deltas": first, "won": [win, None, None, None]},
        {"id": hand_ids[1], "number": 2, "deltas": second, "won": [None] * 4},
    ]
    summary = summarise(hands)
    ended_at = ended_at or timezone.now()
    match = Match.objects.create(
        room=room,
        variant=variant,
        club=club,
        started_at=ended_at - datetime.timedelta(minutes=20),
        ended_at=ended_at,
        ended_by=ended_by,
        summary=summary,
    )
    MatchPlayer.objects.bulk_create(
        MatchPlayer(
            match=match,
            seat=s,
            user=u,
            name=u.shown_name if u else "",
            is_bot=False,
            total=summary["players"][s]["total"],
        )
        for s, u in enumerate(users)
    )
    match.participants.set([u for u in users if u is not None])
    return match
