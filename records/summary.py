"""The 大结算 of a match, worked out from its hands: pure, no database.

Each hand comes as ``{"id", "number", "deltas": [4 ints], "won": [4 win records or
None]}``, the win records being the engine's (``seat``, ``win_type``, ``from``,
``items``, ``total``).  A win on someone's discard (or a robbed kong) counts one
点炮 against the seat it came from.
"""

from __future__ import annotations

SELF_DRAW = "self_draw"


def _best(current: dict | None, hand: dict, win: dict) -> dict:
    """The better of two wins: the higher value, the earlier hand on a tie."""
    if current is not None and current["total"] >= win["total"]:
        return current
    return {
        "hand": hand["id"],
        "number": hand["number"],
        "total": win["total"],
        "items": list(win.get("items", [])),
        "win_type": win["win_type"],
    }


def summarise(hands: list[dict], seats: int = 4) -> dict:
    """Per seat: total, hands won, self-draws, 点炮, best win and marks; per hand: its
    deltas and wins.  Marks: ``big_winner`` (大赢家) goes to the highest total above
    zero, ``top_feeder`` (最佳炮手) to the most 点炮 (at least one); ties share them."""
    players = [
        {"seat": s, "total": 0, "wins": 0, "self_draws": 0, "fed": 0, "best": None}
        for s in range(seats)
    ]
    rows = []
    for hand in sorted(hands, key=lambda h: h["number"]):
        deltas = list(hand["deltas"])
        wins = []
        for win in sorted((w for w in hand["won"] if w), key=lambda w: w.get("order", 0)):
            p = players[win["seat"]]
            p["wins"] += 1
            if win["win_type"] == SELF_DRAW:
                p["self_draws"] += 1
            elif win.get("from") is not None:
                players[win["from"]]["fed"] += 1
            p["best"] = _best(p["best"], hand, win)
            wins.append(
                {
                    "seat": win["seat"],
                    "win_type": win["win_type"],
                    "from": win.get("from"),
                    "total": win["total"],
                    "items": list(win.get("items", [])),
                }
            )
        for s, d in enumerate(deltas):
            players[s]["total"] += d
        rows.append({"id": hand["id"], "number": hand["number"], "deltas": deltas, "wins": wins})
    top = max(p["total"] for p in players)
    most_fed = max(p["fed"] for p in players)
    for p in players:
        p["marks"] = [
            mark
            for mark, holds in (
                ("big_winner", top > 0 and p["total"] == top),
                ("top_feeder", most_fed > 0 and p["fed"] == most_fed),
            )
            if holds
        ]
    return {"players": players, "hands": rows}
