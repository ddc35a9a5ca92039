"""The generic hand flow: deal, setup phases, draw, discard, claims, kongs, wins.

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
is the variant's (``variants/base.py``); this module names none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import analysis
from . import tiles as T
from .match import MatchState
from .model import Meld, WinContext
from .money import deltas_of, pot_of, transfer  # noqa: F401  (transfer: re-exported)
from .options import Options
from .rng import DealSeeds, SeedStream
from .state import HandState
from .variants.base import Variant
from .variants.registry import get_variant


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why an action was refused.  ``code`` is stable, ``reason`` is for people."""

    code: str
    reason: str

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.reason}


# --------------------------------------------------------------------------
# The match and the deal


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
    _replace_dealt_bonus_tiles(state)
    phases = v.setup_phases(opts)
    if phases:
        state.phase = phases[0]
    else:
        _start_play(state, [])
    return state


def _replace_dealt_bonus_tiles(s: HandState) -> None:
    """补花 after the deal: from the dealer on, every bonus tile in a hand is laid out
    and replaced from the back of the wall, until no hand holds one."""
    v = get_variant(s.variant)
    changed = True
    while changed and s.wall:
        changed = False
        for k in range(4):
            seat = (s.dealer + k) % 4
            hand = s.hands[seat]
            for t in [t for t in hand if v.is_bonus(s, t)]:
                if not s.wall:
                    return
                hand.remove(t)
                s.flowers[seat].append(t)
                _insert(hand, s.wall.pop())
                changed = True
        for f in s.flowers:
            f.sort()


def _start_play(s: HandState, events: list) -> None:
    s.phase = "play"
    s.turn = s.dealer
    s.turn_kind = "deal"
    s.drawn = None
    events.append({"type": "PlayStarted", "dealer": s.dealer})
    _offer_forced_self_win(s, s.dealer, events)


# --------------------------------------------------------------------------
# What a seat may do


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
    if _self_win_score(s, seat) is not None:
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


# --------------------------------------------------------------------------
# Applying an action


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
            _start_play(new, events)
    elif new.phase == "claim":
        _answer_claim(new, seat, act, events)
        if new.phase == "claim" and new.match.private_claims:
            # An answer that leaves the window open is news to its answerer alone: the
            # version the others see does not move (nor would it where nobody could claim).
            new.version += 1
            return new, events
    elif act["type"] == "discard":
        _discard(new, seat, T.parse_one(act["tile"]), events)
    elif act["type"] == "gang":
        _own_kong(new, seat, T.parse_one(act["tile"]), events)
    elif act["type"] == "hu":
        _self_win(new, seat, _self_win_score(new, seat), events)
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


# --------------------------------------------------------------------------
# Turns


def _draw(s: HandState, seat: int, events: list, *, replacement: bool = False) -> None:
    v = get_variant(s.variant)
    if not replacement:
        s.kong_turn = None
    while True:
        if not s.wall:
            _wall_exhausted(s, events)
            return
        tile = s.wall.pop() if replacement else s.wall.pop(0)
        if not v.is_bonus(s, tile):
            break
        # A bonus tile (flower) is laid out at once and replaced from the back.
        s.flowers[seat].append(tile)
        s.flowers[seat].sort()
        events.append(
            {"type": "BonusLaidOut", "seat": seat, "tile": T.to_str(tile), "wall": len(s.wall)}
        )
        replacement = True
    _insert(s.hands[seat], tile)
    s.phase = "play"
    s.turn = seat
    s.drawn = tile
    s.turn_kind = "kong" if replacement else "draw"
    s.draws[seat] += 1
    events.append(
        {
            "type": "TileDrawn",
            "seat": seat,
            "replacement": replacement,
            "wall": len(s.wall),
            "private": {"tile": T.to_str(tile)},
        }
    )
    v.on_draw(s, seat, tile, events)
    _offer_forced_self_win(s, seat, events)


def _offer_forced_self_win(s: HandState, seat: int, events: list) -> None:
    v = get_variant(s.variant)
    if v.forced_win(s):
        score = _self_win_score(s, seat)
        if score is not None:
            events.append({"type": "WinForced", "seat": seat})
            _self_win(s, seat, score, events)


