"""宁波麻将 scoring: the 台 of one win and its payments.

Spec: ``../shared/rules/ningbo.md``.  Pure functions; the Ningbo variant object
(``variant.py``) calls them and ``evaluate`` reaches :func:`score` through the
variant registry.  The 百搭 are ``wilds.py``, the readings of a win ``readings.py``,
and the bots' quick question (enough 台?) ``bounds.py``.

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

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from ... import tiles as T
from ...model import Score, ScoreItem, WinContext
from ...options import Options
from .options import NINGBO_OPTIONS, TAI_DEFAULTS
from .readings import Reading, is_lone_wild_ready, win_readings
from .wilds import PLANTS, SEASONS, split_wilds, split_wilds_by, wild_kinds

__all__ = [
    "ITEMS",
    "NINGBO_OPTIONS",
    "pattern_names",
    "score",
    "win_payments",
]

DRAGONS = frozenset(range(T.HONOR + 4, T.NUM_KINDS))
SEATS = 4


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
    return split_wilds_by(r.ctx.full_hand, r.ctx.wild, r.opts.get("wild_kinds"))[1]


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


def tai_of(r: Reading, fixed: int) -> int:
    """The Σ台 of :func:`_items`, counted straight from the reading (``fixed``: the 台
    of the context's own items, :func:`fixed_tai`).  The scorer weighs every reading
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


def fixed_tai(ctx: WinContext, opts: Options) -> int:
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


# --- legality -------------------------------------------------------------------


def legality(ctx: WinContext, opts: Options) -> str | None:
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
    problem = legality(ctx, opts)
    if problem:
        return Score(win=False, reason=problem)
    readings = list(win_readings(ctx, opts))
    if not readings:
        shapes = "four sets and a pair"
        if opts.qi_dui and not ctx.melds:
            shapes += ", or seven pairs"
        return Score(win=False, reason=f"not a winning hand: needs {shapes}")
    lone = lone_wild_discard(ctx, opts)
    if lone == 1:
        allowed = []  # 百搭单吊 with one wild: self-draw only
    else:
        allowed = [r for r in readings if not (lone and r.wild_pair)]
    fixed = fixed_tai(ctx, opts)
    best_reading = None
    best = -1
    for reading in allowed or readings:
        tai = tai_of(reading, fixed)
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


def lone_wild_discard(ctx: WinContext, opts: Options) -> int:
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
