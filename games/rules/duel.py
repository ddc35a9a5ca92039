"""Duplicate matches between two bot levels: ``python -m games.rules duel``.

Each deal is played four times from the same seeds (so the same wall, dealer and
draws of the dice), with bot A in seat 0, 1, 2 and 3 in turn and bot B in the other
three seats.  The luck of the deal cancels: what is left is A's points per hand
minus the mean of B's at the same table.  A deal's four hands give one sample (their
mean), so the 95 % interval is over deals, which are independent.

Hands are played with a fresh match each (the dice pick the dealer), end-of-hand
settlement included (``settle``: Sichuan's 查叫 and kong refunds count).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .engine import settle
from .rng import DealSeeds
from .simulate import play_hand
from .variants import get_variant


@dataclass
class Side:
    """One level's record over the hands it played."""

    hands: int = 0
    points: float = 0.0
    wins: int = 0
    win_points: float = 0.0
    win_totals: int = 0
    deal_ins: int = 0

    def add(self, state, seat: int, delta: float) -> None:
        self.hands += 1
        self.points += delta
        won = state.won[seat]
        if won is not None:
            self.wins += 1
            self.win_totals += won["total"]
            self.win_points += delta
        for w in state.won:
            if w is not None and w["win_type"] != "self_draw" and w["from"] == seat:
                self.deal_ins += 1

    def to_json(self) -> dict:
        n = max(1, self.hands)
        w = max(1, self.wins)
        return {
            "hands": self.hands,
            "points_per_hand": round(self.points / n, 3),
            "win_rate": round(self.wins / n, 4),
            "deal_in_rate": round(self.deal_ins / n, 4),
            "mean_win_total": round(self.win_totals / w, 2) if self.wins else None,
            "mean_points_when_winning": round(self.win_points / w, 2) if self.wins else None,
        }


@dataclass
class DuelResult:
    variant: str
    a: str
    b: str
    deals: int
    seed: int
    diffs: list[float] = field(default_factory=list)  # per deal: A minus B, per hand
    side_a: Side = field(default_factory=Side)
    side_b: Side = field(default_factory=Side)
    times_a: list[float] = field(default_factory=list)
    cpu_a: list[float] = field(default_factory=list)

    def to_json(self) -> dict:
        n = len(self.diffs)
        mean = sum(self.diffs) / n if n else 0.0
        var = sum((d - mean) ** 2 for d in self.diffs) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n) if n > 1 else float("inf")
        times = sorted(self.times_a)
        cpu = sorted(self.cpu_a)
        return {
            "variant": self.variant,
            "a": self.a,
            "b": self.b,
            "deals": n,
            "seed": self.seed,
            "a_minus_b_per_hand": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "a_stats": self.side_a.to_json(),
            "b_stats": self.side_b.to_json(),
            "a_decisions": len(times),
            "a_ms_p50": round(1000 * _quantile(times, 0.5), 2),
            "a_ms_p99": round(1000 * _quantile(times, 0.99), 2),
            "a_ms_max": round(1000 * times[-1], 2) if times else 0.0,
            "a_cpu_ms_p50": round(1000 * _quantile(cpu, 0.5), 2),
            "a_cpu_ms_p99": round(1000 * _quantile(cpu, 0.99), 2),
        }


def _quantile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def duel(
    variant: str, a: str, b: str, deals: int, seed: int, rules=None, *, progress=None
) -> DuelResult:
    """Play ``deals`` deals four times each (A in each seat in turn); see the module."""
    v = get_variant(variant)
    opts = v.resolve_options(rules)
    result = DuelResult(v.key, a, b, deals, seed)
    for i in range(deals):
        seeds = DealSeeds.for_test(seed, hand_number=i + 1)
        diff = 0.0
        for seat in range(4):
            levels = tuple(a if k == seat else b for k in range(4))

            def timer(who, seconds, cpu, seat=seat):
                if who == seat:
                    result.times_a.append(seconds)
                    result.cpu_a.append(cpu)

            state, _ = play_hand(v.key, opts, seeds, check=False, levels=levels, timer=timer)
            deltas = settle(state)["deltas"]
            others = [k for k in range(4) if k != seat]
            b_mean = sum(deltas[k] for k in others) / 3
            diff += deltas[seat] - b_mean
            result.side_a.add(state, seat, deltas[seat])
            for k in others:
                result.side_b.add(state, k, deltas[k])
        result.diffs.append(diff / 4)
        if progress is not None:
            progress(i + 1, result)
    return result


def format_result(r: dict) -> str:
    a, b = r["a_stats"], r["b_stats"]
    lines = [
        f"{r['variant']}: {r['a']} (A) against {r['b']} (B), {r['deals']} deals x 4 seats, "
        f"seed {r['seed']}",
        f"A - B points per hand: {r['a_minus_b_per_hand']:+.3f}, "
        f"95% CI [{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}]",
        f"{'':6}{'pts/hand':>10}{'win':>8}{'deal-in':>9}{'win total':>11}{'pts/win':>9}",
    ]
    for name, s in (("A", a), ("B", b)):
        total = s["mean_win_total"] if s["mean_win_total"] is not None else "-"
        pts = s["mean_points_when_winning"] if s["mean_points_when_winning"] is not None else "-"
        lines.append(
            f"{name:6}{s['points_per_hand']:>10.3f}{s['win_rate']:>8.3f}"
            f"{s['deal_in_rate']:>9.3f}{total:>11}{pts:>9}"
        )
    lines.append(
        f"A's decision time over {r['a_decisions']} decisions: p50 {r['a_ms_p50']} ms, "
        f"p99 {r['a_ms_p99']} ms, max {r['a_ms_max']} ms (CPU time: p50 "
        f"{r['a_cpu_ms_p50']} ms, p99 {r['a_cpu_ms_p99']} ms)"
    )
    return "\n".join(lines)
