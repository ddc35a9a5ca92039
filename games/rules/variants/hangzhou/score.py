"""杭州麻将 scoring: the 财神 wilds, the multipliers of one win and its payments.

Spec: ``../shared/rules/hangzhou.md``.  Pure functions; the Hangzhou variant
object (``hangzhou.py``) calls them and ``evaluate`` reaches :func:`score`
through the variant registry.

The 财神 (``wild_kinds``, ``stand_in``, ``split_wilds``).  The indicator is out
of play; the other copies of its kind are wild.  While ``bai_ban_stands_in``
holds, every 白板 is an ordinary tile *of the indicator's kind*; when the
indicator is 白板 itself, the other 白板 are the wilds and nothing stands in.

The multipliers are data: one :class:`Pattern` per id with its value on a
:class:`Reading` and the ids it replaces.  The win value is the product of the
items; a win with none lists ``ping_hu`` ×1.  Points the spec leaves open:

* **Repeated 财飘** is one item whose value is ``2^n`` for ``n`` consecutive
  财飘 (``WinContext.cai_piao``), so that ``total`` stays the product of the
  item values (``bao_tou`` 2 × ``cai_piao`` 2^n).  ``gang_piao`` is ``8 ×
  2^(n-1)``.  A 财飘 count on a win that is not 暴头 adds nothing (财飘 is ×2
  *on top of* 暴头).
* **杠开** needs a self-draw, the flag ``after_kong`` and a kong among the
  melds; a flag that does not fit is ignored.  For 杠飘 in the order "kong
  first, then 财飘" the engine passes ``after_kong`` on the 财飘 win too.
* **kong_chain_doubles** reads ``WinContext.kong_chain`` (kongs in the
  unbroken chain of replacements; 0, as ``evaluate`` leaves it, counts as 1):
  the 杠 item doubles per kong after the first.
* **Seven pairs**: wilds may stand for any tile, so a wild can complete a set
  of four (豪华).  A pair of wilds is a pair.  With ``qi_dui_bao_tou`` a seven
  pairs self-drawn onto a lone wild is 暴头 in every respect (财飘 stacks).
* **有财必拷** (``you_cai_bi_kao``): a hand holding a wild (the winning tile
  included) whose best reading is plain ``ping_hu`` is not a win.
* **The best reading** is the one with the highest total; on a tie the
  four-sets reading is listed rather than seven pairs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement
from math import prod

from ... import analysis
from ... import tiles as T
from ...model import Meld, Score, ScoreItem, WinContext
from ...options import Options
from .options import HANGZHOU_OPTIONS

__all__ = [
    "BAI_BAN",
    "HANGZHOU_OPTIONS",
    "PATTERNS",
    "PING_HU",
    "Payment",
    "cheng_bao_payer",
    "escape_penalty",
    "is_bao_tou_ready",
    "pattern_names",
    "score",
    "split_wilds",
    "stand_in",
    "streak_factor",
    "wild_kinds",
    "win_payments",
    "win_value",
]

BAI_BAN = T.parse_one("5z")
SEATS = 4
MAX_WILDS = 3  # the indicator is out of play: three copies of its kind are left


# --- the 财神 ---------------------------------------------------------------


def wild_kinds(indicator: int | None, opts: Options) -> frozenset[int]:
    """The wild kind: the indicator's own kind (its three other copies)."""
    return frozenset() if indicator is None else frozenset({indicator})


def stand_in(indicator: int | None, opts: Options) -> dict[int, int]:
    """Faces read as another kind: ``{白板: indicator}`` while 白板 stands in."""
    if indicator is None or indicator == BAI_BAN or not opts.bai_ban_stands_in:
        return {}
    return {BAI_BAN: indicator}


def split_wilds(
    tiles: Iterable[int], indicator: int | None, opts: Options
) -> tuple[list[int], int]:
    """A hand as :mod:`analysis` takes it: the count vector of its ordinary tiles
    (a standing-in 白板 counted as the indicator's kind) and its number of wilds."""
    wild = wild_kinds(indicator, opts)
    read_as = stand_in(indicator, opts)
    c = [0] * T.NUM_KINDS
    wilds = 0
    for t in tiles:
        if t in wild:
            wilds += 1
        else:
            c[read_as.get(t, t)] += 1
    return c, wilds


