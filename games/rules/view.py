"""The one projection module: what a seat (or a spectator) may see.

Nothing else decides visibility.  Before the hand ends nobody sees another
seat's concealed tiles (a winner's hand is shown: 血战 plays on with it face
up), the wall, the dead part of it, the server seed, another seat's drawn tile
or the kind of another seat's concealed kong.  A spectator (``seat=None``) sees
no concealed tile at all.  The wild indicator and the wild kinds are public, and
so are the deal's ``commitment`` (SHA-256 of the server seed), ``client_seeds``
and ``hand_number``: everyone can check the deal once ``server_seed`` is
revealed at the end.  The variant projects its own part of the state
(``Variant.project``), under the same rule.

``reveal=True`` is for replays of finished hands only (the caller must check
that the hand is over): every hand, drawn tile and concealed meld face up.
"""

from __future__ import annotations

from . import tiles as T
from .engine import deltas, legal_actions
from .money import pot_of
from .state import HandState
from .variants.registry import get_variant


def _meld_view(m, visible: bool) -> dict:
    if m.concealed and not visible:
        return {"kind": m.kind, "concealed": True, "tiles": None}
    return m.to_json()


def view(s: HandState, seat: int | None, *, reveal: bool = False) -> dict:
    return views(s, [seat], reveal=reveal)[seat]


def views(s: HandState, seats, *, reveal: bool = False) -> dict:
    """``view(s, seat)`` for each of ``seats`` (seat -> its view), what they have in
    common built once: one action's messages are four or five views of one state.  The
    views share nothing mutable but what nobody changes (the tiles as strings)."""
    v = get_variant(s.variant)
    ended = s.phase == "ended"
    # Each player as everyone else sees them (what may show of their melds and hand).
    seen_by_others = []
    for k in range(4):
        seen_by_others.append(
            (
                {
                    "seat": k,
                    "wind": s.match.seat_winds[k] if s.match.seat_winds else None,
                    "hand_count": len(s.hands[k]),
                    "melds": [_meld_view(m, ended) for m in s.melds[k]],
                    "discards": [T.to_str(t) for t in s.discards[k]],
                    "flowers": T.fmt(s.flowers[k]),
                    "won": s.won[k],
                    "left": s.left[k],
                },
                T.fmt(s.hands[k]) if ended or s.won[k] is not None else None,
            )
        )
    match = s.match
    head = {
        "variant": s.variant,
        "rules": s.rules.to_json(),
        "version": s.public_version,
        "phase": s.phase,
        "dealer": s.dealer,
        "match": {
            "dealer": s.dealer,
            "streak": match.streak,
            "prevailing": match.prevailing,
            "hands_played": match.hands_played,
            "hands_total": match.hands_total,
        },
        "turn": s.turn,
        "wall_count": len(s.wall),
        "indicator": T.to_str(s.indicator) if s.indicator is not None else None,
        "wild_kinds": T.fmt(sorted(v.wild_kinds(s))),
    }
    claim = None
    if s.claim is not None:
        claim = {
            "tile": T.to_str(s.claim["tile"]),
            "from": s.claim["from"],
            "kind": s.claim["kind"],
        }
    middle = {
        "transfers": list(s.transfers),
        "deltas": deltas(s),
        "pot": pot_of(s.transfers),
        "result": s.result,
    }
    tail = {
        "commitment": s.seeds.commitment,
        "client_seeds": list(s.seeds.client_seeds),
        "hand_number": s.seeds.hand_number,
    }
    end = {}
    if ended:
        end = {"server_seed": s.seeds.server_seed, "wall": T.fmt(s.wall), "dead": T.fmt(s.dead)}
    out = {}
    for seat in seats:
        top, per_player = v.project(s, seat)
        players = []
        for k in range(4):
            if seat == k or reveal:
                p = {
                    **seen_by_others[k][0],
                    "melds": [m.to_json() for m in s.melds[k]],
                    **per_player[k],
                    "hand": T.fmt(s.hands[k]),
                }
                if s.drawn is not None and s.turn == k and s.phase == "play":
                    p["drawn"] = T.to_str(s.drawn)
            else:
                p = {**seen_by_others[k][0], **per_player[k]}
                if seen_by_others[k][1] is not None:
                    p["hand"] = seen_by_others[k][1]
            players.append(p)
        out[seat] = {
            **head,
            "players": players,
            "claim": claim,
            **middle,
            "seat": seat,
            "legal": legal_actions(s, seat) if seat is not None else [],
            **tail,
            **top,
            **end,
        }
    return out


def events_for(events: list[dict], seat: int | None) -> list[dict]:
    """The events as ``seat`` may see them: private parts only for their owner, and
    events meant ``only`` for one seat not at all for the others (the state they come
    with still carries its version, so nobody sees a gap)."""
    out = []
    for e in events:
        if "only" in e:
            if e["only"] != seat:
                continue
            e = {k: v for k, v in e.items() if k != "only"}
        if "private" in e:
            e = dict(e)
            private = e.pop("private")
            if seat is not None and e.get("seat") == seat:
                e.update(private)
        out.append(e)
    return out
