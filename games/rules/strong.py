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
  Sichuan, where a hand not ready at the end pays 查大叫, nor in Guangzhou, where a
  deal-in pays one V and a self-draw collects from all three);
* **claims** — a pung or chow is taken when it brings the hand a step closer and the
  best discard after it is worth about as much as waiting; a kong when it costs no
  step; a win on a discard is passed only for a likely self-draw (every other player
  pays it, at its own score) with the wall still long;
* **setup** — 换三张 gives the weakest suit's loneliest tiles, 定缺 drops the weakest
  suit (fewest tiles, then fewest pairs and neighbours).

Where the variant says so (``Variant.bot_pung_road``: Ningbo), a hand with the pairs for
it heads for all pungs: it claims every pung, passes chows and keeps its pairs.

Where the variant has a plan of its own for the turn (``Variant.bot_turn_override``:
Hangzhou's 财飘 and 暴头 wait instead of a ×1 win, Guangzhou's early flush, Ningbo's
wait that reaches ``min_tai``), it is followed unless the bot is folding.
"""

from __future__ import annotations

from . import tiles as T
from .engine import legal_actions
from .heuristics import counts_shanten, isolation, shape_counts
from .model import Meld
from .state import HandState
from .valuation import Table, points, reach, seat_state
from .variants.registry import get_variant

# Fold (play the safest tile) at 向听 2+ or 1+ once an opponent looks this ready.
_FOLD = (0.6, 0.85)
# A self-draw must be worth this many times a win on the discard to pass the latter.
_SELF_DRAW_MARGIN = 1.5
# A claim that brings the hand a step closer is taken when worth this share of
# waiting or more (the estimate of waiting is the more optimistic of the two).
_CLAIM_MARGIN = 0.9


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
    if v.bot_pung_road:
        road = _pung_road(table, legal, types)
        if road is not None:
            return road
    if m.phase == "claim":
        return _claim(table, legal, types)
    return _turn(table, legal)


def _turn(table: Table, legal: list[dict]) -> dict:
    m, seat = table.m, table.seat
    hand = m.hands[seat]
    scored = []
    for a, t, rest, c, w in _discard_rests(table, legal):
        sh = counts_shanten(c, w, table.seven and not m.melds[seat])
        danger = table.danger(t)
        value = table.evaluate(rest, m.melds[seat]) - danger
        scored.append((-sh, value, isolation(hand, t), T.is_terminal(t), -t, a, danger))
    best = max(scored, key=lambda x: x[:5])
    best_sh = -best[0]
    threat = table.pressure()
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
        if counts_shanten(c, w, False) <= best_sh:
            return g
    return best[5]


def _discard_rests(table: Table, legal: list[dict]):
    """Each legal discard: the action, its tile, the hand after it and that hand's
    shape counts and wilds."""
    m, seat = table.m, table.seat
    for a in legal:
        if a["type"] == "discard":
            t = T.parse_one(a["tile"])
            rest = list(m.hands[seat])
            rest.remove(t)
            yield (a, t, rest, *shape_counts(m, seat, rest))


def _best_discard(table: Table, hand: list[int], melds) -> tuple[int, float]:
    """向听 and expected value (danger included) of a 3n+2 ``hand``'s best discard."""
    best = (99, 0.0)
    seven = table.seven and not melds
    for t in sorted(set(hand)):
        rest = list(hand)
        rest.remove(t)
        c, w = shape_counts(table.m, table.seat, rest)
        sh = counts_shanten(c, w, seven)
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
    now = points(m, score)
    payers = len(m.in_play()) - 1
    hand = m.hands[seat]
    c, w = shape_counts(m, seat, hand)
    seven = table.seven and not m.melds[seat]
    wins = table.ready_wins(hand, m.melds[seat], c, w, seven)
    if wins is None:
        return False
    live, self_drawn = wins  # a self-draw may score more (Guangzhou's 自摸 fan)
    chance = reach(0, live / table.unseen_total, table.draws_left)
    return chance * payers * self_drawn > _SELF_DRAW_MARGIN * now


def _claim(table: Table, legal: list[dict], types: set[str]) -> dict:
    """A pung or chow when it brings the hand a step closer and is worth more than
    waiting; a kong when it costs no step (it pays at once in some rules)."""
    m, seat = table.m, table.seat
    hand = m.hands[seat]
    tile = m.claim["tile"]
    source = m.claim["from"]
    melds = m.melds[seat]
    c, w = shape_counts(m, seat, hand)
    now_sh = counts_shanten(c, w, table.seven and not melds)
    if "gang" in types:
        rest = [t for t in hand if t != tile]
        c, w = shape_counts(m, seat, rest)
        if counts_shanten(c, w, False) <= now_sh:
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


# The all-pungs road is taken while its 向听 is at most this many steps behind the hand's.
_PUNG_SLACK = 3


def pung_shanten(c: tuple[int, ...], wilds: int) -> int:
    """向听 of a hand of pungs and a pair (the counts of a ``3n + 1`` hand)."""
    n_sets = (sum(c) + wilds) // 3
    pungs = min(n_sets, sum(1 for x in c if x >= 3))
    pairs = sum(1 for x in c if x == 2)
    partial = min(max(0, pairs - 1), n_sets - pungs)
    return max(0, 2 * n_sets - 2 * pungs - partial - (1 if pairs else 0) - wilds)


def _pung_reach(table: Table, c: tuple[int, ...]) -> float:
    """How likely the pung hand moves on: the unseen copies of its pairs (any seat's
    discard completes one) and singles, and of the wilds."""
    acc = table.wild_unseen
    for k, x in enumerate(c):
        if x == 2:
            acc += 2 * table.unseen_by_kind[k]
        elif x == 1:
            acc += table.unseen_by_kind[k]
    return acc


def _pung_road(table: Table, legal: list[dict], types: set[str]) -> dict | None:
    """All pungs, every pung claimed (``Variant.bot_pung_road``): four pungs laid down
    and a lone tile is 碰碰胡, 大吊 and 单吊, enough to win on a discard, and a lone wild
    wins on any self-drawn tile.  Taken while no chow is laid down and the pung 向听 is
    close to the hand's; None otherwise (the generic plan)."""
    m, seat = table.m, table.seat
    melds = m.melds[seat]
    if any(mm.kind == "chi" for mm in melds):
        return None
    hand = m.hands[seat]
    if m.phase == "claim":
        c, w = shape_counts(m, seat, hand)
        if pung_shanten(c, w) > counts_shanten(c, w, False) + _PUNG_SLACK:
            return None
        if "gang" in types:
            return {"type": "gang"}
        if "peng" in types:
            return {"type": "peng"}
        return {"type": "pass"}
    scored = []
    for a, t, rest, c, w in _discard_rests(table, legal):
        psh = pung_shanten(c, w)
        danger = table.danger(t)
        if psh == 0:
            value = table.evaluate(rest, melds) - danger
            if value <= 0:
                psh = 1  # ready, but no wait may win: no better than a step back
        else:
            value = _pung_reach(table, c)
        scored.append((psh, counts_shanten(c, w, False), -value, danger, -isolation(hand, t), t, a))
    if not scored:
        return None
    best = min(scored, key=lambda x: x[:6])
    if best[0] > min(x[1] for x in scored) + _PUNG_SLACK:
        return None
    if best[0] >= 2 and table.pressure() >= _FOLD[0]:
        return None  # folding: the generic plan plays the safest tile
    kong = next((a for a in legal if a["type"] == "gang"), None)
    return kong or best[-1]  # a kong keeps every pung and adds its 台


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
