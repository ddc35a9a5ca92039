"""A heuristic player for any seat: deterministic given the state.

It chooses only among ``legal_actions`` and reads only what its seat may see
(its own tiles, and the table's public discards and melds):

* 换三张: three tiles of its shortest suit that has three, least connected first;
* 定缺: the suit it holds fewest of;
* always wins when it may;
* claims a pung or kong when that lowers (kong: does not raise) its 向听;
* discards to keep the lowest 向听, breaking ties by safety (kinds already
  seen on the table), then isolation, then terminals first.
"""

from __future__ import annotations

from functools import lru_cache

from . import analysis
from . import tiles as T
from .engine import legal_actions
from .state import HandState
from .variants import get_variant

_DEAD = tuple(range(T.HONOR, T.FLOWER))  # honour kinds used as dead slots


def _shape_counts(s: HandState, seat: int, tiles) -> tuple[int, ...]:
    """Counts with the dead suit's tiles turned into dead, unconnected tiles.

    They still take a slot in the hand (they must be discarded) but can never
    be part of a set; honours are used as dead slots because the variants with
    a dead suit (Sichuan) have no honours.
    """
    que = get_variant(s.variant).dead_suit(s, seat)
    c = [0] * T.NUM_KINDS
    dead = 0
    for t in tiles:
        if que is not None and T.suit_index(t) == que:
            c[_DEAD[dead % len(_DEAD)]] += 1
            dead += 1
        else:
            c[t] += 1
    return tuple(c)


@lru_cache(maxsize=65536)
def _shanten(c: tuple[int, ...], seven_pairs: bool) -> int:
    return analysis.shanten(list(c), 0, seven_pairs=seven_pairs)


def _hand_shanten(s: HandState, seat: int, tiles) -> int:
    return _shanten(_shape_counts(s, seat, tiles), not s.melds[seat])


def _seen(s: HandState) -> list[int]:
    seen = [0] * T.NUM_KINDS
    for k in range(4):
        for t in s.discards[k]:
            seen[t] += 1
        for m in s.melds[k]:
            if not m.concealed:
                for t in m.tiles:
                    seen[t] += 1
    return seen


def _isolation(tiles, t: int) -> int:
    """Higher is lonelier: no copies and no neighbours within two."""
    c = T.counts(tiles)
    if c[t] > 1:
        return 0
    if not T.is_suited(t):
        return 3
    n = t % 9
    near = sum(c[t + d] for d in (-2, -1, 1, 2) if 0 <= n + d <= 8)
    return 3 - min(near, 3)


def choose_action(s: HandState, seat: int) -> dict | None:
    legal = legal_actions(s, seat)
    if not legal:
        return None
    types = {a["type"] for a in legal}
    if "hu" in types:
        return {"type": "hu"}
    if s.phase == "exchange":
        return _choose_exchange(s, seat, legal)
    if s.phase == "ding_que":
        return _choose_que(s, seat)
    if s.phase == "claim":
        return _choose_claim(s, seat, types)
    return _choose_turn(s, seat, legal)


def _choose_exchange(s: HandState, seat: int, legal: list[dict]) -> dict:
    hand = s.hands[seat]

    def cost(action):
        trio = T.parse(action["tiles"])
        suit = T.suit_index(trio[0])
        in_suit = sum(1 for t in hand if T.suit_index(t) == suit)
        lonely = sum(_isolation(hand, t) for t in trio)
        return (in_suit, -lonely, action["tiles"])

    return min(legal, key=cost)


def _choose_que(s: HandState, seat: int) -> dict:
    hand = s.hands[seat]
    by_suit = [sum(1 for t in hand if T.suit_index(t) == k) for k in range(3)]
    suit = min(range(3), key=lambda k: (by_suit[k], k))
    return {"type": "ding_que", "suit": "mps"[suit]}


def _choose_claim(s: HandState, seat: int, types: set[str]) -> dict:
    hand = s.hands[seat]
    tile = s.claim["tile"]
    now = _hand_shanten(s, seat, hand)
    if "gang" in types:
        rest = [t for t in hand if t != tile]
        if _hand_shanten(s, seat, rest) <= now:
            return {"type": "gang"}
    if "peng" in types:
        rest = list(hand)
        rest.remove(tile)
        rest.remove(tile)
        best = min(
            _hand_shanten(s, seat, [t for j, t in enumerate(rest) if j != i])
            for i in range(len(rest))
        )
        if best < now:
            return {"type": "peng"}
    return {"type": "pass"}


def _choose_turn(s: HandState, seat: int, legal: list[dict]) -> dict:
    hand = s.hands[seat]
    discards = [a for a in legal if a["type"] == "discard"]
    gangs = [a for a in legal if a["type"] == "gang"]
    if gangs:
        now = min(_discard_shanten(s, seat, hand, T.parse_one(a["tile"])) for a in discards)
        for g in gangs:
            t = T.parse_one(g["tile"])
            rest = [x for x in hand if x != t]
            if not rest or _hand_shanten(s, seat, rest) <= now:
                return g
    seen = _seen(s)

    def cost(action):
        t = T.parse_one(action["tile"])
        return (
            _discard_shanten(s, seat, hand, t),
            -seen[t],
            -_isolation(hand, t),
            0 if T.is_terminal(t) else 1,
            -t,
        )

    return min(discards, key=cost)


def _discard_shanten(s: HandState, seat: int, hand, t: int) -> int:
    rest = list(hand)
    rest.remove(t)
    return _hand_shanten(s, seat, rest)
