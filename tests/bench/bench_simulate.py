"""Engine throughput: bot hands per second, python tests/bench/bench_simulate.py [--hands N].

Every variant side by side in one run (so the machine's load is the same for all):
the bare engine (basic bots playing, no checks) and the same hands under
``simulate``'s full checking (tile census, one thing awaited and zero-sum after
every action, replay at the end of every hand), with each variant's checked speed
as a share of Sichuan's.  ``--level strong`` plays the strong bots instead.

Speeds are hands per second of this process's CPU time (the machine is shared, so
the wall clock measures the queue for a core as much as the engine), and every run
starts with the rules engine's memos emptied, so no row is helped by the one before.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.rules import analysis  # noqa: E402
from games.rules.simulate import simulate  # noqa: E402

VARIANTS = ("sichuan", "hangzhou", "guangzhou", "ningbo")


def clear_memos() -> None:
    """Empty every bounded memo in the rules engine: each ``functools.lru_cache``, and
    ``analysis``'s whole-hand memos (plain dicts), which a row would otherwise find
    filled by the row before."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("games.rules"):
            continue
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    analysis._WAITS_MEMO.clear()
    analysis._DECOMPOSITIONS_MEMO.clear()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="basic")
    args = parser.parse_args()
    rows = []
    for variant in VARIANTS:
        out = {}
        for label, check in (("bare", False), ("checked", True)):
            clear_memos()
            t0 = time.process_time()
            s = simulate(variant, args.hands, args.seed, check=check, level=args.level)
            out[label] = (s, time.process_time() - t0)
        rows.append((variant, out))
    print(
        f"{args.hands} hands per variant and row, seed {args.seed}, {args.level} bots, "
        "per CPU second, memos emptied before each row"
    )
    print(
        f"{'':11}{'bare h/s':>10}{'checked h/s':>13}{'actions/s':>11}"
        f"{'check cost':>12}{'vs Sichuan':>12}{'wins/hand':>11}{'流局':>7}"
    )
    base = args.hands / rows[0][1]["checked"][1]
    for variant, out in rows:
        bare_s, bare_t = out["bare"]
        s, secs = out["checked"]
        speed = s.hands / secs
        print(
            f"{variant:11}{bare_s.hands / bare_t:>10.1f}{speed:>13.1f}{s.actions / secs:>11.0f}"
            f"{secs / bare_t:>11.2f}x{speed / base:>12.2f}"
            f"{s.wins / s.hands:>11.2f}{s.exhausted / s.hands:>7.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
