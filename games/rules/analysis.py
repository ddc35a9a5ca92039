"""Hand analysis: winning shapes, readings, waits and shanten.

A hand is a *count vector* ``c`` of 34 ints (see :mod:`games.rules.tiles`) plus
``wilds``, the number of wild tiles it holds (the caller removes them from
``c``).  A wild stands for any kind when forming a winning hand, a fifth copy
included.  Melds are removed by the caller too, so a standard hand has
``3n + 2`` tiles for ``n`` in 0..4.

How it stays fast: the counts are packed into an int, one byte per kind, so
a suit's counts are a slice of it (its memo key) and adding a tile is an
addition.  Per suit, the fewest wilds that complete its tiles into sets
(without or with the pair) are memoised; a hand wins when the suits' needs
add up to no more than its wilds (the wilds left over come in threes and form
sets of their own), and ``waits`` recomputes only the suit a candidate tile
falls in.  Without wilds, a suit's size mod 3 says which shape it must take
(sets, or sets and the pair), so ``waits`` first rules hands out by the four
suit sizes alone.  ``shanten`` memoises, per suit, the best (sets, partial
sets, pair) frontiers and combines them with the usual
``2N - 2·sets - partials - pair`` formula.  Memos fill lazily; import builds
only a 65536-entry table of references (a few milliseconds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

from .packing import BASES, MAX_TILES, ORPHANS, SIMPLES_MASK, SIZES, pack, suit_keys
from .xiangting import shanten

__all__ = [
    "Decomposition",
    "Group",
    "decompositions",
    "is_seven_pairs",
    "is_standard_win",
    "is_thirteen_orphans",
    "is_winning",
    "min_wilds_needed",
    "set_readings",
    "shanten",
    "waits",
]


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
        low = ((key & -key).bit_length() - 1) >> 3
        sh = low << 3
        k = (key >> sh) & 255
        take = 3 if k > 3 else k
        a0, a1 = _need(key - (take << sh), honor)
        best0, best1 = 3 - take + a0, 3 - take + a1
        take = 2 if k > 2 else k
        a0 = _need(key - (take << sh), honor)[0]
        best1 = min(best1, 2 - take + a0)
        if not honor:
            start = low if low < 6 else 6
            rest = key - (1 << sh)
            missing = 0
            for j in range(start, start + 3):
                if j == low:
                    continue
                if j > low and (rest >> (j << 3)) & 255:
                    rest -= 1 << (j << 3)
                else:
                    missing += 1
            a0, a1 = _need(rest, honor)
            best0 = min(best0, missing + a0)
            best1 = min(best1, missing + a1)
        v = (best0, best1)
    memo[key] = v
    return v


# --------------------------------------------------------------------------
# Without wilds: is a suit complete?  Its size decides the question: sets
# only (0 mod 3), sets and the pair (2 mod 3), never (1 mod 3).

_COMPLETE_SUITED: dict[int, bool] = {}
_COMPLETE_HONOR: dict[int, bool] = {}
_HIGH_BITS = int.from_bytes(bytes([0xF0] * 34), "little")  # a count of 16 or more
_LOW_BITS = int.from_bytes(bytes([1] * 34), "little")  # odd counts
# Multiplying packed counts by 0x0101...01 (n ones) puts in byte k the sum of
# bytes k-n+1..k; with every count below 16 no such sum carries.
_ONES9 = int.from_bytes(bytes([1] * 9), "little")
_ONES7 = int.from_bytes(bytes([1] * 7), "little")


def _sets_only(counts: bytes) -> bool:
    """Greedy: the lowest tile's copies beyond a multiple of three start chows."""
    x1 = x2 = 0  # chows started one / two places back, each still needing this tile
    for i, n in enumerate(counts):
        n -= x1 + x2
        if n < 0:
            return False
        start = n % 3
        if start and i >= 7:
            return False
        x1, x2 = start, x1
    return True


def _complete(key: int, honor: bool) -> bool:
    """One suit, no wilds: sets only (size 0 mod 3) or sets and a pair (2 mod 3)."""
    memo = _COMPLETE_HONOR if honor else _COMPLETE_SUITED
    done = memo.get(key)
    if done is None:
        counts = key.to_bytes(7 if honor else 9, "little")
        size = sum(counts) % 3
        if size == 1:
            done = False
        elif honor:
            rests = [n % 3 for n in counts]
            done = rests.count(1) == 0 and rests.count(2) == size // 2
        elif size == 0:
            done = _sets_only(counts)
        else:
            # a pung or chow weighs 0 mod 3 by sum(i * count): the pair's place p
            # has 2p = that weight (mod 3), i.e. p = 2 * weight (mod 3)
            p0 = 2 * sum(i * n for i, n in enumerate(counts)) % 3
            done = any(
                counts[p] >= 2 and _sets_only((key - (2 << (p << 3))).to_bytes(9, "little"))
                for p in range(p0, 9, 3)
            )
        memo[key] = done
    return done


