"""The generic hand flow: deal, setup phases, draw, discard, claims, kongs, wins.

Public functions (re-exported by ``games.rules``):

* ``new_hand(variant, rules, seed, dealer=None)`` → :class:`HandState`
* ``legal_actions(state, seat)`` → the exact action objects ``seat`` may send now
* ``apply(state, seat, action)`` → ``(new_state, events)`` or a :class:`Rejection`
* ``replay(variant, rules, seed, dealer, log)`` → the state the log leads to

Actions are JSON objects with a ``type``: ``exchange`` (``tiles``), ``ding_que``
(``suit``), ``discard`` (``tile``), ``gang`` (``tile`` on one's own turn; bare in
a claim window), ``peng``, ``chi`` (``tiles``), ``hu``, ``pass``, and ``leave``
(逃跑; accepted at any time, never listed as legal).

``apply`` never mutates its input.  Variant-specific decisions are made by the
variant object (``variants/``); this module holds none.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import analysis
from . import tiles as T
from .model import Meld, WinContext
from .options import Options
from .rng import Rng
from .state import HandState
from .variants import get_variant


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why an action was refused.  ``code`` is stable, ``reason`` is for people."""

    code: str
    reason: str

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.reason}


# --------------------------------------------------------------------------
# The deal


def new_hand(variant: str, rules=None, seed: int = 0, dealer: int | None = None) -> HandState:
    """Deal a hand.  ``dealer=None`` rolls the (seeded) dice for the dealer."""
    v = get_variant(variant)
    opts = rules if isinstance(rules, Options) else v.resolve_options(rules)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("seed must be an integer")
    rng = Rng(seed)
    if dealer is None:
        d1, d2 = rng.dice()
        dealer = (d1 + d2 - 1) % 4
    elif dealer not in range(4):
        raise ValueError("dealer must be a seat 0..3")
    wall = v.wall_tiles(opts)
    rng.shuffle(wall)
    hands = []
    for k in range(4):
        n = 14 if k == dealer else 13
        hands.append(sorted(wall[:n]))
        del wall[:n]
    state = HandState(
        variant=v.key,
        rules=opts,
        seed=seed,
        dealer=dealer,
        version=0,
        wall=wall,
        hands=hands,
        melds=[[] for _ in range(4)],
        discards=[[] for _ in range(4)],
        flowers=[[] for _ in range(4)],
        phase="play",
        picks=[None] * 4,
        que=[None] * 4,
        exchange_dir=None,
        turn=dealer,
        drawn=None,
        turn_kind="deal",
        kong_turn=None,
        claim=None,
        won=[None] * 4,
        win_order=[],
        left=[False] * 4,
        pass_hu=[None] * 4,
        draws=[0] * 4,
        claimed_any=False,
        kongs=[],
        transfers=[],
        result=None,
        extra={},
    )
    v.on_new_hand(state, rng)
    phases = v.setup_phases(opts)
    if phases:
        state.phase = phases[0]
    else:
        _start_play(state, [])
    return state


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
    # After a claimed pung or chow the player just discards: no kong that turn.
    if s.wall and s.turn_kind != "claim":
        hand = s.hands[seat]
        held = T.counts(hand)
        for k in sorted(set(hand)):
            if held[k] == 4 and v.may_meld(s, seat, k):
                acts.append({"type": "gang", "tile": T.to_str(k)})
        stale = s.extra.get("held_at_pung", {}).get(str(seat), [])
        for m in s.melds[seat]:
            # 面下杠 needs the fourth tile drawn after the pung, not one held then.
            if (
                m.kind == "peng"
                and held[m.tile]
                and m.tile not in stale
                and v.may_meld(s, seat, m.tile)
            ):
                acts.append({"type": "gang", "tile": T.to_str(m.tile)})
    for k in v.discard_choices(s, seat):
        acts.append({"type": "discard", "tile": T.to_str(k)})
    return acts


def awaited(s: HandState) -> list[int]:
    """The seats whose decision the hand is waiting for."""
    return [seat for seat in range(4) if legal_actions(s, seat)]


# --------------------------------------------------------------------------
# Applying an action


_ACTION_KEYS = {
    "exchange": {"tiles"},
    "ding_que": {"suit"},
    "discard": {"tile"},
    "gang": {"tile"},
    "peng": set(),
    "chi": {"tiles"},
    "hu": set(),
    "pass": set(),
    "leave": set(),
}


def _canonical(action: dict) -> dict | Rejection:
    typ = action.get("type")
    if typ not in _ACTION_KEYS:
        known = ", ".join(sorted(_ACTION_KEYS))
        return Rejection("bad_action", f"unknown action type {typ!r} (known: {known})")
    extra = set(action) - {"type"} - _ACTION_KEYS[typ]
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
    if "suit" in action:
        if action["suit"] not in ("m", "p", "s"):
            return Rejection("bad_action", "suit must be one of m, p, s")
        out["suit"] = action["suit"]
    return out


