"""杭州麻将 Hangzhou (../shared/rules/hangzhou.md): the flow.

Scoring (the multipliers, the 财神 and its 白板 stand-in, W × D payments, 承包,
the leaving penalties) is in ``score``; this module wires it into the
hand: the indicator turned from the back of the wall, chow by the next player,
放冲 only between dealer and non-dealer from the streak the house rule names,
one winner counted from the dealer, 漏胡 barring only the passed kind, the 财飘
lock and chain, 承包, the dealer streak, and both 逃跑 penalties.

Its part of the hand state (``state.vs``):

* ``lou_hu``: per seat, the kinds it passed a discard win on (barred until its draw);
* ``piao``: per seat, consecutive 财飘 discards (0 once it discards anything else);
  ``piao_after_kong``: per seat, whether that chain began on a kong replacement turn
  (杠飘 "kong first, then 财飘");
* ``lock``: the seat whose 财飘 is pending (the others may not claim) or None;
* ``wild_window``: ``{"seat": A, "ready": bool}`` from A's wild discard to A's next
  draw (the 32-point 逃跑), or None;
* ``claims_from``: ``claims_from[w][s]`` discards of ``s`` that ``w`` chowed or punged
  (承包).

Readings of points the spec leaves open are in ``games/rules/README.md``.
"""

from __future__ import annotations

from dataclasses import replace

from ... import analysis
from ... import tiles as T
from ...money import POT, transfer
from ...options import Options
from ..base import Variant
from ..registry import register
from .options import HANGZHOU_OPTIONS
from .score import (
    cheng_bao_payer,
    escape_penalty,
    is_bao_tou_ready,
    pattern_names,
    score,
    split_wilds,
    stand_in,
    streak_factor,
    wild_kinds,
    win_payments,
    win_value,
)
from .site import TABLE_UI


