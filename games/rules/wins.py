"""Wins: whether a seat's tiles win now, what the win scores, and its record.

The turn flow (``turns.py``) and the claim windows (``claims.py``) ask these; the
variant scores (``Variant.win_score``).  Nothing here changes the flow.
"""

from __future__ import annotations

from . import analysis
from . import tiles as T
from .model import WinContext
from .state import HandState
from .variants.registry import get_variant


def _context(
    s: HandState, seat: int, hand: list[int], tile: int, win_type: str, flags
) -> WinContext:
    return get_variant(s.variant).win_context(s, seat, hand, tile, win_type, frozenset(flags))


def quick_win(s: HandState, seat: int, tiles: list[int]) -> bool:
    """A cheap shape test before the full scoring (most tiles do not win)."""
    v = get_variant(s.variant)
    c, wilds = v.split_wilds(s, seat, tiles)
    return analysis.is_winning(c, wilds, **v.win_shapes(s, seat))


def completes(s: HandState, seat: int, hand: list[int], tile: int) -> bool:
    """Whether ``tile`` makes a winning shape of the ``3n + 1`` tiles ``hand``: the same
    answer as :func:`quick_win` on both, asked of the hand's waits.  Those are
    remembered by the hand's counts, and a hand faces three discards (and its own
    draw) between two changes, so this is a lookup where the shape test read every
    suit again (with wilds, a search).  A wild tile takes the shape test."""
    v = get_variant(s.variant)
    kind, wild = v.split_wilds(s, seat, [tile])
    if wild or len(hand) % 3 != 1 or 1 not in kind:
        return quick_win(s, seat, [*hand, tile])
    c, wilds = v.split_wilds(s, seat, hand)
    if c[kind.index(1)] >= 4:
        return quick_win(s, seat, [*hand, tile])  # a fifth copy: no wait says it
    return kind.index(1) in analysis.waits(c, wilds, **v.win_shapes(s, seat))


def self_win_score(s: HandState, seat: int):
    if s.phase != "play" or seat != s.turn or s.turn_kind == "claim" or s.won[seat] is not None:
        return None
    hand = s.hands[seat]
    tile = s.drawn if s.drawn is not None else hand[-1]
    rest = list(hand)
    if tile in rest:
        rest.remove(tile)
        if not completes(s, seat, rest, tile):
            return None
    elif not quick_win(s, seat, hand):
        return None  # a state edited so that the drawn tile left the hand (tests do)
    else:
        rest.remove(tile)
    flags = []
    if s.turn_kind == "kong":
        flags.append("after_kong")
    if s.turn_kind in ("draw", "kong") and not s.wall:
        flags.append("last_tile")
    if s.turn_kind == "deal" and seat == s.dealer and not s.discards[seat]:
        flags.append("dealt_hand")
    if s.turn_kind == "draw" and seat != s.dealer and s.draws[seat] == 1 and not s.claimed_any:
        flags.append("first_draw")
    ctx = _context(s, seat, rest, tile, "self_draw", flags)
    return get_variant(s.variant).win_score(s, seat, ctx, on_discard=False)


def claim_win_score(s: HandState, seat: int, tile: int, kind: str, kong: int | None):
    if not completes(s, seat, s.hands[seat], tile):
        return None
    flags = ["kong_discard"] if kind == "discard" and kong is not None else []
    if kind == "discard" and not s.wall:
        flags.append("last_tile")
    win_type = "rob_kong" if kind == "rob_kong" else "discard"
    ctx = _context(s, seat, list(s.hands[seat]), tile, win_type, flags)
    return get_variant(s.variant).win_score(s, seat, ctx, on_discard=True)


def record_win(s, seat, tile, win_type, source, score, kong) -> dict:
    record = {
        "seat": seat,
        "tile": T.to_str(tile),
        "win_type": win_type,
        "from": source,
        "items": [i.to_json() for i in score.items],
        "total": score.total,
        "order": len(s.win_order),
        "kong": kong,
        "hand": T.fmt(s.hands[seat]),
    }
    s.won[seat] = record
    s.win_order.append(seat)
    return record


def win_event(s: HandState, w: dict) -> dict:
    return {
        **w,
        "melds": [m.to_json() for m in s.melds[w["seat"]]],
    }
