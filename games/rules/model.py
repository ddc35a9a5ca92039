"""Small value types shared by every layer of the engine."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import tiles as T

WIN_TYPES = ("self_draw", "discard", "rob_kong")
WIN_FLAGS = ("after_kong", "kong_discard", "last_tile", "dealt_hand", "first_draw")
WINDS = "ESWN"  # seat / round winds; East is 1z


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed (or concealed-kong) set on the table.

    ``tiles`` is sorted.  ``from_seat`` is the seat whose discard was claimed,
    ``None`` for a set made from one's own tiles (暗杠, or 面下杠's added tile).
    ``added`` marks a kong made by adding a tile to one's own pung (面下杠/补杠).
    """

    kind: str  # "chi" | "peng" | "gang"
    tiles: tuple[int, ...]
    concealed: bool = False
    from_seat: int | None = None
    added: bool = False

    @property
    def tile(self) -> int:
        """The lowest tile: a pung/kong's kind, a chow's first tile."""
        return self.tiles[0]

    def to_json(self) -> dict:
        d = {"kind": self.kind, "tiles": T.fmt(self.tiles), "concealed": self.concealed}
        if self.from_seat is not None:
            d["from"] = self.from_seat
        if self.added:
            d["added"] = True
        return d

    @classmethod
    def from_json(cls, d: dict) -> Meld:
        return cls(
            kind=d["kind"],
            tiles=tuple(sorted(T.parse(d["tiles"]))),
            concealed=bool(d.get("concealed", False)),
            from_seat=d.get("from"),
            added=bool(d.get("added", False)),
        )


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything a variant needs to score one win.

    ``hand`` holds the concealed tiles *before* the winning tile; wild tiles are
    written as their face (the variant knows from ``wild`` which kind is wild).
    """

    hand: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    win_type: str  # one of WIN_TYPES
    flags: frozenset[str] = frozenset()
    missing_suit: int | None = None  # 0/1/2 for m/p/s (Sichuan 定缺)
    seat_wind: int | None = None  # 0..3 = E S W N
    round_wind: int | None = None
    wild: int | None = None  # the indicator tile
    flowers: tuple[int, ...] = ()
    cai_piao: int = 0  # Hangzhou: consecutive 财飘 by this player before this win
    # Kongs in the unbroken chain of replacements that ends in this self-draw: 1 after one
    # kong (杠开), 2 when that replacement made another kong, … (0: not after a kong).
    kong_chain: int = 0
    dealer: bool = False

    @property
    def self_drawn(self) -> bool:
        return self.win_type == "self_draw"

    @property
    def full_hand(self) -> tuple[int, ...]:
        """Concealed tiles including the winning tile."""
        return (*self.hand, self.win_tile)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    id: str
    value: int

    def to_json(self) -> dict:
        return {"id": self.id, "value": self.value}


@dataclass(frozen=True, slots=True)
class Score:
    """The result of scoring a win: the items that applied and the total.

    ``win`` is False with a ``reason`` when the tiles do not make a legal win.
    """

    win: bool
    items: tuple[ScoreItem, ...] = ()
    total: int = 0
    reason: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        if not self.win:
            return {"win": False, "reason": self.reason}
        return {"win": True, "items": [i.to_json() for i in self.items], "total": self.total}
