"""宁波麻将's 百搭: which kinds are wild for an indicator, and a hand split into its
ordinary tiles and its wilds (remembered: the engine, the bots and every reading of the
scorer split the same hands again and again).  Spec: ``../shared/rules/ningbo.md``."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from ... import analysis
from ... import tiles as T
from ...options import Options

SEASONS = frozenset(range(T.FLOWER, T.FLOWER + 4))
PLANTS = frozenset(range(T.FLOWER + 4, T.FLOWER + 8))


def next_kind(kind: int) -> int:
    """The next kind in sequence: 9 wraps to 1, winds E→S→W→N→E, dragons 白→发→中→白."""
    if T.is_suited(kind):
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < T.HONOR + 4:
        return T.HONOR + (kind - T.HONOR + 1) % 4
    return T.HONOR + 4 + (kind - T.HONOR - 4 + 1) % 3


def wild_kinds(indicator: int | None, opts: Options) -> frozenset[int]:
    """The wild kinds for the indicator: its own kind (its other copies); a season or
    a plant makes its whole set wild; ``indicator_and_next`` adds the next kind (a
    flower indicator keeps its set of four)."""
    return wild_kinds_by(indicator, opts.get("wild_kinds"))


@lru_cache(maxsize=1024)
def wild_kinds_by(indicator: int | None, mode: str | None) -> frozenset[int]:
    """:func:`wild_kinds` by the indicator and the ``wild_kinds`` option, remembered."""
    if indicator is None:
        return frozenset()
    if indicator in SEASONS:
        return SEASONS
    if indicator in PLANTS:
        return PLANTS
    if mode == "indicator_and_next":
        return frozenset({indicator, next_kind(indicator)})
    return frozenset({indicator})


def split_wilds(
    tiles: Iterable[int], indicator: int | None, opts: Options
) -> tuple[list[int], int]:
    """A hand as :mod:`analysis` takes it: counts of its ordinary tiles, and its wilds."""
    c, wilds = split_wilds_by(tuple(tiles), indicator, opts.get("wild_kinds"))
    return list(c), wilds


@lru_cache(maxsize=65536)
def split_wilds_by(
    tiles: tuple[int, ...], indicator: int | None, mode: str | None
) -> tuple[tuple[int, ...], int]:
    """:func:`split_wilds`, remembered by the tiles in their order and what decides the
    wild kinds: the engine, the bots and every reading of the scorer split the same
    hands again and again.  The key holds plain values only (not the Options), so the
    cyclic garbage collector stops tracking the entries of this large, busy memo."""
    wild = wild_kinds_by(indicator, mode)
    c = [0] * T.NUM_KINDS
    wilds = 0
    for t in tiles:
        if t in wild:
            wilds += 1
        elif t < T.NUM_KINDS:
            c[t] += 1
    return tuple(c), wilds


@lru_cache(maxsize=65536)
def hand_waits(
    tiles: tuple[int, ...], indicator: int | None, mode: str | None, seven_pairs: bool
) -> tuple[int, ...]:
    """``analysis.waits`` of a ``3n + 1`` hand given as its tiles, remembered by what
    :func:`split_wilds_by` is (plain values): the engine asks it of three seats at
    every discard, and the hands change one seat at a time."""
    c, wilds = split_wilds_by(tiles, indicator, mode)
    return tuple(analysis.waits(c, wilds, seven_pairs=seven_pairs))
