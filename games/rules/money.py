"""Money moves as transfers: ``{"from", "to", "amount", "reason", …}``.

Every payment between seats is one transfer, so the seats' deltas sum to zero
by construction.  A penalty paid to nobody (Hangzhou's 逃跑) goes to the pot:
``"to": None``.  The invariant is ``sum(deltas) + pot == 0``.
"""

from __future__ import annotations

POT = None  # the payee of a penalty that nobody receives


def transfer(state, payer: int, payee: int | None, amount: int, reason: str, **info) -> dict:
    """Record one payment on the state; ``payee`` None pays into the pot."""
    t = {"from": payer, "to": payee, "amount": amount, "reason": reason, **info}
    state.transfers.append(t)
    return t


def deltas_of(transfers) -> list[int]:
    out = [0, 0, 0, 0]
    for t in transfers:
        out[t["from"]] -= t["amount"]
        if t["to"] is not None:
            out[t["to"]] += t["amount"]
    return out


def pot_of(transfers) -> int:
    return sum(t["amount"] for t in transfers if t["to"] is None)
