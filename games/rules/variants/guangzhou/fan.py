"""广州麻将 fan counting (鸡平胡) and the payments of one win.

Spec: ``../shared/rules/guangzhou.md``.  Pure functions; the Guangzhou variant
(``guangzhou.py``) wires them into the hand and ``evaluate`` reaches
:func:`score` through the registry.

Patterns are data: one :class:`Pattern` per id with a test on a
:class:`Reading` (one way to read the winning tiles); its value comes from the
``fan_values`` house rule.  A win is scored as

* a **special hand** (beyond the cap) when one applies: the largest alone is
  listed and its fan is the total (ties: the first in the spec's table) —
  unless a raised cap lets the count below score more, which is then used;
* otherwise the patterns **within the cap** (``ji_hu`` at 0 when none of them
  applies) plus the **additions**, summed and capped at ``cap`` (爆胡);
* then the **minimum-3 cases** (一炮三响, 杠上开花, 海底捞月, 抢杠): listed at 0,
  the total raised to 3.  With a special hand they are listed only where they
  raise it (a club that lowered a special's fan below 3).

``total`` is that fan; a win is worth ``V = base × 2^total``.  Points the spec
leaves open are in ``games/rules/README.md`` (Guangzhou).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ... import analysis
from ... import tiles as T
from ...model import Score, ScoreItem, WinContext
from ...options import Options

WINDS = tuple(range(T.HONOR, T.HONOR + 4))  # 1z..4z = E S W N
DRAGONS = tuple(range(T.HONOR + 4, T.NUM_KINDS))  # 5z 6z 7z
SEATS = 4
MINIMUM = 3


@dataclass(frozen=True, slots=True)
class Reading:
    """The winning tiles read one way: ``sets`` are ``(kind, tile)`` with kind
    ``chow`` (lowest tile), ``pung`` or ``kong``; ``pair`` is the pair's kind
    (None for seven pairs and thirteen orphans)."""

    ctx: WinContext
    shape: str  # "standard" | "seven_pairs" | "thirteen_orphans"
    sets: tuple[tuple[str, int], ...] = ()
    pair: int | None = None

    @property
    def tiles(self) -> list[int]:
        return [*self.ctx.full_hand, *(t for m in self.ctx.melds for t in m.tiles)]

    def pungs(self, kinds) -> int:
        return sum(1 for k, t in self.sets if k != "chow" and t in kinds)

    @property
    def all_chows(self) -> bool:
        return self.shape == "standard" and all(k == "chow" for k, _ in self.sets)

    @property
    def all_pungs(self) -> bool:
        return self.shape == "standard" and all(k != "chow" for k, _ in self.sets)

    @property
    def suits(self) -> set[int]:
        return {t // 9 for t in self.tiles if T.is_suited(t)}

    @property
    def has_honours(self) -> bool:
        return any(T.is_honor(t) for t in self.tiles)

    def scoring_pair(self) -> bool:
        """A pair that would score as a pung: a dragon, one's seat or the prevailing wind."""
        p, ctx = self.pair, self.ctx
        if p is None:
            return False
        winds = {WINDS[w] for w in (ctx.seat_wind, ctx.round_wind) if w is not None}
        return p in DRAGONS or p in winds


@dataclass(frozen=True, slots=True)
class Pattern:
    id: str
    name_zh: str
    name_en: str
    applies: Callable[[Reading], bool | int]


def _nine_gates(r: Reading) -> bool:
    if r.ctx.melds or len(r.suits) != 1 or r.has_honours:
        return False
    suit = r.suits.pop()
    c = T.counts(r.tiles)[suit * 9 : suit * 9 + 9]
    need = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    return all(c[i] >= need[i] for i in range(9))


def _seat_wind(r: Reading) -> int:
    w = r.ctx.seat_wind
    return 0 if w is None else r.pungs({WINDS[w]})


def _round_wind(r: Reading) -> int:
    w = r.ctx.round_wind
    return 0 if w is None else r.pungs({WINDS[w]})


def _self_drawn(r: Reading) -> bool:
    return r.ctx.win_type == "self_draw"


