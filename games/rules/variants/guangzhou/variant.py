"""广州麻将 Guangzhou (../shared/rules/guangzhou.md): the flow.

Fan counting and the payments of one win are in ``fan``; this module
wires them into the hand: chow by the next player, 一炮多响 (or the nearest
claimant with ``one_winner_only``), 漏胡 until the player next acts on their own
tiles, the 包 rules, the dealer staying on a win that includes them or a 流局.

Its part of the hand state (``state.vs``):

* ``lou_hu``: per seat, the kinds it passed a win on (barred from discards and
  robbed kongs until its next draw, chow, pung or kong);
* ``bao``: per seat, the first liability for its self-draw, ``{"seat", "rule"}``
  (十二张落地 ``shi_er_zhang``, ``da_si_xi``, ``da_san_yuan``) or None; 包先不包后: a
  discarder is liable for 十二张落地 of the first player it brings there only (read off
  the melds: whether it already gave another player a fourth exposed meld);
* ``pao``: while one discard's wins are scored, how many win on it (一炮三响).

Readings of points the spec leaves open are in ``games/rules/README.md``.
"""

from __future__ import annotations

from ... import analysis
from ... import tiles as T
from ...money import transfer
from ...options import Options
from ..base import Variant
from ..registry import register
from .fan import (
    DRAGONS,
    WINDS,
    breakdown,
    pattern_names,
    score,
    win_payments,
    win_value,
)
from .options import GUANGZHOU_OPTIONS
from .site import TABLE_UI

#: liability reasons, as transfer reasons
BAO_REASONS = {
    "yi_pao_san_xiang": ("一炮三响", "Three wins on one discard"),
    "gang_shang_kai_hua_bao": ("杠上开花包杠", "Kong giver pays (杠上开花)"),
    "qiang_gang": ("抢杠", "Robbed kong pays"),
    "shi_er_zhang": ("十二张落地包自摸", "Fourth meld giver pays"),
    "da_si_xi": ("大四喜包", "Big four winds liability"),
    "da_san_yuan": ("大三元包", "Big three dragons liability"),
}


