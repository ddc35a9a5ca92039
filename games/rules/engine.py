"""The generic hand flow's entry points: the deal, what a seat may do, applying it.

Public functions (re-exported by ``games.rules``):

* ``new_match(variant, rules, hands_total=None)`` → :class:`MatchState`
* ``new_hand(variant, rules, seeds, dealer=None, match=None)`` → :class:`HandState`
* ``legal_actions(state, seat)`` → the exact action objects ``seat`` may send now
* ``apply(state, seat, action)`` → ``(new_state, events)`` or a :class:`Rejection`
* ``settle(state)`` → the end-of-hand settlement of a finished hand (pure)
* ``next_match(state)`` → the match after a finished hand
* ``replay(variant, rules, seeds, dealer, log, match=None)`` → the state the log leads to

Generic actions are JSON objects with a ``type``: ``discard`` (``tile``), ``gang``
(``tile`` on one's own turn; bare in a claim window), ``peng``, ``chi``
(``tiles``), ``hu``, ``pass``, ``leave`` (逃跑; accepted at any time, never
listed as legal) and ``close`` (a live table's, never a player's: under
``MatchState.private_claims`` it ends a claim window nobody claimed, see
``window_closable``).  A variant adds its own (``Variant.action_fields``).

``apply`` never mutates its input.  Every decision on which rule sets differ
is the variant's (``variants/base.py``); this module names none of them.  The
turn flow an action sets off is ``turns.py``; the claim windows' options and
their resolution by priority are ``claims.py``; wins are scored in ``wins.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import tiles as T
from .claims import window_closable
from .match import MatchState
from .money import deltas_of, pot_of
from .options import Options
from .rng import DealSeeds, SeedStream
from .state import HandState
from .turns import (
    answer_claim,
    discard,
    own_kong,
    replace_dealt_bonus_tiles,
    resolve_claims,
    self_win,
    start_play,
)
from .variants.registry import get_variant
from .wins import self_win_score

__all__ = [
    "KONG_KINDS",
    "Deal",
    "Rejection",
    "apply",
    "awaited",
    "deal_wall",
    "deltas",
    "legal_actions",
    "new_hand",
    "new_match",
    "next_match",
    "replay",
    "settle",
    "window_closable",
]


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why an action was refused.  ``code`` is stable, ``reason`` is for people."""

    code: str
    reason: str

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.reason}


def new_match(variant: str, rules=None, hands_total: int | None = None) -> MatchState:
    """The match before its first hand."""
    v = get_variant(variant)
    opts = rules if isinstance(rules, Options) else v.resolve_options(rules)
    return v.new_match(opts, hands_total)


@dataclass(frozen=True, slots=True)
class Deal:
    """Every draw of a deal from the seed stream, in the documented order (README.md):
    the dealer's dice (only when nobody names the dealer), the shuffle of the variant's
    unshuffled tile set, the variant's break, then (in ``new_hand``) its own setup draws
    from ``stream``."""

    variant: object
    opts: Options
    match: MatchState
    dealer: int
    tile_set: tuple[int, ...]  # the variant's tiles in their given order
    shuffled: tuple[int, ...]  # the wall as shuffled, before the break
    wall: list  # the broken wall: dealt from its front, replacements from its back
    vs: dict  # the variant's first state (break_wall's return)
    stream: SeedStream

    @property
    def break_start(self) -> int:
        """How far the break rotated the shuffled wall left (0: no break)."""
        n, wall = len(self.shuffled), tuple(self.wall)
        return next(k for k in range(n) if self.shuffled[k:] + self.shuffled[:k] == wall)


def deal_wall(
    variant: str,
    rules=None,
    seeds: DealSeeds | None = None,
    dealer: int | None = None,
    match: MatchState | dict | None = None,
) -> Deal:
    """The wall and dealer of a hand, before a tile is dealt (see :class:`Deal`)."""
    v = get_variant(variant)
    opts = rules if isinstance(rules, Options) else v.resolve_options(rules)
    if not isinstance(seeds, DealSeeds):
        raise ValueError("seeds must be DealSeeds (DealSeeds.for_test(n) in tests)")
    if match is None:
        match = MatchState()
    elif isinstance(match, dict):
        match = MatchState.from_json(match)
    if dealer is None:
        dealer = match.dealer
    stream = SeedStream(seeds)
    if dealer is None:
        d1, d2 = stream.dice()
        dealer = (d1 + d2 - 1) % 4
    elif dealer not in range(4):
        raise ValueError("dealer must be a seat 0..3")
    if match.dealer != dealer:
        match = replace(match, dealer=dealer, seat_winds=None)
    match = match.dealt(dealer)
    tile_set = tuple(v.wall_tiles(opts))
    wall = list(tile_set)
    stream.shuffle(wall)
    shuffled = tuple(wall)
    vs = v.break_wall(wall, dealer, opts, stream)
    return Deal(v, opts, match, dealer, tile_set, shuffled, wall, vs, stream)


