"""The match: what carries from one hand to the next.

A :class:`MatchState` is pure, frozen data beside the hands: who deals and for
how many hands in a row (连庄), the seat winds, the prevailing wind (风圈) and
how many hands have been played.  ``new_hand`` deals under it; when a hand
ends, the variant decides the next one (``Variant.next_match``), so a room that
stores it resumes a match exactly after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

WINDS = "ESWN"


def winds_from_dealer(dealer: int) -> tuple[int, ...]:
    """The dealer is East; the others follow in turn order (0=E … 3=N)."""
    return tuple((k - dealer) % 4 for k in range(4))


@dataclass(frozen=True)
class MatchState:
    #: dealer of the next hand; None: rolled with the (seeded) dice at the deal
    dealer: int | None = None
    #: hands in a row this dealer has dealt, this one included (1 = 平庄, 2 = 二连庄 …)
    streak: int = 1
    #: each seat's wind, 0..3 = E S W N; None: from the dealer at the deal
    seat_winds: tuple[int, ...] | None = None
    #: the prevailing wind (风圈), 0..3
    prevailing: int = 0
    #: how many times the deal has passed to another seat (drives the prevailing wind)
    passes: int = 0
    hands_played: int = 0
    #: the match length in hands; None: open-ended
    hands_total: int | None = None
    finished: bool = False
    #: whatever else one variant carries between hands (plain JSON)
    vs: dict[str, Any] = field(default_factory=dict)
    #: a live table's claim windows (set by the server, not a house rule): every discard
    #: and every added kong opens one, answers are private, and a window that nobody
    #: claimed waits for the server's ``close`` (see ``engine.window_closable``)
    private_claims: bool = False

    def to_json(self) -> dict:
        out = {
            "dealer": self.dealer,
            "streak": self.streak,
            "seat_winds": list(self.seat_winds) if self.seat_winds is not None else None,
            "prevailing": self.prevailing,
            "passes": self.passes,
            "hands_played": self.hands_played,
            "hands_total": self.hands_total,
            "finished": self.finished,
            "vs": self.vs,
        }
        if self.private_claims:  # absent when off: matches stored before it read the same
            out["private_claims"] = True
        return out

    @classmethod
    def from_json(cls, d: dict | None) -> MatchState:
        if d is None:
            return cls()
        winds = d.get("seat_winds")
        return cls(
            dealer=d.get("dealer"),
            streak=d.get("streak", 1),
            seat_winds=tuple(winds) if winds is not None else None,
            prevailing=d.get("prevailing", 0),
            passes=d.get("passes", 0),
            hands_played=d.get("hands_played", 0),
            hands_total=d.get("hands_total"),
            finished=d.get("finished", False),
            vs=dict(d.get("vs") or {}),
            private_claims=bool(d.get("private_claims", False)),
        )

    def dealt(self, dealer: int) -> MatchState:
        """This match as a hand is dealt by ``dealer`` (fills in dice and winds)."""
        winds = self.seat_winds if self.seat_winds is not None else winds_from_dealer(dealer)
        return replace(self, dealer=dealer, seat_winds=winds)

    def after_hand(
        self, next_dealer: int | None, *, stays: bool, fixed_winds: bool = False
    ) -> MatchState:
        """The common step: the dealer stays (streak + 1) or the deal passes on.

        ``next_dealer`` None means dice at the next deal.  The prevailing wind moves
        on once the deal has passed four times; seat winds follow the dealer unless
        ``fixed_winds`` (seats keep the winds drawn for the match)."""
        played = self.hands_played + 1
        passes = self.passes if stays else self.passes + 1
        winds = self.seat_winds
        if not fixed_winds:
            winds = winds_from_dealer(next_dealer) if next_dealer is not None else None
        return replace(
            self,
            dealer=next_dealer,
            streak=self.streak + 1 if stays else 1,
            seat_winds=winds,
            passes=passes,
            prevailing=(passes // 4) % 4,
            hands_played=played,
            finished=self.hands_total is not None and played >= self.hands_total,
        )
