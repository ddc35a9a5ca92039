"""The bots: ``choose_action(state, seat, level)`` for any seat and any variant.

Two levels, both deterministic given the state:

* ``"strong"`` (the default; :mod:`games.rules.strong`): plays for expected value
  and defends;
* ``"basic"``: the heuristic below, kept as the baseline the strong level is
  measured against (``python -m games.rules duel``).

The basic level chooses only among ``legal_actions`` and reads only what its seat may see
(its own tiles, and the table's public discards, melds and wild indicator):

* setup phases (换三张, 定缺 …): the variant's ``bot_setup_action``;
* always wins when it may, unless the variant's ``bot_turn_override`` has a
  better plan (Hangzhou: throw a wild for 财飘);
* claims a pung, kong or chow when that lowers (kong: does not raise) its 向听;
* discards to keep the lowest 向听 (wilds count as perfect tiles, so they are
  kept), then the variant's preference (Hangzhou: a lone-wild 暴头 wait), then
  safety (kinds already seen on the table), isolation and terminals first.
"""

from __future__ import annotations

from . import tiles as T
from .engine import legal_actions
from .heuristics import counts_shanten, isolation_in, shape_counts
from .state import HandState
from .variants.registry import get_variant


def hand_shanten(s: HandState, seat: int, tiles) -> int:
    c, wilds = shape_counts(s, seat, tiles)
    return counts_shanten(c, wilds, not s.melds[seat])


def _seen(s: HandState) -> list[int]:
    seen = [0] * T.NUM_TILES
    for k in range(4):
        for t in s.discards[k]:
            seen[t] += 1
        for m in s.melds[k]:
            if not m.concealed:
                for t in m.tiles:
                    seen[t] += 1
    return seen


LEVELS = ("basic", "strong")


def choose_action(s: HandState, seat: int, level: str = "strong") -> dict | None:
    """The action ``seat`` takes now (None: nothing is awaited from it)."""
    if level == "strong":
        from .strong import choose

        return choose(s, seat)
    if level != "basic":
        raise ValueError(f"unknown bot level {level!r} (known: {', '.join(LEVELS)})")
    return _choose_basic(s, seat)


def _choose_basic(s: HandState, seat: int) -> dict | None:
    legal = legal_actions(s, seat)
    if not legal:
        return None
    v = get_variant(s.variant)
    if s.phase not in ("play", "claim"):
        return v.bot_setup_action(s, seat, legal)
    if s.phase == "play":
        override = v.bot_turn_override(s, seat, legal)
        if override is not None:
            return override
    types = {a["type"] for a in legal}
    if "hu" in types:
        return {"type": "hu"}
    if s.phase == "claim":
        return _choose_claim(s, seat, legal, types)
    return _choose_turn(s, seat, legal)


def _best_after(s: HandState, seat: int, rest: list[int]) -> int:
    """The lowest 向听 after discarding one of ``rest`` (a hand of 3n+2 tiles)."""
    return min(
        hand_shanten(s, seat, rest[:i] + rest[i + 1 :])
        for i in range(len(rest))
        if i == 0 or rest[i] != rest[i - 1]
    )


def _choose_claim(s: HandState, seat: int, legal: list[dict], types: set[str]) -> dict:
    hand = s.hands[seat]
    tile = s.claim["tile"]
    now = hand_shanten(s, seat, hand)
    if "gang" in types:
        rest = [t for t in hand if t != tile]
        if hand_shanten(s, seat, rest) <= now:
            return {"type": "gang"}
    if "peng" in types:
        rest = list(hand)
        rest.remove(tile)
        rest.remove(tile)
        if _best_after(s, seat, rest) < now:
            return {"type": "peng"}
    best = None
    for a in legal:
        if a["type"] != "chi":
            continue
        used = T.parse(a["tiles"])
        used.remove(tile)
        rest = list(hand)
        for t in used:
            rest.remove(t)
        after = _best_after(s, seat, rest)
        if after < now and (best is None or after < best[0]):
            best = (after, a)
    if best is not None:
        return best[1]
    return {"type": "pass"}


def choose_among_discards(s: HandState, seat: int, discards: list[dict]) -> dict:
    """The generic choice restricted to ``discards`` (for a variant's own plan)."""
    return _choose_turn(s, seat, discards)


def _choose_turn(s: HandState, seat: int, legal: list[dict]) -> dict:
    v = get_variant(s.variant)
    hand = s.hands[seat]
    discards = [a for a in legal if a["type"] == "discard"]
    gangs = [a for a in legal if a["type"] == "gang"]
    if gangs:
        now = min(_discard_shanten(s, seat, hand, T.parse_one(a["tile"])) for a in discards)
        for g in gangs:
            t = T.parse_one(g["tile"])
            rest = [x for x in hand if x != t]
            if not rest or hand_shanten(s, seat, rest) <= now:
                return g
    seen = _seen(s)
    held = T.counts(hand, T.NUM_TILES)

    def cost(action):
        t = T.parse_one(action["tile"])
        rest = list(hand)
        rest.remove(t)
        return (
            hand_shanten(s, seat, rest),
            v.bot_discard_rank(s, seat, t, rest),
            -seen[t],
            -isolation_in(held, t),
            0 if T.is_terminal(t) else 1,
            -t,
        )

    return min(discards, key=cost)


def _discard_shanten(s: HandState, seat: int, hand, t: int) -> int:
    rest = list(hand)
    rest.remove(t)
    return hand_shanten(s, seat, rest)
