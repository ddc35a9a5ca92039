"""Whether a Ningbo win reaches ``min_tai``, and upper bounds of its 台 from the tiles
alone: what the bots ask of a ready hand's waits, most of which no reading can lift to
``min_tai`` (``tai.py`` scores the readings)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ... import analysis
from ... import tiles as T
from ...model import WinContext
from ...options import Options
from .readings import win_readings
from .tai import DRAGONS, fixed_tai, legality, lone_wild_discard, tai_of
from .wilds import split_wilds_by, wild_kinds_by


def reaches_min_tai(ctx: WinContext, opts: Options, *, bound: int | None = None) -> bool:
    """Whether :func:`score` would accept this win; stops at the first reading with
    enough 台.  ``bound``: the win's :func:`tai_bound`, when the caller has it already.
    Not remembered: the bots' plan remembers its own question (a ready hand's waits),
    so the same win seldom comes back here, and a memo keyed by the win's context would
    only give the garbage collector more to walk."""
    if legality(ctx, opts):
        return False
    if (tai_bound(ctx, opts) if bound is None else bound) < opts.min_tai:
        return False  # no reading can score enough: most ready hands that bots weigh
    lone = lone_wild_discard(ctx, opts)
    if lone == 1:
        return False
    fixed = fixed_tai(ctx, opts)
    readings = (r for r in win_readings(ctx, opts) if not (lone and r.wild_pair))
    return any(tai_of(r, fixed) >= opts.min_tai for r in readings)


def tai_bound(ctx: WinContext, opts: Options) -> int:
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
    """:func:`tai_bound` of the win on each of ``kinds`` (``ctx.win_tile`` aside): what
    depends on the hand alone is worked out once for all of them, so a bot asks it of
    a ready hand's waits in one go.  A wait adds one tile to the hand's counts, so each
    kind's figures are the hand's own with that tile's part changed."""
    v = opts.tai_values
    mode = opts.get("wild_kinds")
    wild = wild_kinds_by(ctx.wild, mode)
    c0, k0 = split_wilds_by(ctx.hand, ctx.wild, mode)
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
            fixed = fixed_tai(ctx if same else replace(ctx, win_tile=win), opts)
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
