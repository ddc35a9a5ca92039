"""向听 (shanten): how many useful tiles a hand is from ready.

Memoised per suit: the best (pair, sets, partial sets) readings of a suit's tiles (its
*frontier*) are kept by the suit's key, and two suits' frontiers merge into the
frontier of both; the usual ``2N - 2·sets - partials - pair`` formula reads the whole
hand's.  Seven pairs and thirteen orphans are counted directly.
"""

from __future__ import annotations

from collections.abc import Sequence

from .packing import MAX_TILES, ORPHANS, SUIT_MASK, pack

# --------------------------------------------------------------------------
# Shanten
#
# A frontier is a tuple of (pair, sets, partial sets) readings that no other
# reading of the same tiles beats.  Frontiers are interned to small ids, so
# merging two suits' frontiers and scoring the result memoise on pairs of ints.

_FRONTIER_SUITED: dict[int, int] = {}
_FRONTIER_HONOR: dict[int, int] = {}
_FRONTIER_IDS: dict[tuple[tuple[int, int, int], ...], int] = {}
_FRONTIERS: list[tuple[tuple[int, int, int], ...]] = []
_MERGED: dict[tuple[int, int], int] = {}
_VALUE: dict[tuple[int, int], int] = {}
_HALF = bytes(n >> 1 for n in range(256))  # bytes.translate table: count -> pairs in it


def _intern(entries: list[tuple[int, int, int]]) -> int:
    """Id of the frontier of ``entries``: per pair flag, drop dominated readings.

    (m', t') is at least as good as (m, t) when m' >= m and m' + t' >= m + t:
    a partial set turned into a set never lowers ``2m + min(t, N - m)``, and
    the order survives adding the same readings of other suits.
    """
    best: dict[tuple[int, int], int] = {}
    for p, m, t in entries:
        if best.get((p, m), -1) < t:
            best[p, m] = t
    kept = []
    reach = {0: -1, 1: -1}  # the best m + t among kept readings with more sets
    for p, m in sorted(best, reverse=True):
        t = best[p, m]
        if m + t > reach[p]:
            kept.append((p, m, t))
            reach[p] = m + t
    frontier = tuple(reversed(kept))
    fid = _FRONTIER_IDS.get(frontier)
    if fid is None:
        fid = _FRONTIER_IDS[frontier] = len(_FRONTIERS)
        _FRONTIERS.append(frontier)
    return fid


def _suit_frontier(key: int, honor: bool) -> int:
    """Frontier id of one suit's tiles.

    The lowest tile either stays a single or starts a block: pung, chow, the
    pair, a pair kept as a partial set, or a partial chow (adjacent or gapped).
    """
    memo = _FRONTIER_HONOR if honor else _FRONTIER_SUITED
    fid = memo.get(key)
    if fid is not None:
        return fid
    if key == 0:
        memo[key] = fid = _intern([(0, 0, 0)])
        return fid
    low = ((key & -key).bit_length() - 1) >> 3
    sh = low << 3
    k = (key >> sh) & 255
    out: list[tuple[int, int, int]] = []

    def add(rest: int, dp: int, dm: int, dt: int) -> None:
        for p, m, t in _FRONTIERS[_suit_frontier(rest, honor)]:
            if p + dp <= 1:
                out.append((p + dp, m + dm, t + dt))

    add(key - (1 << sh), 0, 0, 0)
    if k >= 3:
        add(key - (3 << sh), 0, 1, 0)
    if k >= 2:
        add(key - (2 << sh), 1, 0, 0)
        add(key - (2 << sh), 0, 0, 1)
    if not honor:
        c1 = (key >> (sh + 8)) & 255 if low < 8 else 0
        c2 = (key >> (sh + 16)) & 255 if low < 7 else 0
        if c1 and c2:
            add(key - (1 << sh) - (1 << (sh + 8)) - (1 << (sh + 16)), 0, 1, 0)
        if c1:
            add(key - (1 << sh) - (1 << (sh + 8)), 0, 0, 1)
        if c2:
            add(key - (1 << sh) - (1 << (sh + 16)), 0, 0, 1)
    memo[key] = fid = _intern(out)
    return fid


