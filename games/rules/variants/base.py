"""The interface every variant implements, and the registry that names them.

A variant is one object with a stable key.  The generic engine (``engine.py``)
runs the flow every rule set shares (deal, draw, discard, claim windows,
kongs, wins, the end of the wall) and asks the variant every question on
which rule sets differ.  Nothing outside ``variants/`` branches on a key.
"""

from __future__ import annotations

from .. import tiles as T
from ..model import Score, WinContext
from ..options import Options, OptionSet


class UnknownVariant(ValueError):
    pass


class Variant:
    key: str = ""
    name_zh: str = ""
    name_en: str = ""
    description_zh: str = ""
    description_en: str = ""
    options: OptionSet

    #: chow claims allowed (next player only)
    allows_chow: bool = False
    #: every claimant wins on one discard (一炮多响) rather than only the first in turn
    multiple_winners: bool = False

    def resolve_options(self, *layers) -> Options:
        return self.options.resolve(*layers)

    # --- the deal --------------------------------------------------------------
    def wall_tiles(self, opts: Options) -> list[int]:
        raise NotImplementedError

    def setup_phases(self, opts: Options) -> tuple[str, ...]:
        """Simultaneous choices made after the deal, before the dealer's first turn."""
        return ()

    def on_new_hand(self, state, rng) -> None:
        """Variant extras after the deal (wild indicator, exchange direction, …)."""

    def phase_actions(self, state, seat: int) -> list[dict]:
        """Legal actions of a setup phase for ``seat`` (empty once chosen)."""
        return []

    def phase_apply(self, state, seat: int, action: dict, events: list) -> str | None:
        """Record a setup-phase choice on a cloned state; a reason string rejects it."""
        return "no setup phase"

    # --- play ------------------------------------------------------------------
    def wild_kinds(self, indicator: int | None) -> frozenset[int]:
        """The kinds that are wild given the indicator tile (none by default)."""
        return frozenset()

    def split_wilds_for_indicator(self, tiles, indicator: int | None) -> tuple[list[int], int]:
        """A hand's count vector without its wild tiles, and how many wilds it holds."""
        kinds = self.wild_kinds(indicator) if indicator is not None else frozenset()
        c = [0] * T.NUM_KINDS
        wilds = 0
        for t in tiles:
            if t in kinds:
                wilds += 1
            elif t < T.NUM_KINDS:
                c[t] += 1
        return c, wilds

    def split_wilds(self, state, seat: int, tiles) -> tuple[list[int], int]:
        return self.split_wilds_for_indicator(tiles, state.extra.get("wild"))

    def win_context(self, state, seat: int, hand, tile: int, win_type: str, flags) -> WinContext:
        """What ``score`` needs to know about a win at this table."""
        return WinContext(
            hand=tuple(hand),
            melds=tuple(state.melds[seat]),
            win_tile=tile,
            win_type=win_type,
            flags=flags,
            dealer=seat == state.dealer,
        )

    def discard_choices(self, state, seat: int) -> list[int]:
        """Kinds ``seat`` may discard now (default: anything held)."""
        return sorted(set(state.hands[seat]))

    def may_meld(self, state, seat: int, tile: int) -> bool:
        """Whether ``seat`` may pung/kong/chow with ``tile``."""
        return True

    def win_score(self, state, seat: int, ctx: WinContext, *, on_discard: bool) -> Score | None:
        """Score a possible win, or None where the variant forbids it here."""
        score = self.score(ctx, state.rules)
        return score if score.win else None

    def dead_suit(self, state, seat: int) -> int | None:
        """A suit the seat cannot win with (for bots' planning), if any."""
        return None

    def forced_win(self, state) -> bool:
        """Whether a seat that can win must (Sichuan's last four tiles)."""
        return False

    def score(self, ctx: WinContext, opts: Options) -> Score:
        """Score one win: a :class:`Score` (``win=False`` with a reason when illegal)."""
        raise NotImplementedError

    # --- money -------------------------------------------------------------------
    def on_kong(self, state, record: dict, events: list) -> None:
        """Payments due at once for a completed kong (Sichuan 刮风下雨)."""

    def on_wins(self, state, wins: list[dict], events: list) -> None:
        """Payments for one or more wins on the same tile."""
        raise NotImplementedError

    def hand_over_after_win(self, state) -> bool:
        return True

    def on_wall_exhausted(self, state, events: list) -> None:
        """End-of-wall settlement (查花猪/查大叫 …)."""

    def on_leave(self, state, seat: int, events: list) -> None:
        """Penalty for leaving a hand in progress."""

    def next_dealer(self, state) -> int | None:
        """Dealer of the next hand; None to roll dice for it."""
        return None


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    _REGISTRY[variant.key] = variant
    return variant


def _load() -> None:
    from . import sichuan  # noqa: F401  (registers itself)


def get_variant(key: str) -> Variant:
    try:
        return _REGISTRY[key]
    except (KeyError, TypeError):
        pass
    _load()
    try:
        return _REGISTRY[key]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownVariant(
            f"unknown or unavailable variant {key!r} (available: {known})"
        ) from None


def available() -> list[Variant]:
    _load()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
