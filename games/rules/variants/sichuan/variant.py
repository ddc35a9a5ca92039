"""四川麻将 / 血战到底 (../shared/rules/sichuan.md).

The flow hooks of the Sichuan variant: 换三张 and 定缺 setup phases, the
discard-first rule, 过胡, 最后四张 forced wins, 刮风下雨 kong payments, win
payments with 杠上炮 呼叫转移, 血战 continuation, leaving (逃跑) and the next
dealer; and the end-of-hand settlement (查花猪/查大叫 with kong refunds).  Fan
scoring is in ``fan``.

Its part of the hand state (``state.vs``):

* ``que``: each seat's 定缺 suit index (0/1/2) or None; ``picks``: 换三张 choices;
* ``exchange_dir``: the seeded seat offset of 换三张; ``exchange_direction`` its name
  once the exchange has happened (secret until then);
* ``pass_hu``: each seat's 过胡 bar (the capped fan of the win it passed) or None;
* ``kong_income``: kong id → ``[[payer, amount], …]``; ``transferred``: kong ids whose
  income went on by 杠上炮 (not refunded again);
* ``held_at_pung``: seat → kinds whose fourth copy was held when punged.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from ... import tiles as T
from ...heuristics import isolation
from ...model import Score, WinContext
from ...money import transfer
from ...options import Options
from ..base import Variant
from ..registry import register
from .options import SICHUAN_OPTIONS
from .site import TABLE_UI

# 换三张 directions as a seat offset: to the next player (counter-clockwise,
# turn order), across, or to the previous player (clockwise).
EXCHANGE_DIRECTIONS = {1: "counter_clockwise", 2: "across", 3: "clockwise"}

WIN_REASON = "hu"


def win_value(fan: int, opts: Options) -> int:
    """``base × 2^(fan-1)``; ``fan`` is already capped by the scorer."""
    return opts.base * 2 ** (fan - 1)


class Sichuan(Variant):
    key = "sichuan"

    def win_points(self, total: int, opts: Options) -> int:
        return win_value(total, opts)

    def explain_win(self, s, win: dict) -> dict:
        """The fan, the cap and 2^(fan−1) × base, then who pays what."""
        opts = s.rules
        raw = sum(item["value"] for item in win["items"])
        fan = win["total"]
        value = win_value(fan, opts)
        cap_zh = f"（封顶 {fan} 番）" if raw > fan else ""
        cap_en = f" (capped at {fan} fan)" if raw > fan else ""
        zh = f"{raw} 番{cap_zh} → 2^({fan}−1) × 底分 {opts.base} = {value}"
        en = f"{raw} fan{cap_en} → 2^({fan}−1) × base {opts.base} = {value}"
        kong = s.kongs[win["kong"]] if win.get("kong") is not None else None
        giver_pays = (
            kong is not None and kong["kind"] == "zhi_gang" and opts.dian_gang_hua == "discarder"
        )
        if win["win_type"] == "self_draw" and giver_pays:
            zh += f"；点杠花：点杠者付 {value}"
            en += f"; kong-flower: the kong's discarder pays {value}"
        elif win["win_type"] == "self_draw":
            if opts.self_draw_bonus == "base":
                zh += f"；自摸加底：每家付 {value} + {opts.base} = {value + opts.base}"
                en += f"; self-draw adds the base: each player pays {value} + {opts.base}"
                en += f" = {value + opts.base}"
            else:
                zh += f"；自摸：每家付 {value}"
                en += f"; self-draw: each player pays {value}"
        else:
            zh += f"；点炮者付 {value}"
            en += f"; the discarder pays {value}"
        return {"zh-hans": zh, "en": en, "value": value}

    def pattern_names(self):
        from .fan import pattern_names

        return pattern_names()

    def reason_names(self):
        return {
            **super().reason_names(),
            "zhi_gang": {"zh-hans": "直杠", "en": "Direct kong"},
            "mian_xia_gang": {"zh-hans": "面下杠", "en": "Added kong"},
            "an_gang": {"zh-hans": "暗杠", "en": "Concealed kong"},
            "gang_shang_pao": {
                "zh-hans": "杠上炮(呼叫转移)",
                "en": "Kong money passed on (杠上炮)",
            },
            "cha_hua_zhu": {"zh-hans": "查花猪", "en": "Flower-pig check"},
            "cha_da_jiao": {"zh-hans": "查大叫", "en": "Not-ready check"},
            "kong_refund": {"zh-hans": "退杠钱", "en": "Kong money refunded"},
            "forfeit": {"zh-hans": "退还", "en": "Refund"},
        }

    order = 1
    table_ui = TABLE_UI
    name_zh = "四川血战"
    name_en = "Sichuan Blood Battle"
    description_zh = "108 张万筒条，定缺、刮风下雨，血战到底：胡牌后继续，直到三家胡牌或流局。"
    description_en = (
        "108 suited tiles, declare a missing suit, kong payments at once, and play on "
        "after each win until three players have won (血战到底)."
    )
    options = SICHUAN_OPTIONS
    allows_chow = False
    added_kong_needs_drawn_fourth = True
    action_fields = {"exchange": {"tiles"}, "ding_que": {"suit"}}

    def multiple_winners(self, opts):
        return True  # 一炮多响

    def upgrade_state(self, d):
        legacy = d["vs"].get("legacy")
        if legacy is None:
            return d
        extra = legacy["extra"]
        vs = {
            "que": legacy["que"],
            "picks": legacy["picks"],
            "exchange_dir": legacy["exchange_dir"],
            "exchange_direction": extra.get("exchange_direction"),
            "pass_hu": legacy["pass_hu"],
            "kong_income": {str(k["id"]): k["income"] for k in legacy["kongs"]},
            "transferred": [k["id"] for k in legacy["kongs"] if k["transferred"]],
            "held_at_pung": extra.get("held_at_pung", {}),
        }
        return {**d, "vs": vs}

    # --- the deal ------------------------------------------------------------------
    def wall_tiles(self, opts):
        return [t for t in range(27) for _ in range(4)]

    def deal_procedure(self, opts):
        # After the deal, 换三张's direction is drawn (no tile moves).
        after = [{"op": "below", "n": 3}] if opts.huan_san_zhang else []
        return {**super().deal_procedure(opts), "after": after}

    def on_new_hand(self, state, rng):
        state.vs = {
            "que": [None] * 4,
            "picks": [None] * 4,
            "exchange_dir": 1 + rng.below(3) if state.rules.huan_san_zhang else None,
            "exchange_direction": None,
            "pass_hu": [None] * 4,
            "kong_income": {},
            "transferred": [],
            "held_at_pung": {},
        }

    def setup_phases(self, opts):
        phases = []
        if opts.huan_san_zhang:
            phases.append("exchange")
        if opts.ding_que:
            phases.append("ding_que")
        return tuple(phases)

    def canonical_action(self, action):
        if action["type"] == "ding_que":
            if action.get("suit") not in ("m", "p", "s"):
                return "suit must be one of m, p, s"
            return {"type": "ding_que", "suit": action["suit"]}
        return {"type": action["type"]}

    def phase_actions(self, state, seat):
        vs = state.vs
        if state.phase == "exchange" and vs["picks"][seat] is None:
            hand = state.hands[seat]
            out = []
            for suit in range(3):
                own = [t for t in hand if T.suit_index(t) == suit]
                for trio in sorted(set(combinations(own, 3))):
                    out.append({"type": "exchange", "tiles": T.fmt(trio)})
            return out
        if state.phase == "ding_que" and vs["que"][seat] is None:
            return [{"type": "ding_que", "suit": x} for x in "mps"]
        return []

    def phase_apply(self, state, seat, action, events):
        vs = state.vs
        if state.phase == "exchange":
            vs["picks"][seat] = action["tiles"]
            events.append(
                {"type": "TilesChosen", "seat": seat, "private": {"tiles": action["tiles"]}}
            )
            if all(p is not None for p in vs["picks"]):
                self._exchange(state, events)
            return None
        vs["que"][seat] = "mps".index(action["suit"])
        events.append({"type": "SuitChosen", "seat": seat, "private": {"suit": action["suit"]}})
        if all(q is not None for q in vs["que"]):
            events.append({"type": "SuitsRevealed", "que": ["mps"[q] for q in vs["que"]]})
            state.phase = "play"
        return None

    def _exchange(self, state, events):
        vs = state.vs
        step = vs["exchange_dir"]
        given = [T.parse(p) for p in vs["picks"]]
        for seat in range(4):
            for t in given[seat]:
                state.hands[seat].remove(t)
        for seat in range(4):
            receiver = (seat + step) % 4
            state.hands[receiver] = sorted(state.hands[receiver] + given[seat])
        for seat in range(4):
            giver = (seat - step) % 4
            events.append(
                {
                    "type": "TilesExchanged",
                    "seat": seat,
                    "direction": EXCHANGE_DIRECTIONS[step],
                    "private": {"received": T.fmt(given[giver])},
                }
            )
        vs["exchange_direction"] = EXCHANGE_DIRECTIONS[step]
        vs["picks"] = [None] * 4
        state.phase = "ding_que" if state.rules.ding_que else "play"

    # --- play ----------------------------------------------------------------------
    def discard_choices(self, state, seat):
        que = state.vs["que"][seat]
        kinds = sorted(set(state.hands[seat]))
        if que is not None:
            own = [k for k in kinds if T.suit_index(k) == que]
            if own:
                return own
        return kinds

    def explain(self, state, seat, action):
        que = state.vs["que"][seat]
        if action["type"] == "discard" and que is not None and state.phase == "play":
            if T.suit_index(T.parse_one(action["tile"])) != que:
                return "que_first", f"you must discard your missing suit ({'mps'[que]}) first"
        return None

    def _outside_que(self, state, seat, tile):
        que = state.vs["que"][seat]
        return que is None or T.suit_index(tile) != que

    def may_claim(self, state, seat, source, tile, kind):
        # No pung or kong in the suit one has declared missing.
        return self._outside_que(state, seat, tile)

    def may_kong(self, state, seat, tile, added):
        return self._outside_que(state, seat, tile) and super().may_kong(state, seat, tile, added)

    def on_draw(self, state, seat, tile, events):
        state.vs["pass_hu"][seat] = None  # 过胡 lifts at one's own draw

    def on_win_passed(self, state, seat, claim):
        passed = claim["scores"][str(seat)]
        bars = state.vs["pass_hu"]
        bars[seat] = max(passed, bars[seat] or 0)

    # 血战到底: a hand that is not ready when the wall ends pays every ready hand its largest
    # win (查大叫), so the strong bot plays on; a deal-in pays one winner, mostly a 1–2 fan
    # hand, and the game goes on, so it costs half the default.
    bot_never_folds = True
    bot_deal_in_cost = 1.25

    def declared_dead_suit(self, state, seat):
        return state.vs["que"][seat]

    def dead_suit(self, state, seat):
        que = state.vs["que"][seat]
        if que is not None:
            return que
        # 缺一门 without 定缺: plan to drop the suit held least.
        tiles = state.hands[seat] + [t for m in state.melds[seat] for t in m.tiles]
        by_suit = [sum(1 for t in tiles if T.suit_index(t) == k) for k in range(3)]
        return min(range(3), key=lambda k: (by_suit[k], k))

    def win_shapes(self, state, seat):
        return {"seven_pairs": not state.melds[seat], "thirteen_orphans": False}

    def win_context(self, state, seat, hand, tile, win_type, flags):
        ctx = super().win_context(state, seat, hand, tile, win_type, flags)
        return replace(ctx, missing_suit=state.vs["que"][seat])

    def win_score(self, state, seat, ctx, *, on_discard):
        score = super().win_score(state, seat, ctx, on_discard=on_discard)
        if score is None:
            return None
        passed = state.vs["pass_hu"][seat]
        if on_discard and passed is not None and score.total <= passed:
            return None  # 过胡: only a bigger win lifts it before one's own draw
        return score

    def forced_win(self, state):
        return state.rules.last_four_forced_win and len(state.wall) <= 4

    def score(self, ctx: WinContext, opts: Options) -> Score:
        from .fan import score

        return score(ctx, opts)

    # --- money ----------------------------------------------------------------------
    def on_kong(self, state, record, events):
        opts = state.rules
        seat, kind = record["seat"], record["kind"]
        if kind == "zhi_gang":
            payers = [(record["from"], opts.direct_kong_pay * opts.base)]
        else:
            unit = 2 if kind == "an_gang" else 1
            payers = [(p, unit * opts.base) for p in state.in_play() if p != seat]
        for payer, amount in payers:
            transfer(state, payer, seat, amount, kind, kong=record["id"])
        income = [[p, a] for p, a in payers]
        state.vs["kong_income"][str(record["id"])] = income
        events.append({"type": "KongPaid", "kong": record["id"], "seat": seat, "income": income})

    def on_wins(self, state, wins, events):
        opts = state.rules
        vs = state.vs
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
                income = sum(a for _, a in vs["kong_income"].get(str(kong["id"]), []))
                if income:
                    transfer(state, w["from"], seat, income, "gang_shang_pao", kong=kong["id"])
                if kong["id"] not in vs["transferred"]:
                    vs["transferred"].append(kong["id"])

    def hand_over_after_win(self, state):
        if state.rules.mode == "plain":
            return True
        return len(state.win_order) >= 3

    def settle(self, state):
        """查花猪, then 查大叫, then kong refunds, when the wall ran out with two or more
        players still in (``sichuan.md`` "流局")."""
        from .fan import max_fan_for_waits

        opts = state.rules
        still_in = state.in_play()
        if state.result["reason"] != "exhausted" or len(still_in) < 2:
            return [], {}
        out: list[dict] = []

        def pay(payer, payee, amount, reason, **info):
            out.append({"from": payer, "to": payee, "amount": amount, "reason": reason, **info})

        que = state.vs["que"]
        hua_zhu = {s for s in still_in if self._is_hua_zhu(state, s)}
        ready: dict[int, int] = {}
        for s in still_in:
            if s in hua_zhu:
                continue
            fan = max_fan_for_waits(
                tuple(state.hands[s]), tuple(state.melds[s]), que[s], opts, opts.cha_da_jiao
            )
            if fan is not None:
                ready[s] = fan
        for pig in sorted(hua_zhu):
            for other in still_in:
                if other not in hua_zhu:
                    pay(pig, other, opts.hua_zhu_pay * opts.base, "cha_hua_zhu")
        not_ready = [s for s in still_in if s not in ready]
        for s in not_ready:
            if s in hua_zhu:
                continue
            for r, fan in sorted(ready.items()):
                pay(s, r, win_value(fan, opts), "cha_da_jiao", fan=fan)
        transferred = set(state.vs["transferred"])
        for s in not_ready:
            for kong in state.kongs:
                if kong["seat"] == s and kong["id"] not in transferred:
                    for payer, amount in state.vs["kong_income"].get(str(kong["id"]), []):
                        pay(s, payer, amount, "kong_refund", kong=kong["id"])
        cha = {
            "hua_zhu": sorted(hua_zhu),
            "ready": {str(s): f for s, f in sorted(ready.items())},
            "not_ready": sorted(not_ready),
        }
        return out, {"cha": cha}

    @staticmethod
    def _is_hua_zhu(state, seat):
        suits = {T.suit_index(t) for t in state.hands[seat]}
        suits.update(T.suit_index(m.tile) for m in state.melds[seat])
        return len(suits) == 3

    def on_leave(self, state, seat, events):
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

    # --- what seats see -------------------------------------------------------------
    def project(self, state, seat):
        vs = state.vs
        que, picks = vs["que"], vs["picks"]
        all_que = all(q is not None for q in que)
        players = [
            {
                # 定缺 choices are secret until all four have chosen.
                "que": "mps"[que[k]] if que[k] is not None and (all_que or seat == k) else None,
                "que_chosen": que[k] is not None,
                "picked": picks[k] is not None,
            }
            for k in range(4)
        ]
        top = {"exchange_direction": vs["exchange_direction"]}
        if seat is not None and picks[seat] is not None:
            top["my_pick"] = picks[seat]
        return top, players

    def bot_setup_action(self, state, seat, legal):
        hand = state.hands[seat]
        if state.phase == "exchange":
            # Three tiles of the shortest suit that has three, least connected first.
            def cost(action):
                trio = T.parse(action["tiles"])
                suit = T.suit_index(trio[0])
                in_suit = sum(1 for t in hand if T.suit_index(t) == suit)
                lonely = sum(isolation(hand, t) for t in trio)
                return (in_suit, -lonely, action["tiles"])

            return min(legal, key=cost)
        # 定缺: the suit held fewest of.
        by_suit = [sum(1 for t in hand if T.suit_index(t) == k) for k in range(3)]
        suit = min(range(3), key=lambda k: (by_suit[k], k))
        return {"type": "ding_que", "suit": "mps"[suit]}


SICHUAN = register(Sichuan())
