"""Bot playouts with the invariants checked: ``python -m games.rules simulate``.

After every action: the tiles are conserved, exactly one thing is awaited
(one seat on its turn, or the seats still to answer a claim window or a
setup choice), and the money so far sums to zero with the pot (the per-seat
deltas the players see plus what was paid to nobody).  At the end of every
hand the settlement (``settle``) sums to zero with the pot too, and the action
log is replayed from ``(seeds, rules, log)`` and must give the same state,
field for field.  A run takes one integer seed; hand ``i`` of it is dealt from
``DealSeeds.for_test(seed, hand_number=i + 1)`` (simulations commit to nothing).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from . import tiles as T
from .bots import choose_action
from .engine import (
    Rejection,
    apply,
    awaited,
    deltas,
    new_hand,
    next_match,
    replay,
    settle,
    window_closable,
)
from .money import pot_of
from .rng import DealSeeds
from .state import HandState
from .variants import get_variant

MAX_ACTIONS = 2000  # far above any real hand; a loop guard, not a rule


class InvariantError(AssertionError):
    pass


def tile_census(s: HandState) -> Counter:
    c: Counter = Counter(s.wall)
    c.update(s.dead)
    for k in range(4):
        c.update(s.hands[k])
        c.update(s.discards[k])
        c.update(s.flowers[k])
        for m in s.melds[k]:
            c.update(m.tiles)
    return c


def check_invariants(s: HandState, expected: Counter) -> list[int]:
    """Raise :class:`InvariantError` unless every invariant holds; returns the seats
    awaited (the check needs them, and so does the playout loop)."""
    census = tile_census(s)
    if census != expected:
        diff = (census - expected) + (expected - census)
        raise InvariantError(f"tiles not conserved: {T.fmt(diff.elements())} differ")
    if sum(deltas(s)) + pot_of(s.transfers) != 0:
        raise InvariantError(f"money and pot do not sum to zero: {deltas(s)}")
    if any(t["amount"] <= 0 for t in s.transfers):
        raise InvariantError("a transfer of nothing or less")
    waiting = awaited(s)
    if s.phase == "ended":
        if waiting:
            raise InvariantError("hand ended but seats still awaited")
        return waiting
    if window_closable(s):
        if waiting:
            raise InvariantError(f"a window waiting to close awaits {waiting}")
        return waiting
    if not waiting:
        raise InvariantError(f"nothing awaited in phase {s.phase}")
    if s.phase == "play" and waiting != [s.turn]:
        raise InvariantError(f"play phase awaits {waiting}, turn is {s.turn}")
    if s.phase == "claim":
        expected_seats = sorted(set(s.claim["options"]) - set(s.claim["answers"]))
        if waiting != expected_seats:
            raise InvariantError(f"claim awaits {waiting}, expected {expected_seats}")
    return waiting


def play_hand(
    variant: str,
    rules,
    seeds: DealSeeds | int,
    dealer: int | None = None,
    *,
    check: bool = True,
    match=None,
    levels: str | tuple[str, str, str, str] = "basic",
    timer=None,
):
    """Play one hand with four bots; returns ``(final_state, log)``.  An int ``seeds``
    means ``DealSeeds.for_test(seeds)``.  ``levels`` is one bot level for every seat or
    one per seat; ``timer(seat, seconds, cpu_seconds)``, if given, hears how long each
    decision took (wall clock, and this process's CPU time: on a busy machine the first
    counts the wait for a core too)."""
    if isinstance(levels, str):
        levels = (levels,) * 4
    if not isinstance(seeds, DealSeeds):
        seeds = DealSeeds.for_test(seeds)
    state = new_hand(variant, rules, seeds, dealer, match)
    expected = tile_census(state)
    log: list[tuple[int, dict]] = []
    waiting = check_invariants(state, expected) if check else None
    while state.phase != "ended":
        if len(log) > MAX_ACTIONS:
            raise InvariantError("hand did not end")
        if window_closable(state):  # what a table does once its minimum window is over
            seat, action = state.claim["from"], {"type": "close"}
        elif timer is None:
            seat = (waiting if check else awaited(state))[0]
            action = choose_action(state, seat, levels[seat])
        else:
            seat = (waiting if check else awaited(state))[0]
            t0, c0 = time.perf_counter(), time.process_time()
            action = choose_action(state, seat, levels[seat])
            timer(seat, time.perf_counter() - t0, time.process_time() - c0)
        out = apply(state, seat, action)
        if isinstance(out, Rejection):
            raise InvariantError(f"bot action {action} rejected: {out.reason}")
        state = out[0]
        log.append((seat, action))
        if check:
            waiting = check_invariants(state, expected)
    if check:
        again = replay(variant, state.rules, seeds, dealer, log, match)
        if again.to_json() != state.to_json():
            raise InvariantError(f"replay of hand {seeds} differs from the played state")
        final = settle(state)
        if sum(final["deltas"]) + final["pot"] != 0:
            raise InvariantError(f"settlement does not sum to zero: {final}")
    return state, log


@dataclass
class Summary:
    hands: int = 0
    seconds: float = 0.0
    actions: int = 0
    wins: int = 0
    exhausted: int = 0
    fan_total: int = 0
    patterns: Counter = field(default_factory=Counter)
    win_types: Counter = field(default_factory=Counter)

    def to_json(self) -> dict:
        return {
            "hands": self.hands,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "actions": self.actions,
            "wins": self.wins,
            "liuju_rate": round(self.exhausted / self.hands, 4) if self.hands else None,
            "mean_total": round(self.fan_total / self.wins, 3) if self.wins else None,
            "win_types": dict(self.win_types),
            "patterns": dict(self.patterns.most_common()),
        }


def simulate(
    variant: str,
    hands: int,
    seed: int,
    rules=None,
    *,
    check: bool = True,
    level: str = "basic",
) -> Summary:
    v = get_variant(variant)
    opts = v.resolve_options(rules)
    summary = Summary()
    start = time.perf_counter()
    match = v.new_match(opts)
    for i in range(hands):
        if match.finished:
            match = v.new_match(opts)
        seeds = DealSeeds.for_test(seed, hand_number=i + 1)
        state, log = play_hand(variant, opts, seeds, check=check, match=match, levels=level)
        match = next_match(state)
        summary.hands += 1
        summary.actions += len(log)
        if state.result["reason"] == "exhausted":
            summary.exhausted += 1
        for seat in state.win_order:
            w = state.won[seat]
            summary.wins += 1
            summary.fan_total += w["total"]
            summary.win_types[w["win_type"]] += 1
            for item in w["items"]:
                summary.patterns[item["id"]] += 1
    summary.seconds = time.perf_counter() - start
    return summary
