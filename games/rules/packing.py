"""The packed count vector the hand analysis reads.

``bytes(c)`` both checks a count vector (0..255 per kind, else ``ValueError``) and packs
the hand, one byte per kind, into one int: a suit's key is a slice of it, and adding a
tile of kind ``j`` of a suit is ``key + (1 << 8 * j)``.
"""

from __future__ import annotations

from collections.abc import Sequence

# 1m 9m 1p 9p 1s 9s and the seven honours.
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

MAX_TILES = 14  # four sets and a pair: the largest concealed hand

SUIT_MASK = (1 << 72) - 1
# bytes of 2..8 in each numbered suit: a hand holding any can't be orphans
SIMPLES_MASK = sum(255 << (8 * t) for t in range(27) if t % 9 not in (0, 8))
BASES = (0, 9, 18, 27)
SIZES = (9, 9, 9, 7)


def pack(c: Sequence[int], wilds: int) -> tuple[bytes, int, int]:
    """(counts as bytes, packed counts, total tiles); rejects malformed input."""
    try:
        b = bytes(c)
    except (TypeError, ValueError):
        raise ValueError("a count vector holds ints in 0..255") from None
    if len(b) != 34:
        raise ValueError(f"a count vector has 34 entries, got {len(b)}")
    if wilds < 0:
        raise ValueError("wilds must not be negative")
    return b, int.from_bytes(b, "little"), sum(b) + wilds


def suit_keys(packed: int) -> tuple[int, int, int, int]:
    return (
        packed & SUIT_MASK,
        packed >> 72 & SUIT_MASK,
        packed >> 144 & SUIT_MASK,
        packed >> 216,
    )
