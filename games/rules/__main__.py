"""``python -m games.rules {evaluate,waits,simulate,duel,wall,replay}``."""

from __future__ import annotations

import argparse
import json
import sys

from . import analysis
from . import tiles as T
from .bots import LEVELS
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
        summary = simulate(
            args.variant, args.hands, args.seed, _rules(args.rules), level=args.level
        )
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


def cmd_duel(args) -> int:
    from .duel import duel, format_result

    def progress(done, result):
        if args.progress and done % args.progress == 0:
            r = result.to_json()
            print(
                f"{done} deals: {r['a_minus_b_per_hand']:+.3f} {r['ci95']}, "
                f"decision p99 {r['a_ms_p99']} ms (CPU {r['a_cpu_ms_p99']} ms)",
                file=sys.stderr,
                flush=True,
            )

    try:
        result = duel(
            args.variant,
            args.a,
            args.b,
            args.deals,
            args.seed,
            _rules(args.rules),
            progress=progress,
        )
    except (UnknownVariant, OptionsError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    r = result.to_json()
    print(json.dumps(r) if args.json else format_result(r))
    return 0


def _trivial(value) -> bool:
    """Nothing to show: None, False, 0, empty, or a container of such."""
    if isinstance(value, (list, tuple)):
        return all(_trivial(x) for x in value)
    if isinstance(value, dict):
        return all(_trivial(x) for x in value.values())
    return not value


def cmd_wall(args) -> int:
    from .engine import deal_wall, new_hand
    from .rng import DealSeeds, SeedStream

    def fail(message: str) -> int:
        print(f"error: {message}", file=sys.stderr)
        return 2

    try:
        rules = json.loads(args.rules) if args.rules else None
    except json.JSONDecodeError as e:
        return fail(f"--rules is not valid JSON: {e}")
    try:
        match = json.loads(args.match) if args.match else None
    except json.JSONDecodeError as e:
        return fail(f"--match is not valid JSON: {e}")
    if match is not None and not isinstance(match, dict):
        return fail("--match must be a JSON object (the record's match)")
    client = [c.strip().lower() for c in args.client_seeds.split(",")]
    try:
        v = get_variant(args.variant)
        opts = v.resolve_options(rules)
        seeds = DealSeeds(args.server_seed.strip().lower(), tuple(client), args.hand)
        d = deal_wall(v.key, opts, seeds, args.dealer, match)
        state = new_hand(v.key, opts, seeds, args.dealer, match)
    except ValueError as e:  # UnknownVariant, OptionsError and bad seeds are ValueErrors
        return fail(str(e))
    rolled = args.dealer is None and (match is None or match.get("dealer") is None)
    dice = list(SeedStream(seeds).dice()) if rolled else None
    wall = [T.to_str(t) for t in d.wall]
    dealt, rest = [], list(d.wall)
    for k in range(4):
        n = 14 if k == d.dealer else 13
        dealt.append(T.fmt(rest[:n]))
        del rest[:n]
    vs = {k: val for k, val in state.vs.items() if not _trivial(val)}
    out = {
        "variant": v.key,
        "hand_number": seeds.hand_number,
        "commitment": seeds.commitment,
        "dealer": d.dealer,
        "dealer_dice": dice,
        "wall": wall,
        "break_start": d.break_start,
        "dealt": dealt,
        "indicator": T.to_str(state.indicator) if state.indicator is not None else None,
        "dead": [T.to_str(t) for t in state.dead],
        "flowers": [T.fmt(f) for f in state.flowers],
        "live_wall": len(state.wall),
        "vs": vs,
    }
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"variant {v.key}, hand {seeds.hand_number}, commitment {seeds.commitment}")
    how = f"dice {dice[0]}+{dice[1]}" if dice else "named by the match" if match else "given"
    print(f"dealer: seat {d.dealer} ({how})")
    print(
        f"wall: {len(wall)} tiles in draw order (the deal and draws take the front, "
        f"replacements the back; rotated {d.break_start} from the shuffle):"
    )
    print(" ".join(wall))
    for k in range(4):
        print(f"dealt seat {k}{' (dealer)' if k == d.dealer else ''}: {dealt[k]}")
    if state.indicator is not None:
        print(f"indicator: {out['indicator']} (set aside: {' '.join(out['dead'])})")
    if any(state.flowers):
        laid = [f"seat {k}: {f}" for k, f in enumerate(out["flowers"]) if f]
        print("flowers laid out at the deal (replaced from the back): " + ", ".join(laid))
    print(f"live wall after the deal: {len(state.wall)} tiles")
    if vs:
        print("variant draws: " + json.dumps(vs, ensure_ascii=False))
    return 0


