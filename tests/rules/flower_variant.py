"""A test-only variant with what Ningbo and Guangzhou need from the core.

144 tiles with eight flowers; an indicator set aside from the middle of the
wall (Ningbo's dice pick the spot: never drawn from either end); season or
plant indicators make all four of that set wild (then they are not flowers);
flowers laid out and replaced from the back, at the deal and on every draw;
chow with 吃张打张 (the claimed kind and the other end of the shape may not be
discarded that turn); one winner or several by a house rule (截胡: the first
after the discarder); seat winds drawn once for the match and a prevailing
wind that moves; 漏胡 lifted by one's own claim too (Guangzhou).
"""

from __future__ import annotations

from games.rules import analysis
from games.rules import tiles as T
from games.rules.match import MatchState
from games.rules.model import Score, ScoreItem
from games.rules.money import transfer
from games.rules.options import Option, OptionSet
from games.rules.variants.base import Variant
from games.rules.variants.registry import get_variant, register

SEASONS = frozenset(range(T.FLOWER, T.FLOWER + 4))
PLANTS = frozenset(range(T.FLOWER + 4, T.FLOWER + 8))


class FlowerTest(Variant):
    key = "test_flowers"
    name_en = name_zh = "Flowers (test)"
    listed = False
    allows_chow = True
    options = OptionSet(
        (
            Option("one_winner_only", "bool", False, "截胡", "One winner only"),
            Option("base", "int", 1, "底分", "Base", min=1),
            Option(
                "tai_values",
                "map",
                {"hua": 1, "zi_mo": 1},
                "台数",
                "Points",
                keys=("hua", "zi_mo"),
                min=0,
            ),
        )
    )

    def wall_tiles(self, opts):
        return [t for t in range(T.NUM_KINDS) for _ in range(4)] + list(range(34, 42))

    def new_match(self, opts, hands_total=None):
        # Winds stay with the seats for the match (drawn once; here: seat 2 is East).
        return MatchState(dealer=2, seat_winds=(2, 3, 0, 1), hands_total=hands_total)

    def on_new_hand(self, state, rng):
        spot = len(state.wall) // 2 + rng.below(10)
        state.indicator = state.wall.pop(spot)
        state.dead.append(state.indicator)
        state.vs = {"lou_hu": [None] * 4, "barred": [[] for _ in range(4)]}

    def wild_kinds_for(self, indicator, opts):
        if indicator in SEASONS:
            return SEASONS
        if indicator in PLANTS:
            return PLANTS
        return frozenset({indicator})

    def is_bonus(self, state, tile):
        return T.is_flower(tile) and not self.is_wild(state, tile)

    def win_shapes(self, state, seat):
        concealed = not state.melds[seat]
        return {"seven_pairs": False, "thirteen_orphans": concealed}

    def multiple_winners(self, opts):
        return not opts.one_winner_only

    # 吃张打张: after a chow, neither the claimed kind nor the other end of the shape.
    def on_claimed(self, state, seat, meld, tile, events):
        state.vs["lou_hu"][seat] = None  # Guangzhou: one's own claim lifts 漏胡 too
        if meld.kind == "chi":
            used = [t for t in meld.tiles if t != tile]
            barred = [tile]
            lo, hi = min(used), max(used)
            if hi - lo == 1:  # an open-ended shape: the other end too
                other = lo - 1 if tile == hi + 1 else hi + 1
                if T.is_suited(other) and other // 9 == lo // 9:
                    barred.append(other)
            state.vs["barred"][seat] = barred

    def on_discard(self, state, seat, tile, events):
        state.vs["barred"][seat] = []

    def discard_choices(self, state, seat):
        kinds = sorted(set(state.hands[seat]))
        allowed = [k for k in kinds if k not in state.vs["barred"][seat]]
        return allowed or kinds

    def on_draw(self, state, seat, tile, events):
        state.vs["lou_hu"][seat] = None

    def on_win_passed(self, state, seat, claim):
        state.vs["lou_hu"][seat] = claim["tile"]

    def win_score(self, state, seat, ctx, *, on_discard):
        if on_discard and state.vs["lou_hu"][seat] == ctx.win_tile:
            return None
        return super().win_score(state, seat, ctx, on_discard=on_discard)

    def score(self, ctx, opts):
        c, wilds = self.split_wilds_for_indicator(ctx.full_hand, ctx.wild, opts)
        if not analysis.is_winning(c, wilds, seven_pairs=False, thirteen_orphans=not ctx.melds):
            return Score(win=False, reason="not a winning hand")
        items = [ScoreItem("hu", 1)]
        if ctx.flowers:
            items.append(ScoreItem("hua", opts.tai_values["hua"] * len(ctx.flowers)))
        if ctx.self_drawn:
            items.append(ScoreItem("zi_mo", opts.tai_values["zi_mo"]))
        return Score(win=True, items=tuple(items), total=sum(i.value for i in items))

    def on_wins(self, state, wins, events):
        for w in wins:
            amount = w["total"] * state.rules.base
            payers = (
                [w["from"]] if w["from"] is not None else [p for p in range(4) if p != w["seat"]]
            )
            for p in payers:
                transfer(state, p, w["seat"], amount, "hu")

    def next_match(self, match, state):
        winner = state.win_order[0] if state.win_order else None
        stays = winner is None or winner == state.dealer
        nxt = state.dealer if stays else (state.dealer + 1) % 4
        return match.after_hand(nxt, stays=stays, fixed_winds=True)

    def project(self, state, seat):
        return {}, [{} for _ in range(4)]


def ensure_registered() -> Variant:
    try:
        return get_variant(FlowerTest.key)
    except ValueError:
        return register(FlowerTest())
