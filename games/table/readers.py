"""What the table reads of the apps above it (a room's match record, a hand's rating
changes, whether a room is rated), through functions those apps register in their
``AppConfig.ready``: the table imports none of them.  Unregistered, a read finds
nothing (no record, no rating, not rated)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime


@dataclass
class Readers:
    #: room id -> its match record's id, or None.
    match_of_room: Callable[[int], int | None] = lambda room_id: None
    #: match id, a moment -> whether that match ended after it.
    match_ended_after: Callable[[int, datetime], bool] = lambda match_id, when: False
    #: now -> the rooms whose match ended but is not public yet (the spectator delay).
    rooms_with_match_held: Callable[[datetime | None], list[int]] = lambda now: []
    #: a hand, its rating changes or None (read them) -> each rated seat's change as
    #: players see it: {"user_id", "seat", "before", "after", "change"}, by seat.
    hand_ratings: Callable[..., list[dict]] = lambda hand, changes=None: []
    #: a room's length in hands, whether a bot sits -> whether its hands move the
    #: public boards.
    counts_publicly: Callable[[int, bool], bool] = lambda hands_total, with_bots: False


readers = Readers()


def register(**found: Callable) -> None:
    """Set readers by name (``register(match_of_room=...)``)."""
    for name, reader in found.items():
        if not hasattr(readers, name):
            raise TypeError(f"no table reader is called {name}")
        setattr(readers, name, reader)