#: within the cap (ji_hu is listed only when none of the others applies)
WITHIN: list[Pattern] = [
    Pattern(
        "ping_hu",
        "平胡",
        "All chows",
        lambda r: r.all_chows and not r.scoring_pair(),
    ),
    Pattern("dui_dui_hu", "碰碰胡", "All pungs", lambda r: r.all_pungs),
    Pattern(
        "hun_yi_se",
        "混一色",
        "Half flush",
        lambda r: len(r.suits) == 1 and r.has_honours,
    ),
    Pattern(
        "qing_yi_se", "清一色", "Full flush", lambda r: len(r.suits) == 1 and not r.has_honours
    ),
    Pattern("qi_dui", "七对", "Seven pairs", lambda r: r.shape == "seven_pairs"),
    Pattern(
        "xiao_san_yuan",
        "小三元",
        "Little three dragons",
        lambda r: r.pungs(DRAGONS) == 2 and r.pair in DRAGONS,
    ),
]
JI_HU = Pattern("ji_hu", "鸡胡", "Chicken hand", lambda r: True)

#: additions within the cap; the value is how many times the addition counts
ADDITIONS: list[Pattern] = [
    Pattern("zi_mo", "自摸", "Self-drawn", _self_drawn),
    Pattern("men_feng", "门风刻", "Seat wind pung", _seat_wind),
    Pattern("quan_feng", "圈风刻", "Prevailing wind pung", _round_wind),
    Pattern("jian_ke", "三元刻", "Dragon pung", lambda r: r.pungs(DRAGONS)),
]


def _terminals_only(r: Reading) -> bool:
    return all(T.is_terminal(t) for t in r.tiles)


def _terminals_and_honours(r: Reading) -> bool:
    tiles = r.tiles
    return (
        all(T.is_terminal(t) or T.is_honor(t) for t in tiles)
        and any(T.is_honor(t) for t in tiles)
        and any(T.is_terminal(t) for t in tiles)
    )


#: beyond the cap, in the spec's order (the first of the largest is listed)
SPECIAL: list[Pattern] = [
    Pattern(
        "tian_hu",
        "天和",
        "Heavenly hand",
        lambda r: _self_drawn(r) and "dealt_hand" in r.ctx.flags,
    ),
    Pattern(
        "di_hu", "地和", "Earthly hand", lambda r: _self_drawn(r) and "first_draw" in r.ctx.flags
    ),
    Pattern(
        "ren_hu",
        "人和",
        "Human hand",
        lambda r: r.ctx.win_type == "discard" and "ren_hu" in r.ctx.flags,
    ),
    Pattern("shi_san_yao", "十三幺", "Thirteen orphans", lambda r: r.shape == "thirteen_orphans"),
    Pattern("jiu_lian_bao_deng", "九莲宝灯", "Nine gates", _nine_gates),
    Pattern("da_si_xi", "大四喜", "Big four winds", lambda r: r.pungs(WINDS) == 4),
    Pattern(
        "zi_yi_se",
        "字一色",
        "All honours",
        lambda r: all(T.is_honor(t) for t in r.tiles),
    ),
    Pattern(
        "shi_ba_luo_han",
        "十八罗汉",
        "Four kongs",
        lambda r: sum(1 for k, _ in r.sets if k == "kong") == 4,
    ),
    Pattern("qing_yao_jiu", "清幺九", "All terminals", _terminals_only),
    Pattern("da_san_yuan", "大三元", "Big three dragons", lambda r: r.pungs(DRAGONS) == 3),
    Pattern(
        "xiao_si_xi",
        "小四喜",
        "Little four winds",
        lambda r: r.pungs(WINDS) == 3 and r.pair in WINDS,
    ),
    Pattern("hun_yao_jiu", "混幺九", "Terminals and honours", _terminals_and_honours),
]

