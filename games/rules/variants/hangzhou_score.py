"""杭州麻将 scoring: the 财神 wilds, the multipliers and the payments of one win.

Spec: ``../shared/rules/hangzhou.md``.  Skeleton: the public names are fixed,
the scoring is being filled in.
"""

from __future__ import annotations

from ..model import Score, WinContext
from ..options import Options
from .hangzhou_options import HANGZHOU_OPTIONS  # noqa: F401  (re-exported for the variant)

BAI_BAN = 31  # 5z 白板


def wild_kinds(indicator: int | None, opts: Options) -> frozenset[int]:
    """The wild kind: the indicator's own kind (its three other copies)."""
    return frozenset() if indicator is None else frozenset({indicator})


def stand_in(indicator: int | None, opts: Options) -> dict[int, int]:
    """Faces read as another kind: ``{白板: indicator}`` while 白板 stands in."""
    if indicator is None or indicator == BAI_BAN or not opts.bai_ban_stands_in:
        return {}
    return {BAI_BAN: indicator}


def score(ctx: WinContext, opts: Options) -> Score:
    """Score one Hangzhou win (``win=False`` with a reason when illegal)."""
    raise NotImplementedError
