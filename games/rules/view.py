"""The one projection module: what a seat (or a spectator) may see.

Nothing else decides visibility.  Before the hand ends nobody sees another
seat's concealed tiles (a winner's hand is shown: 血战 plays on with it face
up), the wall, the seed, another seat's drawn tile, choices still hidden
(换三张 picks, 定缺 before all have chosen) or the kind of another seat's
concealed kong.  A spectator (``seat=None``) sees no concealed tile at all.
"""

from __future__ import annotations

from . import tiles as T
from .engine import deltas, legal_actions
from .state import HandState


def _meld_view(m, visible: bool) -> dict:
    if m.concealed and not visible:
        return {"kind": m.kind, "concealed": True, "tiles": None}
    return m.to_json()


def view(s: HandState, seat: int | None) -> dict:
    ended = s.phase == "ended"
    all_que = all(q is not None for q in s.que)
    players = []
    for k in range(4):
        own = seat == k
        shows_hand = ended or own or s.won[k] is not None
        p = {
            "seat": k,
            "hand_count": len(s.hands[k]),
            "melds": [_meld_view(m, own or ended) for m in s.melds[k]],
            "discards": [T.to_str(t) for t in s.discards[k]],
            "flowers": T.fmt(s.flowers[k]),
            "won": s.won[k],
            "left": s.left[k],
            "que": "mps"[s.que[k]] if s.que[k] is not None and (all_que or own) else None,
            "que_chosen": s.que[k] is not None,
            "picked": s.picks[k] is not None,
        }
        if shows_hand:
            p["hand"] = T.fmt(s.hands[k])
        if own and s.drawn is not None and s.turn == k and s.phase == "play":
            p["drawn"] = T.to_str(s.drawn)
        players.append(p)
    out = {
        "variant": s.variant,
        "rules": s.rules.to_json(),
        "version": s.version,
        "phase": s.phase,
        "dealer": s.dealer,
        "turn": s.turn,
        "wall_count": len(s.wall),
        "players": players,
        "claim": None,
        "transfers": list(s.transfers),
        "deltas": deltas(s),
        "result": s.result,
        "seat": seat,
        "legal": legal_actions(s, seat) if seat is not None else [],
    }
    if s.claim is not None:
        out["claim"] = {
            "tile": T.to_str(s.claim["tile"]),
            "from": s.claim["from"],
            "kind": s.claim["kind"],
        }
    # Set by the variant once the exchange has happened (the direction is secret until then).
    out["exchange_direction"] = s.extra.get("exchange_direction")
    if seat is not None and s.picks[seat] is not None:
        out["my_pick"] = s.picks[seat]
    if ended:
        out["seed"] = s.seed
        out["wall"] = T.fmt(s.wall)
        out["cha"] = s.extra.get("cha")
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
