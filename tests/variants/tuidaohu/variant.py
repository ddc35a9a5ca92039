"""推倒胡 (test): 136 tiles, chow, pung and kong, any standard shape or seven pairs wins;
a win is 1 point, +1 on a self-draw, +1 when the winning tile is of the winner's lucky
suit (chosen by everyone after the deal).  The discarder pays a discard win, the other
three a self-draw; the dealer stays after a dealer win or a drawn hand."""

from __future__ import annotations

from games.rules import analysis
from games.rules import tiles as T
from games.rules.model import Score, ScoreItem
from games.rules.money import transfer
from games.rules.options import HelpedOption, OptionSet
from games.rules.variants import Variant, get_variant, register

from .site import TABLE_UI

SUITS = "mps"


class TuiDaoHu(Variant):
    key = "test_tuidaohu"
    order = 99
    name_zh = "推倒胡（测试）"
    name_en = "Tui Dao Hu (test)"
    description_zh = "任何胡牌牌型都能胡，没有番种；开局选一门幸运花色。"
    description_en = "Any winning shape wins, no special hands; everyone picks a lucky suit."
    table_ui = TABLE_UI
    allows_chow = True
    action_fields = {"lucky_suit": {"suit"}}
    options = OptionSet(
        (
            HelpedOption(
                "base",
                "int",
                1,
                "底分",
                "Base stake",
                min=1,
                max=1000,
                help_zh="所有付分的计算单位。",
                help_en="The stake every payment is counted in.",
            ),
        )
    )

    def wall_tiles(self, opts):
        return [t for t in range(T.NUM_KINDS) for _ in range(4)]

    def on_new_hand(self, state, rng):
        state.vs = {"lucky": [None] * 4}

    def setup_phases(self, opts):
        return ("lucky_suit",)

    def canonical_action(self, action):
        if action.get("suit") not in tuple(SUITS):
            return "suit must be one of m, p, s"
        return {"type": "lucky_suit", "suit": action["suit"]}

    def phase_actions(self, state, seat):
        if state.vs["lucky"][seat] is not None:
            return []
        return [{"type": "lucky_suit", "suit": s} for s in SUITS]

    def phase_apply(self, state, seat, action, events):
        state.vs["lucky"][seat] = action["suit"]
        events.append({"type": "LuckySuitChosen", "seat": seat, "suit": action["suit"]})
        if all(s is not None for s in state.vs["lucky"]):
            state.phase = "play"
        return None

    def score(self, ctx, opts):
        c, _ = self.split_wilds_for_indicator(ctx.full_hand, None, opts)
        if not analysis.is_winning(c, 0, seven_pairs=not ctx.melds, thirteen_orphans=False):
            return Score(win=False, reason="not a winning hand")
        items = [ScoreItem("hu", 1)]
        if ctx.self_drawn:
            items.append(ScoreItem("zi_mo", 1))
        return Score(win=True, items=tuple(items), total=len(items))

    def win_score(self, state, seat, ctx, *, on_discard):
        score = super().win_score(state, seat, ctx, on_discard=on_discard)
        lucky = state.vs["lucky"][seat]
        if score is None or T.suit_of(ctx.win_tile) != lucky:
            return score
        items = (*score.items, ScoreItem("lucky", 1))
        return Score(win=True, items=items, total=score.total + 1)

    def on_wins(self, state, wins, events):
        for w in wins:
            amount = w["total"] * state.rules.base
            payers = (
                [w["from"]] if w["from"] is not None else [p for p in range(4) if p != w["seat"]]
            )
            for p in payers:
                transfer(state, p, w["seat"], amount, "hu", win=w["order"])

    def next_dealer(self, state):
        if state.win_order and state.win_order[0] != state.dealer:
            return (state.dealer + 1) % 4
        return state.dealer

    def pattern_names(self):
        return {
            "hu": {"zh-hans": "胡", "en": "Win"},
            "zi_mo": {"zh-hans": "自摸", "en": "Self-draw"},
            "lucky": {"zh-hans": "幸运花色", "en": "Lucky suit"},
        }

    def project(self, state, seat):
        lucky = state.vs["lucky"]
        shown = all(s is not None for s in lucky)
        players = [{"lucky": lucky[k] if shown or seat == k else None} for k in range(4)]
        return {}, players


def register_tuidaohu(*, listed: bool) -> Variant:
    """Registered once per process: listed where a site serves it (its lobby offers it),
    unlisted in the test process, whose other tests see the four."""
    try:
        return get_variant(TuiDaoHu.key)
    except ValueError:
        variant = TuiDaoHu()
        variant.listed = listed
        return register(variant)
