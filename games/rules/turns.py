"""The turn flow: the deal's 补花, draws, discards, kongs, wins and the end of the hand.

Each function changes the (cloned) state in place and appends its events.  A discard
or an added kong opens a claim window (who may claim what and who gets the tile is
``claims.py``); what follows a window, a draw, a meld or wins, is here.
"""

from __future__ import annotations

from . import claims
from . import tiles as T
from .model import Meld
from .money import deltas_of, pot_of
from .state import HandState
from .variants.registry import get_variant
from .wins import claim_win_score, record_win, self_win_score, win_event


def replace_dealt_bonus_tiles(s: HandState) -> None:
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


def start_play(s: HandState, events: list) -> None:
    s.phase = "play"
    s.turn = s.dealer
    s.turn_kind = "deal"
    s.drawn = None
    events.append({"type": "PlayStarted", "dealer": s.dealer})
    _offer_forced_self_win(s, s.dealer, events)


def draw(s: HandState, seat: int, events: list, *, replacement: bool = False) -> None:
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
        score = self_win_score(s, seat)
        if score is not None:
            events.append({"type": "WinForced", "seat": seat})
            self_win(s, seat, score, events)


def discard(s: HandState, seat: int, tile: int, events: list) -> None:
    s.hands[seat].remove(tile)
    s.discards[seat].append(tile)
    s.drawn = None
    events.append({"type": "TileDiscarded", "seat": seat, "tile": T.to_str(tile)})
    # The variant sees kong_turn still set when the discard ends a kong's replacement turn.
    get_variant(s.variant).on_discard(s, seat, tile, events)
    kong = s.kong_turn
    s.kong_turn = None
    _open_claims(s, seat, tile, "discard", events, kong=kong)


def own_kong(s: HandState, seat: int, tile: int, events: list) -> None:
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
    draw(s, seat, events, replacement=True)


def _open_claims(
    s: HandState, source: int, tile: int, kind: str, events: list, *, kong: int | None = None
) -> None:
    v = get_variant(s.variant)
    options, scores = claims.claim_options(s, source, tile, kind, kong)
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


def answer_claim(s: HandState, seat: int, act: dict, events: list) -> None:
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
    if claims.decided(s):
        resolve_claims(s, events)


def resolve_claims(s: HandState, events: list) -> None:
    """Close the window and carry out its outcome: the wins, the meld claimed, or (nobody
    claimed) the next draw or the added kong completed."""
    v = get_variant(s.variant)
    claim = s.claim
    s.claim = None
    s.phase = "play"
    tile, source, kind = claim["tile"], claim["from"], claim["kind"]
    winners, meld = claims.outcome(s, claim)
    if winners:
        if kind == "rob_kong":
            # The robbed tile leaves the kong maker's hand; the kong never happened.
            s.hands[source].remove(tile)
            s.discards[source].append(tile)
        win_type = "rob_kong" if kind == "rob_kong" else "discard"
        wins = []
        for seat in winners:
            score = claim_win_score(s, seat, tile, kind, claim["kong"])
            wins.append(record_win(s, seat, tile, win_type, source, score, claim["kong"]))
        events.append({"type": "HandWon", "wins": [win_event(s, w) for w in wins]})
        v.on_wins(s, wins, events)
        _after_wins(s, winners[-1], events)
    elif meld is not None:
        _claim_meld(s, meld[0], source, tile, meld[1], events)
    else:
        _no_claim(s, source, tile, kind, events)


def _no_claim(s: HandState, source: int, tile: int, kind: str, events: list) -> None:
    if kind == "rob_kong":
        _complete_added_kong(s, source, tile, events)
    else:
        draw(s, s.next_in_play(source), events)


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


def self_win(s: HandState, seat: int, score, events: list) -> None:
    tile = s.drawn if s.drawn is not None else s.hands[seat][-1]
    win = record_win(s, seat, tile, "self_draw", None, score, s.kong_turn)
    win["turn_kind"] = s.turn_kind
    s.drawn = None
    events.append({"type": "HandWon", "wins": [win_event(s, win)]})
    get_variant(s.variant).on_wins(s, [win], events)
    _after_wins(s, seat, events)


def _after_wins(s: HandState, last_winner: int, events: list) -> None:
    v = get_variant(s.variant)
    s.kong_turn = None
    if v.hand_over_after_win(s):
        _end(s, "win", events)
    else:
        draw(s, s.next_in_play(last_winner), events)


def _wall_exhausted(s: HandState, events: list) -> None:
    get_variant(s.variant).on_wall_exhausted(s, events)
    _end(s, "exhausted", events)


def _end(s: HandState, reason: str, events: list) -> None:
    s.phase = "ended"
    s.claim = None
    s.turn_kind = None
    v = get_variant(s.variant)
    s.result = {
        "reason": reason,
        "winners": list(s.win_order),
        "deltas": deltas_of(s.transfers),
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


def _insert(hand: list[int], tile: int) -> None:
    i = 0
    while i < len(hand) and hand[i] <= tile:
        i += 1
    hand.insert(i, tile)