def apply(s: HandState, seat: int, action) -> tuple[HandState, list[dict]] | Rejection:
    """Apply ``seat``'s ``action``: the new state and its events, or a rejection."""
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in range(4):
        return Rejection("bad_seat", "seat must be 0..3")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return Rejection("bad_action", "an action is an object with a string 'type'")
    if s.phase == "ended":
        return Rejection("hand_over", "the hand is over")
    act = _canonical(action)
    if isinstance(act, Rejection):
        return act
    v = get_variant(s.variant)
    if act["type"] == "leave":
        if s.left[seat]:
            return Rejection("already_left", "you have already left this hand")
        new = s.clone()
        events: list[dict] = [{"type": "PlayerLeft", "seat": seat}]
        new.left[seat] = True
        v.on_leave(new, seat, events)
        new.version += 1
        return new, events
    legal = legal_actions(s, seat)
    if act not in legal:
        return _explain(s, seat, act, legal)
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
    elif act["type"] == "discard":
        _discard(new, seat, T.parse_one(act["tile"]), events)
    elif act["type"] == "gang":
        _own_kong(new, seat, T.parse_one(act["tile"]), events)
    elif act["type"] == "hu":
        _self_win(new, seat, _self_win_score(new, seat), events)
    else:  # pragma: no cover - legal_actions offers nothing else on a turn
        raise AssertionError(f"unhandled action {act}")
    new.version += 1
    return new, events


def _explain(s: HandState, seat: int, act: dict, legal: list[dict]) -> Rejection:
    if not legal:
        if s.phase in ("play", "claim") and s.won[seat] is not None:
            return Rejection("out", "you have already won this hand")
        return Rejection("not_your_turn", "it is not your turn")
    typ = act["type"]
    if typ == "discard" and any(a["type"] == "discard" for a in legal):
        tile = T.parse_one(act["tile"])
        if tile not in s.hands[seat]:
            return Rejection("tile_not_held", f"you do not hold {act['tile']}")
        que = s.que[seat]
        if que is not None and T.suit_index(tile) != que:
            return Rejection(
                "que_first", f"you must discard your missing suit ({'mps'[que]}) first"
            )
        return Rejection("illegal", f"you cannot discard {act['tile']} now")
    if typ in ("discard", "gang", "peng", "chi", "hu", "pass", "exchange", "ding_que"):
        if not any(a["type"] == typ for a in legal):
            return Rejection("illegal", f"you cannot {typ} now")
    return Rejection("illegal", f"that {typ} is not allowed now")


# --------------------------------------------------------------------------
# Turns


