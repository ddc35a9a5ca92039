"""Engine throughput: bot hands per second, python tests/bench/bench_simulate.py [--hands N].

Measured side by side in one run: the bare engine (bots playing, no checks)
and the same hands under ``simulate``'s full checking (tile census, one thing
awaited and zero-sum after every action, replay at the end of every hand), so
the cost of the checks is visible next to the engine's own speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.rules.simulate import simulate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = []
    for label, rules, check in [
        ("engine + bots", None, False),
        ("with all checks", None, True),
        ("plain mode, checks", {"mode": "plain"}, True),
    ]:
        t0 = time.perf_counter()
        s = simulate("sichuan", args.hands, args.seed, rules, check=check)
        secs = time.perf_counter() - t0
        rows.append((label, s, secs))
    print(f"{args.hands} Sichuan hands per row, seed {args.seed}")
    print(f"{'':22}{'hands/s':>9}{'actions/s':>11}{'wins/hand':>11}{'流局':>7}")
    for label, s, secs in rows:
        print(
            f"{label:22}{s.hands / secs:>9.1f}{s.actions / secs:>11.0f}"
            f"{s.wins / s.hands:>11.2f}{s.exhausted / s.hands:>7.2f}"
        )
    print(f"checking costs {rows[1][2] / rows[0][2]:.2f}x the bare engine's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