def _waiting_plans(rests: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(suit taking the tile, suits that must be complete already) for suit sizes mod 3.

    After the tile every suit is complete and one (2 mod 3) holds the pair.  So
    either one suit is 1 mod 3 and takes the tile, or two are 2 mod 3 and either
    takes it; every other suit must be complete as it is.
    """
    ones = [i for i in range(4) if rests[i] == 1]
    twos = [i for i in range(4) if rests[i] == 2]
    if len(ones) == 1 and not twos:
        targets = ones
    elif not ones and len(twos) == 2:
        targets = twos
    else:
        return ()
    # honours first: most often incomplete, so the check stops early
    return tuple((t, tuple(i for i in (3, 0, 1, 2) if i != t)) for t in targets)


# Indexed by the four suit sizes (each < 16) as nibbles, m highest: 65536 shared
# entries, built in a few milliseconds, save the hot path four modulos.
_PLANS_BY_REST = [_waiting_plans(rests) for rests in product(range(3), repeat=4)]
_WAITING_PLANS = [
    _PLANS_BY_REST[27 * a + 9 * b + 3 * c + d]
    for a, b, c, d in product([n % 3 for n in range(16)], repeat=4)
]

_EXACT_WAITS: dict[tuple[int, int], tuple[int, ...]] = {}


def _exact_suit_waits(key: int, idx: int) -> tuple[int, ...]:
    """Kinds (0..33) of suit ``idx`` whose addition completes it (no wilds)."""
    found = _EXACT_WAITS.get((key, idx))
    if found is None:
        honor = idx == 3
        present = [j for j, n in enumerate(key.to_bytes(SIZES[idx], "little")) if n]
        # a group holding the new tile holds a real copy of it or a neighbour
        near = present if honor else {j + d for j in present for d in (-1, 0, 1)}
        found = _EXACT_WAITS[key, idx] = tuple(
            BASES[idx] + j
            for j in sorted(near)
            if 0 <= j < SIZES[idx] and _complete(key + (1 << (j << 3)), honor)
        )
    return found


def _hand_need(keys: tuple[int, int, int, int]) -> int:
    """Fewest wilds completing the real tiles into sets and one pair."""
    s0 = 0
    delta = 2  # a pair of two wilds (no suit's n1 - n0 exceeds this either)
    for idx in range(4):
        n0, n1 = _need(keys[idx], idx == 3)
        s0 += n0
        if n1 - n0 < delta:
            delta = n1 - n0
    return s0 + delta


def min_wilds_needed(c: Sequence[int], wilds: int = 0) -> int:
    """How many more wilds ``c`` plus ``wilds`` wilds needs to be a standard win.

    Any number of sets is allowed here (no 14-tile limit on the result): the
    answer is the fewest extra wilds ``e >= 0`` such that the real tiles with
    ``wilds + e`` wilds form sets and one pair.  Raises ``ValueError`` for
    more than 14 real tiles.
    """
    _, packed, total = pack(c, wilds)
    real = total - wilds
    if real > MAX_TILES:
        raise ValueError(f"at most {MAX_TILES} real tiles, got {real}")
    need = _hand_need(suit_keys(packed))
    x = max(need, wilds)
    # real + x must be 2 mod 3; need itself satisfies it, so step to that residue
    x += (2 - real - x) % 3
    return x - wilds


# --------------------------------------------------------------------------
# Winning shapes

_ODD = bytes(n & 1 for n in range(256))  # bytes.translate table: count -> parity


def is_standard_win(c: Sequence[int], wilds: int = 0) -> bool:
    """``3n + 2`` tiles (n <= 4) forming n sets (pungs or chows) and a pair."""
    _, packed, total = pack(c, wilds)
    if total % 3 != 2 or total > MAX_TILES:
        return False
    keys = suit_keys(packed)
    if wilds:
        return _hand_need(keys) <= wilds
    # every suit complete, and exactly one of them (2 mod 3) holds the pair
    sums = packed * _ONES9
    pairs = (sums >> 64 & 255) % 3 + (sums >> 136 & 255) % 3 + (sums >> 208 & 255) % 3
    pairs += (keys[3] * _ONES7 >> 48 & 255) % 3
    return pairs == 2 and all(_complete(keys[idx], idx == 3) for idx in range(4))


def is_seven_pairs(c: Sequence[int], wilds: int = 0) -> bool:
    """14 tiles in seven pairs; four of a kind is two pairs; wilds pair with anything."""
    b, _, total = pack(c, wilds)
    return total == 14 and b.translate(_ODD).count(1) <= wilds


def is_thirteen_orphans(c: Sequence[int], wilds: int = 0) -> bool:
    """14 tiles: each terminal and honour once, one of them twice; wilds fill in."""
    b, packed, total = pack(c, wilds)
    if total != 14 or packed & SIMPLES_MASK:
        return False
    # With 14 tiles, wilds == missing kinds + 1 - extra copies: extra <= 1 suffices.
    return sum(b) - (34 - b.count(0)) <= 1


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
# Whole-hand memos: bots and hints ask the same hands again and again (every
# discard they weigh, at every action).  Keyed by the packed counts; each is
# emptied when it grows past a bound, so a long-lived process stays small.

_MEMO_LIMIT = 200_000
_WAITS_MEMO: dict[tuple, tuple[int, ...]] = {}
_DECOMPOSITIONS_MEMO: dict[tuple[int, int], tuple[Decomposition, ...]] = {}


def _remember(memo: dict, key, value) -> None:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value


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
    # The hot path of bots and hints, so it is inlined.  Suit sizes come from
    # two multiplications; without wilds, the sizes alone rule out most hands
    # before any table is read.
    try:
        b = bytes(c)
    except (TypeError, ValueError):
        raise ValueError("a count vector holds ints in 0..255") from None
    packed = int.from_bytes(b, "little")
    memo_key = (packed, wilds, seven_pairs, thirteen_orphans)
    if len(b) == 34:
        found = _WAITS_MEMO.get(memo_key)
        if found is not None:
            return list(found)
    if len(b) != 34 or wilds < 0 or packed & _HIGH_BITS:
        raise ValueError(f"not a hand of at most 13 tiles: {list(c)}, {wilds} wilds")
    out = _waits(b, packed, wilds, seven_pairs, thirteen_orphans)
    _remember(_WAITS_MEMO, memo_key, tuple(out))
    return out


def _waits(b: bytes, packed: int, wilds: int, seven_pairs: bool, thirteen_orphans: bool):
    sums = packed * _ONES9
    n0 = sums >> 64 & 255
    n1 = sums >> 136 & 255
    n2 = sums >> 208 & 255
    n3 = (packed >> 216) * _ONES7 >> 48 & 255
    total = n0 + n1 + n2 + n3 + wilds
    if total % 3 != 1 or total > 13:
        raise ValueError(f"waits needs a 3n+1 hand of at most 13 tiles, got {total}")
    if wilds:
        out = _standard_waits_wild(suit_keys(packed), wilds)
    else:
        plans = _WAITING_PLANS[n0 << 12 | n1 << 8 | n2 << 4 | n3]
        out = _planned_waits(packed, plans) if plans else []
    if total == 13 and (
        # seven pairs: wilds enough for the odd counts but one (bit 0 of each byte)
        (seven_pairs and (packed & _LOW_BITS).bit_count() <= wilds + 1)
        # thirteen orphans: no simples
        or (thirteen_orphans and not packed & SIMPLES_MASK)
    ):
        orphans = thirteen_orphans and not packed & SIMPLES_MASK
        return _special_waits(b, wilds, seven_pairs, orphans, out)
    return out


def _planned_waits(packed: int, plans: tuple[tuple[int, tuple[int, ...]], ...]) -> list[int]:
    keys = suit_keys(packed)
    out: list[int] = []
    for target, others in plans:
        for idx in others:
            done = (_COMPLETE_HONOR if idx == 3 else _COMPLETE_SUITED).get(keys[idx])
            if done is None:
                done = _complete(keys[idx], idx == 3)
            if not done:
                break
        else:
            out += _exact_suit_waits(keys[target], target)
    return out


def _special_waits(
    b: bytes, wilds: int, seven_pairs: bool, orphans_possible: bool, out: list[int]
) -> list[int]:
    """``out`` plus the seven pairs and thirteen orphans waits of a 13-tile hand."""
    extra = []
    if seven_pairs:
        # adding t makes the odd counts one fewer (c[t] odd) or one more
        singles = b.translate(_ODD).count(1)
        if singles + 1 <= wilds:
            return list(range(34))
        if singles - 1 <= wilds:
            extra = [t for t in range(34) if b[t] & 1]
    if orphans_possible:
        copies = sum(b) - (34 - b.count(0))  # beyond the first of a kind
        if copies == 0:
            extra += ORPHANS
        elif copies == 1:
            extra += [t for t in ORPHANS if not b[t]]
    return sorted(set(out + extra)) if extra else out


_WILD_WAITS: dict[tuple[int, int, int], tuple[int, tuple[tuple[int, ...], ...]]] = {}


def _wild_suit_waits(key: int, idx: int, delta: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Kinds of suit ``idx`` by the wilds they leave the suit needing.

    ``delta`` is what moving the pair out of this suit costs the others (their
    best n1 - n0, or 2 for a pair of wilds; it may be negative).  Returns
    (lowest cost, entries): entry i lists the kinds costing at most lowest + i.
    """
    table = _WILD_WAITS.get((key, idx, delta))
    if table is None:
        honor = idx == 3
        costs = []
        for j in range(SIZES[idx]):
            n0, n1 = _need(key + (1 << (j << 3)), honor)
            costs.append(min(n0 + delta, n1))
        low = min(costs)
        table = _WILD_WAITS[key, idx, delta] = (
            low,
            tuple(
                tuple(BASES[idx] + j for j, cost in enumerate(costs) if cost <= budget)
                for budget in range(low, max(costs) + 1)
            ),
        )
    return table


def _standard_waits_wild(keys: tuple[int, int, int, int], wilds: int) -> list[int]:
    needs = (
        _need(keys[0], False),
        _need(keys[1], False),
        _need(keys[2], False),
        _need(keys[3], True),
    )
    s0 = needs[0][0] + needs[1][0] + needs[2][0] + needs[3][0]
    gains = [n1 - n0 for n0, n1 in needs]  # what taking the pair costs each suit
    # the cheapest other suit to take the pair: the lowest gain, or the second
    # lowest for the suit that has it; a pair of two wilds costs 2
    lowest, second = sorted(gains)[:2]
    out: list[int] = []
    for idx in range(4):
        delta = second if gains[idx] == lowest else lowest
        low, entries = _wild_suit_waits(keys[idx], idx, delta if delta < 2 else 2)
        spare = wilds - (s0 - needs[idx][0]) - low  # the other suits' sets come first
        if spare >= 0:
            out += entries[spare if spare < len(entries) else -1]
    return out


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
    low = ((key & -key).bit_length() - 1) >> 3
    sh = low << 3
    k = (key >> sh) & 255
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
                (False, True) if j > low and (key >> (j << 3)) & 255 else (False,) for j in others
            ]
            for pick in product(*choices):
                rest = key - (1 << sh)
                for j, real in zip(others, pick, strict=True):
                    if real:
                        rest -= 1 << (j << 3)
                extend(Group("chow", base + start, pick.count(False)), rest, pair)
    return frozenset(found)


