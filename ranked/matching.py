"""Who sits with whom: a pure function over the queue (no Django), stated in
``docs/ranked.md``.

The longest-waiting player anchors a table.  Its band is ``band`` 段位 steps, widened by
one for every ``widen`` seconds the anchor has waited; the other three are the closest
to the anchor (by step, then by OpenSkill estimate) within that band, never two from the
same address.  A table found, the next longest-waiting unseated player anchors the next;
an anchor with no table waits and the next one tries.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Waiting:
    id: int
    waited: float  # seconds
    step: int
    mu: float
    address: str | None


def band_of(waited: float, band: int, widen: int) -> int:
    return band + int(waited // widen) if widen > 0 else band


def form_tables(queue: list[Waiting], *, band: int, widen: int) -> list[list[Waiting]]:
    """Tables of four from ``queue``; each table's first player is its anchor."""
    left = sorted(queue, key=lambda w: (-w.waited, w.id))
    tables = []
    i = 0
    while i < len(left):
        anchor = left[i]
        reach = band_of(anchor.waited, band, widen)
        near = sorted(
            (w for w in left if w is not anchor and abs(w.step - anchor.step) <= reach),
            key=lambda w: (abs(w.step - anchor.step), abs(w.mu - anchor.mu), -w.waited, w.id),
        )
        table = [anchor]
        addresses = {anchor.address} if anchor.address else set()
        for w in near:
            if w.address and w.address in addresses:
                continue
            table.append(w)
            if w.address:
                addresses.add(w.address)
            if len(table) == 4:
                break
        if len(table) == 4:
            tables.append(table)
            taken = {w.id for w in table}
            left = [w for w in left if w.id not in taken]
        else:
            i += 1
    return tables
