"""宁波麻将 Ningbo (../shared/rules/ningbo.md): the flow.

Scoring (the 百搭 wilds, the 台 items, ``T = 1 + Σ台``, ``min_tai``, 百搭单吊,
payments) is in ``tai``; this module wires it into the hand: 144 tiles,
two seeded dice that break the wall and turn up the 百搭 indicator (set aside,
so draws from either end skip it), flowers laid out and replaced from the back
(补花 at the deal, 杠花 on a draw: a win on that replacement is 杠上开花),
chow by the next player with 吃张打张 barred, no kong in the turn of a claim,
one winner (截胡: the first after the discarder), the dealer staying on a
dealer win or 荒庄.

Its part of the hand state (``state.vs``):

* ``dice``: the two dice ``[d1, d2]`` (public);
* ``barred``: per seat, the kinds it may not discard this turn (吃张打张);
* ``lou_hu``: per seat, the kinds it passed a win on (漏胡: barred from discards and
  robbed kongs until its own next draw); absent until a first pass, so a hand in which
  nobody passes a win keeps the state it had before the bar existed.

Readings of points the spec leaves open are in ``games/rules/README.md``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ... import analysis
from ... import tiles as T
from ...model import WinContext
from ...money import transfer
from ...options import Options
from ..base import Variant
from ..registry import register
from .bounds import reaches_min_tai, tai_bounds
from .options import NINGBO_OPTIONS
from .site import TABLE_UI
from .tai import pattern_names, score, win_payments
from .wilds import hand_waits, split_wilds, split_wilds_by, wild_kinds, wild_kinds_by

STACKS_PER_WALL = 18  # 144 tiles: four walls of 18 stacks of two
TILES_PER_WALL = 2 * STACKS_PER_WALL


class Ningbo(Variant):
    key = "ningbo"
    order = 4
    table_ui = TABLE_UI
    name_zh = "宁波麻将"
    name_en = "Ningbo"
    description_zh = "144 张含八张花，掷骰翻百搭；可吃碰杠，补花杠花，起胡四台，台数相加计分。"
    description_en = (
        "144 tiles with eight flowers and a wild (百搭) turned up by the dice; chow, pung "
        "and kong; flowers are laid out and replaced; a win needs 4 台 and is worth 1 + its 台."
    )
    options = NINGBO_OPTIONS
    allows_chow = True
    leave_ends_match = True
    plays_winds = True  # 门风刻, 圈风刻, 正花

    def win_points(self, total: int, opts: Options) -> int:
        return total * opts.base  # T: the 台 total times the base

    def pattern_names(self):
        return pattern_names()

    # --- the deal ------------------------------------------------------------------
    def ready_countdown(self, rules):
        return rules.get("auto_ready_seconds")

    def wall_tiles(self, opts):
        suits = [t for t in range(T.NUM_KINDS) for _ in range(4)]
        return suits + list(range(T.FLOWER, T.NUM_TILES))

    def break_wall(self, wall, dealer, opts, rng):
        """Two dice: their sum counts from the dealer to the wall the deal starts from,
        the larger die the stacks skipped there.  The shuffled ring is seat ``k``'s wall
        at tiles ``36k .. 36k + 35``; the deal begins after the skipped stacks."""
        d1, d2 = rng.dice()
        start_wall = (dealer + d1 + d2 - 1) % 4
        start = start_wall * TILES_PER_WALL + 2 * max(d1, d2)
        wall[:] = wall[start:] + wall[:start]
        return {"dice": [d1, d2], "barred": [[] for _ in range(4)]}

    def deal_procedure(self, opts):
        seasons = list(range(T.FLOWER, T.FLOWER + 4))
        plants = list(range(T.FLOWER + 4, T.NUM_TILES))
        return {
            **super().deal_procedure(opts),
            "break": {"op": "dice_rotate", "wall": TILES_PER_WALL},
            "after": [{"op": "indicator", "at": "small_die"}],
            # A flower indicator makes its set of four wild: those are kept, not laid out.
            "bonus": {"tiles": seasons + plants, "wild_sets": [seasons, plants]},
        }

    def on_new_hand(self, state, rng):
        # The smaller die counts stacks from the end of the wall; the top tile of that
        # stack is turned up.  It is never drawn, from either end: out of the live wall.
        small = min(state.vs["dice"])
        state.indicator = state.wall.pop(len(state.wall) - 2 * small)
        state.dead.append(state.indicator)

    def is_bonus(self, state, tile):
        return T.is_flower(tile) and not self.is_wild(state, tile)

    # --- tiles and shapes -------------------------------------------------------------
    def wild_kinds_for(self, indicator, opts):
        return wild_kinds(indicator, opts)

    def wild_kinds(self, state):
        # ``wild_kinds_for`` without its layers: the engine and the bots ask it of every
        # tile they weigh.
        return wild_kinds_by(state.indicator, state.rules.get("wild_kinds"))

    def is_wild(self, state, tile):
        return tile in wild_kinds_by(state.indicator, state.rules.get("wild_kinds"))

    def split_wilds_for_indicator(self, tiles, indicator, opts):
        return split_wilds(tiles, indicator, opts)

    def split_wilds(self, state, seat, tiles):
        # ``split_wilds_for_indicator`` without its layers: the engine asks it of every
        # seat's hand at every discard.
        c, wilds = split_wilds_by(tuple(tiles), state.indicator, state.rules.get("wild_kinds"))
        return list(c), wilds

    def shape_counts_for(self, tiles, indicator, opts):
        return split_wilds_by(tuple(tiles), indicator, opts.get("wild_kinds"))  # a tuple

    def win_shapes(self, state, seat):
        return {
            "seven_pairs": state.rules.qi_dui and not state.melds[seat],
            "thirteen_orphans": False,
        }

    # --- claims and the turn ----------------------------------------------------------
    def on_claimed(self, state, seat, meld, tile, events):
        if meld.kind != "chi":
            return
        # 吃张打张: not the claimed kind, nor the tile making the same shape with the two
        # tiles used (chowing 1m with 2m3m bars 1m and 4m).
        used = sorted(t for t in meld.tiles if t != tile)
        barred = [tile]
        if used[1] - used[0] == 1:
            other = used[0] - 1 if tile > used[1] else used[1] + 1
            if T.is_suited(other) and other // 9 == used[0] // 9:
                barred.append(other)
        state.vs["barred"][seat] = barred

    def on_discard(self, state, seat, tile, events):
        state.vs["barred"][seat] = []
        # A seat whose tiles win on this discard but not by the rules (too few 台, 百搭单吊)
        # is told why, privately: no 胡 is offered to it.
        flags = frozenset() if state.wall else frozenset({"last_tile"})
        for k in ((seat + d) % 4 for d in (1, 2, 3)):
            refused = self._refused(state, k, state.hands[k], tile, "discard", flags)
            if refused is not None:
                events.append(
                    {"type": "WinRefused", "seat": k, "only": k, "tile": T.to_str(tile), **refused}
                )

    def on_draw(self, state, seat, tile, events):
        bars = state.vs.get("lou_hu")
        if bars is not None:
            bars[seat] = []  # 漏胡 lifts at one's own draw (a replacement included)

    def on_win_passed(self, state, seat, claim):
        kinds = state.vs.setdefault("lou_hu", [[] for _ in range(4)])[seat]
        if claim["tile"] not in kinds:
            kinds.append(claim["tile"])

    def discard_choices(self, state, seat):
        kinds = sorted(set(state.hands[seat]))
        barred = state.vs["barred"][seat]
        if not barred:
            return kinds
        allowed = [k for k in kinds if k not in barred]
        return allowed or kinds  # a hand of barred tiles only still discards

    def explain(self, state, seat, action):
        if action["type"] == "discard" and T.parse_one(action["tile"]) in state.vs["barred"][seat]:
            return "chi_zhang_da_zhang", "吃张打张: after a chow you may not discard that tile"
        return None

    # --- wins -------------------------------------------------------------------------
    def win_score(self, state, seat, ctx, *, on_discard):
        if on_discard and ctx.win_tile in state.vs.get("lou_hu", [[]] * 4)[seat]:
            return None  # 漏胡: only the passed kind, until one's own draw
        result = self.score(ctx, state.rules)
        return result if result.win else None

    def score(self, ctx, opts):
        return score(ctx, opts)

    def refused_win(self, state, seat):
        """Why ``seat`` cannot take a win its tiles make now (too few 台, 百搭单吊): the
        score's ``extra`` with its reason, or None.  Only ``seat`` may see it."""
        if state.phase == "play" and state.turn == seat and state.turn_kind != "claim":
            hand = list(state.hands[seat])
            if not hand:
                return None
            tile = state.drawn if state.drawn is not None else hand[-1]
            hand.remove(tile)
            win_type, flags = "self_draw", []
            if state.turn_kind == "kong":
                flags.append("after_kong")
            if state.turn_kind in ("draw", "kong") and not state.wall:
                flags.append("last_tile")
        elif state.phase == "claim" and seat in state.claim["options"]:
            hand, tile = list(state.hands[seat]), state.claim["tile"]
            win_type = "rob_kong" if state.claim["kind"] == "rob_kong" else "discard"
            flags = []
        else:
            return None
        return self._refused(state, seat, hand, tile, win_type, frozenset(flags))

    def _refused(self, state, seat, hand, tile, win_type, flags):
        opts = state.rules
        if (
            tile < T.NUM_KINDS
            and len(hand) % 3 == 1
            and tile not in wild_kinds(state.indicator, opts)
        ):
            # The hand's waits answer for an ordinary tile (asked for three seats at
            # every discard, so remembered by the hand's tiles).
            seven = opts.qi_dui and not state.melds[seat]  # as ``win_shapes`` says
            mode = opts.get("wild_kinds")
            if tile not in hand_waits(tuple(hand), state.indicator, mode, seven):
                return None
        shapes = self.win_shapes(state, seat)
        c, wilds = self.split_wilds(state, seat, [*hand, tile])
        if not analysis.is_winning(c, wilds, **shapes):
            return None
        ctx = self.win_context(state, seat, hand, tile, win_type, flags)
        result = self.score(ctx, state.rules)
        if result.win or "refused" not in result.extra:
            return None
        return {**result.extra, "reason": result.reason}

    # --- money ------------------------------------------------------------------------
    def on_wins(self, state, wins, events):
        for w in wins:
            payer = None if w["win_type"] == "self_draw" else w["from"]
            for p, amount in win_payments(w["seat"], w["total"], state.rules, payer=payer):
                transfer(state, p, w["seat"], amount, "hu", win=w["order"])

    def explain_win(self, state, win):
        """How T became the payment, and who paid it."""
        base, t = state.rules.base, win["total"]
        value = t * base
        zh = f"1 + {t - 1} 台 = {t} × 底分 {base} = {value}"
        en = f"1 + {t - 1} tai = {t} × base {base} = {value}"
        if win["win_type"] == "self_draw":
            zh += f"；自摸：每家付 {value}"
            en += f"; self-draw: each player pays {value}"
        elif win["win_type"] == "rob_kong":
            zh += f"；抢杠：开杠者付 {value}"
            en += f"; robbed kong: the kong's maker pays {value}"
        else:
            zh += f"；点炮者付 {value}"
            en += f"; the discarder pays {value}"
        return {"zh-hans": zh, "en": en, "value": value}

    # --- the next hand ----------------------------------------------------------------
    def next_dealer(self, state):
        if state.win_order and state.win_order[0] != state.dealer:
            return (state.dealer + 1) % 4  # a non-dealer wins: the dealer's next player
        return state.dealer  # the dealer wins, or 荒庄: the dealer stays

    # --- what seats see ---------------------------------------------------------------
    def project(self, state, seat):
        top = {"dice": list(state.vs["dice"]), "min_tai": state.rules.min_tai}
        players = [{} for _ in range(4)]
        if seat is not None:
            players[seat]["win_refused"] = self.refused_win(state, seat)
        return top, players

    # --- bots -------------------------------------------------------------------------
    # Four pungs laid down and a lone tile is 碰碰胡, 大吊 and 单吊: 4 台, a discard win.
    bot_pung_road = True

    def bot_turn_override(self, state, seat, legal):
        """Aim for ``min_tai``: when several discards leave the hand ready, keep to those
        whose wait wins with enough 台 on a self-draw (the generic choice among them), so
        a ready hand that cannot win is reshaped as soon as a draw allows."""
        if any(a["type"] != "discard" for a in legal):
            return None  # a win or a kong: the generic plan
        from ...bots import choose_among_discards
        from ...heuristics import counts_shanten

        hand = state.hands[seat]
        c, wilds = self.split_wilds(state, seat, hand)
        seven = self.win_shapes(state, seat)["seven_pairs"]
        if counts_shanten(tuple(c), wilds, seven) > 0:
            return None  # no discard leaves the hand ready (a tile more never adds a step)
        ready = []
        wild = self.wild_kinds_for(state.indicator, state.rules)
        for a in legal:
            # The counts after this discard, from the hand's own (as ``split_wilds``
            # reads a tile): only the discards that leave the hand ready matter.  Ready
            # is 向听 0, remembered by the counts: the generic choice asks the same.
            tile = T.parse_one(a["tile"])
            after, left = list(c), wilds
            if tile in wild:
                left -= 1
            elif tile < T.NUM_KINDS:
                after[tile] -= 1
            if counts_shanten(tuple(after), left, seven) == 0:
                ready.append((a, tile))
        if len(ready) < 2:
            return None
        winning = []
        for a, tile in ready:
            rest = list(hand)
            rest.remove(tile)
            if self.bot_wait_wins(state, seat, rest):
                winning.append(a)
        if not winning or len(winning) == len(ready):
            return None
        return choose_among_discards(state, seat, winning)

    def bot_discard_rank(self, state, seat, tile, rest):
        return 2 if self.is_wild(state, tile) else 1  # keep wilds: they fit anywhere

    def bot_wait_wins(self, state, seat, rest, tries: int = 3) -> bool:
        """Whether the ready hand ``rest`` wins, with enough 台, on a self-draw of one of
        its likeliest waits (the ``tries`` kinds it holds fewest of)."""
        # The win's context with any tile: its waits and their wins follow from it.
        ctx = self.win_context(state, seat, rest, 0, "self_draw", frozenset())
        return _wait_wins(ctx, state.rules, tries)


@lru_cache(maxsize=16384)
def _wait_wins(ctx: WinContext, opts: Options, tries: int) -> bool:
    """``Ningbo.bot_wait_wins`` by the win's context (its tile aside), remembered: a
    ready hand that draws and throws a tile weighs the same rests again."""
    c, wilds = split_wilds(ctx.hand, ctx.wild, opts)
    waits = analysis.waits(c, wilds, seven_pairs=opts.qi_dui and not ctx.melds)
    likeliest = sorted(waits, key=lambda k: (c[k], k))[:tries]
    # The 台 bound of every wait in one go: a wait below min_tai on it is refused by
    # ``reaches_min_tai`` before any reading, so it is not asked.
    bounds = tai_bounds(ctx, opts, likeliest)
    for kind, bound in zip(likeliest, bounds, strict=True):
        if bound >= opts.min_tai and reaches_min_tai(
            replace(ctx, win_tile=kind), opts, bound=bound
        ):
            return True
    return False


NINGBO = register(Ningbo())
