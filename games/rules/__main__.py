"""``python -m games.rules {evaluate,waits,simulate}``."""

from __future__ import annotations

import argparse
import json
import sys

from . import analysis
from . import tiles as T
from .model import WinContext
from .options import OptionsError
from .variants import UnknownVariant, get_variant


def _rules(text: str | None):
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise SystemExit(f"--rules is not valid JSON: {e}") from None


def cmd_waits(args) -> int:
    try:
        v = get_variant(args.variant)
        opts = v.resolve_options(_rules(args.rules))
        hand = T.parse(args.hand)
        wild = T.parse_one(args.wild) if args.wild else None
    except (UnknownVariant, OptionsError, T.TileError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if len(hand) % 3 != 1:
        print(
            f"error: a waiting hand has 3n+1 tiles (13 without melds), got {len(hand)}",
            file=sys.stderr,
        )
        return 2
    out = []
    held = T.counts(hand, T.NUM_TILES)
    if wild is not None:
        held[wild] += 1  # the indicator is out of play: one copy fewer to draw
        # Any face may complete a hand with wilds (a stand-in plays as another kind, a
        # drawn wild as anything), so every face is scored; as a draw, since a wild is
        # never won on from a discard.
        candidates = range(T.NUM_KINDS)
        win_type = "self_draw"
    else:
        shape = analysis.waits(T.counts(hand), 0, seven_pairs=True, thirteen_orphans=True)
        candidates, win_type = shape, "discard"
    for t in candidates:
        if held[t] >= 4:
            continue  # there is no fifth copy to win on
        ctx = WinContext(hand=tuple(hand), melds=(), win_tile=t, win_type=win_type, wild=wild)
        if v.score(ctx, opts).win:
            out.append(t)
    print(T.fmt(out))
    return 0


def cmd_evaluate(args) -> int:
    from .evaluate import main_evaluate

    return main_evaluate(sys.stdin, sys.stdout)


def cmd_simulate(args) -> int:
    from .simulate import InvariantError, simulate

    try:
        summary = simulate(args.variant, args.hands, args.seed, _rules(args.rules))
    except (UnknownVariant, OptionsError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except InvariantError as e:
        print(f"INVARIANT BROKEN: {e}", file=sys.stderr)
        return 1
    s = summary.to_json()
    print(
        f"{s['hands']} hands in {s['seconds']} s: {s['hands_per_second']} hands/s, "
        f"{s['actions']} actions, invariants held"
    )
    print(f"wins {s['wins']}, 流局 rate {s['liuju_rate']}, mean total {s['mean_total']}")
    print(f"win types {json.dumps(s['win_types'])}")
    print("patterns " + json.dumps(s["patterns"], ensure_ascii=False))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.rules")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("evaluate", help="score one hand: JSON on stdin, JSON on stdout")
    w = sub.add_parser("waits", help="the waiting tiles of a 13-tile hand")
    w.add_argument("--variant", required=True)
    w.add_argument("--hand", required=True)
    w.add_argument("--wild")
    w.add_argument("--rules")
    s = sub.add_parser("simulate", help="play hands with four bots, checking invariants")
    s.add_argument("--variant", required=True)
    s.add_argument("--hands", type=int, default=100)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--rules")
    args = parser.parse_args(argv)
    return {"evaluate": cmd_evaluate, "waits": cmd_waits, "simulate": cmd_simulate}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
