"""The interface every variant implements.

A variant is one object with a stable key (registered in ``registry.py``).
The generic engine (``engine.py``) runs the flow every rule set shares (deal,
draw, discard, claim windows, kongs, wins, the end of the wall) and asks the
variant every question on which rule sets differ.  Nothing outside
``variants/`` branches on a key, and whatever one variant alone keeps in the
hand lives in ``state.vs``, which only the variant reads.

This module imports no engine module: the engine depends on the interface,
never the other way round.
"""

from __future__ import annotations

from .. import tiles as T
from ..match import MatchState
from ..model import Score, WinContext
from ..options import Options, OptionSet


class Variant:
    key: str = ""
    name_zh: str = ""
    name_en: str = ""
    description_zh: str = ""
    description_en: str = ""
    options: OptionSet
    #: offered to players (a test-only variant is registered unlisted)
    listed: bool = True
    #: where the site lists it (the first listed is the lobby's default)
    order: int = 100

    #: chow claims allowed (next player only)
    allows_chow: bool = False
    #: a kong (of any kind) may be declared on the turn of a claimed pung/chow
    kong_on_claim_turn: bool = False
    #: a 面下杠 needs the fourth tile drawn after the pung (one held then never counts)
    added_kong_needs_drawn_fourth: bool = False
    #: variant-only action types and their fields, e.g. ``{"ding_que": {"suit"}}``
    action_fields: dict[str, set[str]] = {}
    #: a player leaving (or the room closing) ends the match, not just the hand; the
    #: room (outside the engine) acts on it
    leave_ends_match: bool = False

    def ready_countdown(self, rules: dict) -> int | None:
        """Seconds the last player not ready gets before the next hand starts anyway, from
        a room's stored rules (None: the room waits); the room (outside the engine) acts on it."""
        return None

    def resolve_options(self, *layers) -> Options:
        return self.options.resolve(*layers)

    def upgrade_state(self, d: dict) -> dict:
        """A stored snapshot's variant part in today's shape (see ``state.upgrade``)."""
        return d

    # --- the match and the deal ----------------------------------------------------
    def new_match(self, opts: Options, hands_total: int | None = None) -> MatchState:
        """The match before its first hand (default: the dice pick the first dealer)."""
        return MatchState(dealer=None, hands_total=hands_total)

    def wall_tiles(self, opts: Options) -> list[int]:
        raise NotImplementedError

    def break_wall(self, wall: list[int], dealer: int, opts: Options, rng) -> dict:
        """Break the shuffled wall open before the deal: rotate ``wall`` in place (the
        deal and draws take its front, replacements its back).  Returns the hand's first
        ``state.vs`` (e.g. the dice).  Default: no dice rolled, the wall as shuffled.

        ``rng`` is the deal's :class:`~games.rules.rng.SeedStream` (``below``,
        ``shuffle``, ``dice``), after the dealer's dice and the shuffle: what it draws
        here is part of the documented deal, so a change re-deals every stored hand."""
        return {}

    def on_new_hand(self, state, rng) -> None:
        """After the deal: the indicator (into ``state.dead``), ``state.vs``, …
        ``rng`` is the same stream, after the break (e.g. Sichuan's 换三张 direction)."""

    def is_bonus(self, state, tile: int) -> bool:
        """A tile laid out when drawn or dealt and replaced from the back (flowers)."""
        return False

    def setup_phases(self, opts: Options) -> tuple[str, ...]:
        """Simultaneous choices made after the deal, before the dealer's first turn."""
        return ()

    def phase_actions(self, state, seat: int) -> list[dict]:
        """Legal actions of a setup phase for ``seat`` (empty once chosen)."""
        return []

    def phase_apply(self, state, seat: int, action: dict, events: list) -> str | None:
        """Record a setup-phase choice on a cloned state; a reason string rejects it.
        Set ``state.phase = "play"`` when the last setup phase is over."""
        return "no setup phase"

    def canonical_action(self, action: dict) -> dict | str:
        """A variant action's fields, checked; a string is the reason it is malformed."""
        return {"type": action["type"]}

    def explain(self, state, seat: int, action: dict) -> tuple[str, str] | None:
        """A clearer ``(code, reason)`` for an illegal action, where the variant has one."""
        return None

    # --- tiles and shapes -------------------------------------------------------------
    def wild_kinds_for(self, indicator: int | None, opts: Options) -> frozenset[int]:
        """The kinds that are wild given the indicator tile (none by default)."""
        return frozenset()

    def wild_kinds(self, state) -> frozenset[int]:
        if state.indicator is None:
            return frozenset()
        return self.wild_kinds_for(state.indicator, state.rules)

    def is_wild(self, state, tile: int) -> bool:
        return state.indicator is not None and tile in self.wild_kinds(state)

    def shape_kind(self, indicator: int | None, opts: Options, tile: int) -> int:
        """The kind a (non-wild) tile plays as in a shape (a stand-in's, or its own)."""
        return tile

    def split_wilds_for_indicator(
        self, tiles, indicator: int | None, opts: Options
    ) -> tuple[list[int], int]:
        """A hand's count vector (34 kinds) without its wilds, and how many wilds it holds."""
        kinds = self.wild_kinds_for(indicator, opts) if indicator is not None else frozenset()
        c = [0] * T.NUM_KINDS
        if not kinds and type(self).shape_kind is Variant.shape_kind:
            # No wilds and every tile its own kind (Sichuan, Guangzhou): a plain count,
            # asked for every seat's waits at every move.
            for t in tiles:
                if t < T.NUM_KINDS:
                    c[t] += 1
            return c, 0
        wilds = 0
        for t in tiles:
            if t in kinds:
                wilds += 1
            else:
                k = self.shape_kind(indicator, opts, t)
                if k < T.NUM_KINDS:
                    c[k] += 1
        return c, wilds

    def split_wilds(self, state, seat: int, tiles) -> tuple[list[int], int]:
        return self.split_wilds_for_indicator(tiles, state.indicator, state.rules)

    def shape_counts_for(self, tiles, indicator: int | None, opts: Options):
        """``split_wilds_for_indicator`` with the counts as a tuple, the key the bots'
        memos take (they ask it of every discard they weigh)."""
        c, wilds = self.split_wilds_for_indicator(tiles, indicator, opts)
        return tuple(c), wilds

    def win_shapes(self, state, seat: int) -> dict[str, bool]:
        """Which shapes the quick pre-check tries (the scorer has the last word)."""
        concealed = not state.melds[seat]
        return {"seven_pairs": concealed, "thirteen_orphans": concealed}

    # --- the turn ---------------------------------------------------------------------
    def discard_choices(self, state, seat: int) -> list[int]:
        """Kinds ``seat`` may discard now (default: anything held)."""
        return sorted(set(state.hands[seat]))

    def may_claim(self, state, seat: int, source: int, tile: int, kind: str) -> bool:
        """Whether ``seat`` may ``kind`` ("chi"/"peng"/"gang") the discarded ``tile``."""
        return True

    def may_kong(self, state, seat: int, tile: int, added: bool) -> bool:
        """Whether ``seat`` may declare a kong of ``tile`` on its own turn."""
        if added and self.added_kong_needs_drawn_fourth:
            return tile not in state.vs.get("held_at_pung", {}).get(str(seat), [])
        return True

    def on_claimed(self, state, seat: int, meld, tile: int, events: list) -> None:
        """After a chow/pung/kong claim of the discarded ``tile`` (bookkeeping for bars)."""
        if meld.kind == "peng" and self.added_kong_needs_drawn_fourth:
            if meld.tile in state.hands[seat]:
                stale = state.vs.setdefault("held_at_pung", {}).setdefault(str(seat), [])
                stale.append(meld.tile)

    def on_draw(self, state, seat: int, tile: int, events: list) -> None:
        """After ``seat`` draws (a normal draw or a replacement): bars that lift, …"""

    def on_discard(self, state, seat: int, tile: int, events: list) -> None:
        """After ``seat`` discards ``tile``, before the claim window opens."""

    def own_turn_actions(self, state, seat: int) -> list[dict]:
        """Variant actions offered on one's own turn, besides win, kong and discard."""
        return []

    def apply_own_turn(self, state, seat: int, action: dict, events: list) -> None:
        raise AssertionError(f"no own-turn action {action['type']}")

    # --- wins -------------------------------------------------------------------------
    def win_context(self, state, seat: int, hand, tile: int, win_type: str, flags) -> WinContext:
        """What ``score`` needs to know about a win at this table."""
        match = state.match
        kong = state.kongs[state.kong_turn] if state.kong_turn is not None else None
        return WinContext(
            hand=tuple(hand),
            melds=tuple(state.melds[seat]),
            win_tile=tile,
            win_type=win_type,
            flags=flags,
            seat_wind=match.seat_winds[seat] if match.seat_winds else None,
            round_wind=match.prevailing,
            wild=state.indicator,
            flowers=tuple(state.flowers[seat]),
            kong_chain=kong["chain"] if kong is not None and "after_kong" in flags else 0,
            dealer=seat == state.dealer,
        )

    def win_score(self, state, seat: int, ctx: WinContext, *, on_discard: bool) -> Score | None:
        """Score a possible win, or None where the variant forbids it here.

        By default a discarded wild cannot be won on (README: "a discarded wild can
        be claimed by nobody")."""
        if on_discard and self.is_wild(state, ctx.win_tile):
            return None
        score = self.score(ctx, state.rules)
        return score if score.win else None

    def on_win_passed(self, state, seat: int, claim: dict) -> None:
        """``seat`` could win on the claim window's tile and chose otherwise (漏胡)."""

    def multiple_winners(self, opts: Options) -> bool:
        """Every claimant wins on one discard (一炮多响)."""
        return False

    def claim_winners(self, state, source: int, claimants: list[int]) -> list[int]:
        """Who wins among the seats that claimed 胡 (in turn order from ``source``).

        Default: all of them with 一炮多响, else the first in turn order after the
        discarder (截胡)."""
        if self.multiple_winners(state.rules):
            return claimants
        return claimants[:1]

    def forced_win(self, state) -> bool:
        """Whether a seat that can win must (Sichuan's last four tiles)."""
        return False

    def score(self, ctx: WinContext, opts: Options) -> Score:
        """Score one win: a :class:`Score` (``win=False`` with a reason when illegal)."""
        raise NotImplementedError

    def win_points(self, total: int, opts: Options) -> int:
        """What one payer pays for a win whose score totals ``total`` (before any
        dealer or self-draw factor): for bots weighing a plan."""
        return total

    def dead_suit(self, state, seat: int) -> int | None:
        """A suit the seat cannot win with (for bots' planning), if any."""
        return None

    def declared_dead_suit(self, state, seat: int) -> int | None:
        """A suit the seat has openly declared it will not win with (Sichuan 定缺): it is
        thrown first, so others read the seat's readiness from its later discards."""
        return None

    # --- money ------------------------------------------------------------------------
    def on_kong(self, state, record: dict, events: list) -> None:
        """Payments due at once for a completed kong (Sichuan 刮风下雨)."""

    def on_wins(self, state, wins: list[dict], events: list) -> None:
        """Payments for one or more wins on the same tile."""
        raise NotImplementedError

    def hand_over_after_win(self, state) -> bool:
        return True

    def on_wall_exhausted(self, state, events: list) -> None:
        """Anything the live flow does when the wall runs out (settlement is ``settle``)."""

    def on_leave(self, state, seat: int, events: list) -> None:
        """Penalty for leaving a hand in progress."""

    def settle(self, state) -> tuple[list[dict], dict]:
        """End-of-hand settlement of a finished hand: the transfers it adds and details.

        Pure: it reads the final state and returns ``(transfers, details)``; the
        engine's ``settle`` adds the hand's live transfers and the totals."""
        return [], {}

    # --- names for people ------------------------------------------------------------
    #: transfer reasons every variant may use
    SHARED_REASONS = {
        "hu": {"zh-hans": "胡", "en": "Win"},
        "escape": {"zh-hans": "逃跑", "en": "Left the table"},
    }

    def explain_win(self, state, win: dict) -> dict | None:
        """A win's value written out for players: ``{"zh-hans", "en", "value"}`` or None."""
        return None

    #: seat and prevailing winds count in scoring (the table shows the round's wind)
    plays_winds: bool = False

    def pattern_names(self) -> dict[str, dict[str, str]]:
        """Display names of this variant's scoring item ids: ``{id: {"zh-hans", "en"}}``."""
        return {}

    def reason_names(self) -> dict[str, dict[str, str]]:
        """Display names of the transfer reasons this variant's money uses."""
        return dict(self.SHARED_REASONS)

    # --- what the site shows (served to the browser as data) ---------------------------
    #: the table page's extras for this variant (its ``site.py``), texts ``{"zh-hans", "en"}``:
    #: ``setup`` (one entry per setup phase: its action and its ``label``, a ``choose`` of buttons
    #: or a ``pick`` of tiles, prompts, the ``timeout`` words for a move the clock made), ``mark``
    #: (a per-seat view field shown as a badge, whose suit's tiles are marked and go first),
    #: ``note`` (a view field said until play starts), ``refusals`` (a refused win's words by its
    #: ``refused``), ``result`` (the unit, ``combine`` "add" or "times", the ``base`` a hand is
    #: worth before its items, ``capped``), ``end_checks`` (settlement details shown at the end),
    #: ``errors`` (the words for its rejection codes), ``help`` (how-to-play lines) and
    #: ``main_rules`` (option ids shown up front: in the create form outside "More rules", a
    #: table's value unlabelled), ``badge`` (a view field shown beside the dealer's streak:
    #: ``field``, ``text``, ``help``).
    table_ui: dict = {}

    def site_data(self) -> dict:
        """``table_ui`` with every part present (the generic defaults where it has none)."""
        return {
            "key": self.key,
            "name": {"zh-hans": self.name_zh, "en": self.name_en},
            "setup": [],
            "mark": None,
            "note": None,
            "refusals": {},
            "result": {"unit": {"zh-hans": "番", "en": "fan"}, "combine": "add", "base": 0},
            "end_checks": None,
            "errors": {},
            "help": [],
            "main_rules": [],
            "badge": None,
            **self.table_ui,
        }

    def deal_procedure(self, opts: Options) -> dict:
        """The deal as data, for the browser's fairness check (``static/js/fair.js``): the
        unshuffled ``tiles``; the ``break`` of the shuffled wall (None, or ``{"op":
        "dice_rotate", "wall": n}``: two dice, start = n × ((dealer + d1 + d2 − 1) mod 4) +
        2 × max); the ``after`` steps drawn after the deal (``{"op": "below", "n": n}``,
        ``{"op": "indicator", "at": "last" | "small_die"}``); ``bonus`` tiles laid out and
        replaced from the back (None, or ``{"tiles": [...], "wild_sets": [[...], ...]}``:
        a set holding the indicator is wild, not bonus).  It must say exactly what
        ``wall_tiles``, ``break_wall``, ``on_new_hand`` and ``is_bonus`` do
        (``tests/games/test_fair_js.py`` deals both ways)."""
        return {"tiles": self.wall_tiles(opts), "break": None, "after": [], "bonus": None}

    # --- the next hand ----------------------------------------------------------------
    def next_dealer(self, state) -> int | None:
        """Dealer of the next hand; None to roll dice for it."""
        return None

    def next_match(self, match: MatchState, state) -> MatchState:
        """The match after this finished hand (next dealer, streak, winds…)."""
        dealer = self.next_dealer(state)
        return match.after_hand(dealer, stays=dealer == state.dealer)

    # --- what seats see ---------------------------------------------------------------
    def project(self, state, seat: int | None) -> tuple[dict, list[dict]]:
        """The variant's part of ``seat``'s view: top-level fields and per-player fields.
        Nothing concealed from ``seat`` may appear in it."""
        return {}, [{} for _ in range(4)]

    # --- how bots play it (games/rules/bots.py asks) ----------------------------------
    def bot_setup_action(self, state, seat: int, legal: list[dict]) -> dict:
        """A bot's choice in a setup phase."""
        return legal[0]

    def bot_turn_override(self, state, seat: int, legal: list[dict]) -> dict | None:
        """A variant plan that beats the generic one on the bot's turn (even a win)."""
        return None

    #: The strong bot never folds here (what folding gives up is worth more than a deal-in
    #: costs: Sichuan's 查大叫, Guangzhou's self-draws).
    bot_never_folds: bool = False
    #: What a deal-in costs the strong bot, in its own plain win; None for its default.
    bot_deal_in_cost: float | None = None
    #: The strong bot heads for all pungs, claiming every pung, when its hand has the
    #: pairs for it (where a pung hand laid down wins on a discard: Ningbo's 大吊).
    bot_pung_road: bool = False

    def bot_discard_rank(self, state, seat: int, tile: int, rest: list[int]) -> int:
        """Among discards keeping the same 向听, lower is preferred (default: no view)."""
        return 0
