"""The strong bot: plays for expected value and defends, from its own seat's view.

Honest by construction: :func:`seat_state` turns the state into what ``seat`` may
know.  Every tile the seat cannot see (the other hands, the wall, the dead wall) is
dealt again from the same unseen multiset in one fixed order, and the other seats'
claim options go, so nothing below can read a hidden tile, even by mistake.

A decision compares expected values in points:

* **winning** — for each discard, every plan the hand can take (any winning shape,
  a one-suit flush, a half flush, all pungs, seven pairs, and the flush forms of the
  last two) is scored by its 向听, its acceptance (进张: how many copies of the kinds
  that bring it closer remain unseen) and the points a representative hand of that
  plan scores under the table's rules (0 when it would not be allowed to win, e.g.
  below Guangzhou's minimum fan or Ningbo's ``min_tai``).  A ready hand is valued
  exactly: its waits, the copies of each still unseen, and what each win scores.
  The chance of getting there is the chance of enough useful draws before the wall
  runs out;
* **defence** — each opponent looks ready with a probability that grows with its
  discards (in Sichuan, from its first discard outside its 定缺: a hand still holding
  that suit cannot win) and exposed melds; a tile's danger is how likely such a hand waits on it
  (lower for tiles that seat threw, for terminals and honours, for kinds mostly seen,
  nil for a suit it cannot win with) times what a win costs.  When the hand is far
  from winning the danger outweighs the small chance of winning, so it folds (not in
  Sichuan, where a hand not ready at the end pays 查大叫);
* **claims** — a pung or chow is taken when it brings the hand a step closer and the
  best discard after it is worth about as much as waiting; a kong when it costs no
  step; a win on a discard is passed only for a likelier and larger self-draw (every
  other player pays it) with the wall still long;
* **setup** — 换三张 gives the weakest suit's loneliest tiles, 定缺 drops the weakest
  suit (fewest tiles, then fewest pairs and neighbours).

Where the variant has a plan of its own for the turn (``Variant.bot_turn_override``:
Hangzhou's 财飘 and 暴头 wait instead of a ×1 win, Guangzhou's early flush, Ningbo's
wait that reaches ``min_tai``), it is followed unless the bot is folding.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from . import analysis
from . import tiles as T
from .engine import legal_actions
from .heuristics import _shanten, isolation, shape_counts
from .hints import _fan
from .hints import _seen as hint_seen
from .model import Meld
from .state import HandState
from .variants.registry import get_variant

# A win collects from one discarder or from three on a self-draw: its points times this.
_GAIN = 1.8
# A ready hand also wins on the others' discards: its draws count this many times more.
_READY_CLAIM = 1.8
# Fold (play the safest tile) at 向听 2+ or 1+ once an opponent looks this ready.
_FOLD = (0.6, 0.85)
# How much a plain hand is worth, as a share of the cheapest plan, where it alone
# would not be allowed to win.
_INCIDENTAL = 0.6
# A self-draw must be worth this many times a win on the discard to pass the latter.
_SELF_DRAW_MARGIN = 1.5
# A claim that brings the hand a step closer is taken when worth this share of
# waiting or more (the estimate of waiting is the more optimistic of the two).
_CLAIM_MARGIN = 0.9
# Waits scored exactly at most (the likeliest first); the rest take their mean value.
_MAX_SCORED_WAITS = 6
# What a deal-in costs, in the seat's own plain win.
_DEAL_IN = 2.5
# (A variant may set its own: ``Variant.bot_deal_in_cost``, ``Variant.bot_never_folds``.)
# Turns an opponent is taken to have played before its first discard outside a suit it
# declared dead (``Variant.declared_dead_suit``).
_DEAD_SUIT_TURNS = 2


# --------------------------------------------------------------------------
# What the seat may know


def seat_state(s: HandState, seat: int) -> HandState:
    """``s`` as ``seat`` may know it: the hidden tiles re-dealt in a fixed order."""
    m = s.clone()
    hidden_hands = [k for k in range(4) if k != seat and s.won[k] is None]
    pool = sorted([t for k in hidden_hands for t in s.hands[k]] + list(s.wall) + list(s.dead))
    i = 0
    for k in hidden_hands:
        n = len(s.hands[k])
        m.hands[k] = pool[i : i + n]
        i += n
    m.wall = pool[i : i + len(s.wall)]
    i += len(s.wall)
    m.dead = pool[i:]
    if m.turn != seat:
        m.drawn = None
    if m.claim is not None:
        m.claim["options"] = {k: o for k, o in m.claim["options"].items() if k == seat}
        m.claim["answers"] = {k: a for k, a in m.claim["answers"].items() if k == seat}
        m.claim["scores"] = {k: x for k, x in m.claim["scores"].items() if k == str(seat)}
    return m


def _seen(m: HandState, seat: int) -> list[int]:
    """Copies of each kind the seat can see: what its hints count (its hand, the rivers,
    open melds), the hands shown by winners and the face-up indicator."""
    seen = hint_seen(m, seat)
    for k in range(4):
        if k != seat and m.won[k] is not None:
            for t in m.hands[k]:
                seen[t] += 1
    if m.indicator is not None:
        seen[m.indicator] += 1
    return seen


@lru_cache(maxsize=64)
def _copies(variant: str, rules) -> tuple[int, ...]:
    c = [0] * T.NUM_TILES
    for t in get_variant(variant).wall_tiles(rules):
        c[t] += 1
    return tuple(c)


# --------------------------------------------------------------------------
# Representative hands: what each plan scores under these rules


def _plan_hands(suit_a: int, suit_b: int, honours: bool) -> dict[str, tuple[list[int], int]]:
    """(13 tiles, winning tile) of a representative win of each plan, in two suits."""
    a, b = "mps"[suit_a], "mps"[suit_b]
    notation = {  # 14 tiles; the last one written is the winning tile
        "any": f"234567{a}34567899{b}",
        "flush": f"23456734567899{a}",
        "pungs": f"222555{a}33377799{b}",
        "flush_pungs": f"22233355577799{a}",
        "pairs": f"225577{a}33668899{b}",
        "flush_pairs": f"11224455778899{a}",
    }
    if honours:
        notation["half_flush"] = f"234567678{a}33322z"
        notation["half_pungs"] = f"222555888{a}33322z"
    out = {}
    for name, text in notation.items():
        tiles = T.parse(text)
        out[name] = (tiles[:-1], tiles[-1])
    return out


def _plan_points(m: HandState, seat: int) -> dict[str, float]:
    """Points a win of each plan scores at this seat (self-drawn), 0 if not allowed."""
    v = get_variant(m.variant)
    dead = v.dead_suit(m, seat)
    suits = [x for x in range(3) if x != dead]
    wilds = v.wild_kinds(m)
    copies = _copies(m.variant, m.rules)
    honours = any(copies[k] for k in range(T.HONOR, T.NUM_KINDS))
    pts: dict[str, float] = {}
    a, b = suits[0], suits[1]
    for x, y in ((a, b), (b, a), (suits[-1], a)):
        hands = _plan_hands(x, y, honours)
        for name, (tiles, win) in hands.items():
            if name in pts or any(t in wilds for t in (*tiles, win)):
                continue
            if any(v.shape_kind(m.indicator, m.rules, t) != t for t in (*tiles, win)):
                continue  # a stand-in (Hangzhou's white dragon) would change the shape
            base = v.win_context(m, seat, tiles, win, "self_draw", frozenset())
            ctx = replace(base, melds=(), hand=tuple(tiles), win_tile=win)
            total = _fan(m.variant, ctx, m.rules)
            pts[name] = _points(m, total) if total is not None else 0.0
    if not pts.get("any") and any(pts.values()):
        # A plain hand scores too little here, but a real one often picks up the rest on
        # the way (flowers, winds, its wait, a kong): a fraction of the cheapest plan.
        pts["any"] = _INCIDENTAL * min(p for p in pts.values() if p > 0)
    return pts


def _points(m: HandState, total: int | None) -> float:
    if total is None:
        return 0.0
    return float(get_variant(m.variant).win_points(total, m.rules))


# --------------------------------------------------------------------------
# The table as the seat sees it


class Table:
    """What one decision needs, computed once from the seat's state."""

    def __init__(self, m: HandState, seat: int):
        self.m = m
        self.seat = seat
        self.v = v = get_variant(m.variant)
        copies = _copies(m.variant, m.rules)
        seen = _seen(m, seat)
        self.unseen = [max(0, copies[k] - seen[k]) for k in range(T.NUM_TILES)]
        self.unseen_total = max(1, sum(self.unseen))
        players = max(1, len(m.in_play()))
        self.draws_left = len(m.wall) // players
        self.seven = v.win_shapes(m, seat)["seven_pairs"]
        self.wild_kinds = v.wild_kinds(m)
        self.dead = v.dead_suit(m, seat)
        # Each kind as the hand analysis reads it: a shape kind, or None for a wild.
        self.kind_of: list[int | None] = []
        kinds = self.kind_of
        for k in range(T.NUM_TILES):
            if not copies[k]:
                self.kind_of.append(-1)
                continue
            c, w = v.split_wilds(m, seat, [k])
            self.kind_of.append(None if w else c.index(1) if 1 in c else -1)
        self.wild_unseen = sum(self.unseen[t] for t in range(T.NUM_TILES) if kinds[t] is None)
        self.unseen_by_kind = [0] * T.NUM_KINDS
        for t in range(T.NUM_TILES):
            if kinds[t] is not None and kinds[t] >= 0 and not self._dead_kind(kinds[t]):
                self.unseen_by_kind[kinds[t]] += self.unseen[t]
        self.plan_points = _plan_points(m, seat)
        self.base_points = max(1.0, self.plan_points.get("any", 0.0) or 1.0)
        self.threats = [self._threat(k) for k in range(4)]
        # Whether each seat may win on this seat's discard (Hangzhou's 放冲 only
        # between the dealer and the others, from a streak on), and this seat on theirs.
        allowed = getattr(v, "discard_win_allowed", None)
        self.can_win_on_mine = [allowed is None or allowed(m, k, seat) for k in range(4)]
        ron = allowed is None or any(allowed(m, seat, k) for k in range(4) if k != seat)
        self.claim_factor = _READY_CLAIM if ron else 1.0

    def _dead_kind(self, k: int) -> bool:
        return self.dead is not None and k < T.HONOR and k // 9 == self.dead

    # --- the hand -------------------------------------------------------------------
    def evaluate(self, hand: list[int], melds) -> float:
        """Expected points of a 3n+1 hand (after its discard) with ``melds``."""
        c, wilds = shape_counts(self.m, self.seat, hand)
        seven = self.seven and not melds
        sh = _shanten(c, wilds, seven)
        if sh == 0:
            ready = self._ready_value(hand, melds, c, wilds, seven)
            if ready is not None:
                return ready
        best = 0.0
        for sh_p, acc, pts, width in self._plans(c, wilds, sh, melds, seven):
            if pts <= 0:
                continue
            q = acc / self.unseen_total
            ev = _reach(sh_p, q, self.draws_left, width, self.claim_factor) * pts * _GAIN
            if ev > best:
                best = ev
        return best

    def _acceptance(self, c: tuple[int, ...], wilds: int, sh: int, seven: bool) -> int:
        """Unseen copies of the tiles that would bring the hand a step closer."""
        acc = self.wild_unseen
        for k in _improving(c, wilds, sh, seven):
            acc += self.unseen_by_kind[k]
        return acc

    def _plans(self, c, wilds, sh, melds, seven):
        """(向听, acceptance, points, width) of each plan the hand can still take; the width
        is how much narrower than any shape the plan's later steps are."""
        pts = self.plan_points
        out = [(sh, self._acceptance(c, wilds, sh, seven), pts.get("any", 0.0), 1.0)]
        open_pungs = all(mm.kind != "chi" for mm in melds)
        suits = [sum(c[x * 9 : x * 9 + 9]) for x in range(3)]
        top = max(range(3), key=lambda x: suits[x])
        meld_suits = {T.suit_index(mm.tile) if mm.tile < T.HONOR else 3 for mm in melds}
        if open_pungs and (pts.get("pungs", 0) > pts.get("any", 0)):
            out.append((*_pung_plan(c, wilds, self.unseen, self.kind_of), pts["pungs"], 0.4))
        if seven and pts.get("pairs", 0) > 0:
            out.append((*_pairs_plan(c, wilds, self.unseen, self.kind_of), pts["pairs"], 0.4))
        if meld_suits <= {top}:
            flush = _only_suit(c, top, keep_honours=False)
            if flush is not None:
                f_sh = _shanten(flush, wilds, seven)
                if f_sh <= sh + 3:
                    acc = self._acceptance(flush, wilds, f_sh, seven)
                    out.append((f_sh, acc, pts.get("flush", 0.0), 0.5))
                    if open_pungs and pts.get("flush_pungs", 0) > pts.get("flush", 0):
                        out.append(
                            (
                                *_pung_plan(flush, wilds, self.unseen, self.kind_of, top),
                                pts["flush_pungs"],
                                0.25,
                            )
                        )
                    if seven and pts.get("flush_pairs", 0) > pts.get("flush", 0):
                        out.append(
                            (
                                *_pairs_plan(flush, wilds, self.unseen, self.kind_of, top),
                                pts["flush_pairs"],
                                0.25,
                            )
                        )
        if "half_flush" in pts and meld_suits <= {top, 3}:
            half = _only_suit(c, top, keep_honours=True)
            if half is not None and half != c:
                h_sh = _shanten(half, wilds, seven)
                if h_sh <= sh + 2:
                    out.append(
                        (h_sh, self._acceptance(half, wilds, h_sh, seven), pts["half_flush"], 0.65)
                    )
        return out

    def _ready_value(self, hand, melds, c, wilds, seven) -> float | None:
        """Expected points of a ready hand: its winning draws, valued exactly."""
        m, v = self.m, self.v
        shape_waits = analysis.waits(list(c), wilds, seven_pairs=seven)
        tiles = [
            t
            for t in range(T.NUM_TILES)
            if self.unseen[t] and (self.kind_of[t] is None or self.kind_of[t] in shape_waits)
        ]
        tiles.sort(key=lambda t: (-self.unseen[t], t))
        scored = []
        for t in tiles[:_MAX_SCORED_WAITS]:
            ctx = v.win_context(m, self.seat, hand, t, "self_draw", frozenset())
            if melds is not m.melds[self.seat]:
                ctx = replace(ctx, melds=tuple(melds))
            scored.append((t, _points(m, _fan(m.variant, ctx, m.rules))))
        winning = [(t, p) for t, p in scored if p > 0]
        if not scored:
            return None
        share = len(winning) / len(scored)
        mean = sum(p for _, p in winning) / len(winning) if winning else 0.0
        live = sum(self.unseen[t] for t in tiles) * share
        if live <= 0:
            return 0.0
        q = live / self.unseen_total
        return _reach(0, q, self.draws_left, 1.0, self.claim_factor) * mean * _GAIN

    # --- defence --------------------------------------------------------------------
    def _threat(self, k: int) -> float:
        m = self.m
        if k == self.seat or m.won[k] is not None:
            return 0.0
        exposed = sum(1 for mm in m.melds[k] if not mm.concealed)
        river = m.discards[k]
        dead = self.v.declared_dead_suit(m, k)
        if dead is not None:
            # A declared missing suit is thrown first and no hand holding it wins:
            # the seat's turns count from its first other discard (a couple before it).
            first = next((i for i, t in enumerate(river) if t // 9 != dead), None)
            if first is None:
                return 0.0
            turns = len(river) - first + _DEAD_SUIT_TURNS + len(m.melds[k])
        else:
            turns = len(river) + len(m.melds[k])
        return min(0.9, 0.02 * turns + 0.18 * exposed + (0.1 if exposed >= 2 else 0.0))

    def danger(self, t: int) -> float:
        """Expected points lost by discarding ``t`` now."""
        m = self.m
        total = 0.0
        cost = self.v.bot_deal_in_cost
        base = self.base_points * (_DEAL_IN if cost is None else cost)
        for k in range(4):
            threat = self.threats[k]
            if not threat or not self.can_win_on_mine[k]:
                continue
            v = self.v
            dead = v.dead_suit(m, k) if m.phase in ("play", "claim") else None
            if dead is not None and t < T.HONOR and t // 9 == dead:
                continue
            if self.kind_of[t] is None:
                p = 0.02  # a wild thrown is rarely won on
            elif t >= T.HONOR:
                p = 0.04 * min(self.unseen[t], 3) / 3
            else:
                n = t % 9
                p = 0.07 if n in (0, 8) else 0.10 if n in (1, 7) else 0.13
                if self.unseen[t] == 0:
                    p *= 0.6  # no pair or pung wait left on it
            if t in m.discards[k]:
                p *= 0.25
            elif t < T.HONOR and any(x in m.discards[k] for x in _suji(t)):
                p *= 0.6
            suits = {T.suit_index(mm.tile) for mm in m.melds[k] if mm.tile < T.HONOR}
            if len(m.melds[k]) >= 2 and len(suits) == 1 and t < T.HONOR:
                p *= 2.0 if t // 9 in suits else 0.3
            total += threat * p * base
        return total


def _suji(t: int) -> list[int]:
    n, base = t % 9, t - t % 9
    return [base + n + d for d in (-3, 3) if 0 <= n + d <= 8]


@lru_cache(maxsize=65536)
def _improving(c: tuple[int, ...], wilds: int, sh: int, seven: bool) -> tuple[int, ...]:
    """The kinds whose draw lowers the 向听 ``sh`` of these counts (only a kind held or
    within two of one held can)."""
    if sum(c) + wilds >= 14:
        return ()
    near = set()
    for k in range(T.NUM_KINDS):
        if not c[k]:
            continue
        if k >= T.HONOR:
            near.add(k)
        else:
            n = k % 9
            near.update(k + d for d in (-2, -1, 0, 1, 2) if 0 <= n + d <= 8)
    out = []
    for k in sorted(near):
        c2 = list(c)
        c2[k] += 1
        if _shanten(tuple(c2), wilds, seven) < sh:
            out.append(k)
    return tuple(out)


# Places for tiles a plan cannot use: far apart, so they never form a block.
_DEAD_SLOTS = (0, 3, 6, 9, 12, 15, 18, 21, 24, *range(T.HONOR, T.NUM_KINDS))


def _only_suit(c: tuple[int, ...], suit: int, *, keep_honours: bool) -> tuple[int, ...] | None:
    """``c`` with every tile outside ``suit`` (and the honours, unless kept) turned into a
    lone dead tile; None when there are too many."""
    out = [0] * T.NUM_KINDS
    lo, hi = suit * 9, suit * 9 + 9
    loose = 0
    for k in range(T.NUM_KINDS):
        if lo <= k < hi or (keep_honours and k >= T.HONOR):
            out[k] += c[k]
        else:
            loose += c[k]
    slots = [x for x in _DEAD_SLOTS if not (lo <= x < hi) and not (keep_honours and x >= T.HONOR)]
    if loose > len(slots):
        return None
    for x in slots[:loose]:
        out[x] += 1
    return tuple(out)


def _pung_plan(c, wilds, unseen, kind_of, suit=None) -> tuple[int, int]:
    """向听 and acceptance of an all-pungs hand (counts from ``c``)."""
    total = sum(c) + wilds
    n_sets = total // 3
    pungs = sum(1 for k in range(T.NUM_KINDS) if c[k] >= 3)
    pairs = sum(1 for k in range(T.NUM_KINDS) if c[k] == 2)
    pungs = min(pungs, n_sets)
    pair = 1 if pairs else 0
    partial = min(max(0, pairs - 1), n_sets - pungs)
    sh = max(0, 2 * n_sets - 2 * pungs - partial - pair - wilds)
    acc = 0
    for t in range(T.NUM_KINDS):
        k = kind_of[t]
        if k is None:
            acc += unseen[t]
        elif k >= 0 and c[k] in (1, 2) and (suit is None or k // 9 == suit):
            acc += unseen[t]
    return sh, acc


def _pairs_plan(c, wilds, unseen, kind_of, suit=None) -> tuple[int, int]:
    """向听 and acceptance of seven pairs."""
    pairs = sum(x // 2 for x in c)
    kinds = sum(1 for x in c if x)
    sh = max(0, 6 - min(pairs, 7) + max(0, 7 - kinds) - wilds)
    acc = 0
    for t in range(T.NUM_KINDS):
        k = kind_of[t]
        if k is None:
            acc += unseen[t]
        elif k >= 0 and c[k] % 2 == 1 and (suit is None or k // 9 == suit):
            acc += unseen[t]
    return sh, acc


# The share of unseen tiles that typically helps a hand this many steps from ready
# (its acceptance once it gets there; the current step uses the hand's own).
_TYPICAL = (0.06, 0.17, 0.28, 0.36, 0.42)


@lru_cache(maxsize=65536)
def _finish(qs: tuple[float, ...], n: int) -> float:
    """Chance to pass every step within ``n`` draws, step ``i`` passing a draw with
    chance ``qs[i]`` (one step at a time)."""
    at = [1.0] + [0.0] * len(qs)
    for _ in range(n):
        for j in range(len(qs) - 1, -1, -1):
            moved = at[j] * qs[j]
            at[j] -= moved
            at[j + 1] += moved
    return at[-1]


def _reach(sh: int, q: float, n: int, width: float = 1.0, claim: float = 1.0) -> float:
    """Chance that a hand ``sh`` steps from ready wins within ``n`` draws: its first
    step at chance ``q`` a draw, the later ones at the typical chance of a hand that
    far (times ``width``, narrower for a plan that uses fewer kinds), the win itself
    helped by the others' discards (``claim``)."""
    qs = [q] + [_TYPICAL[min(step, len(_TYPICAL) - 1)] * width for step in range(sh - 1, -1, -1)]
    qs[-1] = min(0.95, qs[-1] * claim)
    return _finish(tuple(round(x, 3) for x in qs), n)


# --------------------------------------------------------------------------
# Decisions


def choose(s: HandState, seat: int) -> dict | None:
    legal = legal_actions(s, seat)
    if not legal:
        return None
    m = seat_state(s, seat)
    v = get_variant(m.variant)
    if m.phase not in ("play", "claim"):
        return _setup(m, seat, legal)
    types = {a["type"] for a in legal}
    if m.phase == "play" and "hu" in types:
        override = v.bot_turn_override(m, seat, legal)
        return override if override is not None else {"type": "hu"}
    table = Table(m, seat)
    if "hu" in types:
        if _wait_for_self_draw(table):
            return {"type": "pass"}
        return {"type": "hu"}
    if m.phase == "claim":
        return _claim(table, legal, types)
    return _turn(table, legal)


def _turn(table: Table, legal: list[dict]) -> dict:
    m, seat = table.m, table.seat
    hand = m.hands[seat]
    discards = [a for a in legal if a["type"] == "discard"]
    scored = []
    for a in discards:
        t = T.parse_one(a["tile"])
        rest = list(hand)
        rest.remove(t)
        c, w = shape_counts(m, seat, rest)
        sh = _shanten(c, w, table.seven and not m.melds[seat])
        danger = table.danger(t)
        value = table.evaluate(rest, m.melds[seat]) - danger
        scored.append((-sh, value, isolation(hand, t), T.is_terminal(t), -t, a, danger))
    best = max(scored, key=lambda x: x[:5])
    best_sh = -best[0]
    threat = max(table.threats)
    if not (best_sh >= 2 and threat >= _FOLD[0]):
        # The variant's own plan, when it has one here (Guangzhou: a flush in reach early;
        # Hangzhou: 财飘 and the 暴头 wait; Ningbo: a wait that reaches min_tai).
        plan = table.v.bot_turn_override(m, seat, legal)
        if plan is not None:
            return plan
    fold = not table.v.bot_never_folds and (
        (best_sh >= 2 and threat >= _FOLD[0]) or (best_sh >= 1 and threat >= _FOLD[1])
    )
    if fold:
        # Too far from winning against a hand that looks ready: play the safest tile.
        best = min(scored, key=lambda x: (x[-1], -x[1]))
    for g in (a for a in legal if a["type"] == "gang"):
        # A kong pays at once in some rules and draws again: take it unless it costs a
        # step of 向听.
        k = T.parse_one(g["tile"])
        rest = [x for x in hand if x != k]
        if not rest:
            return g
        c, w = shape_counts(m, seat, rest)
        if _shanten(c, w, False) <= best_sh:
            return g
    return best[5]


def _best_discard(table: Table, hand: list[int], melds) -> tuple[int, float]:
    """向听 and expected value (danger included) of a 3n+2 ``hand``'s best discard."""
    best = (99, 0.0)
    seven = table.seven and not melds
    for t in sorted(set(hand)):
        rest = list(hand)
        rest.remove(t)
        c, w = shape_counts(table.m, table.seat, rest)
        sh = _shanten(c, w, seven)
        value = table.evaluate(rest, melds) - table.danger(t)
        if (-sh, value) > (-best[0], best[1]):
            best = (sh, value)
    return best


def _wait_for_self_draw(table: Table) -> bool:
    """Pass a win on a discard for a self-draw the other players all pay, when the
    wait is wide and the wall long enough to make that worth more."""
    m, seat = table.m, table.seat
    score = m.claim["scores"].get(str(seat))
    if score is None:
        return False
    now = _points(m, score)
    payers = len(m.in_play()) - 1
    hand = m.hands[seat]
    c, w = shape_counts(m, seat, hand)
    seven = table.seven and not m.melds[seat]
    waits = analysis.waits(list(c), w, seven_pairs=seven)
    live = table.wild_unseen + sum(table.unseen_by_kind[k] for k in waits)
    chance = _reach(0, live / table.unseen_total, table.draws_left)
    return chance * payers * now > _SELF_DRAW_MARGIN * now


def _claim(table: Table, legal: list[dict], types: set[str]) -> dict:
    """A pung or chow when it brings the hand a step closer and is worth more than
    waiting; a kong when it costs no step (it pays at once in some rules)."""
    m, seat = table.m, table.seat
    hand = m.hands[seat]
    tile = m.claim["tile"]
    source = m.claim["from"]
    melds = m.melds[seat]
    c, w = shape_counts(m, seat, hand)
    now_sh = _shanten(c, w, table.seven and not melds)
    if "gang" in types:
        rest = [t for t in hand if t != tile]
        c, w = shape_counts(m, seat, rest)
        if _shanten(c, w, False) <= now_sh:
            return {"type": "gang"}
    best = (table.evaluate(hand, melds) * _CLAIM_MARGIN + 1e-6, {"type": "pass"})
    for a in legal:
        if a["type"] == "peng":
            rest = list(hand)
            rest.remove(tile)
            rest.remove(tile)
            meld = Meld("peng", (tile,) * 3, from_seat=source)
        elif a["type"] == "chi":
            used = T.parse(a["tiles"])
            used.remove(tile)
            rest = list(hand)
            for t in used:
                rest.remove(t)
            meld = Meld("chi", tuple(sorted([tile, *used])), from_seat=source)
        else:
            continue
        sh, value = _best_discard(table, rest, [*melds, meld])
        if sh < now_sh and value > best[0]:
            best = (value, a)
    return best[1]


def _setup(m: HandState, seat: int, legal: list[dict]) -> dict:
    hand = m.hands[seat]
    if all("suit" in a for a in legal):
        suit = min(range(3), key=lambda x: (_suit_strength(hand, x), x))
        choice = {"type": legal[0]["type"], "suit": "mps"[suit]}
        return choice if choice in legal else legal[0]
    if all("tiles" in a and len(T.parse(a["tiles"])) == 3 for a in legal):

        def cost(action):
            trio = T.parse(action["tiles"])
            suit = T.suit_index(trio[0])
            rest = list(hand)
            for t in trio:
                rest.remove(t)
            kept = [t for t in rest if T.suit_index(t) == suit]
            return (
                _suit_strength(hand, suit),
                _suit_strength(kept, suit),
                -sum(isolation(hand, t) for t in trio),
                action["tiles"],
            )

        return min(legal, key=cost)
    return get_variant(m.variant).bot_setup_action(m, seat, legal)


def _suit_strength(tiles, suit: int) -> float:
    """How much a suit's tiles are worth keeping: count, pairs and neighbours."""
    c = T.counts([t for t in tiles if T.is_suited(t) and T.suit_index(t) == suit], T.NUM_TILES)
    own = c[suit * 9 : suit * 9 + 9]
    pairs = sum(1 for x in own if x >= 2)
    links = sum(1 for i in range(8) if own[i] and own[i + 1])
    gaps = sum(1 for i in range(7) if own[i] and own[i + 2])
    return sum(own) + 0.8 * pairs + 0.5 * links + 0.25 * gaps