def new_hand(
    variant: str,
    rules=None,
    seeds: DealSeeds | None = None,
    dealer: int | None = None,
    match: MatchState | dict | None = None,
) -> HandState:
    """Deal a hand under ``match`` (or a fresh one) from ``seeds``.  ``dealer``
    overrides the match's dealer; with neither, the (seeded) dice pick the dealer."""
    d = deal_wall(variant, rules, seeds, dealer, match)
    v, opts, match, dealer, wall = d.variant, d.opts, d.match, d.dealer, list(d.wall)
    hands = []
    for k in range(4):
        n = 14 if k == dealer else 13
        hands.append(sorted(wall[:n]))
        del wall[:n]
    state = HandState(
        variant=v.key,
        rules=opts,
        seeds=seeds,
        match=match,
        dealer=dealer,
        version=0,
        public_version=0,
        wall=wall,
        dead=[],
        indicator=None,
        hands=hands,
        melds=[[] for _ in range(4)],
        discards=[[] for _ in range(4)],
        flowers=[[] for _ in range(4)],
        phase="play",
        turn=dealer,
        drawn=None,
        turn_kind="deal",
        kong_turn=None,
        claim=None,
        won=[None] * 4,
        win_order=[],
        left=[False] * 4,
        draws=[0] * 4,
        claimed_any=False,
        kongs=[],
        transfers=[],
        result=None,
        vs=d.vs,
    )
    v.on_new_hand(state, d.stream)
    replace_dealt_bonus_tiles(state)
    phases = v.setup_phases(opts)
    if phases:
        state.phase = phases[0]
    else:
        start_play(state, [])
    return state


def legal_actions(s: HandState, seat: int) -> list[dict]:
    if s.phase == "ended" or seat not in range(4):
        return []
    v = get_variant(s.variant)
    if s.phase not in ("play", "claim"):
        return v.phase_actions(s, seat)
    if s.phase == "claim":
        claim = s.claim
        if seat in claim["options"] and seat not in claim["answers"]:
            return [dict(a) for a in claim["options"][seat]]
        return []
    if seat != s.turn or s.won[seat] is not None:
        return []
    acts: list[dict] = []
    if self_win_score(s, seat) is not None:
        acts.append({"type": "hu"})
    if s.wall and (s.turn_kind != "claim" or v.kong_on_claim_turn):
        hand = s.hands[seat]
        held = T.counts(hand, T.NUM_TILES)
        for k in sorted(set(hand)):
            if held[k] == 4 and not v.is_wild(s, k) and v.may_kong(s, seat, k, False):
                acts.append({"type": "gang", "tile": T.to_str(k)})
        for m in s.melds[seat]:
            if m.kind == "peng" and held[m.tile] and v.may_kong(s, seat, m.tile, True):
                acts.append({"type": "gang", "tile": T.to_str(m.tile)})
    acts.extend(v.own_turn_actions(s, seat))
    for k in v.discard_choices(s, seat):
        acts.append({"type": "discard", "tile": T.to_str(k)})
    return acts


def awaited(s: HandState) -> list[int]:
    """The seats whose decision the hand is waiting for."""
    return [seat for seat in range(4) if legal_actions(s, seat)]


#: the generic flow's names of the three kongs (concealed, added to a pung, from a discard)
KONG_KINDS = ("an_gang", "mian_xia_gang", "zhi_gang")


_ACTION_KEYS = {
    "discard": {"tile"},
    "gang": {"tile"},
    "peng": set(),
    "chi": {"tiles"},
    "hu": set(),
    "pass": set(),
    "leave": set(),
    "close": set(),
}


def _canonical(v, action: dict) -> dict | Rejection:
    typ = action.get("type")
    fields = _ACTION_KEYS.get(typ)
    if fields is None:
        fields = v.action_fields.get(typ)
    if fields is None:
        known = ", ".join(sorted({*_ACTION_KEYS, *v.action_fields}))
        return Rejection("bad_action", f"unknown action type {typ!r} (known: {known})")
    extra = set(action) - {"type"} - fields
    if extra:
        return Rejection("bad_action", f"unexpected field(s) for {typ}: {', '.join(sorted(extra))}")
    out = {"type": typ}
    try:
        if "tile" in action:
            out["tile"] = T.to_str(T.parse_one(action["tile"]))
        if "tiles" in action:
            out["tiles"] = T.fmt(T.parse(action["tiles"]))
    except T.TileError as e:
        return Rejection("bad_tile", str(e))
    if typ in v.action_fields:
        own = v.canonical_action(
            {k: val for k, val in action.items() if k not in out or k == "type"}
        )
        if isinstance(own, str):
            return Rejection("bad_action", own)
        out.update({k: val for k, val in own.items() if k != "type"})
    return out


