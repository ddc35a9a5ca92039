"""The rules engine: pure Python, no framework imports (a test enforces it).

Entry points::

    from games.rules import new_hand, legal_actions, apply, view, Rejection
    state = new_hand("sichuan", {"mode": "plain"}, DealSeeds.for_test(42))
    out = apply(state, seat, {"type": "discard", "tile": "5m"})
    if isinstance(out, Rejection): ...
    state, events = out

See ``engine.py`` for the flow, ``variants/`` for the rule sets, ``view.py`` for
what each seat may see, and ``python -m games.rules --help`` for the CLI.
"""

from .engine import (
    Rejection,
    apply,
    awaited,
    deltas,
    legal_actions,
    new_hand,
    new_match,
    next_match,
    replay,
    settle,
    window_closable,
)
from .match import MatchState
from .options import OptionsError
from .record import check_record, frames, make_record
from .rng import DealSeeds, SeedStream, commitment, default_client_seed
from .state import HandState
from .tiles import TileError
from .variants import UnknownVariant, available, get_variant
from .view import events_for, view, views

__all__ = [
    "DealSeeds",
    "HandState",
    "MatchState",
    "OptionsError",
    "Rejection",
    "SeedStream",
    "TileError",
    "UnknownVariant",
    "apply",
    "available",
    "awaited",
    "check_record",
    "commitment",
    "default_client_seed",
    "deltas",
    "events_for",
    "frames",
    "get_variant",
    "legal_actions",
    "make_record",
    "new_hand",
    "new_match",
    "next_match",
    "replay",
    "settle",
    "view",
    "views",
    "window_closable",
]
