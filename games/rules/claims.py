"""Claim windows: who may claim a discard (or rob an added kong) and how, and who gets it.

A window opens on every discard and every added kong (``turns.py`` opens it and
carries out its outcome).  Priority is win > pung/kong > chow; among several seats
wanting the same, the first in turn order after the source; among several winners,
the variant decides (``Variant.claim_winners``).
"""

from __future__ import annotations

from . import tiles as T
from .state import HandState
from .variants.base import Variant
from .variants.registry import get_variant
from .wins import claim_win_score


def claim_options(
    s: HandState, source: int, tile: int, kind: str, kong: int | None
) -> tuple[dict[int, list[dict]], dict[int, int]]:
    """What each seat still in may answer to ``tile`` from ``source`` (``kind``:
    ``discard`` or ``rob_kong``): its actions, a pass last, for the seats that have a
    claim; and the win total of each seat that may win on it."""
    v = get_variant(s.variant)
    options: dict[int, list[dict]] = {}
    scores: dict[int, int] = {}
    wild = v.is_wild(s, tile)
    seat = source
    for _ in range(3):
        seat = (seat + 1) % 4
        if s.won[seat] is not None:
            continue
        acts: list[dict] = []
        score = claim_win_score(s, seat, tile, kind, kong)
        if score is not None:
            acts.append({"type": "hu"})
            scores[seat] = score.total
        # The last discard (no drawable tile left) may only be won on: no chow, pung or
        # kong, and if nobody wins the hand is a draw.
        if kind == "discard" and not wild and s.wall:
            held = s.hands[seat].count(tile)
            if held >= 3 and v.may_claim(s, seat, source, tile, "gang"):
                acts.append({"type": "gang"})
            if held >= 2 and v.may_claim(s, seat, source, tile, "peng"):
                acts.append({"type": "peng"})
            if (
                v.allows_chow
                and seat == (source + 1) % 4
                and v.may_claim(s, seat, source, tile, "chi")
            ):
                acts.extend({"type": "chi", "tiles": c} for c in chows(v, s, seat, tile))
        if acts:
            options[seat] = [*acts, {"type": "pass"}]
    return options, scores


def chows(v, s: HandState, seat: int, tile: int) -> list[str]:
    """The chows ``seat`` can make with ``tile``, as the faces it would use.

    Shapes go by each tile's shape kind (a stand-in plays as the kind it stands for);
    wilds never take part."""
    ind, opts = s.indicator, s.rules
    k = v.shape_kind(ind, opts, tile)
    if not T.is_suited(k):
        return []
    wild = v.wild_kinds(s)  # asked once, not of every tile held
    own_kinds = type(v).shape_kind is Variant.shape_kind  # every tile plays as itself
    faces: dict[int, int] = {}  # shape kind -> a face held that plays as it
    for t in s.hands[seat]:
        if t not in wild:
            faces.setdefault(t if own_kinds else v.shape_kind(ind, opts, t), t)
    n = k % 9
    out = []
    for lo in (n - 2, n - 1, n):
        if lo < 0 or lo + 2 > 8:
            continue
        seq = [k - n + lo + i for i in range(3)]
        others = [x for x in seq if x != k]
        if all(x in faces for x in others):
            out.append(T.fmt([tile, *(faces[x] for x in others)]))
    return out


def decided(s: HandState) -> bool:
    """Whether the open window is resolved now: every seat with an option has answered;
    under ``private_claims`` a window that nobody claimed stays open for the server's
    close, so that it looks the same as one where nobody could claim."""
    claim = s.claim
    if len(claim["answers"]) < len(claim["options"]):
        return False
    return not (
        s.match.private_claims and all(a["type"] == "pass" for a in claim["answers"].values())
    )


def window_closable(s: HandState) -> bool:
    """A private claim window (``MatchState.private_claims``) in which nobody is awaited:
    every seat with an option passed, or nobody had one.  The hand goes on when the server
    applies ``{"type": "close"}`` for the seat that discarded (or added the kong), which a
    table does no sooner than its minimum window after the discard, whether anybody could
    claim or not.  Players never send it; ``legal_actions`` never lists it."""
    if s.phase != "claim" or not s.match.private_claims:
        return False
    return len(s.claim["answers"]) == len(s.claim["options"])


def outcome(s: HandState, claim: dict) -> tuple[list[int], tuple[int, dict] | None]:
    """Who gets the tile of an answered window: the winners (the variant's choice among
    the seats that claimed 胡), else the seat and action of the meld claim that comes
    first by priority (kong or pung, then chow; then turn order), else nobody."""
    source = claim["from"]
    order = [(source + k) % 4 for k in (1, 2, 3)]
    answers = claim["answers"]
    claimants = [seat for seat in order if answers.get(seat, {}).get("type") == "hu"]
    if claimants:
        return get_variant(s.variant).claim_winners(s, source, claimants), None
    if claim["kind"] == "rob_kong":
        return [], None
    for wanted in ("gang", "peng", "chi"):
        for seat in order:
            act = answers.get(seat)
            if act is not None and act["type"] == wanted:
                return [], (seat, act)
    return [], None
