"""What a hand is worth to the strong bot, from its own seat's view.

:func:`seat_state` turns the state into what ``seat`` may know: every tile the seat
cannot see (the other hands, the wall, the dead wall) is dealt again from the same
unseen multiset in one fixed order, and the other seats' claim options go, so nothing
read from it can depend on a hidden tile.

:class:`Table` holds what one decision needs, computed once from that view: the unseen
copies of each kind, the points a representative win of each plan scores under the
table's rules at this seat, how ready each opponent looks.  ``Table.evaluate`` is a
hand's expected points (each plan's 向听, acceptance and points; a ready hand's waits
valued exactly), ``Table.danger`` what discarding a tile is expected to cost.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from . import analysis
from . import tiles as T
from .heuristics import counts_shanten, shape_counts
from .hints import seen_by, win_total
from .state import HandState
from .variants.registry import get_variant

# A win collects from one discarder or from three on a self-draw: its points times this.
_GAIN = 1.8
# A ready hand also wins on the others' discards: its draws count this many times more.
_READY_CLAIM = 1.8
# How much a plain hand is worth, as a share of the cheapest plan, where it alone
# would not be allowed to win.
_INCIDENTAL = 0.6
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
    seen = seen_by(m, seat)
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
            total = win_total(m.variant, ctx, m.rules)
            pts[name] = points(m, total) if total is not None else 0.0
    if not pts.get("any") and any(pts.values()):
        # A plain hand scores too little here, but a real one often picks up the rest on
        # the way (flowers, winds, its wait, a kong): a fraction of the cheapest plan.
        pts["any"] = _INCIDENTAL * min(p for p in pts.values() if p > 0)
    return pts


def points(m: HandState, total: int | None) -> float:
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
        self.flush_suits = [self._flush_suit(k) for k in range(4)]
        # Whether each seat may win on this seat's discard (Hangzhou's 放冲 only
        # between the dealer and the others, from a streak on), and this seat on theirs.
        allowed = getattr(v, "discard_win_allowed", None)
        self.can_win_on_mine = [allowed is None or allowed(m, k, seat) for k in range(4)]
        ron = allowed is None or any(allowed(m, seat, k) for k in range(4) if k != seat)
        self.claim_factor = _READY_CLAIM if ron else 1.0

    def _walls(self, t: int) -> float:
        """Less danger where every copy of a neighbour is in sight: no run wait through it."""
        n = t % 9
        below = n == 0 or not self.unseen[t - 1]
        above = n == 8 or not self.unseen[t + 1]
        return 0.35 if below and above else 0.75 if below or above else 1.0

    def _flush_suit(self, k: int) -> int | None:
        """The one numbered suit opponent ``k`` keeps out of its river (its 定缺 suit
        aside) after six discards or more: it looks headed for a flush of it."""
        m = self.m
        if k == self.seat or m.won[k] is not None:
            return None
        dead = self.v.declared_dead_suit(m, k)
        river = [t for t in m.discards[k] if t < T.HONOR and t // 9 != dead]
        if len(river) < 6:
            return None
        live = [x for x in range(3) if x != dead and _copies(m.variant, m.rules)[x * 9]]
        kept = [x for x in live if all(t // 9 != x for t in river)]
        return kept[0] if len(kept) == 1 and len(live) > 1 else None

    def pressure(self) -> float:
        """How ready the likeliest opponent that may win on this seat's discard looks."""
        return max((t for k, t in enumerate(self.threats) if self.can_win_on_mine[k]), default=0.0)

    def _dead_kind(self, k: int) -> bool:
        return self.dead is not None and k < T.HONOR and k // 9 == self.dead

    # --- the hand -------------------------------------------------------------------
    def evaluate(self, hand: list[int], melds) -> float:
        """Expected points of a 3n+1 hand (after its discard) with ``melds``."""
        c, wilds = shape_counts(self.m, self.seat, hand)
        seven = self.seven and not melds
        sh = counts_shanten(c, wilds, seven)
        if sh == 0:
            ready = self._ready_value(hand, melds, c, wilds, seven)
            if ready is not None:
                return ready
        best = 0.0
        for sh_p, acc, pts, width in self._plans(c, wilds, sh, melds, seven):
            if pts <= 0:
                continue
            q = acc / self.unseen_total
            ev = reach(sh_p, q, self.draws_left, width, self.claim_factor) * pts * _GAIN
            if ev > best:
                best = ev
        return best

    def acceptance(self, c: tuple[int, ...], wilds: int, sh: int, seven: bool) -> int:
        """Unseen copies of the tiles that would bring the hand a step closer."""
        acc = self.wild_unseen
        for k in _improving(c, wilds, sh, seven):
            acc += self.unseen_by_kind[k]
        return acc

    def _plans(self, c, wilds, sh, melds, seven):
        """(向听, acceptance, points, width) of each plan the hand can still take; the width
        is how much narrower than any shape the plan's later steps are."""
        pts = self.plan_points
        out = [(sh, self.acceptance(c, wilds, sh, seven), pts.get("any", 0.0), 1.0)]
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
                f_sh = counts_shanten(flush, wilds, seven)
                if f_sh <= sh + 3:
                    acc = self.acceptance(flush, wilds, f_sh, seven)
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
                h_sh = counts_shanten(half, wilds, seven)
                if h_sh <= sh + 2:
                    out.append(
                        (h_sh, self.acceptance(half, wilds, h_sh, seven), pts["half_flush"], 0.65)
                    )
        return out

    def _ready_value(self, hand, melds, c, wilds, seven) -> float | None:
        """Expected points of a ready hand: its winning draws, valued exactly."""
        wins = self.ready_wins(hand, melds, c, wilds, seven)
        if wins is None:
            return None
        live, mean = wins
        if live <= 0:
            return 0.0
        q = live / self.unseen_total
        return reach(0, q, self.draws_left, 1.0, self.claim_factor) * mean * _GAIN

    def ready_wins(self, hand, melds, c, wilds, seven) -> tuple[float, float] | None:
        """A ready hand's winning draws: the unseen copies of its waits (times the share
        of the scored waits that may win) and the mean points of a self-drawn win on
        them; None when no wait is left unseen."""
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
            scored.append((t, points(m, win_total(m.variant, ctx, m.rules))))
        winning = [(t, p) for t, p in scored if p > 0]
        if not scored:
            return None
        share = len(winning) / len(scored)
        mean = sum(p for _, p in winning) / len(winning) if winning else 0.0
        return sum(self.unseen[t] for t in tiles) * share, mean

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
            elif t < T.HONOR and self.flush_suits[k] is not None:
                p *= 1.8 if t // 9 == self.flush_suits[k] else 0.5
            if t < T.HONOR and self.kind_of[t] is not None:
                p *= self._walls(t)
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
        if counts_shanten(tuple(c2), wilds, seven) < sh:
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


def reach(sh: int, q: float, n: int, width: float = 1.0, claim: float = 1.0) -> float:
    """Chance that a hand ``sh`` steps from ready wins within ``n`` draws: its first
    step at chance ``q`` a draw, the later ones at the typical chance of a hand that
    far (times ``width``, narrower for a plan that uses fewer kinds), the win itself
    helped by the others' discards (``claim``)."""
    qs = [q] + [_TYPICAL[min(step, len(_TYPICAL) - 1)] * width for step in range(sh - 1, -1, -1)]
    qs[-1] = min(0.95, qs[-1] * claim)
    return _finish(tuple(round(x, 3) for x in qs), n)