def _discard(s: HandState, seat: int, tile: int, events: list) -> None:
    s.hands[seat].remove(tile)
    s.discards[seat].append(tile)
    s.drawn = None
    events.append({"type": "TileDiscarded", "seat": seat, "tile": T.to_str(tile)})
    # The variant sees kong_turn still set when the discard ends a kong's replacement turn.
    get_variant(s.variant).on_discard(s, seat, tile, events)
    kong = s.kong_turn
    s.kong_turn = None
    _open_claims(s, seat, tile, "discard", events, kong=kong)


def _own_kong(s: HandState, seat: int, tile: int, events: list) -> None:
    hand = s.hands[seat]
    if hand.count(tile) == 4:
        for _ in range(4):
            hand.remove(tile)
        s.melds[seat].append(Meld("gang", (tile,) * 4, concealed=True))
        events.append(
            {
                "type": "KongDeclared",
                "seat": seat,
                "kind": "an_gang",
                "private": {"tile": T.to_str(tile)},
            }
        )
        _kong_done(s, seat, "an_gang", tile, None, events)
        return
    # 面下杠: others may rob the added tile first.
    events.append({"type": "KongAdding", "seat": seat, "tile": T.to_str(tile)})
    s.drawn = None
    _open_claims(s, seat, tile, "rob_kong", events)


def _complete_added_kong(s: HandState, seat: int, tile: int, events: list) -> None:
    s.hands[seat].remove(tile)
    melds = s.melds[seat]
    i = next(i for i, m in enumerate(melds) if m.kind == "peng" and m.tile == tile)
    melds[i] = Meld("gang", (tile,) * 4, from_seat=melds[i].from_seat, added=True)
    events.append(
        {"type": "KongDeclared", "seat": seat, "kind": "mian_xia_gang", "tile": T.to_str(tile)}
    )
    _kong_done(s, seat, "mian_xia_gang", tile, None, events)


def _kong_done(s: HandState, seat: int, kind: str, tile: int, source: int | None, events) -> None:
    # A kong made on a kong's replacement turn continues that chain (杠上杠).
    before = s.kongs[s.kong_turn] if s.kong_turn is not None else None
    chain = before["chain"] + 1 if before is not None and before["seat"] == seat else 1
    record = {
        "id": len(s.kongs),
        "seat": seat,
        "kind": kind,
        "tile": T.to_str(tile),
        "from": source,
        "chain": chain,
    }
    s.kongs.append(record)
    get_variant(s.variant).on_kong(s, record, events)
    s.kong_turn = record["id"]
    _draw(s, seat, events, replacement=True)


# --------------------------------------------------------------------------
# Claim windows


def _open_claims(
    s: HandState, source: int, tile: int, kind: str, events: list, *, kong: int | None = None
) -> None:
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
        score = _claim_win_score(s, seat, tile, kind, kong)
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
                acts.extend({"type": "chi", "tiles": c} for c in _chows(v, s, seat, tile))
        if acts:
            options[seat] = [*acts, {"type": "pass"}]
    if not options and not s.match.private_claims:
        _no_claim(s, source, tile, kind, events)
        return
    s.claim = {
        "tile": tile,
        "from": source,
        "kind": kind,
        "kong": kong,
        "options": options,
        "answers": {},
        "scores": {str(k): val for k, val in scores.items()},
    }
    s.phase = "claim"
    if v.forced_win(s):
        for seat, acts in options.items():
            if {"type": "hu"} in acts:
                s.claim["answers"][seat] = {"type": "hu"}
                events.append({"type": "WinForced", "seat": seat})
    _answers_in(s, events)


def _chows(v, s: HandState, seat: int, tile: int) -> list[str]:
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


def _answer_claim(s: HandState, seat: int, act: dict, events: list) -> None:
    claim = s.claim
    claim["answers"][seat] = act
    # Choosing anything but 胡 (a pass, or a claim of the same tile) passes the win.
    if act["type"] != "hu" and {"type": "hu"} in claim["options"][seat]:
        get_variant(s.variant).on_win_passed(s, seat, claim)
    # Only the answerer hears of it: that a seat answered at all tells the table it
    # could claim, i.e. something about its concealed tiles.
    events.append({"type": "ClaimAnswered", "seat": seat, "only": seat, "action": act})
    _answers_in(s, events)


def _answers_in(s: HandState, events: list) -> None:
    """Resolve the window once every seat with an option has answered; under
    ``private_claims`` a window that nobody claimed stays open for the server's close,
    so that it looks the same as one where nobody could claim."""
    claim = s.claim
    if len(claim["answers"]) < len(claim["options"]):
        return
    if s.match.private_claims and all(a["type"] == "pass" for a in claim["answers"].values()):
        return
    _resolve_claims(s, events)