def _draw(s: HandState, seat: int, events: list, *, replacement: bool = False) -> None:
    if not s.wall:
        _wall_exhausted(s, events)
        return
    tile = s.wall.pop() if replacement else s.wall.pop(0)
    _insert(s.hands[seat], tile)
    s.phase = "play"
    s.turn = seat
    s.drawn = tile
    s.turn_kind = "kong" if replacement else "draw"
    if not replacement:
        s.kong_turn = None
    s.draws[seat] += 1
    s.pass_hu[seat] = None  # 过胡 lifts at one's own draw
    events.append(
        {
            "type": "TileDrawn",
            "seat": seat,
            "replacement": replacement,
            "wall": len(s.wall),
            "private": {"tile": T.to_str(tile)},
        }
    )
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
    kong = s.kong_turn
    s.kong_turn = None
    events.append({"type": "TileDiscarded", "seat": seat, "tile": T.to_str(tile)})
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
    record = {
        "id": len(s.kongs),
        "seat": seat,
        "kind": kind,
        "tile": T.to_str(tile),
        "from": source,
        "income": [],
        "transferred": False,
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
        if kind == "discard" and v.may_meld(s, seat, tile):
            held = s.hands[seat].count(tile)
            if held >= 3 and s.wall:
                acts.append({"type": "gang"})
            if held >= 2:
                acts.append({"type": "peng"})
            if v.allows_chow and seat == (source + 1) % 4:
                acts.extend({"type": "chi", "tiles": c} for c in _chows(s, seat, tile))
        if acts:
            options[seat] = [*acts, {"type": "pass"}]
    if not options:
        _no_claim(s, source, tile, kind, events)
        return
    s.claim = {
        "tile": tile,
        "from": source,
        "kind": kind,
        "kong": kong,
        "options": options,
        "answers": {},
        "scores": {str(k): v for k, v in scores.items()},
    }
    s.phase = "claim"
    if v.forced_win(s):
        for seat, acts in options.items():
            if {"type": "hu"} in acts:
                s.claim["answers"][seat] = {"type": "hu"}
                events.append({"type": "WinForced", "seat": seat})
    if len(s.claim["answers"]) == len(options):
        _resolve_claims(s, events)


def _chows(s: HandState, seat: int, tile: int) -> list[str]:
    if not T.is_suited(tile):
        return []
    hand = s.hands[seat]
    n = tile % 9
    out = []
    for lo in (n - 2, n - 1, n):
        if lo < 0 or lo + 2 > 8:
            continue
        seq = [tile - n + lo + i for i in range(3)]
        others = [t for t in seq if t != tile]
        if all(t in hand for t in others):
            out.append(T.fmt(seq))
    return out


def _answer_claim(s: HandState, seat: int, act: dict, events: list) -> None:
    claim = s.claim
    claim["answers"][seat] = act
    # Choosing anything but 胡 (a pass, or a pung/kong of the same tile) passes the win.
    if act["type"] != "hu" and {"type": "hu"} in claim["options"][seat]:
        passed = claim["scores"][str(seat)]
        s.pass_hu[seat] = max(passed, s.pass_hu[seat] or 0)
    # Only the answerer hears of it: that a seat answered at all tells the table it
    # could claim, i.e. something about its concealed tiles.
    events.append({"type": "ClaimAnswered", "seat": seat, "only": seat, "action": act})
    if len(claim["answers"]) == len(claim["options"]):
        _resolve_claims(s, events)


def _resolve_claims(s: HandState, events: list) -> None:
    v = get_variant(s.variant)
    claim = s.claim
    s.claim = None
    s.phase = "play"
    tile, source, kind = claim["tile"], claim["from"], claim["kind"]
    order = [(source + k) % 4 for k in (1, 2, 3)]
    answers = claim["answers"]
    winners = [seat for seat in order if answers.get(seat, {}).get("type") == "hu"]
    if winners:
        if not v.multiple_winners:
            winners = winners[:1]
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
        seq = tuple(T.parse(act["tiles"]))
        for t in seq:
            if t != tile:
                hand.remove(t)
        meld = Meld("chi", seq, from_seat=source)
    else:
        n = 3 if typ == "gang" else 2
        for _ in range(n):
            hand.remove(tile)
        meld = Meld("gang" if typ == "gang" else "peng", (tile,) * (n + 1), from_seat=source)
        if typ == "peng" and tile in hand:
            # The fourth copy was held and not konged: it can never make a 面下杠.
            stale = s.extra.setdefault("held_at_pung", {}).setdefault(str(seat), [])
            stale.append(tile)
    s.melds[seat].append(meld)
    events.append({"type": "TileClaimed", "seat": seat, "from": source, "meld": meld.to_json()})
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
    c, wilds = get_variant(s.variant).split_wilds(s, seat, tiles)
    return analysis.is_winning(
        c, wilds, seven_pairs=not s.melds[seat], thirteen_orphans=not s.melds[seat]
    )


def _self_win_score(s: HandState, seat: int):
    if s.phase != "play" or seat != s.turn or s.turn_kind == "claim" or s.won[seat] is not None:
        return None
    hand = s.hands[seat]
    if not _quick_win(s, seat, hand):
        return None
    tile = s.drawn if s.drawn is not None else hand[-1]
    rest = list(hand)
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
    if not _quick_win(s, seat, [*s.hands[seat], tile]):
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
    """Each seat's net of every transfer so far."""
    out = [0, 0, 0, 0]
    for t in s.transfers:
        out[t["from"]] -= t["amount"]
        out[t["to"]] += t["amount"]
    return out


def _end(s: HandState, reason: str, events: list) -> None:
    s.phase = "ended"
    s.claim = None
    s.turn_kind = None
    s.result = {
        "reason": reason,
        "winners": list(s.win_order),
        "deltas": deltas(s),
        "next_dealer": get_variant(s.variant).next_dealer(s),
    }
    events.append(
        {
            "type": "HandEnded",
            "result": s.result,
            "hands": [T.fmt(h) for h in s.hands],
            "seed": s.seed,
        }
    )


def transfer(s: HandState, payer: int, payee: int, amount: int, reason: str, **info) -> dict:
    """Record one payment; every settlement is built from these, so it sums to zero."""
    t = {"from": payer, "to": payee, "amount": amount, "reason": reason, **info}
    s.transfers.append(t)
    return t


def _insert(hand: list[int], tile: int) -> None:
    i = 0
    while i < len(hand) and hand[i] <= tile:
        i += 1
    hand.insert(i, tile)


# --------------------------------------------------------------------------
# Replay


def replay(variant: str, rules, seed: int, dealer: int | None, log) -> HandState:
    """Rebuild a hand from its recorded inputs; raises if the log does not apply."""
    state = new_hand(variant, rules, seed, dealer)
    for seat, action in log:
        out = apply(state, seat, action)
        if isinstance(out, Rejection):
            raise ValueError(f"log action {action} by seat {seat} rejected: {out.reason}")
        state = out[0]
    return state
