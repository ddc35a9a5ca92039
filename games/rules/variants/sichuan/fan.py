"""四川麻将 fan (成都计番): legality, the pattern table and the best reading.

Spec: ``../shared/rules/sichuan.md`` ("Winning hands", "Fan (成都计番)").

A win scores exactly **one** base pattern plus every addition that holds.
The tables below are data: one :class:`Pattern` per id, whose ``applies``
looks at a :class:`Reading` (one way of splitting the hand into sets and a
pair, or the seven-pairs reading).  :func:`score` tries every reading and
every base pattern that applies to it and keeps the best total.

Readings of points the spec leaves open (also recorded in the project docs):

* **根 (gen)** is reported as ONE item whose value is the number of 根, e.g.
  ``{"id": "gen", "value": 2}``.  A 根 is any kind of which all four tiles are
  in the final hand: a kong meld, four concealed tiles (the winning tile
  included), or a pung meld plus the fourth tile held.  龙七对 / 清龙七对 absorb
  one 根 (their quad is what makes them 龙).
* **天胡 / 地胡** are base patterns like the others, so the additions still
  apply to them (根, 自摸加番, ...).  Both need a self-draw: ``tian_hu`` is the
  flag ``dealt_hand`` (dealer's dealt 14), ``di_hu`` the flag ``first_draw``
  (a non-dealer's first drawn tile).  With another win type the flag is
  ignored.  Because they do not absorb a 根, a 清龙七对 hand won as 天胡 scores
  天胡 6 + every 根.
* **Flags that do not fit the win type** are ignored rather than refused
  (``after_kong`` only counts on a self-draw, ``kong_discard`` only on a
  discard win, ``last_tile`` only on a self-draw: 海底捞月 is a self-draw).
* **Choosing the reading.**  Over every (reading, base pattern) pair the one
  with the highest capped total wins; ties go to the higher uncapped total,
  then the higher base fan, then the pattern listed later in the table.  So a
  清七对 hand with a quad is 清龙七对 (6) rather than 清七对 + 根 (also 6).
* **七对** needs no melds at all (a declared concealed kong is a meld too).
* ``Score.extra["fan_uncapped"]`` is the sum before ``fan_cap``; ``total`` is
  ``min(sum, fan_cap)`` (or the sum when ``fan_cap`` is null).  Item values are
  always before the cap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from ... import analysis
from ... import tiles as T
from ...model import Meld, Score, ScoreItem, WinContext
from ...options import Options

SUIT_LETTERS = "mps"


@dataclass(frozen=True, slots=True)
class Reading:
    """One way of reading a legal winning hand.

    ``sets`` holds ``("pung" | "chow", lowest tile)`` for the melds and the
    concealed sets (a kong is a pung here); it is empty for seven pairs.
    ``absorbed`` is how many 根 the chosen base pattern has already counted.
    """

    ctx: WinContext
    opts: Options
    tiles: tuple[int, ...]  # every tile of the hand: concealed, winning tile, melds
    sets: tuple[tuple[str, int], ...]
    pair: int | None
    seven_pairs: bool
    quads: int
    absorbed: int = 0

    @property
    def suits(self) -> set[int]:
        return {t // 9 for t in self.tiles}


@dataclass(frozen=True, slots=True)
class Pattern:
    """One scoring pattern.  ``applies`` returns a bool, or a count for 根;
    the item's value is ``fan × applies(reading)``."""

    id: str
    name_zh: str
    name_en: str
    fan: int
    applies: Callable[[Reading], bool | int]
    absorbs_gen: int = 0  # 龙七对: its quad is not counted again as 根

    def value(self, r: Reading) -> int:
        return self.fan * int(self.applies(r))


# --- shape predicates -----------------------------------------------------


def _one_suit(r: Reading) -> bool:
    return len(r.suits) == 1


def _all_pungs(r: Reading) -> bool:
    return not r.seven_pairs and all(kind == "pung" for kind, _ in r.sets)


def _has_terminal(kind: str, tile: int) -> bool:
    if kind == "chow":
        return tile % 9 in (0, 6)  # 123 or 789
    return tile % 9 in (0, 8)


def _terminals_everywhere(r: Reading) -> bool:
    if r.seven_pairs or r.pair is None:
        return False
    return _has_terminal("pair", r.pair) and all(_has_terminal(k, t) for k, t in r.sets)


def _all_258(r: Reading) -> bool:
    return all(t % 9 in (1, 4, 7) for t in r.tiles)


def _dragon_pairs(r: Reading) -> bool:
    return r.seven_pairs and r.quads >= 1