def window_closable(s: HandState) -> bool:
    """A private claim window (``MatchState.private_claims``) in which nobody is awaited:
    every seat with an option passed, or nobody had one.  The hand goes on when the server
    applies ``{"type": "close"}`` for the seat that discarded (or added the kong), which a
    table does no sooner than its minimum window after the discard, whether anybody could
    claim or not.  Players never send it; ``legal_actions`` never lists it."""
    if s.phase != "claim" or not s.match.private_claims:
        return False
    return len(s.claim["answers"]) == len(s.claim["options"])


def _close_window(s: HandState, seat: int) -> tuple[HandState, list[dict]] | Rejection:
    if not window_closable(s):
        return Rejection("illegal", "there is no claim window waiting to be closed")
    if seat != s.claim["from"]:
        return Rejection("illegal", "a claim window is closed for the seat that opened it")
    new = s.clone()
    events: list[dict] = []
    _resolve_claims(new, events)  # nobody claimed: the next draw, or the added kong
    new.version += 1
    new.public_version += 1
    return new, events


def _resolve_claims(s: HandState, events: list) -> None:
    v = get_variant(s.variant)
    claim = s.claim
    s.claim = None
    s.phase = "play"
    tile, source, kind = claim["tile"], claim["from"], claim["kind"]
    order = [(source + k) % 4 for k in (1, 2, 3)]
    answers = claim["answers"]
    claimants = [seat for seat in order if answers.get(seat, {}).get("type") == "hu"]
    if claimants:
        winners = v.claim_winners(s, source, claimants)
        if kind == "rob_kong":
            # The robbed tile leaves the kong maker's hand; the kong never happened.
            s.hands[source].remove(tile)
            s.discards[source].append(tile)
        win_type = "rob_kong" if kind == "rob_kong" else "discard"
        wins = []
        for seat in winners:
            score = _claim_win_score(s, seat, tile, kind, claim["kong"])
            wins.append(_record_win(s, seat, tile, win_type, source, score, claim["kong"]))
        events.append({"type": "HandWon", "wins": [_win_event(s, w) for w in wins]})
        v.on_wins(s, wins, events)
        _after_wins(s, winners[-1], events)
        return
    if kind == "rob_kong":
        _complete_added_kong(s, source, tile, events)
        return
    for wanted in ("gang", "peng", "chi"):
        for seat in order:
            act = answers.get(seat)
            if act is not None and act["type"] == wanted:
                _claim_meld(s, seat, source, tile, act, events)
                return
    _no_claim(s, source, tile, kind, events)


def _no_claim(s: HandState, source: int, tile: int, kind: str, events: list) -> None:
    if kind == "rob_kong":
        _complete_added_kong(s, source, tile, events)
    else:
        _draw(s, s.next_in_play(source), events)


def _claim_meld(s: HandState, seat: int, source: int, tile: int, act: dict, events) -> None:
    s.discards[source].pop()
    hand = s.hands[seat]
    s.claimed_any = True
    typ = act["type"]
    if typ == "chi":
        seq = T.parse(act["tiles"])
        seq.remove(tile)
        for t in seq:
            hand.remove(t)
        meld = Meld("chi", tuple(sorted([tile, *seq])), from_seat=source)
    else:
        n = 3 if typ == "gang" else 2
        for _ in range(n):
            hand.remove(tile)
        meld = Meld("gang" if typ == "gang" else "peng", (tile,) * (n + 1), from_seat=source)
    s.melds[seat].append(meld)
    events.append({"type": "TileClaimed", "seat": seat, "from": source, "meld": meld.to_json()})
    get_variant(s.variant).on_claimed(s, seat, meld, tile, events)
    if typ == "gang":
        _kong_done(s, seat, "zhi_gang", tile, source, events)
        return
    s.phase = "play"
    s.turn = seat
    s.turn_kind = "claim"
    s.drawn = None
    s.kong_turn = None


# --------------------------------------------------------------------------
# Wins


def _context(
    s: HandState, seat: int, hand: list[int], tile: int, win_type: str, flags
) -> WinContext:
    return get_variant(s.variant).win_context(s, seat, hand, tile, win_type, frozenset(flags))