class Guangzhou(Variant):
    key = "guangzhou"
    order = 3
    table_ui = TABLE_UI
    name_zh = "广州麻将"
    name_en = "Guangzhou"
    description_zh = (
        "136 张，无花无百搭；可吃碰杠，一炮多响；鸡平胡计番，爆胡封顶，十三幺等特殊牌型另计，"
        "杠上开花、抢杠等包牌。"
    )
    description_en = (
        "136 tiles, no flowers or wilds; chow, pung and kong, several may win on one "
        "discard; fan counted the 鸡平胡 way up to a cap (爆胡), special hands beyond it, "
        "and liability (包) for kong flowers, robbed kongs and exposed hands."
    )
    options = GUANGZHOU_OPTIONS
    allows_chow = True
    plays_winds = True

    def win_points(self, total: int, opts: Options) -> int:
        return win_value(total, opts)

    def pattern_names(self):
        return pattern_names()

    def reason_names(self):
        names = {k: {"zh-hans": zh, "en": en} for k, (zh, en) in BAO_REASONS.items()}
        return {**super().reason_names(), **names}

    def explain_win(self, state, win):
        """The fan (the cap, a special hand, the minimum) → V = base × 2^fan, then each
        payment with the 包 rule that moved it."""
        f = win.get("fan")
        if not f or "w" not in win:
            return None
        base = state.rules.base
        zh = f"{f['fan_sum']} 番"
        en = f"{f['fan_sum']} fan"
        if f.get("special"):
            zh += f"（特殊牌型 {f['fan']} 番）"
            en += f" (special hand: {f['fan']} fan)"
        elif f.get("capped"):
            zh += f"（爆胡封顶 {f['cap']} 番）"
            en += f" (capped at {f['cap']} fan)"
        if f.get("minimum"):
            zh += f"（至少 {f['fan']} 番）"
            en += f" (at least {f['fan']} fan)"
        zh += f" → V = 底分 {base} × 2^{f['fan']} = {win['w']}"
        en += f" → V = base {base} × 2^{f['fan']} = {win['w']}"
        winds = state.match.seat_winds or (0, 1, 2, 3)
        names = self.reason_names()
        for t in state.transfers:
            if t.get("win") != win["order"]:
                continue
            rule = names.get(t["reason"]) if t["reason"] != "hu" else None
            payer_zh, payer_en = "东南西北"[winds[t["from"]]], "ESWN"[winds[t["from"]]]
            zh += f"；{payer_zh}家付 {t['amount']}" + (f"（{rule['zh-hans']}）" if rule else "")
            en += f"; {payer_en} pays {t['amount']}" + (f" ({rule['en']})" if rule else "")
        return {"zh-hans": zh, "en": en, "value": win["w"]}

    # --- the deal ------------------------------------------------------------------
    def wall_tiles(self, opts):
        return [t for t in range(T.NUM_KINDS) for _ in range(4)]

    def on_new_hand(self, state, rng):
        state.vs = {"lou_hu": [[] for _ in range(4)], "bao": [None] * 4, "pao": 0}

    def win_shapes(self, state, seat):
        concealed = not state.melds[seat]
        return {"seven_pairs": concealed and state.rules.qi_dui, "thirteen_orphans": concealed}

    # --- claims and turns -----------------------------------------------------------
    def on_draw(self, state, seat, tile, events):
        state.vs["lou_hu"][seat] = []

    def on_claimed(self, state, seat, meld, tile, events):
        vs = state.vs
        vs["lou_hu"][seat] = []
        if vs["bao"][seat] is not None:
            return  # the first liability for this seat stands
        rule = liability_rule(state.melds[seat], meld, state.rules.bao_zi_mo)
        if rule == "shi_er_zhang" and any(
            _twelve_given_by(state.melds[k]) == meld.from_seat for k in range(4) if k != seat
        ):
            return  # 包先不包后: liable only for the first player it brought to 十二张落地
        if rule is not None:
            vs["bao"][seat] = {"seat": meld.from_seat, "rule": rule}
            events.append({"type": "Liable", "seat": meld.from_seat, "for": seat, "rule": rule})

    def on_win_passed(self, state, seat, claim):
        kinds = state.vs["lou_hu"][seat]
        if claim["tile"] not in kinds:
            kinds.append(claim["tile"])

    def multiple_winners(self, opts):
        return not opts.one_winner_only

    def claim_winners(self, state, source, claimants):
        winners = super().claim_winners(state, source, claimants)
        state.vs["pao"] = len(winners)  # read by win_context while these wins are scored
        return winners

    # --- wins -------------------------------------------------------------------------
    def win_context(self, state, seat, hand, tile, win_type, flags):
        if win_type == "discard":
            source = state.claim["from"] if state.claim is not None else state.turn
            if state.vs.get("pao", 0) >= 3:
                flags = flags | {"yi_pao_san_xiang"}
            if _dealers_first_discard(state, source):
                flags = flags | {"ren_hu"}
        return super().win_context(state, seat, hand, tile, win_type, flags)

    def win_score(self, state, seat, ctx, *, on_discard):
        if on_discard and ctx.win_tile in state.vs["lou_hu"][seat]:
            return None  # 漏胡
        return super().win_score(state, seat, ctx, on_discard=on_discard)

    def score(self, ctx, opts):
        return score(ctx, opts)

    # --- money ------------------------------------------------------------------------
    def on_wins(self, state, wins, events):
        opts = state.rules
        state.vs["pao"] = 0
        for w in wins:
            seat = w["seat"]
            value = win_value(w["total"], opts)
            payer, rule = self.liable(state, w)
            if w["win_type"] == "discard":
                three = any(i["id"] == "yi_pao_san_xiang" for i in w["items"])
                payments = win_payments(
                    seat, value, discarder=w["from"], reason="yi_pao_san_xiang" if three else "hu"
                )
            else:
                payments = win_payments(seat, value, liable=payer, reason=rule or "hu")
            for p in payments:
                transfer(
                    state,
                    p.payer,
                    seat,
                    p.amount,
                    p.reason,
                    win=w["order"],
                    w=value,
                    shares=[[s, 1] for s in p.shares],
                )
            w["w"] = value
            w["fan"] = breakdown(w["items"], w["total"], opts)
            if payer is not None:
                w["bao"] = {"seat": payer, "rule": rule}

    def liable(self, state, w) -> tuple[int | None, str | None]:
        """The seat paying for all three on a self-drawn (or robbed-kong) win, and why."""
        if w["win_type"] == "rob_kong":
            return w["from"], "qiang_gang"
        if w["win_type"] != "self_draw":
            return None, None
        if w.get("turn_kind") == "kong" and w["kong"] is not None:
            giver = state.kongs[w["kong"]]["from"]
            if giver is not None:
                return giver, "gang_shang_kai_hua_bao"
        bao = state.vs["bao"][w["seat"]]
        if bao is not None:
            return bao["seat"], bao["rule"]
        return None, None

    # --- the next hand ----------------------------------------------------------------
    def next_dealer(self, state):
        if not state.win_order or state.dealer in state.win_order:
            return state.dealer  # 流局, or a win that includes the dealer
        return (state.dealer + 1) % 4

    # --- what seats see ---------------------------------------------------------------
    def project(self, state, seat):
        # Liabilities follow from exposed melds, so they are public.
        top = {"cap": state.rules.cap, "min_fan": state.rules.min_fan}
        return top, [{"bao": state.vs["bao"][k]} for k in range(4)]

    # --- bots -------------------------------------------------------------------------
    # A deal-in pays the winner one V, a self-draw collects V from all three (doubled by
    # 自摸 below the cap): folding gives up more than it saves, and the danger weighs less.
    bot_never_folds = True
    bot_deal_in_cost = 0.5

    def bot_turn_override(self, state, seat, legal):
        """Go for a flush when it is close: early in the hand, with one suit (plus
        honours) dominating and at most three tiles of other suits, throw the off-suit
        tile that costs least, as long as that is at most one step of 向听 behind."""
        if {"type": "hu"} in legal or len(state.wall) < 40:
            return None
        hand = state.hands[seat]
        melds = state.melds[seat]
        plan = flush_plan(hand, melds)
        if plan is None:
            return None
        off = sorted({t for t in hand if T.is_suited(t) and t // 9 != plan})
        if not off or len([t for t in hand if t in off]) > 3:
            return None
        seven = state.rules.qi_dui and not melds

        def after(t):
            rest = list(hand)
            rest.remove(t)
            return analysis.shanten(T.counts(rest), 0, seven_pairs=seven)

        best_any = min(after(t) for t in set(hand))
        cost, tile = min((after(t), t) for t in off)
        action = {"type": "discard", "tile": T.to_str(tile)}
        if cost <= best_any + 1 and action in legal:
            return action
        return None

    def bot_discard_rank(self, state, seat, tile, rest):
        """Among equally good discards: off-plan suits first when one suit dominates
        (混一色/清一色), singles before pairs when the hand is pung-heavy (碰碰胡)."""
        plan = flush_plan(rest, state.melds[seat])
        if plan is not None and T.is_suited(tile) and tile // 9 != plan:
            return 0
        if pung_plan(rest, state.melds[seat]) and rest.count(tile) == 0:
            return 1
        if T.is_honor(tile) and plan is not None:
            return 3
        return 2


def _dealers_first_discard(state, source) -> bool:
    """人和: the tile is the dealer's first discard and nothing was claimed before."""
    return (
        source == state.dealer
        and len(state.discards[source]) == 1
        and not state.claimed_any
        and all(not state.discards[k] for k in range(4) if k != source)
    )


def liability_rule(melds, meld, bao_zi_mo: bool) -> str | None:
    """The 包 a claimed ``meld`` (already the last of ``melds``) creates, if any:
    the remaining wind or dragon pung after three winds / two dragons (大四喜/大三元),
    else a fourth exposed meld (十二张落地, with ``bao_zi_mo``: 12 tiles exposed by chow,
    pung or exposed kong; a concealed kong is not exposed)."""
    if meld.kind in ("peng", "gang"):
        shown = [m.tile for m in melds if m.kind != "chi" and not m.concealed]
        if meld.tile in WINDS and sum(t in WINDS for t in shown) == 4:
            return "da_si_xi"
        if meld.tile in DRAGONS and sum(t in DRAGONS for t in shown) == 3:
            return "da_san_yuan"
    if bao_zi_mo and sum(not m.concealed for m in melds) == 4:
        return "shi_er_zhang"
    return None


def _twelve_given_by(melds) -> int | None:
    """Whose discard brought these melds to 十二张落地 (four exposed), if any.  Melds keep
    the order they were made in (a 补杠 stays where its pung was)."""
    exposed = [m for m in melds if not m.concealed]
    return exposed[3].from_seat if len(exposed) == 4 else None


def flush_plan(rest, melds) -> int | None:
    """The suit to keep for a flush when one clearly dominates (bots), else None."""
    tiles = [*rest, *(t for m in melds for t in m.tiles)]
    by_suit = [sum(1 for t in tiles if T.is_suited(t) and t // 9 == s) for s in range(3)]
    suit = max(range(3), key=lambda s: by_suit[s])
    honours = sum(1 for t in tiles if T.is_honor(t))
    off = sum(by_suit) - by_suit[suit]
    meld_off = any(T.is_suited(m.tile) and m.tile // 9 != suit for m in melds)
    if meld_off or by_suit[suit] + honours < 9 or off > 4:
        return None
    return suit


def pung_plan(rest, melds) -> bool:
    """Aim at 碰碰胡: no chow melded and four or more pairs/pungs in hand."""
    if any(m.kind == "chi" for m in melds):
        return False
    groups = sum(1 for t in set(rest) if rest.count(t) >= 2)
    return groups + len(melds) >= 4


GUANGZHOU = register(Guangzhou())