def _self_draw_with(flag: str) -> Callable[[Reading], bool]:
    return lambda r: r.ctx.win_type == "self_draw" and flag in r.ctx.flags


# --- the tables (sichuan.md, 成都计番) --------------------------------------

BASE_PATTERNS: list[Pattern] = [
    Pattern("ping_hu", "平胡", "Plain win", 1, lambda r: True),
    Pattern("dui_dui_hu", "对对胡", "All pungs", 2, _all_pungs),
    Pattern("qing_yi_se", "清一色", "Full flush", 3, _one_suit),
    Pattern("dai_yao_jiu", "带幺九", "Terminals in every set", 3, _terminals_everywhere),
    Pattern("qi_dui", "七对", "Seven pairs", 3, lambda r: r.seven_pairs),
    Pattern(
        "qing_dui", "清对", "Full-flush all pungs", 4, lambda r: _one_suit(r) and _all_pungs(r)
    ),
    Pattern("jiang_dui", "将对", "All 2-5-8 pungs", 4, lambda r: _all_pungs(r) and _all_258(r)),
    Pattern("long_qi_dui", "龙七对", "Dragon seven pairs", 5, _dragon_pairs, absorbs_gen=1),
    Pattern(
        "qing_qi_dui",
        "清七对",
        "Full-flush seven pairs",
        5,
        lambda r: _one_suit(r) and r.seven_pairs,
    ),
    Pattern(
        "qing_yao_jiu",
        "清幺九",
        "Full-flush terminals in every set",
        5,
        lambda r: _one_suit(r) and _terminals_everywhere(r),
    ),
    Pattern("tian_hu", "天胡", "Heavenly hand", 6, _self_draw_with("dealt_hand")),
    Pattern("di_hu", "地胡", "Earthly hand", 6, _self_draw_with("first_draw")),
    Pattern(
        "qing_long_qi_dui",
        "清龙七对",
        "Full-flush dragon seven pairs",
        6,
        lambda r: _one_suit(r) and _dragon_pairs(r),
        absorbs_gen=1,
    ),
]

ADDITIONS: list[Pattern] = [
    Pattern("gen", "根", "Root (four of a kind)", 1, lambda r: r.quads - r.absorbed),
    Pattern(
        "gang_shang_hua",
        "杠上花",
        "Win on a kong replacement tile",
        1,
        _self_draw_with("after_kong"),
    ),
    Pattern(
        "gang_shang_pao",
        "杠上炮",
        "Win on a discard made after a kong",
        1,
        lambda r: r.ctx.win_type == "discard" and "kong_discard" in r.ctx.flags,
    ),
    Pattern(
        "qiang_gang_hu", "抢杠胡", "Robbing the kong", 1, lambda r: r.ctx.win_type == "rob_kong"
    ),
    Pattern(
        "hai_di_lao_yue",
        "海底捞月",
        "Self-draw on the last tile",
        1,
        lambda r: r.opts.hai_di and _self_draw_with("last_tile")(r),
    ),
    Pattern(
        "jin_gou_diao",
        "金钩钓",
        "Golden hook (single tile left)",
        1,
        lambda r: r.opts.jin_gou_diao and len(r.ctx.hand) == 1 and len(r.ctx.melds) == 4,
    ),
    Pattern(
        "zi_mo_jia_fan",
        "自摸加番",
        "Self-draw bonus fan",
        1,
        lambda r: r.opts.self_draw_bonus == "fan" and r.ctx.win_type == "self_draw",
    ),
]

PATTERNS: list[Pattern] = BASE_PATTERNS + ADDITIONS


def pattern_names() -> dict[str, dict[str, str]]:
    """Display names of every pattern id, for the UI."""
    return {p.id: {"zh-hans": p.name_zh, "en": p.name_en} for p in PATTERNS}


# --- legality -------------------------------------------------------------


def _illegal(reason: str) -> Score:
    return Score(win=False, reason=reason)


def _meld_problem(meld: Meld) -> str | None:
    if meld.kind == "chi":
        return f"no chow (吃) in Sichuan: meld {T.fmt(meld.tiles)} is a chow"
    size = {"peng": 3, "gang": 4}.get(meld.kind)
    if size is None:
        return f"unknown meld kind {meld.kind!r}"
    if len(meld.tiles) != size or len(set(meld.tiles)) != 1:
        return f"a {meld.kind} must be {size} equal tiles, got {T.fmt(meld.tiles)}"
    return None