#: the minimum-3 cases: listed at 0, the total raised to 3
MINIMUM_CASES: list[Pattern] = [
    Pattern(
        "yi_pao_san_xiang",
        "一炮三响",
        "Three win on one discard",
        lambda r: r.ctx.win_type == "discard" and "yi_pao_san_xiang" in r.ctx.flags,
    ),
    Pattern(
        "gang_shang_kai_hua",
        "杠上开花",
        "Win on a kong replacement",
        lambda r: (
            _self_drawn(r)
            and "after_kong" in r.ctx.flags
            and any(m.kind == "gang" for m in r.ctx.melds)
        ),
    ),
    Pattern(
        "hai_di_lao_yue",
        "海底捞月",
        "Win on the last tile",
        lambda r: _self_drawn(r) and "last_tile" in r.ctx.flags,
    ),
    Pattern("qiang_gang", "抢杠", "Robbing a kong", lambda r: r.ctx.win_type == "rob_kong"),
]

SPECIAL_IDS = frozenset(p.id for p in SPECIAL)
MINIMUM_IDS = frozenset(p.id for p in MINIMUM_CASES)


def pattern_names() -> dict[str, dict[str, str]]:
    """Display names of every item id, for the UI."""
    every = (*WITHIN, JI_HU, *ADDITIONS, *SPECIAL, *MINIMUM_CASES)
    return {p.id: {"zh-hans": p.name_zh, "en": p.name_en} for p in every}


# --- readings ----------------------------------------------------------------


def _meld_sets(ctx: WinContext) -> list[tuple[str, int]]:
    kinds = {"chi": "chow", "peng": "pung", "gang": "kong"}
    return [(kinds[m.kind], m.tile) for m in ctx.melds]


def readings(ctx: WinContext, opts: Options) -> list[Reading]:
    """Every way the tiles make a winning shape (empty: no win)."""
    c = T.counts(ctx.full_hand)
    out = []
    melded = _meld_sets(ctx)
    for d in analysis.decompositions(c, 0):
        sets = tuple(melded + [("pung" if g.kind == "pung" else "chow", g.tile) for g in d.sets])
        out.append(Reading(ctx, "standard", sets, d.pair.tile))
    if not ctx.melds:
        if opts.qi_dui and analysis.is_seven_pairs(c, 0):
            out.append(Reading(ctx, "seven_pairs"))
        if analysis.is_thirteen_orphans(c, 0):
            out.append(Reading(ctx, "thirteen_orphans"))
    return out


def _score_reading(r: Reading, opts: Options) -> tuple[list[ScoreItem], int]:
    """The special hand's fan, unless the count within the cap scores more (a raised
    cap can let it)."""
    minimum = [p for p in MINIMUM_CASES if p.applies(r)]
    items, total = _count_within_cap(r, opts, minimum)
    fan = opts.fan_values
    specials = [p for p in SPECIAL if p.applies(r)]
    if not specials:
        return items, total
    best = max(specials, key=lambda p: fan[p.id])  # max keeps the first of a tie
    special_items = [ScoreItem(best.id, fan[best.id])]
    special_total = fan[best.id]
    if minimum and special_total < MINIMUM:
        special_items += [ScoreItem(p.id, 0) for p in minimum]
        special_total = MINIMUM
    if total > special_total:
        return items, total
    return special_items, special_total


def _count_within_cap(
    r: Reading, opts: Options, minimum: list[Pattern]
) -> tuple[list[ScoreItem], int]:
    """The patterns within the cap (``ji_hu`` when none applies) and the additions,
    summed and capped, then raised to 3 by a minimum-3 case."""
    fan = opts.fan_values
    items = [ScoreItem(p.id, fan[p.id]) for p in WITHIN if p.applies(r)]
    if not items:
        items = [ScoreItem(JI_HU.id, fan[JI_HU.id])]
    for p in ADDITIONS:
        n = int(p.applies(r))
        if n:
            items.append(ScoreItem(p.id, n * fan[p.id]))
    total = min(sum(i.value for i in items), opts.cap)
    if minimum:
        items += [ScoreItem(p.id, 0) for p in minimum]
        total = max(total, MINIMUM)
    return items, total