def apply(s: HandState, seat: int, action) -> tuple[HandState, list[dict]] | Rejection:
    """Apply ``seat``'s ``action``: the new state and its events, or a rejection."""
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(4):
        return Rejection("bad_seat", "seat must be 0..3")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return Rejection("bad_action", "an action is an object with a string 'type'")
    if s.phase == "ended":
        return Rejection("hand_over", "the hand is over")
    v = get_variant(s.variant)
    act = _canonical(v, action)
    if isinstance(act, Rejection):
        return act
    if act["type"] == "leave":
        if s.left[seat]:
            return Rejection("already_left", "you have already left this hand")
        new = s.clone()
        events: list[dict] = [{"type": "PlayerLeft", "seat": seat}]
        new.left[seat] = True
        v.on_leave(new, seat, events)
        new.version += 1
        new.public_version += 1
        return new, events
    if act["type"] == "close":
        return _close_window(s, seat)
    legal = legal_actions(s, seat)
    if act not in legal:
        return _explain(v, s, seat, act, legal)
    new = s.clone()
    events = []
    if new.phase not in ("play", "claim"):
        reason = v.phase_apply(new, seat, act, events)
        if reason:
            return Rejection("illegal", reason)
        if new.phase == "play":
            start_play(new, events)
    elif new.phase == "claim":
        answer_claim(new, seat, act, events)
        if new.phase == "claim" and new.match.private_claims:
            # An answer that leaves the window open is news to its answerer alone: the
            # version the others see does not move (nor would it where nobody could claim).
            new.version += 1
            return new, events
    elif act["type"] == "discard":
        discard(new, seat, T.parse_one(act["tile"]), events)
    elif act["type"] == "gang":
        own_kong(new, seat, T.parse_one(act["tile"]), events)
    elif act["type"] == "hu":
        self_win(new, seat, self_win_score(new, seat), events)
    else:
        v.apply_own_turn(new, seat, act, events)
    new.version += 1
    new.public_version += 1
    return new, events


def _explain(v, s: HandState, seat: int, act: dict, legal: list[dict]) -> Rejection:
    if not legal:
        if s.phase in ("play", "claim") and s.won[seat] is not None:
            return Rejection("out", "you have already won this hand")
        return Rejection("not_your_turn", "it is not your turn")
    typ = act["type"]
    if typ == "discard" and any(a["type"] == "discard" for a in legal):
        if T.parse_one(act["tile"]) not in s.hands[seat]:
            return Rejection("tile_not_held", f"you do not hold {act['tile']}")
    own = v.explain(s, seat, act)
    if own is not None:
        return Rejection(*own)
    if typ == "discard" and any(a["type"] == "discard" for a in legal):
        return Rejection("illegal", f"you cannot discard {act['tile']} now")
    if not any(a["type"] == typ for a in legal):
        return Rejection("illegal", f"you cannot {typ} now")
    return Rejection("illegal", f"that {typ} is not allowed now")


def _close_window(s: HandState, seat: int) -> tuple[HandState, list[dict]] | Rejection:
    if not window_closable(s):
        return Rejection("illegal", "there is no claim window waiting to be closed")
    if seat != s.claim["from"]:
        return Rejection("illegal", "a claim window is closed for the seat that opened it")
    new = s.clone()
    events: list[dict] = []
    resolve_claims(new, events)  # nobody claimed: the next draw, or the added kong
    new.version += 1
    new.public_version += 1
    return new, events


def deltas(s: HandState) -> list[int]:
    """Each seat's net of every transfer recorded so far (the pot excluded)."""
    return deltas_of(s.transfers)


def next_match(s: HandState) -> MatchState:
    """The match after this finished hand (also stored as ``result["match"]``)."""
    if s.phase != "ended":
        raise ValueError("the hand is not over")
    return MatchState.from_json(s.result["match"])


def settle(s: HandState) -> dict:
    """The settlement of a finished hand: pure, so a task can compute it (and again).

    Returns ``{"transfers": [...], "end_transfers": [...], "deltas": [4 ints],
    "pot": int, "winners": [...], "details": {...}}``: ``transfers`` are every
    payment of the hand (the live ones, then the end-of-hand ones the variant adds
    now, e.g. Sichuan's 查花猪/查大叫 and kong refunds); ``deltas`` each seat's net
    of them; ``pot`` what was paid to nobody (``sum(deltas) + pot == 0``)."""
    if s.phase != "ended":
        raise ValueError("the hand is not over")
    end, details = get_variant(s.variant).settle(s)
    transfers = [*s.transfers, *end]
    return {
        "transfers": transfers,
        "end_transfers": end,
        "deltas": deltas_of(transfers),
        "pot": pot_of(transfers),
        "winners": list(s.win_order),
        "details": details,
    }


def replay(
    variant: str,
    rules,
    seeds: DealSeeds,
    dealer: int | None,
    log,
    match: MatchState | dict | None = None,
) -> HandState:
    """Rebuild a hand from its recorded inputs; raises if the log does not apply."""
    state = new_hand(variant, rules, seeds, dealer, match)
    for seat, action in log:
        out = apply(state, seat, action)
        if isinstance(out, Rejection):
            raise ValueError(f"log action {action} by seat {seat} rejected: {out.reason}")
        state = out[0]
    return state
