"""Rigged deals for scenario tests: hands and wall written in tile notation.

``rig`` deals a real hand from a seed and then lays out the given hands and
the given wall order (the unnamed tiles fill the middle of the wall in sorted
order), so a scenario is as readable as the rule text it checks.  The tile
census is kept exact, so the invariants still apply.
"""

from __future__ import annotations

from collections import Counter

from games.rules import DealSeeds, MatchState, apply, get_variant, new_hand
from games.rules import tiles as T
from games.rules.engine import Rejection
from games.rules.model import Meld


def rig(
    hands: list[str],
    *,
    front: str = "",
    back: str = "",
    wall_size: int | None = None,
    dealer: int = 0,
    rules: dict | None = None,
    que: str | None = "ssss",
    melds: dict[int, list[tuple[str, str, int | None]]] | None = None,
    variant: str = "sichuan",
    indicator: str | None = None,
    streak: int = 1,
):
    """A hand in the play phase (Sichuan: after 定缺 when ``que`` is given).

    ``front`` are the next draws in order, ``back`` the kong replacements in
    order.  ``wall_size`` shortens the wall as if the hand were late: the
    tiles taken out are laid in the four rivers, so every tile is still
    somewhere and the census holds.  ``indicator`` sets the wild indicator
    (Hangzhou), ``streak`` the dealer's streak in the match.
    """
    if variant == "sichuan":
        rules = {"ding_que": que is not None, **(rules or {})}
    match = MatchState(dealer=dealer, streak=streak)
    state = new_hand(variant, rules, DealSeeds.for_test(1), dealer, match)
    v = get_variant(variant)
    held = [T.parse(h) for h in hands]
    meld_tiles = []
    state.melds = [[] for _ in range(4)]
    for seat, ms in (melds or {}).items():
        for kind, tiles, source in ms:
            m = Meld(kind, tuple(T.parse(tiles)), from_seat=source)
            state.melds[seat].append(m)
            meld_tiles += list(m.tiles)
    # Hand sizes are checked except in the older Sichuan scenarios, which lay out
    # short junk hands for seats that only discard what they are dealt.
    for seat, h in enumerate(held if variant != "sichuan" else ()):
        want = (14 if seat == dealer else 13) - 3 * len(state.melds[seat])
        if len(h) != want:
            raise ValueError(f"seat {seat} holds {len(h)} tiles, not {want}")
    front_t, back_t = T.parse(front), T.parse(back)
    pool = Counter(v.wall_tiles(state.rules))
    if indicator is not None:
        state.indicator = T.parse_one(indicator)
        state.dead = [state.indicator]
    pool.subtract(Counter(state.dead))
    pool.subtract(Counter([t for h in held for t in h] + meld_tiles + front_t + back_t))
    if any(n < 0 for n in pool.values()):
        over = [T.to_str(t) for t, n in pool.items() if n < 0]
        raise ValueError(f"more than four of {over}")
    middle = sorted(pool.elements())
    state.discards = [[] for _ in range(4)]
    if wall_size is not None:
        keep = max(0, wall_size - len(front_t) - len(back_t))
        for i, t in enumerate(middle[keep:]):
            state.discards[i % 4].append(t)
        middle = middle[:keep]
    state.hands = [sorted(h) for h in held]
    state.flowers = [[] for _ in range(4)]
    state.wall = front_t + middle + list(reversed(back_t))
    if variant == "sichuan" and que is not None:
        for seat in range(4):
            state = ok(apply(state, seat, {"type": "ding_que", "suit": que[seat]}))
    return state


def ok(out):
    """Unwrap an accepted action's new state (fail loudly on a rejection)."""
    if isinstance(out, Rejection):
        raise AssertionError(f"rejected: {out.code}: {out.reason}")
    return out[0]


def act(state, seat, action, **fields):
    a = {"type": action, **fields}
    return ok(apply(state, seat, a))


def _transfers(x):
    """A state's transfers, or a settlement's (``settle(state)``)."""
    return x["transfers"] if isinstance(x, dict) else x.transfers


def net(x):
    out = [0, 0, 0, 0]
    for t in _transfers(x):
        out[t["from"]] -= t["amount"]
        if t["to"] is not None:
            out[t["to"]] += t["amount"]
    return out


def paid(x, reason):
    return [(t["from"], t["to"], t["amount"]) for t in _transfers(x) if t["reason"] == reason]
