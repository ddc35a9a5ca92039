"""四川麻将 / 血战到底 (../shared/rules/sichuan.md).

The flow hooks of the Sichuan variant: 换三张 and 定缺 setup phases, the
discard-first rule, 过胡, 最后四张 forced wins, 刮风下雨 kong payments, win
payments with 杠上炮 呼叫转移, 血战 continuation, 查花猪/查大叫 with kong
refunds at the end of the wall, leaving (逃跑) and the next dealer.  Fan
scoring is in ``sichuan_fan``.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from .. import tiles as T
from ..model import Score, WinContext
from ..options import Options
from .base import Variant, register
from .sichuan_options import SICHUAN_OPTIONS

# 换三张 directions as a seat offset: to the next player (counter-clockwise,
# turn order), across, or to the previous player (clockwise).
EXCHANGE_DIRECTIONS = {1: "counter_clockwise", 2: "across", 3: "clockwise"}

WIN_REASON = "hu"


def win_value(fan: int, opts: Options) -> int:
    """``base × 2^(fan-1)``; ``fan`` is already capped by the scorer."""
    return opts.base * 2 ** (fan - 1)


class Sichuan(Variant):
    key = "sichuan"
    name_zh = "四川血战"
    name_en = "Sichuan Blood Battle"
    description_zh = "108 张万筒条，定缺、刮风下雨，血战到底：胡牌后继续，直到三家胡牌或流局。"
    description_en = (
        "108 suited tiles, declare a missing suit, kong payments at once, and play on "
        "after each win until three players have won (血战到底)."
    )
    options = SICHUAN_OPTIONS
    allows_chow = False
    multiple_winners = True  # 一炮多响

    # --- the deal ------------------------------------------------------------------
    def wall_tiles(self, opts):
        return [t for t in range(27) for _ in range(4)]

    def setup_phases(self, opts):
        phases = []
        if opts.huan_san_zhang:
            phases.append("exchange")
        if opts.ding_que:
            phases.append("ding_que")
        return tuple(phases)

    def on_new_hand(self, state, rng):
        if state.rules.huan_san_zhang:
            state.exchange_dir = 1 + rng.below(3)

    def phase_actions(self, state, seat):
        if state.phase == "exchange" and state.picks[seat] is None:
            hand = state.hands[seat]
            out = []
            for suit in range(3):
                own = [t for t in hand if T.suit_index(t) == suit]
                for trio in sorted(set(combinations(own, 3))):
                    out.append({"type": "exchange", "tiles": T.fmt(trio)})
            return out
        if state.phase == "ding_que" and state.que[seat] is None:
            return [{"type": "ding_que", "suit": x} for x in "mps"]
        return []

    def phase_apply(self, state, seat, action, events):
        if state.phase == "exchange":
            state.picks[seat] = action["tiles"]
            events.append(
                {"type": "TilesChosen", "seat": seat, "private": {"tiles": action["tiles"]}}
            )
            if all(p is not None for p in state.picks):
                self._exchange(state, events)
            return None
        state.que[seat] = "mps".index(action["suit"])
        events.append({"type": "SuitChosen", "seat": seat, "private": {"suit": action["suit"]}})
        if all(q is not None for q in state.que):
            events.append({"type": "SuitsRevealed", "que": ["mps"[q] for q in state.que]})
            state.phase = "play"
        return None

    def _exchange(self, state, events):
        given = [T.parse(p) for p in state.picks]
        for seat in range(4):
            for t in given[seat]:
                state.hands[seat].remove(t)
        for seat in range(4):
            receiver = (seat + state.exchange_dir) % 4
            state.hands[receiver] = sorted(state.hands[receiver] + given[seat])
        for seat in range(4):
            giver = (seat - state.exchange_dir) % 4
            events.append(
                {
                    "type": "TilesExchanged",
                    "seat": seat,
                    "direction": EXCHANGE_DIRECTIONS[state.exchange_dir],
                    "private": {"received": T.fmt(given[giver])},
                }
            )
        state.extra["exchange_direction"] = EXCHANGE_DIRECTIONS[state.exchange_dir]
        state.picks = [None] * 4
        state.phase = "ding_que" if state.rules.ding_que else "play"

    # --- play ----------------------------------------------------------------------
    def _holds_que(self, state, seat):
        que = state.que[seat]
        return que is not None and any(T.suit_index(t) == que for t in state.hands[seat])

    def discard_choices(self, state, seat):
        que = state.que[seat]
        kinds = sorted(set(state.hands[seat]))
        if que is not None:
            own = [k for k in kinds if T.suit_index(k) == que]
            if own:
                return own
        return kinds

    def may_meld(self, state, seat, tile):
        # No pung or kong in the suit one has declared missing.
        return state.que[seat] is None or T.suit_index(tile) != state.que[seat]

    def dead_suit(self, state, seat):
        if state.que[seat] is not None:
            return state.que[seat]
        # 缺一门 without 定缺: plan to drop the suit held least.
        tiles = state.hands[seat] + [t for m in state.melds[seat] for t in m.tiles]
        by_suit = [sum(1 for t in tiles if T.suit_index(t) == k) for k in range(3)]
        return min(range(3), key=lambda k: (by_suit[k], k))

    def win_context(self, state, seat, hand, tile, win_type, flags):
        ctx = super().win_context(state, seat, hand, tile, win_type, flags)
        return replace(ctx, missing_suit=state.que[seat])

    def win_score(self, state, seat, ctx, *, on_discard):
        score = self.score(ctx, state.rules)
        if not score.win:
            return None
        passed = state.pass_hu[seat]
        if on_discard and passed is not None and score.total <= passed:
            return None  # 过胡: only a bigger win lifts it before one's own draw
        return score

    def forced_win(self, state):
        return state.rules.last_four_forced_win and len(state.wall) <= 4

    def score(self, ctx: WinContext, opts: Options) -> Score:
        from .sichuan_fan import score

        return score(ctx, opts)

    # --- money ----------------------------------------------------------------------
    def on_kong(self, state, record, events):
        from ..engine import transfer

        opts = state.rules
        seat, kind = record["seat"], record["kind"]
        if kind == "zhi_gang":
            payers = [(record["from"], opts.direct_kong_pay * opts.base)]
        else:
            unit = 2 if kind == "an_gang" else 1
            payers = [(p, unit * opts.base) for p in state.in_play() if p != seat]
        for payer, amount in payers:
            transfer(state, payer, seat, amount, kind, kong=record["id"])
        record["income"] = [[p, a] for p, a in payers]
        events.append(
            {"type": "KongPaid", "kong": record["id"], "seat": seat, "income": record["income"]}
        )

    def on_wins(self, state, wins, events):
        from ..engine import transfer

        opts = state.rules
        for w in wins:
            seat, value = w["seat"], win_value(w["total"], opts)
            kong = state.kongs[w["kong"]] if w["kong"] is not None else None
            if w["win_type"] == "self_draw":
                if (
                    kong is not None
                    and kong["kind"] == "zhi_gang"
                    and opts.dian_gang_hua == "discarder"
                ):
                    payers = [(kong["from"], value)]  # 点杠花: the kong giver pays alone
                else:
                    bonus = opts.base if opts.self_draw_bonus == "base" else 0
                    payers = [(p, value + bonus) for p in state.in_play() if p != seat]
            else:
                payers = [(w["from"], value)]
            for payer, amount in payers:
                transfer(state, payer, seat, amount, WIN_REASON, win=w["order"])
            if w["win_type"] == "discard" and kong is not None:
                # 杠上炮 / 呼叫转移: the kong's income goes on to each winner.
                income = sum(a for _, a in kong["income"])
                if income:
                    transfer(state, w["from"], seat, income, "gang_shang_pao", kong=kong["id"])
                kong["transferred"] = True

    def hand_over_after_win(self, state):
        if state.rules.mode == "plain":
            return True
        return len(state.win_order) >= 3

    def on_wall_exhausted(self, state, events):
        from ..engine import transfer
        from .sichuan_fan import max_fan_for_waits

        opts = state.rules
        still_in = state.in_play()
        if len(still_in) < 2:
            return
        hua_zhu = {s for s in still_in if self._is_hua_zhu(state, s)}
        ready: dict[int, int] = {}
        for s in still_in:
            if s in hua_zhu:
                continue
            fan = max_fan_for_waits(
                tuple(state.hands[s]), tuple(state.melds[s]), state.que[s], opts, opts.cha_da_jiao
            )
            if fan is not None:
                ready[s] = fan
        for pig in sorted(hua_zhu):
            for other in still_in:
                if other not in hua_zhu:
                    transfer(state, pig, other, opts.hua_zhu_pay * opts.base, "cha_hua_zhu")
        not_ready = [s for s in still_in if s not in ready]
        for s in not_ready:
            if s in hua_zhu:
                continue
            for r, fan in sorted(ready.items()):
                transfer(state, s, r, win_value(fan, opts), "cha_da_jiao", fan=fan)
        for s in not_ready:
            for kong in state.kongs:
                if kong["seat"] == s and not kong["transferred"]:
                    for payer, amount in kong["income"]:
                        transfer(state, s, payer, amount, "kong_refund", kong=kong["id"])
        state.extra["cha"] = {
            "hua_zhu": sorted(hua_zhu),
            "ready": {str(s): f for s, f in sorted(ready.items())},
            "not_ready": sorted(not_ready),
        }
        events.append({"type": "WallExhausted", "cha": state.extra["cha"]})

    @staticmethod
    def _is_hua_zhu(state, seat):
        suits = {T.suit_index(t) for t in state.hands[seat]}
        suits.update(T.suit_index(m.tile) for m in state.melds[seat])
        return len(suits) == 3

    def on_leave(self, state, seat, events):
        from ..engine import transfer

        opts = state.rules
        if state.won[seat] is not None:
            # 血战: a winner who leaves early forfeits what they won.
            for t in list(state.transfers):
                if t["to"] == seat and t["reason"] == WIN_REASON:
                    transfer(state, seat, t["from"], t["amount"], "forfeit", win=t.get("win"))
            return
        for other in state.in_play():
            if other != seat:
                transfer(state, seat, other, opts.escape_pay * opts.base, "escape")

    def next_dealer(self, state):
        rule = state.rules.dealer_rule
        if rule == "dice":
            return None
        if not state.win_order:
            return state.dealer  # 流局: the dealer stays
        first = state.won[state.win_order[0]]
        if rule == "discarder" and first["win_type"] != "self_draw":
            return first["from"]
        return first["seat"]


SICHUAN = register(Sichuan())
