"""听牌 hints: what a seat can see about its own waits.

Computed from the seat's own view only: its concealed tiles and melds, and what
is public (every river, exposed melds).  Other seats' concealed tiles, their
concealed kongs and the wall never enter, so "left" is how many copies the seat
has not seen, not how many are really still to come.

``hints(state, seat)`` is ``None`` when there is nothing to say, else
``{"waits": [...]}`` for a hand waiting on one tile (13 tiles, counting melds)
and, on the seat's own turn with a tile to discard, ``{"discards": {tile: [...]}}``
listing for each discard that leaves the hand ready the waits it leaves.  A wait
is ``{"tile": "5p", "left": 2, "fan": 3}``: the fan is that of a win on a
discard with no special circumstance (self-drawn it may be worth more).
"""

from __future__ import annotations

from functools import lru_cache

from . import analysis
from . import tiles as T
from .state import HandState
from .variants import get_variant


def seen_by(s: HandState, seat: int) -> list[int]:
    """Copies of each kind this seat can see."""
    seen = [0] * T.NUM_TILES
    for t in s.hands[seat]:
        seen[t] += 1
    for k in range(4):
        for t in s.discards[k]:
            seen[t] += 1
        for m in s.melds[k]:
            if m.concealed and k != seat:
                continue  # another seat's concealed kong: not seen
            for t in m.tiles:
                seen[t] += 1
    return seen


def _waits(s: HandState, seat: int, hand: list[int], seen: list[int]) -> list[dict]:
    v = get_variant(s.variant)
    c, wilds = v.split_wilds(s, seat, hand)
    if (sum(c) + wilds) % 3 != 1:
        return []
    kinds = _kinds(bytes(c), wilds, bool(s.melds[seat]))
    out = []
    for t in kinds:
        fan = None
        for win_type in ("discard", "self_draw"):
            ctx = v.win_context(s, seat, list(hand), t, win_type, frozenset())
            fan = win_total(v.key, ctx, s.rules)
            if fan is not None:
                break
        if fan is None:
            continue  # the shape wins but the rules do not (Sichuan: a 定缺 tile still held)
        out.append({"tile": T.to_str(t), "left": max(0, 4 - seen[t]), "fan": fan})
    return out


@lru_cache(maxsize=65536)
def _kinds(counts: bytes, wilds: int, open_hand: bool) -> list[int]:
    """``analysis.waits`` of these counts, kept per process: a seat's waits are asked at
    every action of the hand, and most actions leave its tiles as they were.  (The
    callers only read the list.)"""
    return analysis.waits(counts, wilds, seven_pairs=not open_hand, thirteen_orphans=not open_hand)


@lru_cache(maxsize=65536)
def win_total(variant: str, ctx, rules) -> int | None:
    """The variant's score of this win (None: no win).  Kept per process: scoring is a
    pure function of the win's context and the rules, and a seat's waits are asked
    again at every action of the hand while its tiles stay the same."""
    score = get_variant(variant).score(ctx, rules)
    return score.total if score.win else None


def hints(s: HandState, seat: int | None) -> dict | None:
    if seat is None or s.phase not in ("play", "claim") or s.won[seat] is not None:
        return None
    if s.left[seat]:
        return None
    hand = s.hands[seat]
    seen = seen_by(s, seat)
    if len(hand) % 3 == 1:
        return {"waits": _waits(s, seat, hand, seen)}
    if s.phase == "play" and s.turn == seat and len(hand) % 3 == 2:
        per = {}
        for k in get_variant(s.variant).discard_choices(s, seat):
            rest = list(hand)
            rest.remove(k)
            w = _waits(s, seat, rest, seen)
            if w:
                per[T.to_str(k)] = w
        return {"discards": per}
    return None