def cmd_replay(args) -> int:
    from .record import check_record

    try:
        record = json.loads(sys.stdin.read())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        result = {"ok": False, "error": f"stdin is not a JSON hand record: {e}"}
    else:
        result = check_record(record)
    print(json.dumps(result, ensure_ascii=False))
    return 0 if result["ok"] else 1


WALL_HELP = """\
Deal a hand from its seeds and print the wall in tile notation ("5m" = 5 of characters,
p dots, s bamboo, z honours 1-7 = E S W N white green red, f flowers 1-8), one tile per word
in draw order: the deal and the draws take the front, kong and flower replacements the
back.  Also printed: the commitment (sha256 of the server seed), the dealer (and the dice
when they chose), the hands as dealt from the front (seat 0 first, 14 to the dealer),
the indicator and tiles set aside, flowers laid out at the deal, and whatever else the
variant drew from the stream (e.g. dice, a pass direction).  Byte layout:
games/rules/README.md."""


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
    s.add_argument("--level", choices=LEVELS, default="basic", help="the four bots' level")
    d = sub.add_parser(
        "duel",
        help="duplicate match: each deal four times, bot A in each seat in turn, B elsewhere",
    )
    d.add_argument("--variant", required=True)
    d.add_argument("--a", choices=LEVELS, default="strong")
    d.add_argument("--b", choices=LEVELS, default="basic")
    d.add_argument("--deals", type=int, default=100)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--rules")
    d.add_argument("--json", action="store_true", help="print one JSON object instead")
    d.add_argument("--progress", type=int, default=0, help="report every N deals on stderr")
    wl = sub.add_parser(
        "wall",
        help="print a hand's wall in tile notation from its seeds",
        description=WALL_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    wl.add_argument("--variant", required=True)
    wl.add_argument("--server-seed", required=True, help="64 hex digits (revealed after the hand)")
    wl.add_argument(
        "--client-seeds", required=True, help="four seeds of 32 hex digits, seat order, commas"
    )
    wl.add_argument("--hand", type=int, required=True, help="the hand number (1, 2, …)")
    wl.add_argument("--rules", help="house rules as JSON (the record's rules)")
    who = wl.add_mutually_exclusive_group()
    who.add_argument("--match", help="the record's match as JSON (when it is not null)")
    who.add_argument("--dealer", type=int, help="the dealer seat (a record whose match is null)")
    wl.add_argument("--json", action="store_true", help="print one JSON object instead")
    sub.add_parser(
        "replay",
        help="check a finished hand's record (JSON on stdin): re-deal, re-apply every action",
        description="Reads a hand record (GET /api/hands/{id}/) on stdin, re-deals it from "
        "the revealed seeds, re-applies every action and compares each recorded result and "
        'the settlement.  Prints {"ok": true, "transfers": [...], "deltas": [...]} (exit 0) '
        'or {"ok": false, "error": ..., "seq": n} at the first action that differs (exit 1).',
    )
    args = parser.parse_args(argv)
    commands = {
        "evaluate": cmd_evaluate,
        "waits": cmd_waits,
        "simulate": cmd_simulate,
        "duel": cmd_duel,
        "wall": cmd_wall,
        "replay": cmd_replay,
    }
    return commands[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