def _legality(ctx: WinContext) -> str | None:
    if ctx.flowers or any(T.is_flower(t) for t in ctx.full_hand):
        return "Guangzhou is played without flowers"
    if ctx.wild is not None:
        return "Guangzhou is played without wild tiles"
    n = len(ctx.full_hand) + 3 * len(ctx.melds)
    if n != 14:
        return f"a winning hand has 14 tiles (a kong counting as 3), got {n}"
    return None


def score(ctx: WinContext, opts: Options) -> Score:
    """Score one Guangzhou win: the reading with the highest total fan.

    ``ctx.flags`` may also hold ``ren_hu`` and ``yi_pao_san_xiang``, which only
    the live table knows (``evaluate`` never sets them)."""
    problem = _legality(ctx)
    if problem:
        return Score(win=False, reason=problem)
    found = readings(ctx, opts)
    if not found:
        shapes = "four sets and a pair"
        if not ctx.melds:
            shapes += ", seven pairs" if opts.qi_dui else ""
            shapes += " or thirteen orphans"
        return Score(win=False, reason=f"not a winning hand: needs {shapes}")
    best = None
    for r in found:
        items, total = _score_reading(r, opts)
        key = (total, sum(i.value for i in items))
        if best is None or key > best[0]:
            best = (key, items, total)
    assert best is not None
    _, items, total = best
    if total < opts.min_fan:
        return Score(
            win=False, reason=f"needs at least {opts.min_fan} fan to win (this hand: {total})"
        )
    return Score(win=True, items=tuple(items), total=total, extra=breakdown(items, total, opts))


def breakdown(items, total: int, opts: Options) -> dict:
    """How ``total`` came about, for the result screen: the plain sum of the items,
    the cap and whether it bit, the special hand and the minimum-3 cases."""
    ids = [i["id"] if isinstance(i, dict) else i.id for i in items]
    values = [i["value"] if isinstance(i, dict) else i.value for i in items]
    special = next((i for i in ids if i in SPECIAL_IDS), None)
    fan_sum = sum(values)
    return {
        "fan_sum": fan_sum,
        "cap": opts.cap,
        "capped": special is None and fan_sum > opts.cap,
        "special": special,
        "minimum": [i for i in ids if i in MINIMUM_IDS],
        "fan": total,
        "multiplier": 2**total,
    }


# --- money ---------------------------------------------------------------------


def win_value(total: int, opts: Options) -> int:
    """V = base × 2^fan."""
    return opts.base * 2**total


@dataclass(frozen=True, slots=True)
class Payment:
    """One transfer of a win: ``payer`` pays ``amount``; ``shares`` are the seats
    whose share of V it covers (a liable player covers all three); ``reason`` is
    ``hu`` or the 包 rule that made ``payer`` liable."""

    payer: int
    amount: int
    shares: tuple[int, ...]
    reason: str = "hu"


def win_payments(
    winner: int,
    value: int,
    *,
    discarder: int | None = None,
    liable: int | None = None,
    reason: str = "hu",
) -> tuple[Payment, ...]:
    """Who pays ``winner`` what for a win worth ``value`` (V).

    * Discard win (``discarder``): the discarder pays V (``reason`` names
      一炮三响 where it applied).
    * Self-draw: each of the three pays V; with ``liable`` that seat pays all
      three shares (``reason``: the 包 rule; 抢杠 is paid this way by the robbed).
    """
    if not 0 <= winner < SEATS or value < 1:
        raise ValueError(f"bad win: winner {winner}, V={value}")
    if discarder is not None:
        if liable is not None:
            raise ValueError("a discard win has no liable player besides the discarder")
        if discarder == winner or not 0 <= discarder < SEATS:
            raise ValueError(f"bad discarder {discarder} for winner {winner}")
        return (Payment(discarder, value, (discarder,), reason),)
    others = tuple((winner + k) % SEATS for k in range(1, SEATS))
    if liable is not None:
        if liable == winner or not 0 <= liable < SEATS:
            raise ValueError(f"bad liable seat {liable} for winner {winner}")
        return (Payment(liable, value * len(others), others, reason),)
    return tuple(Payment(seat, value, (seat,)) for seat in others)
