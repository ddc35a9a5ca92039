"""Small tile heuristics shared by the bots and the variants' bot choices."""

from __future__ import annotations

from . import tiles as T


def isolation(tiles, t: int) -> int:
    """Higher is lonelier: no copies and no neighbours within two."""
    c = T.counts(tiles, T.NUM_TILES)
    if c[t] > 1:
        return 0
    if not T.is_suited(t):
        return 3
    n = t % 9
    near = sum(c[t + d] for d in (-2, -1, 1, 2) if 0 <= n + d <= 8)
    return 3 - min(near, 3)
