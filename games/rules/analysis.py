"""Hand analysis: winning shapes, readings, waits and shanten.

A hand is a *count vector* ``c`` of 34 ints (see :mod:`games.rules.tiles`) plus
``wilds``, the number of wild tiles it holds (the caller removes them from
``c``).  A wild stands for any kind when forming a winning hand, a fifth copy
included.  Melds are removed by the caller too, so a standard hand has
``3n + 2`` tiles for ``n`` in 0..4.

How it stays fast: a suit's counts are packed into an int (4 bits per kind)
and, per suit, the fewest wilds that complete those tiles into sets (without
or with the pair) are memoised.  A hand wins when the suits' needs add up to
no more than its wilds; the wilds left over come in threes and form sets of
their own.  ``waits`` recomputes only the suit the candidate tile falls in.
``shanten`` memoises, per suit, the best (sets, partial sets, pair) frontiers
and combines them with the usual ``2N - 2·sets - partials - pair`` formula.
Every memo fills lazily; nothing is computed at import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

__all__ = [
    "Decomposition",
    "Group",
    "decompositions",
    "is_seven_pairs",
    "is_standard_win",
    "is_thirteen_orphans",
    "is_winning",
    "min_wilds_needed",
    "shanten",
    "waits",
]

# 1m 9m 1p 9p 1s 9s and the seven honours.
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_IS_ORPHAN = tuple(t in ORPHANS for t in range(34))

_MAX_TILES = 14  # four sets and a pair: the largest concealed hand
_INF = 99


@dataclass(frozen=True, slots=True)
class Group:
    """One set or the pair of a reading.

    ``tile`` is a pair's or pung's kind, a chow's lowest tile, or ``None`` for a
    group made only of wilds: the scorer may read that one as any pung, chow
    or pair (such sets are reported with ``kind="pung"``).  ``wilds`` counts
    the wilds standing in for tiles of the group.
    """

    kind: str  # "pair" | "pung" | "chow"
    tile: int | None
    wilds: int = 0


@dataclass(frozen=True, slots=True)
class Decomposition:
    """A standard-form reading: the pair and the sets, sets sorted canonically."""

    pair: Group
    sets: tuple[Group, ...]


def _group_order(g: Group) -> tuple:
    return (g.tile is None, g.tile if g.tile is not None else 0, g.kind, g.wilds)


# --------------------------------------------------------------------------
# Input checks and suit keys


def _total(c: Sequence[int], wilds: int) -> int:
    """Total tiles in the hand; rejects malformed input (a caller's bug)."""
    if len(c) != 34:
        raise ValueError(f"a count vector has 34 entries, got {len(c)}")
    if wilds < 0 or min(c) < 0:
        raise ValueError("tile and wild counts must not be negative")
    return sum(c) + wilds


def _keys(c: Sequence[int]) -> tuple[int, int, int, int]:
    """Pack each suit's counts, 4 bits per kind (counts <= 14 always fit)."""
    return (
        c[0] | c[1] << 4 | c[2] << 8 | c[3] << 12 | c[4] << 16
        | c[5] << 20 | c[6] << 24 | c[7] << 28 | c[8] << 32,
        c[9] | c[10] << 4 | c[11] << 8 | c[12] << 12 | c[13] << 16
        | c[14] << 20 | c[15] << 24 | c[16] << 28 | c[17] << 32,
        c[18] | c[19] << 4 | c[20] << 8 | c[21] << 12 | c[22] << 16
        | c[23] << 20 | c[24] << 24 | c[25] << 28 | c[26] << 32,
        c[27] | c[28] << 4 | c[29] << 8 | c[30] << 12 | c[31] << 16
        | c[32] << 20 | c[33] << 24,
    )  # fmt: skip


_BASES = (0, 9, 18, 27)
_SIZES = (9, 9, 9, 7)


# --------------------------------------------------------------------------
# Per-suit wild needs: (sets only, sets and one pair)

_NEED_SUITED: dict[int, tuple[int, int]] = {}
_NEED_HONOR: dict[int, tuple[int, int]] = {}


def _need(key: int, honor: bool) -> tuple[int, int]:
    """Fewest wilds completing one suit's tiles into sets: (no pair, one pair).

    The group holding the lowest tile ``i`` is a pung, a pair or a chow; it may
    as well take as many real tiles as it can (swapping a real tile in for a
    wild elsewhere never costs), and a chow may as well start at ``i`` when it
    can (else at 7, the highest start).  That leaves three choices per step.
    """
    memo = _NEED_HONOR if honor else _NEED_SUITED
    v = memo.get(key)
    if v is not None:
        return v
    if key == 0:
        v = (0, 2)
    else:
        low = ((key & -key).bit_length() - 1) >> 2
        sh = low << 2
        k = (key >> sh) & 15
        take = 3 if k > 3 else k
        a0, a1 = _need(key - (take << sh), honor)
        best0, best1 = 3 - take + a0, 3 - take + a1
        take = 2 if k > 2 else k
        a0, _ = _need(key - (take << sh), honor)
        best1 = min(best1, 2 - take + a0)
        if not honor:
            start = low if low < 6 else 6
            rest = key - (1 << sh)
            missing = 0
            for j in range(start, start + 3):
                if j == low:
                    continue
                if j > low and (rest >> (j << 2)) & 15:
                    rest -= 1 << (j << 2)
                else:
                    missing += 1
            a0, a1 = _need(rest, honor)
            best0 = min(best0, missing + a0)
            best1 = min(best1, missing + a1)
        v = (best0, best1)
    memo[key] = v
    return v


def _hand_need(keys: tuple[int, int, int, int]) -> int:
    """Fewest wilds completing the real tiles into sets and one pair."""
    s0 = 0
    delta = 2  # a pair of two wilds
    for idx in range(4):
        n0, n1 = _need(keys[idx], idx == 3)
        s0 += n0
        if n1 - n0 < delta:
            delta = n1 - n0
    return s0 + delta


def min_wilds_needed(c: Sequence[int], wilds: int = 0) -> int:
    """How many more wilds ``c`` plus ``wilds`` wilds needs to be a standard win.

    Any number of sets is allowed here (no 14-tile limit): the answer is the
    fewest extra wilds ``e >= 0`` such that the real tiles with ``wilds + e``
    wilds form sets and one pair.
    """
    real = _total(c, wilds) - wilds
    need = _hand_need(_keys(c))
    x = max(need, wilds)
    # real + x must be 2 mod 3; need itself satisfies it, so step to that residue
    x += (2 - real - x) % 3
    return x - wilds


# --------------------------------------------------------------------------
# Winning shapes


def is_standard_win(c: Sequence[int], wilds: int = 0) -> bool:
    """``3n + 2`` tiles (n <= 4) forming n sets (pungs or chows) and a pair."""
    total = _total(c, wilds)
    if total % 3 != 2 or total > _MAX_TILES:
        return False
    return _hand_need(_keys(c)) <= wilds


def is_seven_pairs(c: Sequence[int], wilds: int = 0) -> bool:
    """14 tiles in seven pairs; four of a kind is two pairs; wilds pair with anything."""
    if _total(c, wilds) != 14:
        return False
    singles = 0
    for n in c:
        singles += n & 1
    return singles <= wilds


def is_thirteen_orphans(c: Sequence[int], wilds: int = 0) -> bool:
    """14 tiles: each terminal and honour once, one of them twice; wilds fill in."""
    if _total(c, wilds) != 14:
        return False
    extra = 0
    for t in range(34):
        n = c[t]
        if n:
            if not _IS_ORPHAN[t]:
                return False
            extra += n - 1
    # With 14 tiles, wilds == missing kinds + 1 - extra, so extra <= 1 suffices.
    return extra <= 1


def is_winning(
    c: Sequence[int], wilds: int = 0, *, seven_pairs: bool = True, thirteen_orphans: bool = False
) -> bool:
    """Any of the allowed winning shapes."""
    return (
        is_standard_win(c, wilds)
        or (seven_pairs and is_seven_pairs(c, wilds))
        or (thirteen_orphans and is_thirteen_orphans(c, wilds))
    )


# --------------------------------------------------------------------------
# Waits


def waits(
    c: Sequence[int], wilds: int = 0, *, seven_pairs: bool = True, thirteen_orphans: bool = False
) -> list[int]:
    """Kinds (0..33, sorted) that complete a ``3n + 1`` hand when one real copy is added.

    Seven pairs and thirteen orphans count only for 13-tile hands.  Kinds the
    hand already holds four of are *not* filtered out: the caller decides.
    Raises ``ValueError`` for a hand that is not ``3n + 1`` tiles (n <= 4).
    """
    total = _total(c, wilds)
    if total % 3 != 1 or total > 13:
        raise ValueError(f"waits needs a 3n+1 hand of at most 13 tiles, got {total}")
    keys = _keys(c)
    out: set[int] = set()
    if wilds == 0:
        _standard_waits_exact(c, keys, out)
    else:
        _standard_waits_wild(keys, wilds, out)
    if total == 13:
        if seven_pairs:
            singles = 0
            for n in c:
                singles += n & 1
            if singles + 1 <= wilds:
                return list(range(34))
            if singles - 1 <= wilds:
                out.update(t for t in range(34) if c[t] & 1)
        if thirteen_orphans:
            extra = 0
            for t in range(34):
                n = c[t]
                if n:
                    if not _IS_ORPHAN[t]:
                        extra = 2
                        break
                    extra += n - 1
            if extra == 0:
                out.update(ORPHANS)
            elif extra == 1:
                out.update(t for t in ORPHANS if not c[t])
    return sorted(out)


def _standard_waits_exact(c: Sequence[int], keys: tuple[int, ...], out: set[int]) -> None:
    """No wilds: every suit must end complete, exactly one of them with the pair."""
    states = []
    n_bad = n_pair = 0
    for idx in range(4):
        n0, n1 = _need(keys[idx], idx == 3)
        if n0 == 0:
            states.append(0)
        elif n1 == 0:
            states.append(1)
            n_pair += 1
        else:
            states.append(2)
            n_bad += 1
    if n_bad > 1:
        return
    for idx in range(4):
        st = states[idx]
        if n_bad - (st == 2):
            continue
        others_pair = n_pair - (st == 1)
        if others_pair > 1:
            continue
        want_pair = others_pair == 0  # this suit must then carry the pair
        base = _BASES[idx]
        honor = idx == 3
        key = keys[idx]
        if honor:
            present = [j for j in range(7) if c[base + j]]
            candidates = present
        else:
            mask = 0
            for j in range(9):
                if c[base + j]:
                    mask |= 1 << j
            mask = (mask | mask << 1 | mask << 2 | mask >> 1 | mask >> 2) & 0x1FF
            candidates = [j for j in range(9) if mask >> j & 1]
        for j in candidates:
            n0, n1 = _need(key + (1 << (j << 2)), honor)
            if (n1 if want_pair else n0) == 0:
                out.add(base + j)


def _standard_waits_wild(keys: tuple[int, ...], wilds: int, out: set[int]) -> None:
    needs = [_need(keys[idx], idx == 3) for idx in range(4)]
    s0 = sum(n0 for n0, _ in needs)
    for idx in range(4):
        others0 = s0 - needs[idx][0]
        delta = 2
        for o in range(4):
            if o != idx:
                d = needs[o][1] - needs[o][0]
                if d < delta:
                    delta = d
        honor = idx == 3
        key = keys[idx]
        base = _BASES[idx]
        for j in range(_SIZES[idx]):
            n0, n1 = _need(key + (1 << (j << 2)), honor)
            if others0 + n0 + min(delta, n1 - n0) <= wilds:
                out.add(base + j)


# --------------------------------------------------------------------------
# Decompositions


@cache
def _suit_readings(
    key: int, base: int, honor: bool, pair: bool, budget: int
) -> frozenset[tuple[int, tuple[Group, ...]]]:
    """Every reading of one suit's tiles as (wilds used, sorted groups).

    ``pair``: the suit must hold the hand's pair (exactly one).  Readings use
    at most ``budget`` wilds.  Each step picks a group holding the lowest real
    tile and chooses, for every other place in it, a real tile or a wild.
    """
    if key == 0:
        return frozenset() if pair else frozenset({(0, ())})
    low = ((key & -key).bit_length() - 1) >> 2
    sh = low << 2
    k = (key >> sh) & 15
    found: set[tuple[int, tuple[Group, ...]]] = set()

    def extend(group: Group, rest: int, rest_pair: bool) -> None:
        if group.wilds > budget:
            return
        for used, groups in _suit_readings(rest, base, honor, rest_pair, budget - group.wilds):
            found.add((used + group.wilds, tuple(sorted((group, *groups), key=_group_order))))

    for real in range(1, min(k, 3) + 1):
        extend(Group("pung", base + low, 3 - real), key - (real << sh), pair)
    if pair:
        for real in range(1, min(k, 2) + 1):
            extend(Group("pair", base + low, 2 - real), key - (real << sh), False)
    if not honor:
        for start in range(max(0, low - 2), min(low, 6) + 1):
            others = [j for j in range(start, start + 3) if j != low]
            # places below the lowest real tile can only be wilds
            choices = [
                (False,) if j < low or not (key >> (j << 2)) & 15 else (False, True) for j in others
            ]
            for pick in product(*choices):
                rest = key - (1 << sh)
                for j, real in zip(others, pick, strict=True):
                    if real:
                        rest -= 1 << (j << 2)
                extend(Group("chow", base + start, pick.count(False)), rest, pair)
    return frozenset(found)


def decompositions(c: Sequence[int], wilds: int = 0) -> list[Decomposition]:
    """Every distinct standard-form reading of a ``3n + 2`` hand (``[]`` if none).

    Groups with a real tile name their concrete tile; leftover wilds form
    groups with ``tile=None`` (a pair of two wilds, sets of three reported as
    ``kind="pung"``).  Readings differ when their multisets of groups differ
    (``wilds`` included).  Sorted by pair, then sets.
    """
    total = _total(c, wilds)
    if total % 3 != 2 or total > _MAX_TILES:
        return []
    keys = _keys(c)
    if _hand_need(keys) > wilds:
        return []
    result: set[Decomposition] = set()
    for pair_suit in (0, 1, 2, 3, None):
        partial: list[tuple[int, tuple[Group, ...]]] = [(0, ())]
        for idx in range(4):
            readings = _suit_readings(keys[idx], _BASES[idx], idx == 3, idx == pair_suit, wilds)
            partial = [
                (u1 + u2, g1 + g2) for u1, g1 in partial for u2, g2 in readings if u1 + u2 <= wilds
            ]
            if not partial:
                break
        for used, groups in partial:
            left = wilds - used
            if pair_suit is None:
                left -= 2
                if left < 0:
                    continue
                pair = Group("pair", None, 2)
                sets = list(groups)
            else:
                pair = next(g for g in groups if g.kind == "pair")
                sets = [g for g in groups if g.kind != "pair"]
            sets.extend(Group("pung", None, 3) for _ in range(left // 3))
            sets.sort(key=_group_order)
            result.add(Decomposition(pair, tuple(sets)))
    return sorted(result, key=lambda d: (_group_order(d.pair), [_group_order(g) for g in d.sets]))


# --------------------------------------------------------------------------
# Shanten

# A suit's frontier: tuple of (pair, sets, partial sets) that no other reading
# of the suit beats.  Frontiers are interned to small ids so that the
# combination of four suits can be memoised by a 4-tuple of ints.
_FRONTIER_SUITED: dict[int, int] = {}
_FRONTIER_HONOR: dict[int, int] = {}
_FRONTIER_IDS: dict[tuple[tuple[int, int, int], ...], int] = {}
_FRONTIERS: list[tuple[tuple[int, int, int], ...]] = []
_COMBINED: dict[tuple[int, int, int, int, int], int] = {}


def _prune(entries: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    """Keep, per pair flag, the (sets, partials) not dominated by another.

    (m', t') is at least as good as (m, t) when m' >= m and m' + t' >= m + t:
    a partial set turned into a set never lowers ``2m + min(t, N - m)``.
    """
    kept = []
    for p, m, t in entries:
        if not any(
            q == p and (m2, t2) != (m, t) and m2 >= m and m2 + t2 >= m + t for q, m2, t2 in entries
        ):
            kept.append((p, m, t))
    return tuple(sorted(kept))


def _frontier_id(frontier: tuple[tuple[int, int, int], ...]) -> int:
    fid = _FRONTIER_IDS.get(frontier)
    if fid is None:
        fid = _FRONTIER_IDS[frontier] = len(_FRONTIERS)
        _FRONTIERS.append(frontier)
    return fid


def _suit_frontier(key: int, honor: bool) -> int:
    """Frontier id of one suit's tiles (see :func:`_frontier_entries`)."""
    memo = _FRONTIER_HONOR if honor else _FRONTIER_SUITED
    fid = memo.get(key)
    if fid is None:
        fid = memo[key] = _frontier_id(_prune(_frontier_entries(key, honor)))
    return fid


def _frontier_entries(key: int, honor: bool) -> set[tuple[int, int, int]]:
    """All (pair, sets, partials) readings worth keeping for a suit.

    The lowest tile either stays a single or starts a block: pung, chow, the
    pair, a pair kept as a partial set, or a partial chow (adjacent or gapped).
    """
    if key == 0:
        return {(0, 0, 0)}
    low = ((key & -key).bit_length() - 1) >> 2
    sh = low << 2
    k = (key >> sh) & 15
    out: set[tuple[int, int, int]] = set()

    def add(rest: int, dp: int, dm: int, dt: int) -> None:
        for p, m, t in _FRONTIERS[_suit_frontier(rest, honor)]:
            if p + dp <= 1:
                out.add((p + dp, m + dm, t + dt))

    add(key - (1 << sh), 0, 0, 0)
    if k >= 3:
        add(key - (3 << sh), 0, 1, 0)
    if k >= 2:
        add(key - (2 << sh), 1, 0, 0)
        add(key - (2 << sh), 0, 0, 1)
    if not honor:
        c1 = (key >> (sh + 4)) & 15 if low < 8 else 0
        c2 = (key >> (sh + 8)) & 15 if low < 7 else 0
        if c1 and c2:
            add(key - (1 << sh) - (1 << (sh + 4)) - (1 << (sh + 8)), 0, 1, 0)
        if c1:
            add(key - (1 << sh) - (1 << (sh + 4)), 0, 0, 1)
        if c2:
            add(key - (1 << sh) - (1 << (sh + 8)), 0, 0, 1)
    return out


def _combined_value(ids: tuple[int, int, int, int], n_sets: int) -> int:
    """Max of ``2m + min(t, N - m) + p`` over the four suits' frontiers."""
    memo_key = (*ids, n_sets)
    v = _COMBINED.get(memo_key)
    if v is not None:
        return v
    best = 0
    f0, f1, f2, f3 = (_FRONTIERS[i] for i in ids)
    for p0, m0, t0 in f0:
        for p1, m1, t1 in f1:
            p01 = p0 + p1
            if p01 > 1:
                continue
            for p2, m2, t2 in f2:
                p012 = p01 + p2
                if p012 > 1:
                    continue
                for p3, m3, t3 in f3:
                    p = p012 + p3
                    if p > 1:
                        continue
                    m = m0 + m1 + m2 + m3
                    if m > n_sets:
                        m = n_sets  # cannot happen for real hands; keep the formula sane
                    t = t0 + t1 + t2 + t3
                    if t > n_sets - m:
                        t = n_sets - m
                    value = 2 * m + t + p
                    if value > best:
                        best = value
    _COMBINED[memo_key] = best
    return best


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
    total = _total(c, wilds)
    if total % 3 == 0 or total > _MAX_TILES:
        raise ValueError(f"shanten needs a 3n+1 or 3n+2 hand of at most 14 tiles, got {total}")
    floor = -1 if total % 3 == 2 else 0
    n_sets = total // 3
    keys = _keys(c)
    ids = (
        _suit_frontier(keys[0], False),
        _suit_frontier(keys[1], False),
        _suit_frontier(keys[2], False),
        _suit_frontier(keys[3], True),
    )
    best = 2 * n_sets - _combined_value(ids, n_sets) - wilds
    if best <= floor:
        return floor
    if total >= 13 and (seven_pairs or thirteen_orphans):
        real = total - wilds
        # Both shapes: shanten = real - 1 - kept (14 tiles) or real - kept (13),
        # where kept is the most real tiles the shape can use.
        adjust = 1 if total == 14 else 0
        if seven_pairs:
            pairs = 0
            for n in c:
                pairs += n >> 1
            pairs = min(pairs, 7)
            kept = 2 * pairs + min(real - 2 * pairs, 7 - pairs)
            best = min(best, real - adjust - kept)
        if thirteen_orphans:
            kinds = dup = 0
            for t in ORPHANS:
                if c[t]:
                    kinds += 1
                    if c[t] > 1:
                        dup = 1
            best = min(best, real - adjust - kinds - dup)
    return max(best, floor)
