"""The strong bot's Ningbo discard near ready: each candidate played out by sampling.

Ningbo's wins are rare and large (a self-draw pays ``3 × T``, a discard win ``T``
from the discarder) and a ready hand below ``min_tai`` cannot win at all, so what a
discard is worth depends on which waits it can still reach and what they score.
When the best discard leaves the hand at most ``MAX_SHANTEN`` steps from ready,
every legal discard that keeps that 向听 is valued by playing its own future out:

* the same futures for every candidate (common random numbers, so the comparison is
  not drowned by the draws' luck), ``BUDGET`` playouts shared out among them: per
  turn three discards by the others and one draw of its own, up to ``MAX_TURNS``
  turns, taken without replacement from the tiles the seat has not seen;
* a flower drawn is laid out (its 台 counts from then on) and replaced; a win on the
  replacement is 杠上开花;
* greedy play: a draw that lowers the 向听 (or, for a ready hand none of whose waits
  reaches ``min_tai``, a draw near its tiles) is kept, the discard chosen by the
  lowest 向听 and then the most acceptance, or for a ready hand its waits if one of
  its likeliest reaches ``min_tai``; any other draw goes straight back;
* a win counts when the project's scorer accepts it (``min_tai``, 百搭单吊, a
  discarded wild): a self-draw ``SELF`` times its points, a discard win ``DISCARD``
  times, each turn's win weighted by the chance (``HAZARD``) that another seat has
  won before it;
* the candidate's value is the mean of its futures minus the danger of the tile
  thrown (``Table.danger``, the strong level's own defence); where no future wins
  for any candidate, the generic choice stands.

Honest and deterministic: the unseen pool is the view's (``Table.unseen``), and the
generator is seeded from a digest of what the seat sees, so re-dealing the hidden
tiles changes nothing and the same state gives the same choice.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import replace

from ... import analysis
from ... import tiles as T
from ...heuristics import _shanten, shape_counts
from ...strong import _improving
from .tai import tai_bounds

# Sample only this close to ready (向听 of the best discard).
MAX_SHANTEN = 1
# Playouts per decision, shared out among the candidates (each plays the same
# futures), with at least this many futures.
BUDGET = 40
MIN_SAMPLES = 12
# Turns played out at most.
MAX_TURNS = 12
# The chance per turn that another seat wins first (the hand ends).
HAZARD = 0.04
# A win's points as the strong level weighs them: a self-draw (three payers) and a
# discard win (one).
SELF = 1.8
DISCARD = 0.6


def choose_discard(table, legal: list[dict]) -> dict | None:
    """The discard of best sampled value, or None where the hand is too far from ready
    (or there is nothing to choose between, or a kong may be declared)."""
    if any(a["type"] != "discard" for a in legal):
        return None
    m, seat = table.m, table.seat
    hand = m.hands[seat]
    seven = table.seven and not m.melds[seat]
    cands = []
    for a in legal:
        t = T.parse_one(a["tile"])
        rest = list(hand)
        rest.remove(t)
        c, w = shape_counts(m, seat, rest)
        cands.append((_shanten(c, w, seven), t, a, tuple(sorted(rest))))
    best = min(x[0] for x in cands)
    if best > MAX_SHANTEN:
        return None
    cands = [x for x in cands if x[0] == best]
    if len(cands) < 2:
        return None
    sim = Sim(table)
    futures = sim.futures(max(MIN_SAMPLES, BUDGET // len(cands)))
    values = [sim.value(rest, futures) for _, _, _, rest in cands]
    if not any(values):
        return None  # no future wins: nothing here to tell the discards apart
    scored = []
    for value, (sh, t, a, _) in zip(values, cands, strict=True):
        scored.append((value - table.danger(t), -sh, -t, a))
    return max(scored, key=lambda x: x[:3])[3]


# Answers that depend on the hand and the win's context alone (not on what is unseen),
# kept across decisions: a hand's next turns weigh mostly the same hands again.
_MEMO: dict = {}
_CONTEXTS: dict = {}
_MEMO_LIMIT = 300_000
_AFTER_KONG = frozenset({"after_kong"})


class Sim:
    """The playouts of one decision: the pool, and the memos of hands and draws."""

    def __init__(self, table):
        self.table = table
        self.m = m = table.m
        self.seat = seat = table.seat
        self.v = v = table.v
        self.seven = table.seven and not m.melds[seat]
        self.kind_of = kind_of = table.kind_of
        # Tiles that can be kept: shape kinds and wilds; a flower drawn is laid out (its
        # 台 count) and replaced.
        self.tiles = [t for t in range(T.NUM_TILES) if kind_of[t] != -1]
        self.flower = [kind_of[t] == -1 and T.is_flower(t) for t in range(T.NUM_TILES)]
        self.pool = [
            t
            for t in range(T.NUM_TILES)
            for _ in range(table.unseen[t])
            if kind_of[t] != -1 or self.flower[t]
        ]
        self.turns = min(MAX_TURNS, table.draws_left)
        if len(_MEMO) > _MEMO_LIMIT:
            _MEMO.clear()
            _CONTEXTS.clear()
        self.base = v.win_context(m, seat, (), 0, "self_draw", frozenset())
        self._keys: dict[tuple[int, ...], tuple] = {}
        self._use(self.base.flowers)

    def _use(self, flowers: tuple[int, ...]) -> None:
        """Play on with these flowers laid out (the win's context and the memos' key)."""
        got = self._keys.get(flowers)
        if got is None:
            ctx = replace(self.base, flowers=flowers)
            got = (ctx, _CONTEXTS.setdefault((ctx, self.m.rules), len(_CONTEXTS)))
            self._keys[flowers] = got
        self.ctx, self.key = got

    # --- the futures ------------------------------------------------------------------
    def seed(self) -> int:
        """A digest of what the seat sees: its hand and melds, every river and open
        meld, the flowers, the indicator, the wall's length and the unseen counts."""
        m = self.m
        key = (
            self.seat,
            tuple(m.hands[self.seat]),
            tuple(tuple(mm.tiles) for mm in m.melds[self.seat]),
            tuple(tuple(d) for d in m.discards),
            tuple(tuple(t for mm in ms if not mm.concealed for t in mm.tiles) for ms in m.melds),
            tuple(tuple(f) for f in m.flowers),
            m.indicator,
            len(m.wall),
            tuple(self.table.unseen),
        )
        return zlib.crc32(repr(key).encode())

    def futures(self, n: int) -> list[list[int]]:
        """``n`` orders of the unseen tiles: per turn, the others' three discards, then
        the seat's draw."""
        rng = random.Random(self.seed())
        k = min(len(self.pool), 4 * self.turns)
        return [rng.sample(self.pool, k) for _ in range(n)]

    def value(self, rest: tuple[int, ...], futures: list[list[int]]) -> float:
        """Mean weighted points of the ``3n + 1`` hand ``rest`` over the futures."""
        total = 0.0
        for seq in futures:
            total += self._play(rest, seq)
        return total / len(futures)

    def _play(self, hand: tuple[int, ...], seq: list[int]) -> float:
        weight = 1.0
        flower = self.flower
        self._use(self.base.flowers)
        i, n = 0, len(seq)
        while i + 3 < n:
            _, self_pts, ron, keep = self._hand(hand)
            if ron:
                for d in seq[i : i + 3]:
                    if d in ron:
                        return weight * DISCARD * ron[d]
            i += 3
            t = seq[i]
            i += 1
            if flower[t]:
                # Laid out and replaced: a win on the replacement is 杠上开花.
                while flower[t] and i < n:
                    self._use(tuple(sorted((*self.ctx.flowers, t))))
                    t = seq[i]
                    i += 1
                if flower[t]:
                    return 0.0
                _, self_pts, _, keep = self._hand(hand)
                if t in self_pts or (not self_pts and self._hand(hand)[0] == 0):
                    win = self._points(replace(self.ctx, hand=hand, win_tile=t, flags=_AFTER_KONG))
                    if win:
                        return weight * SELF * win
            win = self_pts.get(t)
            if win:
                return weight * SELF * win
            if t in keep:
                hand = self._next(hand, t)
            weight *= 1.0 - HAZARD
        return 0.0

    # --- one hand ---------------------------------------------------------------------
    def _hand(self, hand: tuple[int, ...]) -> tuple:
        """(向听, self-draw points by tile, discard-win points by tile, the draws worth
        keeping) of a sorted ``3n + 1`` hand."""
        key = (self.key, hand)
        info = _MEMO.get(key)
        if info is not None:
            return info
        m, seat, kind_of = self.m, self.seat, self.kind_of
        c, w = shape_counts(m, seat, hand)
        sh = _shanten(c, w, self.seven)
        self_pts: dict[int, float] = {}
        ron_pts: dict[int, float] = {}
        if sh == 0:
            waits = set(analysis.waits(list(c), w, seven_pairs=self.seven))
            wins = [t for t in self.tiles if kind_of[t] is None or kind_of[t] in waits]
            opts = m.rules
            zi_mo = opts.tai_values.get("zi_mo", 1)
            ctx = replace(self.ctx, hand=hand)
            kinds = sorted({kind_of[t] for t in wins if kind_of[t] is not None})
            bound = dict(zip(kinds, tai_bounds(ctx, opts, kinds), strict=True))
            for t in wins:
                if kind_of[t] is not None and bound[kind_of[t]] < opts.min_tai:
                    continue  # no reading of this win reaches min_tai
                p = self._points(replace(ctx, win_tile=t))
                if p:
                    self_pts[t] = p
                    if p / opts.base - 1 - zi_mo < opts.min_tai:
                        continue  # without its 自摸 the win falls below min_tai
                    q = self._points(replace(ctx, win_tile=t, win_type="discard"))
                    if q:
                        ron_pts[t] = q
            # A ready hand that cannot win reshapes on a draw near its tiles.
            keep = (
                frozenset()
                if self_pts
                else frozenset(t for t in self.tiles if t not in wins and _near(c, kind_of[t]))
            )
        else:
            improving = set(_improving(c, w, sh, self.seven))
            keep = frozenset(t for t in self.tiles if kind_of[t] is None or kind_of[t] in improving)
        info = (sh, self_pts, ron_pts, keep)
        _MEMO[key] = info
        return info

    def _points(self, ctx) -> float:
        result = self.v.score(ctx, self.m.rules)
        return float(self.v.win_points(result.total, self.m.rules)) if result.win else 0.0

    def _next(self, hand: tuple[int, ...], t: int) -> tuple[int, ...]:
        """The hand after drawing ``t`` and throwing the greedy discard: the lowest 向听,
        then the most worth; the hand as it was on a tie (the drawn tile goes back)."""
        key = (self.key, hand, t)
        out = _MEMO.get(key)
        if out is not None:
            return out
        full = sorted((*hand, t))
        rests = []
        for x in sorted(set(full)):
            rest = list(full)
            rest.remove(x)
            c, w = shape_counts(self.m, self.seat, rest)
            rests.append((_shanten(c, w, self.seven), x, tuple(rest), c, w))
        low = min(r[0] for r in rests)
        best = ((0.0, True, t), hand) if low == self._hand(hand)[0] else None
        for sh, x, rest, c, w in rests:
            if sh != low:
                continue
            rank = (self._worth(rest, c, w, sh), self.kind_of[x] is not None, x)
            if best is None or rank > best[0]:
                best = (rank, rest)
        out = best[1]
        _MEMO[key] = out
        return out

    def _worth(self, rest: tuple[int, ...], c, w, sh: int) -> float:
        """How good a kept ``3n + 1`` hand is at its 向听: a ready hand's waits (none
        unless one of its likeliest reaches min_tai), else the draws that bring it
        closer, each by the copies not in the hand."""
        if sh > 0:
            return float(sum(4 - c[k] for k in _improving(c, w, sh, self.seven)))
        if not self.v.bot_wait_wins(self.m, self.seat, list(rest)):
            return 0.0
        return 1.0 + sum(4 - c[k] for k in analysis.waits(list(c), w, seven_pairs=self.seven))


def _near(c, k) -> bool:
    """Whether a kind (None: a wild) is held or next to one held."""
    if k is None:
        return True
    if c[k]:
        return True
    if k >= T.HONOR:
        return False
    n = k % 9
    return any(c[k + d] for d in (-2, -1, 1, 2) if 0 <= n + d <= 8)