def decompositions(c: Sequence[int], wilds: int = 0) -> list[Decomposition]:
    """Every distinct standard-form reading of a ``3n + 2`` hand (``[]`` if none).

    Groups with a real tile name their concrete tile; leftover wilds form
    groups with ``tile=None`` (a pair of two wilds, sets of three reported as
    ``kind="pung"``).  Readings differ when their multisets of groups differ
    (``wilds`` included).  Sorted by pair, then sets.
    """
    _, packed, total = pack(c, wilds)
    if total % 3 != 2 or total > MAX_TILES:
        return []
    found = _DECOMPOSITIONS_MEMO.get((packed, wilds))
    if found is None:
        found = tuple(_decompositions(packed, wilds))
        _remember(_DECOMPOSITIONS_MEMO, (packed, wilds), found)
    return list(found)


def _suits_read(
    keys: tuple[int, int, int, int], wilds: int, pair_suit: int | None
) -> list[tuple[int, tuple[Group, ...]]]:
    """Every reading of the four suits together as (wilds used, groups), using at most
    ``wilds``, the pair (if any) in ``pair_suit``."""
    partial: list[tuple[int, tuple[Group, ...]]] = [(0, ())]
    for idx in range(4):
        readings = _suit_readings(keys[idx], BASES[idx], idx == 3, idx == pair_suit, wilds)
        partial = [
            (u1 + u2, g1 + g2) for u1, g1 in partial for u2, g2 in readings if u1 + u2 <= wilds
        ]
        if not partial:
            break
    return partial


def set_readings(c: Sequence[int], wilds: int = 0) -> list[tuple[Group, ...]]:
    """Every distinct reading of a ``3n`` hand (n <= 4) as sets alone, no pair: the
    ``sets`` of the :func:`decompositions` of the hand with two wilds more whose pair is
    those two wilds, in the same order (``[]`` if none).  Cheaper than filtering those:
    no suit is tried for the pair, and the search has two wilds fewer."""
    _, packed, total = pack(c, wilds)
    if total % 3 or total > MAX_TILES - 2:
        return []
    result = set()
    for used, groups in _suits_read(suit_keys(packed), wilds, None):
        sets = [*groups, *(Group("pung", None, 3) for _ in range((wilds - used) // 3))]
        sets.sort(key=_group_order)
        result.add(tuple(sets))
    return sorted(result, key=lambda sets: [_group_order(g) for g in sets])


def _decompositions(packed: int, wilds: int) -> list[Decomposition]:
    keys = suit_keys(packed)
    if _hand_need(keys) > wilds:
        return []
    result: set[Decomposition] = set()
    for pair_suit in (0, 1, 2, 3, None):
        partial = _suits_read(keys, wilds, pair_suit)
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