def _quick_win(s: HandState, seat: int, tiles: list[int]) -> bool:
    """A cheap shape test before the full scoring (most tiles do not win)."""
    v = get_variant(s.variant)
    c, wilds = v.split_wilds(s, seat, tiles)
    return analysis.is_winning(c, wilds, **v.win_shapes(s, seat))


def _completes(s: HandState, seat: int, hand: list[int], tile: int) -> bool:
    """Whether ``tile`` makes a winning shape of the ``3n + 1`` tiles ``hand``: the same
    answer as :func:`_quick_win` on both, asked of the hand's waits.  Those are
    remembered by the hand's counts, and a hand faces three discards (and its own
    draw) between two changes, so this is a lookup where the shape test read every
    suit again (with wilds, a search).  A wild tile takes the shape test."""
    v = get_variant(s.variant)
    kind, wild = v.split_wilds(s, seat, [tile])
    if wild or len(hand) % 3 != 1 or 1 not in kind:
        return _quick_win(s, seat, [*hand, tile])
    c, wilds = v.split_wilds(s, seat, hand)
    if c[kind.index(1)] >= 4:
        return _quick_win(s, seat, [*hand, tile])  # a fifth copy: no wait says it
    return kind.index(1) in analysis.waits(c, wilds, **v.win_shapes(s, seat))


def _self_win_score(s: HandState, seat: int):
    if s.phase != "play" or seat != s.turn or s.turn_kind == "claim" or s.won[seat] is not None:
        return None
    hand = s.hands[seat]
    tile = s.drawn if s.drawn is not None else hand[-1]
    rest = list(hand)
    if tile in rest:
        rest.remove(tile)
        if not _completes(s, seat, rest, tile):
            return None
    elif not _quick_win(s, seat, hand):
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


def _claim_win_score(s: HandState, seat: int, tile: int, kind: str, kong: int | None):
    if not _completes(s, seat, s.hands[seat], tile):
        return None
    flags = ["kong_discard"] if kind == "discard" and kong is not None else []
    if kind == "discard" and not s.wall:
        flags.append("last_tile")
    win_type = "rob_kong" if kind == "rob_kong" else "discard"
    ctx = _context(s, seat, list(s.hands[seat]), tile, win_type, flags)
    return get_variant(s.variant).win_score(s, seat, ctx, on_discard=True)


def _record_win(s, seat, tile, win_type, source, score, kong) -> dict:
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


def _win_event(s: HandState, w: dict) -> dict:
    return {
        **w,
        "melds": [m.to_json() for m in s.melds[w["seat"]]],
    }


def _self_win(s: HandState, seat: int, score, events: list) -> None:
    tile = s.drawn if s.drawn is not None else s.hands[seat][-1]
    win = _record_win(s, seat, tile, "self_draw", None, score, s.kong_turn)
    win["turn_kind"] = s.turn_kind
    s.drawn = None
    events.append({"type": "HandWon", "wins": [_win_event(s, win)]})
    get_variant(s.variant).on_wins(s, [win], events)
    _after_wins(s, seat, events)


def _after_wins(s: HandState, last_winner: int, events: list) -> None:
    v = get_variant(s.variant)
    s.kong_turn = None
    if v.hand_over_after_win(s):
        _end(s, "win", events)
    else:
        _draw(s, s.next_in_play(last_winner), events)


# --------------------------------------------------------------------------
# The end


def _wall_exhausted(s: HandState, events: list) -> None:
    get_variant(s.variant).on_wall_exhausted(s, events)
    _end(s, "exhausted", events)


def deltas(s: HandState) -> list[int]:
    """Each seat's net of every transfer recorded so far (the pot excluded)."""
    return deltas_of(s.transfers)


def _end(s: HandState, reason: str, events: list) -> None:
    s.phase = "ended"
    s.claim = None
    s.turn_kind = None
    v = get_variant(s.variant)
    s.result = {
        "reason": reason,
        "winners": list(s.win_order),
        "deltas": deltas(s),
        "pot": pot_of(s.transfers),
        "next_dealer": v.next_dealer(s),
    }
    s.result["match"] = v.next_match(s.match, s).to_json()
    events.append(
        {
            "type": "HandEnded",
            "result": s.result,
            "hands": [T.fmt(h) for h in s.hands],
            "server_seed": s.seeds.server_seed,
        }
    )


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


def _insert(hand: list[int], tile: int) -> None:
    i = 0
    while i < len(hand) and hand[i] <= tile:
        i += 1
    hand.insert(i, tile)


# --------------------------------------------------------------------------
# Replay


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
