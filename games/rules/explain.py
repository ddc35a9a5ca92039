"""How a win's points were made, written out for players (zh-hans and en).

Each variant writes its own (``Variant.explain_win``), beside the rules it
restates; a variant without one gets ``None`` and the table shows the total alone.
"""

from __future__ import annotations

from .state import HandState
from .variants.registry import get_variant


def explain_wins(s: HandState) -> list[dict | None]:
    """One explanation per win, in win order (``None`` where the variant has none)."""
    v = get_variant(s.variant)
    wins = [s.won[seat] for seat in s.win_order]
    return [v.explain_win(s, w) if w else None for w in wins]
