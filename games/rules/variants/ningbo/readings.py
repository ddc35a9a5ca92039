"""The readings of a Ningbo win: every way its tiles (wilds standing for whatever fits)
make sets and a pair, with where the winning tile sits.  ``tai.py`` counts the 台 of
each; see its docstring for how the readings are made."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from ... import analysis
from ... import tiles as T
from ...model import WinContext
from ...options import Options
from .wilds import split_wilds, split_wilds_by, wild_kinds_by

# A group of wilds alone may be read as any of these (only the shape, the suit and
# an honour's kind matter to the 台): a chow or pung of each suit, a pung of each honour.
_ANY_SET = (
    *(("chow", base) for base in (T.MAN, T.PIN, T.SOU)),
    *(("pung", base + 4) for base in (T.MAN, T.PIN, T.SOU)),
    *(("pung", h) for h in range(T.HONOR, T.NUM_KINDS)),
)
_ANY_PAIR = (T.MAN + 4, T.PIN + 4, T.SOU + 4, *range(T.HONOR, T.NUM_KINDS))


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a winning hand, as far as the 台 care.

    ``sets`` are ``(shape, kind)`` with shape ``"chow"`` (kind: its lowest tile) or
    ``"pung"`` (kongs included), exposed melds first; ``pair`` is the pair's kind
    (None for seven pairs); ``wait`` where the winning tile sits: ``"pair"``,
    ``"pung"``, ``"mid"``, ``"edge"`` (3 of 12, 7 of 89), ``"open"``, or None.
    """

    ctx: WinContext
    opts: Options
    sets: tuple[tuple[str, int], ...]
    pair: int | None
    wait: str | None
    only_wait: bool
    suits: frozenset[int]  # suit indexes (0..3) of the tiles as read
    #: the winning tile is paired with a wild of the hand (the 百搭单吊 reading)
    wild_pair: bool = False

    @property
    def seven_pairs(self) -> bool:
        return self.pair is None

    def pungs_of(self, kinds: Iterable[int]) -> int:
        kinds = set(kinds)
        return sum(1 for shape, k in self.sets if shape == "pung" and k in kinds)

    def wait_counts(self, wait: str) -> bool:
        """A 边/夹/单吊 wait that counts (the only wait, unless the house rule says)."""
        return self.wait == wait and (self.only_wait or not self.opts.single_wait_only)


# --- enumerating readings ------------------------------------------------------


@lru_cache(maxsize=64)
def _groups_holding(w: int) -> tuple[tuple[str, int, str, tuple[int, ...]], ...]:
    """Groups the winning kind ``w`` can complete: (shape, kind, wait, other places)."""
    out = [("pair", w, "pair", (w,)), ("pung", w, "pung", (w, w))]
    if T.is_suited(w):
        n = w % 9
        for start in range(max(0, n - 2), min(n, 6) + 1):
            s = w - n + start
            others = tuple(x for x in (s, s + 1, s + 2) if x != w)
            if w == s + 1:
                wait = "mid"
            elif (start == 0 and w == s + 2) or (start == 6 and w == s):
                wait = "edge"
            else:
                wait = "open"
            out.append(("chow", s, wait, others))
    return tuple(out)


def _fillings(
    c: tuple[int, ...], wilds: int, places: tuple[int, ...]
) -> set[tuple[tuple[int, ...], int]]:
    """Ways to fill ``places`` from the hand, each by a real tile or a wild: the
    counts and wilds left, deduplicated.  Tried in the order real before wild, place
    by place (the order the readings come in)."""
    out = set()
    if len(places) == 1:
        (a,) = places
        if c[a]:
            rest = list(c)
            rest[a] -= 1
            out.add((tuple(rest), wilds))
        if wilds:
            out.add((tuple(c), wilds - 1))
        return out
    a, b = places  # a pung's two other places, or a chow's
    if c[a] and c[b] > (a == b):
        rest = list(c)
        rest[a] -= 1
        rest[b] -= 1
        out.add((tuple(rest), wilds))
    if wilds:
        if c[a]:
            rest = list(c)
            rest[a] -= 1
            out.add((tuple(rest), wilds - 1))
        if c[b]:
            rest = list(c)
            rest[b] -= 1
            out.add((tuple(rest), wilds - 1))
        if wilds > 1:
            out.add((tuple(c), wilds - 2))
    return out