def is_bao_tou_ready(tiles: Iterable[int], indicator: int | None, opts: Options) -> bool:
    """暴头 ready: the concealed ``3n + 1`` tiles are complete sets plus one lone
    wild, so any drawn tile wins.  (After a 财飘 discard the hand is this.)"""
    c, wilds = split_wilds(tiles, indicator, opts)
    if not wilds or (sum(c) + wilds) % 3 != 1:
        return False
    # The tiles minus one wild are sets alone exactly when, given one wild
    # more, they can be read with the two spare wilds as the pair.
    return any(d.pair.tile is None for d in analysis.decompositions(c, wilds + 1))


# --- readings and patterns --------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """One way of reading a legal winning hand, as far as the multipliers care.

    ``quads`` counts the sets of four equal tiles of a seven-pairs reading (a
    wild may stand in); ``bao_tou`` is 暴头 (a self-draw onto a lone wild).
    """

    ctx: WinContext
    opts: Options
    seven_pairs: bool
    quads: int
    bao_tou: bool

    @property
    def piao(self) -> int:
        """Consecutive 财飘 that count: only on top of 暴头."""
        return self.ctx.cai_piao if self.bao_tou else 0

    @property
    def kong_win(self) -> int:
        """0, or the 杠 factor of a self-draw on a kong replacement (kong chains)."""
        ctx = self.ctx
        if not (
            ctx.win_type == "self_draw"
            and "after_kong" in ctx.flags
            and any(m.kind == "gang" for m in ctx.melds)
        ):
            return 0
        if not self.opts.kong_chain_doubles:
            return 1
        return 2 ** (max(1, ctx.kong_chain) - 1)


@dataclass(frozen=True, slots=True)
class Pattern:
    """One multiplier: ``value(reading)`` is its factor, 0 where it does not apply.
    An applying pattern removes the applying patterns it ``replaces``."""

    id: str
    name_zh: str
    name_en: str
    value: Callable[[Reading], int]
    replaces: tuple[str, ...] = ()


def _if(condition: bool, value: int) -> int:
    return value if condition else 0


PATTERNS: list[Pattern] = [
    Pattern("qi_dui", "七对", "Seven pairs", lambda r: _if(r.seven_pairs, 2)),
    Pattern(
        "hao_hua_qi_dui",
        "豪华七对",
        "Luxury seven pairs",
        lambda r: _if(r.seven_pairs and r.quads >= 1, 4),
        replaces=("qi_dui",),
    ),
    Pattern(
        "shuang_hao_hua_qi_dui",
        "两豪华七对",
        "Double luxury seven pairs",
        lambda r: _if(r.seven_pairs and r.quads >= 2, 8),
        replaces=("qi_dui", "hao_hua_qi_dui"),
    ),
    Pattern(
        "san_hao_hua_qi_dui",
        "三豪华七对",
        "Triple luxury seven pairs",
        lambda r: _if(r.seven_pairs and r.quads >= 3, 16),
        replaces=("qi_dui", "hao_hua_qi_dui", "shuang_hao_hua_qi_dui"),
    ),
    Pattern("bao_tou", "暴头", "Bao tou (lone wild)", lambda r: _if(r.bao_tou, 2)),
    Pattern("cai_piao", "财飘", "Cai piao (wild thrown)", lambda r: _if(r.piao > 0, 2**r.piao)),
    Pattern("gang_kai", "杠开", "Win on a kong tile", lambda r: 2 * r.kong_win),
    Pattern(
        "gang_bao",
        "杠暴",
        "Bao tou on a kong tile",
        lambda r: _if(r.bao_tou, 4 * r.kong_win),
        replaces=("gang_kai", "bao_tou"),
    ),
    Pattern(
        "gang_piao",
        "杠飘",
        "Cai piao with a kong tile",
        lambda r: _if(r.piao > 0, 8 * 2 ** (r.piao - 1) * r.kong_win),
        replaces=("gang_kai", "gang_bao", "bao_tou", "cai_piao"),
    ),
]

PING_HU = Pattern("ping_hu", "平胡", "Plain win", lambda r: 1)


def pattern_names() -> dict[str, dict[str, str]]:
    """Display names of every item id, for the UI."""
    return {p.id: {"zh-hans": p.name_zh, "en": p.name_en} for p in (*PATTERNS, PING_HU)}


def _items(reading: Reading) -> list[ScoreItem]:
    applying = [(p, v) for p in PATTERNS if (v := p.value(reading)) > 0]
    replaced = {i for p, _ in applying for i in p.replaces}
    items = [ScoreItem(p.id, v) for p, v in applying if p.id not in replaced]
    return items or [ScoreItem(PING_HU.id, 1)]


# --- legality ---------------------------------------------------------------


def _meld_problem(meld: Meld, wild: frozenset[int], read_as: dict[int, int]) -> str | None:
    shown = T.fmt(meld.tiles)
    if any(t in wild for t in meld.tiles):
        return f"a wild (财神) cannot be used in a chow, pung or kong: meld {shown}"
    tiles = sorted(read_as.get(t, t) for t in meld.tiles)
    if meld.kind == "chi":
        if len(tiles) == 3 and T.is_suited(tiles[0]) and tiles[0] // 9 == tiles[2] // 9:
            if tiles == [tiles[0], tiles[0] + 1, tiles[0] + 2]:
                return None
        return f"a chi is three consecutive tiles of one suit, got {shown}"
    size = {"peng": 3, "gang": 4}.get(meld.kind)
    if size is None:
        return f"unknown meld kind {meld.kind!r}"
    if len(tiles) != size or len(set(tiles)) != 1:
        return f"a {meld.kind} must be {size} equal tiles, got {shown}"
    return None


def _legality(ctx: WinContext, opts: Options) -> str | None:
    """Why the tiles cannot be a Hangzhou win (shape aside), or None."""
    if ctx.flowers:
        return "Hangzhou is played without flowers"
    every = (*ctx.full_hand, *(t for m in ctx.melds for t in m.tiles))
    if any(T.is_flower(t) for t in every):
        return "Hangzhou is played without flowers"
    wild = wild_kinds(ctx.wild, opts)
    read_as = stand_in(ctx.wild, opts)
    for meld in ctx.melds:
        problem = _meld_problem(meld, wild, read_as)
        if problem:
            return problem
    n = len(ctx.full_hand) + 3 * len(ctx.melds)
    if n != 14:
        return f"a winning hand has 14 tiles (a kong counting as 3), got {n}"
    c = T.counts(every)
    over = [t for t in range(T.NUM_KINDS) if c[t] > 4]
    if over:
        return f"more than four of {T.fmt(over)}"
    if ctx.wild is not None and c[ctx.wild] > MAX_WILDS:
        return f"only three 财神 are in play (the indicator {T.to_str(ctx.wild)} is out)"
    if ctx.win_type != "self_draw" and ctx.win_tile in wild:
        return "a discarded wild (财神) cannot be won on"
    return None


# --- readings ----------------------------------------------------------------

_FRESH = -1  # a kind no real tile has: a pair (or four) made of wilds alone


def _seven_pairs_readings(ctx: WinContext, opts: Options) -> set[tuple[int, bool]]:
    """Every ``(quads, bao_tou)`` of the hand read as seven pairs.

    Each wild is given a kind (one held, or a kind of wilds alone); a reading
    needs every kind even.  暴头: the tiles before the draw were six pairs and a
    lone wild, i.e. a wild of the hand takes the drawn tile's kind (a drawn
    wild: some kind it shares with a wild of the hand).
    """
    if ctx.melds or not opts.qi_dui:
        return set()
    c, wilds = split_wilds(ctx.full_hand, ctx.wild, opts)
    if not analysis.is_seven_pairs(c, wilds):
        return set()
    drawn_wild = ctx.win_tile in wild_kinds(ctx.wild, opts)
    hand_wilds = wilds - drawn_wild
    kinds = [k for k in range(T.NUM_KINDS) if c[k]] + [_FRESH]
    bao_possible = opts.qi_dui_bao_tou and ctx.win_type == "self_draw"
    drawn_kind = stand_in(ctx.wild, opts).get(ctx.win_tile, ctx.win_tile)
    found: set[tuple[int, bool]] = set()
    for picks in combinations_with_replacement(kinds, hand_wilds):
        for drawn in kinds if drawn_wild else [None]:
            n = Counter({k: c[k] for k in kinds if k != _FRESH})
            n.update(picks)
            if drawn is not None:
                n[drawn] += 1
            if any(v % 2 for v in n.values()):
                continue
            quads = sum(v // 4 for v in n.values())
            found.add((quads, bao_possible and (drawn if drawn_wild else drawn_kind) in picks))
    return found


def _readings(ctx: WinContext, opts: Options) -> list[Reading]:
    out = []
    c, wilds = split_wilds(ctx.full_hand, ctx.wild, opts)
    if analysis.is_standard_win(c, wilds):
        bao = ctx.win_type == "self_draw" and is_bao_tou_ready(ctx.hand, ctx.wild, opts)
        out.append(Reading(ctx, opts, False, 0, bao))
    out += [
        Reading(ctx, opts, True, quads, bao)
        for quads, bao in sorted(_seven_pairs_readings(ctx, opts))
    ]
    return out


# --- scoring -----------------------------------------------------------------


def score(ctx: WinContext, opts: Options) -> Score:
    """Score one Hangzhou win: legality, then the reading with the highest product.

    ``ctx.wild`` is the indicator; ``ctx.cai_piao`` the consecutive 财飘 before
    this win.  ``total`` is the product of the item values (the win value W is
    ``base × total``, see :func:`win_value`).  On the dealer's dealt 14
    (``dealt_hand``) any of the tiles may be the drawn one: the one that scores
    most is taken, whatever order the tiles were given in.
    """
    first = _score_drawn(ctx, opts)
    if not (ctx.win_type == "self_draw" and "dealt_hand" in ctx.flags):
        return first
    best = first
    tiles = ctx.full_hand
    for tile in sorted(set(tiles)):
        hand = list(tiles)
        hand.remove(tile)
        other = _score_drawn(replace(ctx, hand=tuple(hand), win_tile=tile), opts)
        if other.win and (not best.win or other.total > best.total):
            best = other
    return best


def _score_drawn(ctx: WinContext, opts: Options) -> Score:
    """:func:`score` with ``ctx.win_tile`` taken as the tile drawn."""
    problem = _legality(ctx, opts)
    if problem:
        return Score(win=False, reason=problem)
    readings = _readings(ctx, opts)
    if not readings:
        shapes = "four sets and a pair"
        if opts.qi_dui and not ctx.melds:
            shapes += ", or seven pairs"
        return Score(win=False, reason=f"not a winning hand: needs {shapes}")
    best: tuple[int, bool] | None = None
    best_items: list[ScoreItem] = []
    for reading in readings:
        items = _items(reading)
        key = (prod(i.value for i in items), not reading.seven_pairs)
        if best is None or key > best:
            best, best_items = key, items
    assert best is not None
    if opts.you_cai_bi_kao and best_items[0].id == PING_HU.id:
        if split_wilds(ctx.full_hand, ctx.wild, opts)[1]:
            return Score(
                win=False,
                reason="有财必拷: a hand holding a wild (财神) cannot win plain; it needs 暴头 "
                "or a multiplier",
            )
    return Score(win=True, items=tuple(best_items), total=best[0])


# --- money ---------------------------------------------------------------------


def win_value(total: int, opts: Options) -> int:
    """W: the base times the product of the multipliers."""
    return opts.base * total


def streak_factor(streak: int, opts: Options) -> int:
    """D for a dealer in the ``streak``-th hand as dealer (1 = 平庄).

    ``by_streak``: 2, 4, then 8 from the third hand on, never above
    ``max_streak_factor``; ``fixed``: always ``max_streak_factor``.
    """
    if streak < 1:
        raise ValueError(f"a dealer streak starts at 1, got {streak}")
    if opts.streak_factor == "fixed":
        return opts.max_streak_factor
    return min(2 ** min(streak, 3), opts.max_streak_factor)


def escape_penalty(opts: Options, *, after_wild: bool) -> int:
    """What a leaver loses: ``escape_pay × base``, or ``escape_pay_after_wild ×
    base`` between someone's wild discard and that player's next draw."""
    return opts.base * (opts.escape_pay_after_wild if after_wild else opts.escape_pay)


def cheng_bao_payer(winner: int, claims_from: Sequence[int], opts: Options) -> int | None:
    """承包: the seat liable for a self-draw, or None.

    ``claims_from[s]`` is how many of seat ``s``'s discards the winner chowed or
    punged this hand (a kong claimed from a discard does not count).  A seat
    reaching ``cheng_bao_claims`` is liable; if several do (a low house rule),
    the one claimed from most, then the first in turn order after the winner.
    """
    if len(claims_from) != SEATS:
        raise ValueError(f"claims_from has one count per seat, got {len(claims_from)}")
    order = [(winner + k) % SEATS for k in range(1, SEATS)]
    liable = [s for s in order if claims_from[s] >= opts.cheng_bao_claims]
    if not liable:
        return None
    return max(liable, key=lambda s: (claims_from[s], -order.index(s)))


@dataclass(frozen=True, slots=True)
class Payment:
    """One payer's transfer to the winner.

    ``shares`` says how ``W`` became the amount: ``(seat, factor)`` per share
    paid, ``amount = W × Σ factor``.  A payer pays their own share, or under
    承包 (``reason="cheng_bao"``) the shares of all three.
    """

    payer: int
    amount: int
    shares: tuple[tuple[int, int], ...]
    reason: str = "hu"

    def to_json(self) -> dict:
        return {
            "payer": self.payer,
            "amount": self.amount,
            "shares": [list(s) for s in self.shares],
            "reason": self.reason,
        }


def win_payments(
    winner: int,
    dealer: int,
    value: int,
    factor: int,
    *,
    discarder: int | None = None,
    liable: int | None = None,
) -> tuple[Payment, ...]:
    """Who pays the winner what, for a win worth ``value`` (W) with streak factor
    ``factor`` (D).

    * Self-draw (``discarder`` None): each other seat pays ``W``, and ``W × D``
      where the dealer is involved (the dealer won, or the dealer pays).
    * Discard win: the discarder alone pays ``W × D`` (only dealer ↔ non-dealer).
    * 承包 (``liable``, self-draws only): that seat pays every share.

    Raises ``ValueError`` for a combination the rules never produce.
    """
    for name, seat in (("winner", winner), ("dealer", dealer)):
        if not 0 <= seat < SEATS:
            raise ValueError(f"{name} must be a seat 0..3, got {seat}")
    if value < 1 or factor < 1:
        raise ValueError(f"W and D are positive, got W={value}, D={factor}")
    if discarder is not None:
        if liable is not None:
            raise ValueError("承包 applies to self-draws only")
        if discarder == winner or not 0 <= discarder < SEATS:
            raise ValueError(f"bad discarder {discarder} for winner {winner}")
        if dealer not in (winner, discarder):
            raise ValueError("two non-dealers never win on each other's discards")
        return (Payment(discarder, value * factor, ((discarder, factor),)),)
    shares = tuple(
        (seat, factor if dealer in (seat, winner) else 1)
        for seat in ((winner + k) % SEATS for k in range(1, SEATS))
    )
    if liable is not None:
        if liable == winner or not 0 <= liable < SEATS:
            raise ValueError(f"bad liable seat {liable} for winner {winner}")
        total = sum(f for _, f in shares)
        return (Payment(liable, value * total, shares, "cheng_bao"),)
    return tuple(Payment(seat, value * f, ((seat, f),)) for seat, f in shares)