def _merge(a: int, b: int) -> int:
    """Frontier id of two suits' tiles taken together (at most one pair)."""
    fid = _MERGED.get((a, b))
    if fid is None:
        fid = _MERGED[a, b] = _intern(
            [
                (p1 + p2, m1 + m2, t1 + t2)
                for p1, m1, t1 in _FRONTIERS[a]
                for p2, m2, t2 in _FRONTIERS[b]
                if p1 + p2 <= 1
            ]
        )
    return fid


def _value(fid: int, n_sets: int) -> int:
    """Max of ``2m + min(t, N - m) + p`` over a frontier (m <= N for any real hand)."""
    v = _VALUE.get((fid, n_sets))
    if v is None:
        v = _VALUE[fid, n_sets] = max(
            2 * m + min(t, n_sets - m) + p for p, m, t in _FRONTIERS[fid] if m <= n_sets
        )
    return v


def shanten(
    c: Sequence[int], wilds: int = 0, *, seven_pairs: bool = True, thirteen_orphans: bool = False
) -> int:
    """向听: -1 winning (3n + 2 tiles), 0 ready, k = k more useful tiles to be ready.

    Targets ``total // 3`` sets and a pair.  Each wild counts as a perfect
    tile, so ``shanten(c, W) == max(floor, shanten of c with W dead slots - W)``
    where floor is -1 for ``3n + 2`` hands and 0 for ``3n + 1`` ones.  Seven
    pairs and thirteen orphans are considered only for 13 and 14 tiles.  Tile
    availability (a fifth copy) is ignored, as wilds make it possible.
    Raises ``ValueError`` unless the hand has ``3n + 1`` or ``3n + 2`` tiles
    (at most 14).
    """
    b, packed, total = pack(c, wilds)
    if total % 3 == 0 or total > MAX_TILES:
        raise ValueError(f"shanten needs a 3n+1 or 3n+2 hand of at most 14 tiles, got {total}")
    floor = -1 if total % 3 == 2 else 0
    n_sets = total // 3
    get = _FRONTIER_SUITED.get
    k0 = packed & SUIT_MASK
    k1 = packed >> 72 & SUIT_MASK
    k2 = packed >> 144 & SUIT_MASK
    k3 = packed >> 216
    f0 = get(k0)
    if f0 is None:
        f0 = _suit_frontier(k0, False)
    f1 = get(k1)
    if f1 is None:
        f1 = _suit_frontier(k1, False)
    f2 = get(k2)
    if f2 is None:
        f2 = _suit_frontier(k2, False)
    f3 = _FRONTIER_HONOR.get(k3)
    if f3 is None:
        f3 = _suit_frontier(k3, True)
    a = _MERGED.get((f0, f1))
    if a is None:
        a = _merge(f0, f1)
    d = _MERGED.get((f2, f3))
    if d is None:
        d = _merge(f2, f3)
    whole = _MERGED.get((a, d))
    if whole is None:
        whole = _merge(a, d)
    v = _VALUE.get((whole, n_sets))
    if v is None:
        v = _value(whole, n_sets)
    best = 2 * n_sets - v - wilds
    if best <= floor:
        return floor
    if total >= 13 and (seven_pairs or thirteen_orphans):
        real = total - wilds
        # Both shapes: shanten = real - 1 - kept (14 tiles) or real - kept (13),
        # where kept is the most real tiles the shape can use.
        adjust = 1 if total == 14 else 0
        if seven_pairs:
            pairs = min(sum(b.translate(_HALF)), 7)
            kept = 2 * pairs + min(real - 2 * pairs, 7 - pairs)
            best = min(best, real - adjust - kept)
        if thirteen_orphans:
            kinds = dup = 0
            for t in ORPHANS:
                if b[t]:
                    kinds += 1
                    if b[t] > 1:
                        dup = 1
            best = min(best, real - adjust - kinds - dup)
    return max(best, floor)
