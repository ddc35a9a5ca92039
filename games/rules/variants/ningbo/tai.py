"""宁波麻将 scoring: the 百搭 wilds, the 台 of one win and its payments.

Spec: ``../shared/rules/ningbo.md``.  Pure functions; the Ningbo variant object
(``ningbo.py``) calls them and ``evaluate`` reaches :func:`score` through the
variant registry.

A win is worth ``T = 1 + Σ台``; it needs ``Σ台 >= min_tai``.  Each 台 item is
one :class:`Item` (id, names, what it counts on a :class:`Reading`); its value
per count is the house rule ``tai_values[id]``.  Points the spec leaves open:

* **Readings.**  The winning tile is placed in each group it can belong to (the
  pair, a pung, a chow at each position), the other places filled by real tiles
  or wilds, and the rest of the hand read every way (``analysis``).  A group of
  wilds alone is read as whatever scores most (any chow, pung or pair).  A drawn
  wild stands for each tile that completes the hand.  The reading with the most
  台 is used.
* **The hand's only wait** (边, 夹, 单吊 with ``single_wait_only``) is the shape
  waits of the hand before the winning tile (``analysis.waits``, seven pairs
  included when allowed), kinds whose four copies are all in sight included.
* **大吊** (one tile left in hand: four melds laid down, concealed kongs
  included) always lists 单吊 too.  **对倒** is the
  winning tile completing a pung of the reading.
* **平胡** reads exposed chows too; with a seat or prevailing wind unknown
  (``evaluate`` without ``seat_wind``/``round_wind``) that wind is not a scoring
  honour, and 正花 / 门风刻 / 圈风刻 need the wind known.
* **硬胡**: no wild among the concealed tiles and the winning tile (a wild used
  as its own face is still a wild).  **三财神**: a self-draw with three or more
  wilds in the hand (a discarded wild can never be claimed, so every wild held
  was drawn).
* **混一色** needs one numbered suit *and* honours; all honours is neither.
* **Seven pairs** (``qi_dui``): ``qi_dui`` plus the items that do not depend on
  sets (自摸, 杠上开花, 硬胡, 三财神, 抢杠, 海捞, flowers, 混/清一色); no wait
  items, no 排胡.
* **百搭单吊**: the hand before the winning tile is complete sets and one lone
  wild (any tile completes the pair).  With one wild such a hand wins only by
  self-draw, on whatever tile it is won.  With two or more, a discard (or robbed
  kong) win is allowed, and scored, by the readings that do not pair a wild
  with the winning tile; if every reading does, it is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import product

from ... import analysis
from ... import tiles as T
from ...model import Score, ScoreItem, WinContext
from ...options import Options
from .options import NINGBO_OPTIONS, TAI_DEFAULTS

__all__ = [
    "ITEMS",
    "NINGBO_OPTIONS",
    "PLANTS",
    "SEASONS",
    "is_lone_wild_ready",
    "pattern_names",
    "reaches_min_tai",
    "score",
    "split_wilds",
    "wild_kinds",
    "win_payments",
]

SEASONS = frozenset(range(T.FLOWER, T.FLOWER + 4))
PLANTS = frozenset(range(T.FLOWER + 4, T.FLOWER + 8))
DRAGONS = frozenset(range(T.HONOR + 4, T.NUM_KINDS))
SEATS = 4


# --- the 百搭 ----------------------------------------------------------------


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
    return _wild_kinds(indicator, opts.get("wild_kinds"))


@lru_cache(maxsize=1024)
def _wild_kinds(indicator: int | None, mode: str | None) -> frozenset[int]:
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
    c, wilds = _split_wilds_by(tuple(tiles), indicator, opts.get("wild_kinds"))
    return list(c), wilds


def _split_wilds(
    tiles: tuple[int, ...], indicator: int | None, opts: Options
) -> tuple[tuple[int, ...], int]:
    """:func:`split_wilds` of a tuple, as its memo keeps it (a tuple of counts)."""
    return _split_wilds_by(tiles, indicator, opts.get("wild_kinds"))


@lru_cache(maxsize=65536)
def _split_wilds_by(
    tiles: tuple[int, ...], indicator: int | None, mode: str | None
) -> tuple[tuple[int, ...], int]:
    """:func:`split_wilds`, remembered by the tiles in their order and what decides the
    wild kinds: the engine, the bots and every reading of the scorer split the same
    hands again and again.  The key holds plain values only (not the Options), so the
    cyclic garbage collector stops tracking the entries of this large, busy memo."""
    wild = _wild_kinds(indicator, mode)
    c = [0] * T.NUM_KINDS
    wilds = 0
    for t in tiles:
        if t in wild:
            wilds += 1
        elif t < T.NUM_KINDS:
            c[t] += 1
    return tuple(c), wilds


@lru_cache(maxsize=65536)
def _hand_waits(
    tiles: tuple[int, ...], indicator: int | None, mode: str | None, seven_pairs: bool
) -> tuple[int, ...]:
    """``analysis.waits`` of a ``3n + 1`` hand given as its tiles, remembered by what
    :func:`_split_wilds_by` is (plain values): the engine asks it of three seats at
    every discard, and the hands change one seat at a time."""
    c, wilds = _split_wilds_by(tiles, indicator, mode)
    return tuple(analysis.waits(c, wilds, seven_pairs=seven_pairs))


def is_lone_wild_ready(tiles: Iterable[int], indicator: int | None, opts: Options) -> bool:
    """百搭单吊: the ``3n + 1`` concealed tiles are complete sets and one lone wild."""
    c, wilds = split_wilds(tiles, indicator, opts)
    if not wilds or (sum(c) + wilds) % 3 != 1:
        return False
    # The lone wild and one more can be the pair of wilds alone: the rest is sets alone.
    return bool(_set_rest_readings(tuple(c), wilds - 1))


# --- readings ----------------------------------------------------------------

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


def _seat_wind(ctx: WinContext) -> frozenset[int]:
    return frozenset() if ctx.seat_wind is None else frozenset({T.HONOR + ctx.seat_wind})


def _round_wind(ctx: WinContext) -> frozenset[int]:
    return frozenset() if ctx.round_wind is None else frozenset({T.HONOR + ctx.round_wind})


@dataclass(frozen=True, slots=True)
class Item:
    """One 台 item: ``count(reading)`` how often it applies (0: not at all)."""

    id: str
    name_zh: str
    name_en: str
    count: Callable[[Reading], int]
    #: applies to seven pairs readings too
    any_shape: bool = False
    #: counts the win's context alone (the same for every reading of it)
    fixed: bool = False


def _flag(r: Reading, flag: str) -> bool:
    return flag in r.ctx.flags


def _self_draw(r: Reading) -> bool:
    return r.ctx.win_type == "self_draw"


def _wilds(r: Reading) -> int:
    return _split_wilds(r.ctx.full_hand, r.ctx.wild, r.opts)[1]


def _ping_hu(r: Reading) -> bool:
    scoring = DRAGONS | _seat_wind(r.ctx) | _round_wind(r.ctx)
    return all(shape == "chow" for shape, _ in r.sets) and r.pair not in scoring


def _wait_item(r: Reading) -> bool:
    return (
        _ping_hu(r)
        or r.wait_counts("edge")
        or r.wait_counts("mid")
        or _dan_diao(r)
        or r.wait == "pung"
    )


def _dan_diao(r: Reading) -> bool:
    return r.wait_counts("pair") or len(r.ctx.hand) == 1


def _one_suit(r: Reading) -> int | None:
    numbered = r.suits - {3}
    return next(iter(numbered)) if len(numbered) == 1 else None


def _flowers_matching_seat(r: Reading) -> int:
    if r.ctx.seat_wind is None:
        return 0
    return sum(1 for f in r.ctx.flowers if (f - T.FLOWER) % 4 == r.ctx.seat_wind)


def _kongs(r: Reading, concealed: bool) -> int:
    return sum(1 for m in r.ctx.melds if m.kind == "gang" and m.concealed == concealed)


ITEMS: list[Item] = [
    Item("zi_mo", "自摸", "Self-draw", lambda r: _self_draw(r), any_shape=True, fixed=True),
    Item("pai_hu", "排胡", "Plain shape", lambda r: not _wait_item(r)),
    Item("ping_hu", "平胡", "All chows", _ping_hu),
    Item("bian_zhang", "边", "Edge wait", lambda r: r.wait_counts("edge")),
    Item("jia_zhang", "夹", "Closed wait", lambda r: r.wait_counts("mid")),
    Item("dan_diao", "单吊", "Pair wait", _dan_diao),
    Item("dui_dao", "对倒", "Two-pair wait", lambda r: r.wait == "pung"),
    Item("da_diao", "大吊", "Last tile in hand", lambda r: len(r.ctx.hand) == 1, fixed=True),
    Item(
        "peng_peng_hu",
        "碰碰胡",
        "All pungs",
        lambda r: all(shape == "pung" for shape, _ in r.sets),
    ),
    Item(
        "gang_shang_kai_hua",
        "杠上开花",
        "Win on a replacement",
        lambda r: _self_draw(r) and _flag(r, "after_kong"),
        any_shape=True,
        fixed=True,
    ),
    Item("ying_hu", "硬胡", "No wild", lambda r: _wilds(r) == 0, any_shape=True, fixed=True),
    Item(
        "san_cai_shen",
        "三财神",
        "Three wilds",
        lambda r: _self_draw(r) and _wilds(r) >= 3,
        any_shape=True,
        fixed=True,
    ),
    Item(
        "qiang_gang",
        "抢杠",
        "Robbing a kong",
        lambda r: r.ctx.win_type == "rob_kong",
        any_shape=True,
        fixed=True,
    ),
    Item(
        "hai_di_lao_yue",
        "海捞",
        "Last tile",
        lambda r: _self_draw(r) and _flag(r, "last_tile"),
        any_shape=True,
        fixed=True,
    ),
    Item("zheng_hua", "正花", "Own flowers", _flowers_matching_seat, any_shape=True, fixed=True),
    Item(
        "hua_quan",
        "四季/四君",
        "All four seasons or plants",
        lambda r: (SEASONS <= set(r.ctx.flowers)) + (PLANTS <= set(r.ctx.flowers)),
        any_shape=True,
        fixed=True,
    ),
    Item("men_feng", "门风刻", "Seat wind pung", lambda r: r.pungs_of(_seat_wind(r.ctx))),
    Item("quan_feng", "圈风刻", "Prevailing wind pung", lambda r: r.pungs_of(_round_wind(r.ctx))),
    Item("jian_ke", "三元刻", "Dragon pung", lambda r: r.pungs_of(DRAGONS)),
    Item(
        "ming_gang", "明杠", "Exposed kong", lambda r: _kongs(r, False), any_shape=True, fixed=True
    ),
    Item(
        "an_gang", "暗杠", "Concealed kong", lambda r: _kongs(r, True), any_shape=True, fixed=True
    ),
    Item(
        "hun_yi_se",
        "混一色",
        "One suit and honours",
        lambda r: _one_suit(r) is not None and 3 in r.suits,
        any_shape=True,
    ),
    Item(
        "qing_yi_se",
        "清一色",
        "One suit",
        lambda r: _one_suit(r) is not None and 3 not in r.suits,
        any_shape=True,
    ),
    Item("qi_dui", "七对", "Seven pairs", lambda r: r.seven_pairs, any_shape=True),
]
assert [i.id for i in ITEMS] == list(TAI_DEFAULTS)
_FIXED_ITEMS = tuple(i for i in ITEMS if i.fixed)


def pattern_names() -> dict[str, dict[str, str]]:
    """Display names of every item id, for the UI."""
    return {i.id: {"zh-hans": i.name_zh, "en": i.name_en} for i in ITEMS}


def _items(reading: Reading) -> tuple[list[ScoreItem], int]:
    """The items a reading scores and its Σ台."""
    values = reading.opts.tai_values
    fixed = _fixed_counts(reading.ctx, reading.opts)[0]
    out = []
    for item in ITEMS:
        if reading.seven_pairs and not item.any_shape:
            continue
        n = fixed[item.id] if item.fixed else int(item.count(reading))
        if n:
            out.append(ScoreItem(item.id, n * values[item.id]))
    return out, sum(i.value for i in out)


def _tai(r: Reading, fixed: int) -> int:
    """The Σ台 of :func:`_items`, counted straight from the reading (``fixed``: the 台
    of the context's own items, :func:`_fixed_tai`).  The scorer weighs every reading
    by it and lists the items of the best one alone."""
    v = r.opts.tai_values
    numbered = len(r.suits - {3}) == 1
    if numbered:
        fixed += v["hun_yi_se"] if 3 in r.suits else v["qing_yi_se"]
    if r.pair is None:
        return fixed + v["qi_dui"]
    ctx = r.ctx
    seat = None if ctx.seat_wind is None else T.HONOR + ctx.seat_wind
    prevailing = None if ctx.round_wind is None else T.HONOR + ctx.round_wind
    chows = pungs = seat_pungs = round_pungs = dragon_pungs = 0
    for shape, k in r.sets:
        if shape == "chow":
            chows += 1
        else:
            pungs += 1
            if k == seat:
                seat_pungs += 1
            if k == prevailing:
                round_pungs += 1
            if k in DRAGONS:
                dragon_pungs += 1
    counts = r.only_wait or not r.opts.single_wait_only
    wait = r.wait
    ping = not pungs and r.pair not in DRAGONS and r.pair != seat and r.pair != prevailing
    edge = counts and wait == "edge"
    mid = counts and wait == "mid"
    single = (counts and wait == "pair") or len(ctx.hand) == 1
    dui = wait == "pung"
    total = fixed + seat_pungs * v["men_feng"] + round_pungs * v["quan_feng"]
    total += dragon_pungs * v["jian_ke"]
    if not chows:
        total += v["peng_peng_hu"]
    if not (ping or edge or mid or single or dui):
        total += v["pai_hu"]
    if ping:
        total += v["ping_hu"]
    if edge:
        total += v["bian_zhang"]
    if mid:
        total += v["jia_zhang"]
    if single:
        total += v["dan_diao"]
    if dui:
        total += v["dui_dao"]
    return total


def _fixed_tai(ctx: WinContext, opts: Options) -> int:
    """The 台 of the items that depend on the win's context alone."""
    return _fixed_counts(ctx, opts)[1]


def _fixed_counts(ctx: WinContext, opts: Options) -> tuple[dict[str, int], int]:
    """The counts of the items that depend on the win's context alone, and their 台:
    worked out once for all its readings.  Not remembered: one context in twenty
    came back, and each entry, keyed by the context, was more for the garbage
    collector to walk."""
    bare = Reading(ctx, opts, (), 0, None, False, frozenset())
    counts = {item.id: int(item.count(bare)) for item in _FIXED_ITEMS}
    values = opts.tai_values
    return counts, sum(n * values[i] for i, n in counts.items())


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


def _readings(ctx: WinContext, opts: Options) -> Iterator[Reading]:
    mode = opts.get("wild_kinds")
    wild = _wild_kinds(ctx.wild, mode)
    c0, k0 = _split_wilds_by(ctx.hand, ctx.wild, mode)
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


# --- legality -------------------------------------------------------------------


def _legality(ctx: WinContext, opts: Options) -> str | None:
    """Why the tiles cannot be a Ningbo hand at all (shape aside), or None."""
    wild = wild_kinds(ctx.wild, opts)
    for f in ctx.flowers:
        if not T.is_flower(f):
            return f"only flowers are laid out, got {T.to_str(f)}"
        if f in wild:
            return f"{T.to_str(f)} is a wild (百搭), not a flower: it is not laid out"
    if len(set(ctx.flowers)) != len(ctx.flowers):
        return "each flower exists once"
    held = (*ctx.full_hand, *(t for m in ctx.melds for t in m.tiles))
    loose = [t for t in ctx.full_hand if T.is_flower(t) and t not in wild]
    if loose:
        return f"flowers ({T.fmt(loose)}) are laid out, not held"
    for m in ctx.melds:
        if any(t in wild or T.is_flower(t) for t in m.tiles):
            return f"a wild (百搭) cannot be used in a chow, pung or kong: {T.fmt(m.tiles)}"
    n = len(ctx.full_hand) + 3 * len(ctx.melds)
    if n != 14:
        return f"a winning hand has 14 tiles (a kong counting as 3), got {n}"
    c = T.counts((*held, *ctx.flowers), T.NUM_TILES)
    if ctx.wild is not None:
        c[ctx.wild] += 1  # the indicator is turned up, out of play
    over = [t for t in range(T.NUM_TILES) if c[t] > (4 if t < T.NUM_KINDS else 1)]
    if over:
        return f"more copies of {T.fmt(over)} than the 144 tiles hold"
    if ctx.win_type != "self_draw" and ctx.win_tile in wild and not opts.win_on_wild_discard:
        return "a discarded wild (百搭) cannot be won on"
    return None


# --- scoring ---------------------------------------------------------------------


def score(ctx: WinContext, opts: Options) -> Score:
    """Score one Ningbo win: legality, the reading with the most 台, then the limits.

    ``total`` is ``T = 1 + Σ台``; ``extra["tai"]`` is Σ台.  A refused win (too few 台,
    百搭单吊 on a discard) carries ``extra`` ``{"tai", "min_tai", "refused"}``.
    Remembered by the win and the rules (the engine, the bots and the hints score the
    same wins again); each call gets its own ``extra``.
    """
    result = _score(ctx, opts)
    return replace(result, extra=dict(result.extra))


@lru_cache(maxsize=16384)
def _score(ctx: WinContext, opts: Options) -> Score:
    problem = _legality(ctx, opts)
    if problem:
        return Score(win=False, reason=problem)
    readings = list(_readings(ctx, opts))
    if not readings:
        shapes = "four sets and a pair"
        if opts.qi_dui and not ctx.melds:
            shapes += ", or seven pairs"
        return Score(win=False, reason=f"not a winning hand: needs {shapes}")
    lone = _lone_wild_discard(ctx, opts)
    if lone == 1:
        allowed = []  # 百搭单吊 with one wild: self-draw only
    else:
        allowed = [r for r in readings if not (lone and r.wild_pair)]
    fixed = _fixed_tai(ctx, opts)
    best_reading = None
    best = -1
    for reading in allowed or readings:
        tai = _tai(reading, fixed)
        if tai > best:
            best, best_reading = tai, reading
    if not allowed:
        return Score(
            win=False,
            reason="百搭单吊: a hand waiting on a lone wild wins only by self-draw",
            extra={"tai": best, "min_tai": opts.min_tai, "refused": "wild_single_wait"},
        )
    if best < opts.min_tai:
        return Score(
            win=False,
            reason=f"needs at least {opts.min_tai} 台 to win, this hand has {best}",
            extra={"tai": best, "min_tai": opts.min_tai, "refused": "min_tai"},
        )
    return Score(
        win=True, items=tuple(_items(best_reading)[0]), total=1 + best, extra={"tai": best}
    )


def reaches_min_tai(ctx: WinContext, opts: Options, *, bound: int | None = None) -> bool:
    """Whether :func:`score` would accept this win; stops at the first reading with
    enough 台.  ``bound``: the win's :func:`_tai_bound`, when the caller has it already.
    Not remembered: the bots' plan remembers its own question (a ready hand's waits),
    so the same win seldom comes back here, and a memo keyed by the win's context would
    only give the garbage collector more to walk."""
    if _legality(ctx, opts):
        return False
    if (_tai_bound(ctx, opts) if bound is None else bound) < opts.min_tai:
        return False  # no reading can score enough: most ready hands that bots weigh
    lone = _lone_wild_discard(ctx, opts)
    if lone == 1:
        return False
    fixed = _fixed_tai(ctx, opts)
    readings = (r for r in _readings(ctx, opts) if not (lone and r.wild_pair))
    return any(_tai(r, fixed) >= opts.min_tai for r in readings)


def _tai_bound(ctx: WinContext, opts: Options) -> int:
    """An upper bound of Σ台 over every reading of the win, from its tiles alone.

    Exact for the items of the context; for the others, what the real tiles (not the
    wilds) still allow: one wait item, 边/夹/单吊 only with a single wait under
    ``single_wait_only``, 对倒 only with two of the winning kind (real or wild) held;
    平胡 with no pung melded and the honours held at most one pair of a kind that does
    not score; 碰碰胡 with no chow melded and enough wilds to turn every kind held into
    pungs and a pair; a pung of an honour held (or melded) that the wilds can complete,
    and one more of the best honour per three wilds; a flush where the real tiles keep
    to one numbered suit.  Values are never negative, so leaving an item in only raises
    the bound."""
    return tai_bounds(ctx, opts, (ctx.win_tile,))[0]


_SHORT = bytes(-n % 3 for n in range(256))  # bytes.translate table: count -> short of a pung


def tai_bounds(ctx: WinContext, opts: Options, kinds: Iterable[int]) -> list[int]:
    """:func:`_tai_bound` of the win on each of ``kinds`` (``ctx.win_tile`` aside): what
    depends on the hand alone is worked out once for all of them, so a bot asks it of
    a ready hand's waits in one go.  A wait adds one tile to the hand's counts, so each
    kind's figures are the hand's own with that tile's part changed."""
    v = opts.tai_values
    mode = opts.get("wild_kinds")
    wild = _wild_kinds(ctx.wild, mode)
    c0, k0 = _split_wilds_by(ctx.hand, ctx.wild, mode)
    seven_allowed = opts.qi_dui and not ctx.melds
    hand_waits = analysis.waits(c0, k0, seven_pairs=seven_allowed)
    single = not opts.single_wait_only or len(hand_waits) == 1
    pair_wait = v["dan_diao"] if single or len(ctx.hand) == 1 else 0
    any_wait = max(v["bian_zhang"], v["jia_zhang"], pair_wait) if single else pair_wait
    dui_wait = max(any_wait, v["dui_dao"])
    pai_hu, ping_hu, peng_peng_hu = v["pai_hu"], v["ping_hu"], v["peng_peng_hu"]
    hun, flush_any = v["hun_yi_se"], max(v["hun_yi_se"], v["qing_yi_se"])
    seat = None if ctx.seat_wind is None else T.HONOR + ctx.seat_wind
    prevailing = None if ctx.round_wind is None else T.HONOR + ctx.round_wind
    men_feng, quan_feng, jian_ke = v["men_feng"], v["quan_feng"], v["jian_ke"]

    def honour_value(k: int) -> int:
        if k in DRAGONS:
            return jian_ke
        return men_feng * (k == seat) + quan_feng * (k == prevailing)

    best_honour = max(jian_ke, *(honour_value(k) for k in (seat, prevailing) if k is not None))
    pung_melded = chow_melded = False
    real_suits = set()  # numbered suits of the real tiles, held or melded
    real_honours = False
    for m in ctx.melds:
        if m.kind == "chi":
            chow_melded = True
        else:
            pung_melded = True
        for k in m.tiles:
            if k not in wild:
                if k < T.HONOR:
                    real_suits.add(k // 9)
                else:
                    real_honours = True
    melded_pungs = {m.tile for m in ctx.melds if m.kind != "chi"}
    melded_honours = sum(honour_value(k) for k in melded_pungs if k >= T.HONOR)
    real_suits.update(s for s in range(3) if any(c0[9 * s : 9 * s + 9]))
    held_honours = [k for k in range(T.HONOR, T.NUM_KINDS) if c0[k]]
    real_honours = real_honours or bool(held_honours)
    short0 = sum(bytes(c0).translate(_SHORT))  # tiles short of a pung of every kind held

    def honour_pungs(c, wilds: int, honours_held) -> int:
        """Pungs of honours melded, or held that the wilds can complete, and one more of
        the best honour per three wilds."""
        total = melded_honours
        for k in honours_held:
            if k not in melded_pungs and c[k] + wilds >= 3:
                total += honour_value(k)
        return total + wilds // 3 * best_honour

    def bound(c, wilds: int, suits, honours: bool, honours_held, short: int, two: bool) -> int:
        if len(suits) >= 2:
            flush = 0
        elif suits and honours:
            flush = hun
        else:
            flush = flush_any
        # 平胡: all chows (honours only as the pair).
        if pung_melded or (
            honours_held
            and (
                len(honours_held) > 1
                or c[honours_held[0]] > 2
                or honours_held[0] in DRAGONS
                or honours_held[0] == seat
                or honours_held[0] == prevailing
            )
        ):
            chows = any_wait
        else:
            chows = ping_hu + any_wait
        # 碰碰胡: no chow melded and wilds enough to turn every kind held into pungs and a pair.
        pungs = honour_pungs(c, wilds, honours_held)
        if not chow_melded and short - 1 <= wilds:
            pungs += peng_peng_hu
        # 对倒: the winning tile completes a pung of the hand.
        tai = pai_hu + flush + max(chows, pungs + (dui_wait if two else any_wait))
        if seven_allowed and analysis.is_seven_pairs(c, wilds):
            tai = max(tai, v["qi_dui"] + flush)
        return tai

    fixed_totals: dict[bool, int] = {}  # by whether the winning tile is a wild
    out = []
    for win in kinds:
        is_wild = win in wild
        fixed = fixed_totals.get(is_wild)
        if fixed is None:
            same = (ctx.win_tile in wild) == is_wild  # the fixed items see only that
            fixed = _fixed_tai(ctx if same else replace(ctx, win_tile=win), opts)
            fixed_totals[is_wild] = fixed
        if is_wild:
            # A drawn wild: any wait, one wild more.
            two = any(c0[k] + k0 >= 2 for k in hand_waits)
            tai = bound(c0, k0 + 1, real_suits, real_honours, held_honours, short0, two)
        elif win < T.NUM_KINDS:
            c = list(c0)
            c[win] += 1
            if win < T.HONOR:
                suits = real_suits if win // 9 in real_suits else {*real_suits, win // 9}
                honours, honours_held = real_honours, held_honours
            else:
                suits, honours = real_suits, True
                honours_held = held_honours if c0[win] else sorted([*held_honours, win])
            short = short0 - (-c0[win] % 3) + (-c[win] % 3)
            tai = bound(c, k0, suits, honours, honours_held, short, c0[win] + k0 >= 2)
        else:
            tai = bound(c0, k0, real_suits, real_honours, held_honours, short0, False)
        out.append(fixed + tai)
    return out


def _lone_wild_discard(ctx: WinContext, opts: Options) -> int:
    """百搭单吊 won on a discard (or robbed kong): the wilds the hand holds, or 0 when
    the win is a self-draw or the hand is no lone-wild wait.  With one wild such a win
    is refused; with more, only readings that do not pair a wild with the winning tile
    count."""
    if ctx.win_type == "self_draw" or not is_lone_wild_ready(ctx.hand, ctx.wild, opts):
        return 0
    return split_wilds(ctx.hand, ctx.wild, opts)[1]


# --- money ------------------------------------------------------------------------


def win_payments(
    winner: int, total: int, opts: Options, *, payer: int | None = None
) -> list[tuple[int, int]]:
    """``(payer, amount)`` for a win worth ``total`` (T): a self-draw (``payer`` None)
    each of the three pays ``T × base``; a discard or robbed kong the ``payer`` alone."""
    if not 0 <= winner < SEATS or total < 1:
        raise ValueError(f"bad win: winner {winner}, T {total}")
    amount = total * opts.base
    if payer is None:
        return [((winner + k) % SEATS, amount) for k in range(1, SEATS)]
    if payer == winner or not 0 <= payer < SEATS:
        raise ValueError(f"bad payer {payer} for winner {winner}")
    return [(payer, amount)]
