"""Small tile heuristics shared by the bots and the variants' bot choices."""

from __future__ import annotations

from functools import lru_cache

from . import analysis
from . import tiles as T
from .variants.registry import get_variant


def isolation(tiles, t: int) -> int:
    """Higher is lonelier: no copies and no neighbours within two."""
    return isolation_in(T.counts(tiles, T.NUM_TILES), t)


def isolation_in(c, t: int) -> int:
    """``isolation`` read from the hand's counts (a caller weighing every tile of one
    hand counts it once)."""
    if c[t] > 1:
        return 0
    if not T.is_suited(t):
        return 3
    n = t % 9
    near = sum(c[t + d] for d in (-2, -1, 1, 2) if 0 <= n + d <= 8)
    return 3 - min(near, 3)


_DEAD = tuple(range(T.HONOR, T.NUM_KINDS))  # honour kinds used as dead slots


def shape_counts(s, seat: int, tiles) -> tuple[tuple[int, ...], int]:
    """Count vector and wilds, with the dead suit's tiles turned into dead slots.

    They still take a slot in the hand (they must be discarded) but can never
    be part of a set; honours are used as dead slots because the variants with
    a dead suit (Sichuan) have no honours."""
    v = get_variant(s.variant)
    suit = v.dead_suit(s, seat)
    if suit is None:
        return v.shape_counts_for(tiles, s.indicator, s.rules)
    return _shape_counts(v.key, s.indicator, s.rules, suit, tuple(tiles))


def _shape_counts(variant: str, indicator, rules, suit, tiles) -> tuple[tuple[int, ...], int]:
    """``shape_counts`` by what it depends on.  Not remembered: few rests come back
    (about one ask in five), and a full memo that keeps turning over makes the
    cyclic garbage collector's full passes cost more than the memo saves."""
    c, wilds = get_variant(variant).split_wilds_for_indicator(tiles, indicator, rules)
    if suit is not None:
        dead = 0
        for k in range(suit * 9, suit * 9 + 9):
            while c[k]:
                c[k] -= 1
                c[_DEAD[dead % len(_DEAD)]] += 1
                dead += 1
    return tuple(c), wilds


@lru_cache(maxsize=65536)
def counts_shanten(c: tuple[int, ...], wilds: int, seven_pairs: bool) -> int:
    """``analysis.shanten`` of a count tuple, remembered (bots ask it many times a move)."""
    return analysis.shanten(c, wilds, seven_pairs=seven_pairs)