class Hangzhou(Variant):
    key = "hangzhou"

    def win_points(self, total: int, opts: Options) -> int:
        return win_value(total, opts)

    def pattern_names(self):
        return pattern_names()

    def explain_win(self, state, win):
        """W = base × the multipliers, D from the dealer's streak, then each payment as
        W × its shares' factors (承包: one seat pays every share).  English names a payer's
        wind in full: "W pays W" would read the win value as West."""
        names = pattern_names()
        opts = state.rules
        value, factor = win.get("w"), win.get("d")
        if value is None or factor is None:
            return None
        items_zh = " · ".join(f"{names[i['id']]['zh-hans']} ×{i['value']}" for i in win["items"])
        items_en = " · ".join(f"{names[i['id']]['en']} ×{i['value']}" for i in win["items"])
        zh = f"{items_zh} → W = 底分 {opts.base} × {win['total']} = {value}；D = {factor}"
        en = f"{items_en} → W = base {opts.base} × {win['total']} = {value}; D = {factor}"
        winds_zh, winds_en = "东南西北", ("East", "South", "West", "North")
        winds = state.match.seat_winds or (0, 1, 2, 3)
        for t in state.transfers:
            if t.get("win") != win["order"] or "shares" not in t:
                continue
            parts = " + ".join(f"W×{f}" if f > 1 else "W" for _, f in t["shares"])
            payer = t["from"]
            label = "承包 " if t["reason"] == "cheng_bao" else ""
            zh += f"；{label}{winds_zh[winds[payer]]}家付 {parts} = {t['amount']}"
            label = "liable (承包) " if t["reason"] == "cheng_bao" else ""
            en += f"; {label}{winds_en[winds[payer]]} pays {parts} = {t['amount']}"
        return {"zh-hans": zh, "en": en, "value": value}

    def reason_names(self):
        return {**super().reason_names(), "cheng_bao": {"zh-hans": "承包", "en": "Liable (承包)"}}

    order = 2
    table_ui = TABLE_UI
    name_zh = "杭州麻将"
    name_en = "Hangzhou"
    description_zh = (
        "136 张，翻财神百搭，白板顶财神；可吃碰杠，暴头、财飘、杠开翻倍，庄家连庄加倍。"
    )
    description_en = (
        "136 tiles with a turned-up wild (财神) and the white dragon standing in for it; "
        "chow, pung and kong; 暴头, 财飘 and kong wins multiply, and a dealer's streak "
        "multiplies the payments."
    )
    options = HANGZHOU_OPTIONS
    allows_chow = True

    # --- the deal ------------------------------------------------------------------
    def wall_tiles(self, opts):
        return [t for t in range(T.NUM_KINDS) for _ in range(4)]

    def deal_procedure(self, opts):
        return {**super().deal_procedure(opts), "after": [{"op": "indicator", "at": "last"}]}

    def on_new_hand(self, state, rng):
        # The 财神 indicator is turned up from the back of the wall: out of play.
        state.indicator = state.wall.pop()
        state.dead.append(state.indicator)
        state.vs = {
            "lou_hu": [[] for _ in range(4)],
            "piao": [0] * 4,
            "piao_after_kong": [False] * 4,
            "lock": None,
            "wild_window": None,
            "claims_from": [[0] * 4 for _ in range(4)],
        }

    # --- tiles and shapes -------------------------------------------------------------
    def wild_kinds_for(self, indicator, opts):
        return wild_kinds(indicator, opts)

    def shape_kind(self, indicator, opts, tile):
        return stand_in(indicator, opts).get(tile, tile)

    def split_wilds_for_indicator(self, tiles, indicator, opts):
        return split_wilds(tiles, indicator, opts)

    def win_shapes(self, state, seat):
        return {
            "seven_pairs": state.rules.qi_dui and not state.melds[seat],
            "thirteen_orphans": False,
        }

    # --- claims -----------------------------------------------------------------------
    def _locked_out(self, state, seat):
        lock = state.vs["lock"]
        return lock is not None and lock != seat

    def may_claim(self, state, seat, source, tile, kind):
        # 财飘 lock: the other three can only self-draw until the 财飘 player draws.
        return not self._locked_out(state, seat)

    def on_claimed(self, state, seat, meld, tile, events):
        # 承包 counts chows and pungs only: a kong claimed from a discard (直杠) does not.
        if meld.kind in ("chi", "peng"):
            state.vs["claims_from"][seat][meld.from_seat] += 1

    def on_win_passed(self, state, seat, claim):
        kinds = state.vs["lou_hu"][seat]
        if claim["tile"] not in kinds:
            kinds.append(claim["tile"])

    def discard_win_allowed(self, state, winner: int, source: int) -> bool:
        """放冲: only dealer ↔ non-dealer, and only from the configured streak."""
        least = state.rules.discard_win_min_streak
        if least is None or state.match.streak < least:
            return False
        return state.dealer in (winner, source)

    def claim_winners(self, state, source, claimants):
        # One winner: the first claimant counting from the dealer in turn order.
        return [min(claimants, key=lambda s: (s - state.dealer) % 4)]

    # --- the turn ---------------------------------------------------------------------
    def on_draw(self, state, seat, tile, events):
        vs = state.vs
        vs["lou_hu"][seat] = []
        if vs["lock"] == seat:
            vs["lock"] = None
            events.append({"type": "CaiPiaoLockLifted", "seat": seat})
        window = vs["wild_window"]
        if window is not None and window["seat"] == seat:
            vs["wild_window"] = None

    def on_discard(self, state, seat, tile, events):
        vs = state.vs
        if not self.is_wild(state, tile):
            vs["piao"][seat] = 0
            vs["piao_after_kong"][seat] = False
            return
        rest = state.hands[seat]
        c, wilds = self.split_wilds(state, seat, rest)
        seven = state.rules.qi_dui and not state.melds[seat]
        ready = (sum(c) + wilds) % 3 == 1 and bool(analysis.waits(c, wilds, seven_pairs=seven))
        vs["wild_window"] = {"seat": seat, "ready": ready}
        # 财飘: complete with two wilds after one's own draw, no win taken, one wild thrown.
        # After a claimed chow or pung no win was possible: no 财飘, no lock.
        if state.turn_kind != "claim" and is_bao_tou_ready(rest, state.indicator, state.rules):
            if vs["piao"][seat] == 0:
                vs["piao_after_kong"][seat] = state.kong_turn is not None
            vs["piao"][seat] += 1
            vs["lock"] = seat
            events.append({"type": "CaiPiao", "seat": seat, "count": vs["piao"][seat]})
        else:
            vs["piao"][seat] = 0
            vs["piao_after_kong"][seat] = False

    # --- wins -------------------------------------------------------------------------
    def win_context(self, state, seat, hand, tile, win_type, flags):
        vs = state.vs
        piao = vs["piao"][seat] if win_type == "self_draw" else 0
        if piao and vs["piao_after_kong"][seat]:
            flags = flags | {"after_kong"}  # 杠飘, kong first and then 财飘
        ctx = super().win_context(state, seat, hand, tile, win_type, flags)
        return replace(ctx, cai_piao=piao)

    def win_score(self, state, seat, ctx, *, on_discard):
        if on_discard:
            source = state.claim["from"] if state.claim is not None else state.turn
            if self._locked_out(state, seat):
                return None
            if not self.discard_win_allowed(state, seat, source):
                return None
            if ctx.win_tile in state.vs["lou_hu"][seat]:
                return None  # 漏胡: only the passed kind, until one's own draw
        return super().win_score(state, seat, ctx, on_discard=on_discard)

    def score(self, ctx, opts):
        return score(ctx, opts)

    # --- money ------------------------------------------------------------------------
    def on_wins(self, state, wins, events):
        opts = state.rules
        factor = streak_factor(state.match.streak, opts)
        for w in wins:
            seat = w["seat"]
            value = win_value(w["total"], opts)
            if w["win_type"] == "self_draw":
                liable = cheng_bao_payer(seat, state.vs["claims_from"][seat], opts)
                payments = win_payments(seat, state.dealer, value, factor, liable=liable)
            else:
                payments = win_payments(seat, state.dealer, value, factor, discarder=w["from"])
            for p in payments:
                transfer(
                    state,
                    p.payer,
                    seat,
                    p.amount,
                    p.reason,
                    win=w["order"],
                    w=value,
                    shares=[list(s) for s in p.shares],
                )
            w["w"] = value
            w["d"] = factor

    def on_leave(self, state, seat, events):
        window = state.vs["wild_window"]
        after_wild = window is not None and window["seat"] != seat
        amount = escape_penalty(state.rules, after_wild=after_wild)
        payee = window["seat"] if after_wild and window["ready"] else POT
        transfer(state, seat, payee, amount, "escape")

    # --- the next hand ----------------------------------------------------------------
    def next_dealer(self, state):
        if state.win_order and state.win_order[0] != state.dealer:
            return state.win_order[0]  # a non-dealer wins: they deal, streak 1
        return state.dealer  # dealer wins or 流局: the dealer stays

    # --- what seats see ---------------------------------------------------------------
    def project(self, state, seat):
        vs = state.vs
        window = vs["wild_window"]
        top = {
            "streak_factor": streak_factor(state.match.streak, state.rules),
            # The 财飘 lock binds the other three, so it is public (as is the wild thrown).
            "cai_piao_lock": vs["lock"],
            "escape_penalty": escape_penalty(state.rules, after_wild=window is not None),
        }
        return top, [{"claims_from": list(vs["claims_from"][k])} for k in range(4)]

    # --- bots -------------------------------------------------------------------------
    def bot_turn_override(self, state, seat, legal):
        """Wait for a better self-draw when one is sure: with the wall long enough,
        throw a wild for 财飘 when complete with two, and turn down a plain win for a
        暴头 wait (four sets and the lone wild: any tile wins)."""
        if len(state.wall) < 8:
            return None
        hand = state.hands[seat]
        plain_win = {"type": "hu"} in legal and self._plain_self_draw(state, seat)
        for wild_first in (True, False):
            for t in sorted(set(hand)):
                action = {"type": "discard", "tile": T.to_str(t)}
                if self.is_wild(state, t) != wild_first or action not in legal:
                    continue
                if not wild_first and not plain_win:
                    continue
                rest = list(hand)
                rest.remove(t)
                if is_bao_tou_ready(rest, state.indicator, state.rules):
                    return action
        return None

    def _plain_self_draw(self, state, seat):
        hand = list(state.hands[seat])
        tile = state.drawn if state.drawn is not None else hand[-1]
        hand.remove(tile)
        flags = frozenset({"after_kong"} if state.turn_kind == "kong" else ())
        ctx = self.win_context(state, seat, hand, tile, "self_draw", flags)
        result = self.score(ctx, state.rules)
        return result.win and result.total < 2

    def bot_discard_rank(self, state, seat, tile, rest):
        # Keep wilds; with a lone wild, prefer the 暴头 wait (any tile wins).
        if self.is_wild(state, tile):
            return 2
        if any(self.is_wild(state, t) for t in rest) and is_bao_tou_ready(
            rest, state.indicator, state.rules
        ):
            return 0
        return 1


HANGZHOU = register(Hangzhou())