def _legality(ctx: WinContext, all_tiles: Sequence[int]) -> str | None:
    """Why the tiles cannot be a Sichuan win (shape aside), or None."""
    for meld in ctx.melds:
        problem = _meld_problem(meld)
        if problem:
            return problem
    n = len(ctx.full_hand) + 3 * len(ctx.melds)
    if n != 14:
        return f"a winning hand has 14 tiles (a kong counting as 3), got {n}"
    odd = sorted({t for t in all_tiles if not T.is_suited(t)})
    if odd:
        return f"Sichuan uses only m/p/s tiles, not {T.fmt(odd)}"
    c = T.counts(all_tiles)
    over = [t for t in range(T.NUM_KINDS) if c[t] > 4]
    if over:
        return f"more than four of {T.fmt(over)}"
    suits = {t // 9 for t in all_tiles}
    if ctx.missing_suit is not None:
        if ctx.missing_suit in suits:
            letter = SUIT_LETTERS[ctx.missing_suit]
            return f"holds tiles of the declared missing suit {letter} (定缺)"
    elif len(suits) == 3:
        return "holds all three suits: a Sichuan win must lack one suit (缺一门)"
    return None


def _all_tiles(ctx: WinContext) -> tuple[int, ...]:
    return (*ctx.full_hand, *(t for m in ctx.melds for t in m.tiles))


def _readings(ctx: WinContext, opts: Options, all_tiles: tuple[int, ...]) -> list[Reading]:
    counts = T.counts(all_tiles)
    quads = sum(1 for n in counts if n == 4)
    concealed = T.counts(ctx.full_hand)
    meld_sets = tuple(("pung", m.tile) for m in ctx.melds)
    out = [
        Reading(
            ctx,
            opts,
            all_tiles,
            meld_sets + tuple((g.kind, g.tile) for g in d.sets),
            d.pair.tile,
            False,
            quads,
        )
        for d in analysis.decompositions(concealed, 0)
    ]
    if not ctx.melds and analysis.is_seven_pairs(concealed, 0):
        out.append(Reading(ctx, opts, all_tiles, (), None, True, quads))
    return out


# --- scoring --------------------------------------------------------------


def _capped(fan: int, opts: Options) -> int:
    return fan if opts.fan_cap is None else min(fan, opts.fan_cap)


def score(ctx: WinContext, opts: Options) -> Score:
    """Score one Sichuan win: legality, then the best (reading, base pattern)."""
    all_tiles = _all_tiles(ctx)
    problem = _legality(ctx, all_tiles)
    if problem:
        return _illegal(problem)
    readings = _readings(ctx, opts, all_tiles)
    if not readings:
        return _illegal(
            "not a winning hand: needs four sets and a pair, or seven pairs with no melds"
        )

    best_key: tuple[int, ...] | None = None
    best_items: list[ScoreItem] = []
    for reading in readings:
        for index, base in enumerate(BASE_PATTERNS):
            if not base.applies(reading):
                continue
            r = replace(reading, absorbed=base.absorbs_gen)
            items = [ScoreItem(base.id, base.fan)]
            items += [ScoreItem(p.id, v) for p in ADDITIONS if (v := p.value(r)) > 0]
            uncapped = sum(i.value for i in items)
            key = (_capped(uncapped, opts), uncapped, base.fan, index)
            if best_key is None or key > best_key:
                best_key, best_items = key, items
    assert best_key is not None  # ping_hu applies to every reading
    return Score(
        win=True,
        items=tuple(best_items),
        total=best_key[0],
        extra={"fan_uncapped": best_key[1]},
    )


def max_fan_for_waits(
    hand: Iterable[int],
    melds: Sequence[Meld],
    missing_suit: int | None,
    opts: Options,
    which: str = "max",
) -> int | None:
    """查大叫: the capped fan of the largest (``which="max"``) or smallest
    (``"min"``) win the ready hand could make, or None if it is not ready.

    Every waiting kind is scored as a discard win with no flags; kinds the
    player already holds all four of (hand + melds) cannot arrive and are
    skipped, as are waits that would not be a legal win (e.g. the 定缺 suit).
    """
    if which not in ("max", "min"):
        raise ValueError(f"which must be 'max' or 'min', got {which!r}")
    hand = tuple(hand)
    melds = tuple(melds)
    held = T.counts((*hand, *(t for m in melds for t in m.tiles)))
    concealed = T.counts(hand)
    fans = []
    for tile in analysis.waits(concealed, 0, seven_pairs=not melds):
        if held[tile] >= 4:
            continue
        ctx = WinContext(
            hand=hand, melds=melds, win_tile=tile, win_type="discard", missing_suit=missing_suit
        )
        result = score(ctx, opts)
        if result.win:
            fans.append(result.total)
    if not fans:
        return None
    return max(fans) if which == "max" else min(fans)
