"""Benchmark: ``analysis.waits`` and ``analysis.shanten`` against the ``mahjong`` package.

Run from the repo root: ``python tests/bench/bench_waits.py [hands]``.  Both
sides get the same 10,000 random 13-tile hands drawn from a 136-tile wall
(``random.Random(1)``) in the same run, and their answers must agree.

The package's way of finding waits is to try ``Agari.is_agari`` on each of the
34 kinds added to the hand.  Its agari can't use a fifth copy, so both sides
skip kinds the hand holds four of.  Its seven pairs need seven *different*
pairs; ours count a quad as two pairs, so a wait ours finds only through such
a quad is allowed (and counted).  For shanten both compute the regular form
only, and hands holding a quad may differ: the package adds a tile when the
one a hand needs is the fifth copy, ours (made for wild tiles) does not.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mahjong.agari import Agari  # noqa: E402
from mahjong.shanten import Shanten  # noqa: E402

from games.rules import analysis  # noqa: E402


def make_hands(n: int, seed: int = 1) -> list[list[int]]:
    rng = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)]
    hands = []
    for _ in range(n):
        c = [0] * 34
        for t in rng.sample(wall, 13):
            c[t] += 1
        hands.append(c)
    return hands


def ours_waits(hands):
    out = []
    for c in hands:
        w = analysis.waits(c, seven_pairs=True, thirteen_orphans=True)
        out.append([t for t in w if c[t] < 4] if w else w)
    return out


def peer_waits(hands):
    agari = Agari()
    out = []
    for c in hands:
        tiles = list(c)
        w = []
        for t in range(34):
            if tiles[t] == 4:
                continue
            tiles[t] += 1
            if agari.is_agari(tiles):
                w.append(t)
            tiles[t] -= 1
        out.append(w)
    return out


def ours_shanten(hands):
    return [analysis.shanten(c, seven_pairs=False) for c in hands]


def peer_shanten(hands):
    shanten = Shanten()
    return [shanten.calculate_shanten_for_regular_hand(c) for c in hands]


def timed(fn, hands):
    start = time.perf_counter()
    result = fn(hands)
    return time.perf_counter() - start, result


def quad_seven_pairs_only(c: list[int], t: int) -> bool:
    """``c + t`` wins only as seven pairs holding a quad (which riichi rules refuse)."""
    h = list(c)
    h[t] += 1
    return (
        4 in h
        and analysis.is_seven_pairs(h)
        and not analysis.is_standard_win(h)
        and not analysis.is_thirteen_orphans(h)
    )


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    hands = make_hands(n)

    ours_s, ours = timed(ours_waits, hands)
    peer_s, peer = timed(peer_waits, hands)
    quad_pairs = 0
    for c, a, b in zip(hands, ours, peer, strict=True):
        extra = set(a) - set(b)
        assert set(b) <= set(a), (c, a, b)
        assert all(quad_seven_pairs_only(c, t) for t in extra), (c, a, b)
        quad_pairs += bool(extra)
    tenpai = sum(bool(w) for w in ours)

    ours_sh_s, ours_sh = timed(ours_shanten, hands)
    peer_sh_s, peer_sh = timed(peer_shanten, hands)
    quad_diff = 0
    for c, a, b in zip(hands, ours_sh, peer_sh, strict=True):
        if a != b:
            assert 4 in c and a < b, (c, a, b)
            quad_diff += 1

    print(f"{n} random 13-tile hands, {tenpai} ready; answers agree")
    print(f"{'':10}{'ours s':>10}{'peer s':>10}{'ours h/s':>12}{'peer h/s':>12}{'speedup':>10}")
    for name, a, b in (("waits", ours_s, peer_s), ("shanten", ours_sh_s, peer_sh_s)):
        print(f"{name:10}{a:10.3f}{b:10.3f}{n / a:12,.0f}{n / b:12,.0f}{b / a:9.1f}x")
    print(f"speedup: waits {peer_s / ours_s:.1f}x, shanten {peer_sh_s / ours_sh_s:.1f}x")
    print(
        f"(waits only ours find via a quad as two pairs: {quad_pairs} hands; "
        f"shanten differing on a needed fifth copy: {quad_diff} hands)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