def _concrete_sets(groups) -> Iterator[tuple[tuple[str, int], ...]]:
    """The groups as ``(shape, kind)``, a group of wilds alone as each of its readings."""
    choices = []
    for g in groups:
        if g.tile is None:
            choices.append(_ANY_SET)
        else:
            choices.append((("chow" if g.kind == "chow" else "pung", g.tile),))
    yield from product(*choices)


@lru_cache(maxsize=65536)
def _rest_readings(
    c: tuple[int, ...], wilds: int
) -> tuple[tuple[tuple[tuple[str, int], ...], int | None], ...]:
    """Every reading of the rest of a hand once a set holding the winning tile is set
    aside, as ``(sets, pair)``: its decompositions (``analysis``), each group of wilds
    alone as each of its readings.  Remembered: the same rests recur across the waits
    and discards that bots and hints weigh; the key and the answer are plain values,
    which the garbage collector stops tracking."""
    return tuple(
        (sets, d.pair.tile)
        for d in analysis.decompositions(c, wilds)
        for sets in _concrete_sets(d.sets)
    )


@lru_cache(maxsize=65536)
def _set_rest_readings(c: tuple[int, ...], wilds: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every reading of the rest of a hand once the winning tile's pair is set aside: sets
    alone (``analysis.set_readings``), a group of wilds as each of its readings.
    Remembered like :func:`_rest_readings`."""
    return tuple(
        sets for groups in analysis.set_readings(c, wilds) for sets in _concrete_sets(groups)
    )


_SUIT_OF = tuple(T.suit_index(k) for k in range(T.NUM_TILES))


def win_readings(ctx: WinContext, opts: Options) -> Iterator[Reading]:
    """Every reading of the win (the same reading reached several ways once)."""
    mode = opts.get("wild_kinds")
    wild = wild_kinds_by(ctx.wild, mode)
    c0, k0 = split_wilds_by(ctx.hand, ctx.wild, mode)
    melds = tuple(("chow" if m.kind == "chi" else "pung", m.tile) for m in ctx.melds)
    seven = opts.qi_dui and not ctx.melds
    hand_waits = analysis.waits(c0, k0, seven_pairs=seven)
    # A wild won (drawn) stands for each tile that completes the hand.
    kinds = hand_waits if ctx.win_tile in wild else [ctx.win_tile]
    seen: set[tuple] = set()
    for w in kinds:
        only = hand_waits == [w]
        for shape, kind, wait, places in _groups_holding(w):
            for rest, left in _fillings(c0, k0, places):
                if shape == "pair":
                    # The rest must be sets alone.
                    wild_pair = left < k0
                    rests = [(sets, kind) for sets in _set_rest_readings(rest, left)]
                    own: tuple = melds
                else:
                    wild_pair = False
                    rests = _rest_readings(rest, left)
                    own = (*melds, (shape, kind))
                for sets, pair in rests:
                    every = (*own, *sets)
                    for p in (pair,) if pair is not None else _ANY_PAIR:
                        key = (tuple(sorted(every)), p, wait, only, wild_pair)
                        if key not in seen:  # one reading, reached several ways
                            seen.add(key)
                            suits = frozenset([_SUIT_OF[p], *(_SUIT_OF[k] for _, k in every)])
                            yield Reading(ctx, opts, every, p, wait, only, suits, wild_pair)
    c, wilds = split_wilds(ctx.full_hand, ctx.wild, opts)
    if seven and analysis.is_seven_pairs(c, wilds):
        suits = frozenset(T.suit_index(k) for k in range(T.NUM_KINDS) if c[k])
        # The winning tile pairs with a tile of its own kind when the hand held an odd
        # number of it; otherwise a wild takes its place.
        wild_pair = ctx.win_tile in wild or c0[ctx.win_tile] % 2 == 0
        yield Reading(ctx, opts, (), None, None, False, suits, wild_pair)


def is_lone_wild_ready(tiles: Iterable[int], indicator: int | None, opts: Options) -> bool:
    """百搭单吊: the ``3n + 1`` concealed tiles are complete sets and one lone wild."""
    c, wilds = split_wilds(tiles, indicator, opts)
    if not wilds or (sum(c) + wilds) % 3 != 1:
        return False
    # The lone wild and one more can be the pair of wilds alone: the rest is sets alone.
    return bool(_set_rest_readings(tuple(c), wilds - 1))
