"""Hand analysis: worked examples in the spec's notation, then property tests
against slow, obviously-correct oracles written here and against the
``mahjong`` package's shanten.

The oracles share nothing with the engine: they try every assignment of each
wild to one of the 34 kinds (``combinations_with_replacement``) and split the
resulting plain hand by removing a pair, then sets, from the lowest tile up.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement, product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.rules import analysis as A
from games.rules.analysis import Decomposition, Group
from games.rules.tiles import counts, fmt, parse

ORPHANS = parse("19m19p19s1234567z")
FAST = settings(deadline=None, max_examples=250, suppress_health_check=[HealthCheck.too_slow])


def C(text: str) -> list[int]:
    return counts(parse(text))


def W(kinds: list[int]) -> str:
    return fmt(kinds)


def add(c: list[int], *tiles: int) -> list[int]:
    out = list(c)
    for t in tiles:
        out[t] += 1
    return out


# --------------------------------------------------------------------------
# Oracles


def _split_sets(c: list[int]) -> bool:
    """Can ``c`` be split entirely into pungs and chows?"""
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _split_sets(c)
        c[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _split_sets(c)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        if ok:
            return True
    return False


def plain_standard(c: list[int]) -> bool:
    total = sum(c)
    if total % 3 != 2 or total > 14:
        return False
    for k in range(34):
        if c[k] >= 2:
            c[k] -= 2
            ok = _split_sets(c)
            c[k] += 2
            if ok:
                return True
    return False


def plain_seven_pairs(c: list[int]) -> bool:
    return sum(c) == 14 and all(n % 2 == 0 for n in c)


def plain_orphans(c: list[int]) -> bool:
    return (
        sum(c) == 14
        and all(c[t] >= 1 for t in ORPHANS)
        and all(c[t] == 0 for t in range(34) if t not in ORPHANS)
    )


def assignments(wilds: int):
    return combinations_with_replacement(range(34), wilds)


def oracle_holds(plain, c: list[int], wilds: int) -> bool:
    """Some assignment of the wilds to kinds makes ``plain`` hold."""
    return any(plain(add(c, *a)) for a in assignments(wilds))


def oracle_winning(c, wilds, seven_pairs=True, thirteen_orphans=False) -> bool:
    def plain(h):
        return (
            plain_standard(h)
            or (seven_pairs and plain_seven_pairs(h))
            or (thirteen_orphans and plain_orphans(h))
        )

    return oracle_holds(plain, c, wilds)


def oracle_waits(c, wilds, seven_pairs=True, thirteen_orphans=False) -> list[int]:
    return [t for t in range(34) if oracle_winning(add(c, t), wilds, seven_pairs, thirteen_orphans)]


def _plain_readings(c: list[int], need_pair: bool) -> set[tuple]:
    """Every reading of a plain hand: sorted tuples of (kind, tile) groups."""
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return set() if need_pair else {()}
    found = set()
    options = []
    if need_pair and c[i] >= 2:
        options.append((("pair", i), [i, i], False))
    if c[i] >= 3:
        options.append((("pung", i), [i, i, i], need_pair))
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        options.append((("chow", i), [i, i + 1, i + 2], need_pair))
    for group, used, rest_pair in options:
        for t in used:
            c[t] -= 1
        for rest in _plain_readings(c, rest_pair):
            found.add(tuple(sorted((group, *rest))))
        for t in used:
            c[t] += 1
    return found


def _tiles_of(kind: str, tile: int) -> list[int]:
    return {"pair": [tile] * 2, "pung": [tile] * 3, "chow": [tile, tile + 1, tile + 2]}[kind]


def canonical(d: Decomposition) -> tuple:
    return (d.pair, tuple(sorted(d.sets, key=repr)))


def oracle_decompositions(c: list[int], wilds: int) -> set[tuple]:
    """Readings with wilds marked: for each assignment of the wilds and each
    plain reading, every way of choosing which copies of a kind are the wilds."""
    if (sum(c) + wilds) % 3 != 2 or sum(c) + wilds > 14:
        return set()
    out = set()
    for assigned in assignments(wilds):
        full = add(c, *assigned)
        need = Counter(assigned)
        for reading in _plain_readings(full, True):
            places = [
                (g, t) for g, (kind, tile) in enumerate(reading) for t in _tiles_of(kind, tile)
            ]
            per_kind = [
                list(combinations([p for p, (_, t) in enumerate(places) if t == k], n))
                for k, n in need.items()
            ]
            for pick in product(*per_kind):
                wild_places = {p for chosen in pick for p in chosen}
                n_wild = Counter(places[p][0] for p in wild_places)
                groups = []
                for g, (kind, tile) in enumerate(reading):
                    size = len(_tiles_of(kind, tile))
                    if n_wild[g] == size:  # all wilds: a free group
                        groups.append(Group("pair" if kind == "pair" else "pung", None, size))
                    else:
                        groups.append(Group(kind, tile, n_wild[g]))
                pair = next(g for g in groups if g.kind == "pair")
                sets = [g for g in groups if g.kind != "pair"]
                out.add(canonical(Decomposition(pair, tuple(sets))))
    return out


def oracle_shanten(c, wilds, seven_pairs=True, thirteen_orphans=False) -> int:
    """Fewest real tiles to exchange for perfect ones to be ready (13) or to win
    (14, minus one): keep the largest sub-hand that some wilds complete."""
    total = sum(c) + wilds
    real = sum(c)
    target = 3 * (total // 3) + 2
    best = None
    kinds = [k for k in range(34) if c[k]]
    for keep in product(*(range(c[k] + 1) for k in kinds)):
        sub = [0] * 34
        for k, n in zip(kinds, keep, strict=True):
            sub[k] = n
        size = sum(keep)
        if best is not None and real - size >= best:
            continue
        if _completes(tuple(sub), target - size, seven_pairs, thirteen_orphans):
            best = real - size
    return best - 1 if total % 3 == 2 else best


@cache
def _completes(sub: tuple, wilds: int, seven_pairs: bool, thirteen_orphans: bool) -> bool:
    """Direct wild-aware search (no assignments), fine for many wilds."""
    c = list(sub)
    if _direct_standard(c, wilds, True):
        return True
    if sum(c) + wilds == 14:
        if seven_pairs and sum(n % 2 for n in c) <= wilds:
            return True
        if thirteen_orphans and all(c[t] == 0 for t in range(34) if t not in ORPHANS):
            return sum(max(0, c[t] - 1) for t in ORPHANS) <= 1
    return False


def _direct_standard(c: list[int], wilds: int, need_pair: bool) -> bool:
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return (wilds - 2 * need_pair) >= 0 and (wilds - 2 * need_pair) % 3 == 0
    # the lowest real tile is in some group; other places real or wild
    groups = [([i, i], True), ([i, i, i], False)]
    if i < 27:
        lo = i - i % 9
        for s in range(max(lo, i - 2), min(i, lo + 6) + 1):
            groups.append(([s, s + 1, s + 2], False))
    for tiles, is_pair in groups:
        if is_pair and not need_pair:
            continue
        others = list(tiles)
        others.remove(i)
        for real_mask in product((False, True), repeat=len(others)):
            used = [i] + [t for t, r in zip(others, real_mask, strict=True) if r]
            w = len(tiles) - len(used)
            if w > wilds:
                continue
            rest = Counter(used)
            if any(c[t] < n for t, n in rest.items()):
                continue
            for t, n in rest.items():
                c[t] -= n
            ok = _direct_standard(c, wilds - w, need_pair and not is_pair)
            for t, n in rest.items():
                c[t] += n
            if ok:
                return True
    return False


# --------------------------------------------------------------------------
# Strategies


def _random_set(draw) -> list[int]:
    if draw(st.booleans()):
        suit = draw(st.integers(0, 2))
        start = suit * 9 + draw(st.integers(0, 6))
        return [start, start + 1, start + 2]
    return [draw(st.integers(0, 33))] * 3


@st.composite
def hands(draw, sizes=(2, 5, 8, 11, 14), max_wilds=3, near_bias=True):
    """(counts, wilds): uniformly drawn from a wall, or built as a win and then
    disturbed (a tile removed and/or replaced) so that wins and waits are hit."""
    total = draw(st.sampled_from(sizes))
    wilds = draw(st.integers(0, min(max_wilds, total)))
    if near_bias and draw(st.integers(0, 3)):
        n = total // 3  # sets in the 3n+2 shape; a 3n+1 hand loses one tile of it
        shape = draw(st.sampled_from(["std", "std", "std", "pairs", "orphans"]))
        if total < 13:
            shape = "std"
        if shape == "std":
            pair = draw(st.integers(0, 33))
            tiles = [pair, pair]
            for _ in range(n):
                tiles += _random_set(draw)
        elif shape == "pairs":
            tiles = [
                k
                for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7))
                for _ in (0, 1)
            ]
        else:
            tiles = list(ORPHANS) + [draw(st.sampled_from(ORPHANS))]
        tiles = draw(st.permutations(tiles))
        if total % 3 == 1:
            tiles = tiles[1:]
        for _ in range(draw(st.integers(0, 1))):  # replace a tile
            tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
        real = tiles[wilds:]
    else:
        wall = draw(
            st.lists(
                st.integers(0, 135), unique=True, min_size=total - wilds, max_size=total - wilds
            )
        )
        real = [x // 4 for x in wall]
    return counts(real), wilds


def wall_hands(sizes):
    """Hands drawn from a real 136-tile wall (at most four of a kind)."""
    return (
        st.sampled_from(sizes)
        .flatmap(lambda n: st.lists(st.integers(0, 135), unique=True, min_size=n, max_size=n))
        .map(lambda idx: counts(x // 4 for x in idx))
    )


# --------------------------------------------------------------------------
# Worked examples


@pytest.mark.parametrize(
    ("hand", "wilds", "expected"),
    [
        ("1112345678999m", 0, "123456789m"),  # 九莲宝灯
        ("1234m", 0, "14m"),
        ("1m", 0, "1m"),
        ("11m22p", 0, "1m2p"),
        ("123m456p789s1z", 0, "1z"),
        ("2345678m111p", 0, "258m"),
        ("1112223334445m", 0, "23456m"),
        ("1113m", 0, "23m"),
        ("13m55z", 0, "2m"),
        ("89m55z", 0, "7m"),
        ("5z", 0, "5z"),
        ("1111m", 0, "1m"),  # a fifth copy: the caller decides whether it can come
        ("123m456p789s", 1, "123456789m123456789p123456789s1234567z"),  # a wild awaits anything
        ("123m456p78s", 2, "123456789m123456789p123456789s1234567z"),
        ("123m456p", 1, "123456789m123456789p123456789s1234567z"),
        ("19s", 2, "123789s"),  # one of them pairs with a wild, the other makes a set
    ],
)
def test_waits_examples(hand, wilds, expected):
    c = C(hand)
    got = A.waits(c, wilds, seven_pairs=False)
    assert W(got) == expected
    assert got == oracle_waits(c, wilds, seven_pairs=False)


def test_waits_seven_pairs_and_quads():
    # 1111m counts as two pairs: 6z completes seven pairs, standard form has no wait
    c = C("1111m223344p55s6z")
    assert A.waits(c) == parse("6z")
    assert A.waits(c, seven_pairs=False) == []
    assert A.is_seven_pairs(C("1111m223344p55s66z"))
    assert not A.is_seven_pairs(C("111m2233445566p7z"))
    assert A.is_seven_pairs(C("111m2233445566p"), 1)
    assert A.is_seven_pairs(C("11223344556677m"))
    assert A.is_standard_win(C("11223344556677m"))  # also 123m×2, 456m×2, 77m
    # seven pairs only for 13/14-tile hands
    assert A.waits(C("11m22p33s44z55z"), seven_pairs=True) == []


def test_thirteen_orphans():
    c = C("19m19p19s1234567z")
    assert A.waits(c, thirteen_orphans=True) == ORPHANS  # 十三面
    assert A.waits(c, thirteen_orphans=False) == []
    assert A.waits(C("19m19p19s1234566z"), thirteen_orphans=True) == parse("7z")
    assert A.is_thirteen_orphans(C("19m19p19s12345677z"))
    assert not A.is_thirteen_orphans(C("19m19p19s12345777z"))
    assert A.is_thirteen_orphans(C("19m19p19s123456z"), 2)  # 7z and a pair partner
    assert A.is_thirteen_orphans(C("19m19p19s1234566z"), 1)
    assert not A.is_thirteen_orphans(C("19m19p19s1234566z2m"), 0)
    assert not A.is_winning(C("19m19p19s12345677z"))
    assert A.is_winning(C("19m19p19s12345677z"), thirteen_orphans=True)


def test_wild_wins():
    assert A.is_standard_win(C("123m456p789s11z"))
    assert A.is_standard_win(C("123m456p789s1z"), 1)  # wild pairs with 1z
    assert A.is_standard_win(C("123m456p789s"), 2)  # a pair of wilds
    assert not A.is_standard_win(C("123m456p789s"), 1)  # 10 tiles
    assert A.is_standard_win(C("1111m234p567s88s"), 2)
    # a wild as the fifth 1m: 1111m + wild = 111m and 11m
    assert A.is_standard_win(C("1111m"), 1)
    assert A.is_standard_win(C("1111m111p111s"), 1)
    assert not A.is_standard_win(C("1111m"), 0)
    assert A.is_standard_win([0] * 34, 14)  # nothing but wilds
    assert A.is_standard_win([0] * 34, 2)
    assert not A.is_standard_win(C("15m"), 0)
    assert not A.is_standard_win(C("159m"), 2)  # two of the three can't share a set
    assert not A.is_standard_win(C("1m5p9s3z"), 1)


def test_min_wilds_needed():
    assert A.min_wilds_needed(C("123m456p789s11z")) == 0
    assert A.min_wilds_needed(C("123m456p789s1z")) == 1
    assert A.min_wilds_needed(C("1m5p9s3z")) == 2 + 2 + 2 + 1  # three sets and a pair
    assert A.min_wilds_needed(C("123m"), 0) == 2
    assert A.min_wilds_needed(C("123m"), 1) == 1
    assert A.min_wilds_needed(C("123m"), 2) == 0
    assert A.min_wilds_needed(C("123m"), 3) == 2  # 123m + 3 wilds + 2 more: one more set
    assert A.min_wilds_needed(C("11z"), 0) == 0


@pytest.mark.parametrize(
    "bad",
    [
        [0] * 33,  # too short
        [-1] + [0] * 33,
        [16] + [0] * 33,  # no hand holds that many
        [256] + [0] * 33,
        "1112345678999m",  # a string, not counts
    ],
)
def test_malformed_hands_are_rejected(bad):
    with pytest.raises(ValueError):
        A.waits(bad)
    with pytest.raises(ValueError):
        A.shanten(bad)
    if isinstance(bad, str) or len(bad) != 34 or not 0 <= bad[0] <= 255:
        with pytest.raises(ValueError):
            A.is_winning(bad)
    else:  # a well-formed count vector of the wrong size just doesn't win
        assert not A.is_winning(bad, thirteen_orphans=True)
    with pytest.raises(ValueError):
        A.waits(C("1m"), -1)


@FAST
@given(hands(sizes=(1, 2, 3, 4, 5, 6, 7, 8), max_wilds=3))
def test_min_wilds_needed_matches_oracle(hand):
    c, wilds = hand
    got = A.min_wilds_needed(c, wilds)
    assert _direct_standard(list(c), wilds + got, True)
    assert not any(_direct_standard(list(c), wilds + e, True) for e in range(got))


def test_decompositions_of_a_pure_hand():
    got = A.decompositions(C("11122233344455m"))
    expected = {
        ("55m", ("111m", "222m", "333m", "444m")),
        ("55m", ("123m", "123m", "123m", "444m")),
        ("55m", ("111m", "234m", "234m", "234m")),
        ("22m", ("111m", "234m", "345m", "345m")),
    }

    def show(g: Group) -> str:
        return fmt(
            {"pair": [g.tile] * 2, "pung": [g.tile] * 3}.get(g.kind, [g.tile + d for d in range(3)])
        )

    assert {(show(d.pair), tuple(sorted(show(g) for g in d.sets))) for d in got} == {
        (p, tuple(sorted(s))) for p, s in expected
    }
    assert len(got) == 4
    assert all(g.wilds == 0 for d in got for g in d.sets)


def test_decompositions_with_wilds():
    # 23m + wild: 123m or 234m, the pair 11z
    got = A.decompositions(C("23m11z"), 1)
    assert {d.sets for d in got} == {(Group("chow", 0, 1),), (Group("chow", 1, 1),)}
    assert {d.pair for d in got} == {Group("pair", 27)}
    # all wilds: one reading with free groups
    assert A.decompositions([0] * 34, 5) == [
        Decomposition(Group("pair", None, 2), (Group("pung", None, 3),))
    ]
    # 123m456p789s + 2 wilds: the pair is the two wilds, or one wild pairs a tile
    # whose chow takes the other wild in its place (3m+w pair, 12m+w chow)
    got = A.decompositions(C("123m456p789s"), 2)
    assert got[-1] == Decomposition(
        Group("pair", None, 2), (Group("chow", 0), Group("chow", 12), Group("chow", 24))
    )
    assert (
        Decomposition(
            Group("pair", 2, 1), (Group("chow", 0, 1), Group("chow", 12), Group("chow", 24))
        )
        in got
    )
    assert len(got) == 14
    # 1111m + wild: a fifth 1m (pung + pair), or a chow 123m with two wilds is too many
    got = A.decompositions(C("1111m"), 1)
    assert Decomposition(Group("pair", 0), (Group("pung", 0, 1),)) in got
    assert Decomposition(Group("pair", 0, 1), (Group("pung", 0),)) in got
    assert len(got) == 2
    assert A.decompositions(C("1111m"), 0) == []
    assert A.decompositions(C("123m"), 0) == []  # not 3n+2


def test_shanten_examples():
    assert A.shanten(C("123m456p789s11z")) == -1
    assert A.shanten(C("123m456p789s1z")) == 0
    assert A.shanten(C("19m19p19s1234567z")) == 6  # standard / pairs only
    assert A.shanten(C("19m19p19s1234567z"), thirteen_orphans=True) == 0
    assert A.shanten(C("1m4m7m1p4p7p1s4s7s1234z")) == 6  # 7 pairs: 6; standard 8
    assert A.shanten(C("1m4m7m1p4p7p1s4s7s1234z"), seven_pairs=False) == 8
    assert A.shanten(C("1122m3344p5566s7z")) == 0
    assert A.shanten(C("1111m2222p3333s5z")) == 0  # each quad is two pairs
    assert A.shanten(C("1111m2222p3333s5z"), seven_pairs=False) == 2
    assert A.shanten(C("1m5p9s3z"), 1) == 1
    assert A.shanten(C("1m5p9s"), 2) == 0
    assert A.shanten(C("1m")) == 0
    assert A.shanten([0] * 34, 1) == 0
    assert A.shanten([0] * 34, 2) == -1
    assert A.shanten(C("12m"), 2) == 0  # 4 tiles can't win
    with pytest.raises(ValueError):
        A.shanten(C("123m"))
    with pytest.raises(ValueError):
        A.waits(C("12m"))
    with pytest.raises(ValueError):
        A.waits(C("11223344556677m"))
    with pytest.raises(ValueError):
        A.is_standard_win([0] * 33)
    with pytest.raises(ValueError):
        A.is_standard_win([-1] + [0] * 33, 3)


def test_more_than_fourteen_tiles_never_wins():
    assert not A.is_standard_win(C("111222333444555m66z"))
    assert A.decompositions(C("111222333444555m66z")) == []


def test_analysis_is_pure_standard_library():
    tree = ast.parse(Path(A.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside games.rules
                continue
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or name.startswith("games.rules"), name


# --------------------------------------------------------------------------
# Properties against the oracles


@FAST
@given(hands(max_wilds=2))
def test_is_standard_win_matches_oracle(hand):
    c, wilds = hand
    assert A.is_standard_win(c, wilds) == oracle_holds(plain_standard, c, wilds)


@FAST
@given(hands(max_wilds=3, sizes=(2, 5, 8)))
def test_is_standard_win_matches_oracle_three_wilds(hand):
    c, wilds = hand
    assert A.is_standard_win(c, wilds) == oracle_holds(plain_standard, c, wilds)


@FAST
@given(hands(sizes=(13, 14), max_wilds=3))
def test_seven_pairs_and_orphans_match_oracle(hand):
    c, wilds = hand
    if sum(c) + wilds == 13:
        c = add(c, 27)  # these shapes need 14 tiles
    assert A.is_seven_pairs(c, wilds) == oracle_holds(plain_seven_pairs, c, wilds)
    assert A.is_thirteen_orphans(c, wilds) == oracle_holds(plain_orphans, c, wilds)


@settings(deadline=None, max_examples=300)
@given(hands(sizes=(1, 4, 7, 10, 13), max_wilds=0))
def test_waits_match_oracle_without_wilds(hand):
    c, _ = hand
    for sp, to in ((True, True), (False, False)):
        got = A.waits(c, seven_pairs=sp, thirteen_orphans=to)
        assert got == oracle_waits(c, 0, sp, to)


@FAST
@given(hands(sizes=(1, 4, 7, 10, 13), max_wilds=1))
def test_waits_match_oracle_one_wild(hand):
    c, wilds = hand
    assert A.waits(c, wilds, thirteen_orphans=True) == oracle_waits(c, wilds, True, True)


@settings(deadline=None, max_examples=60)
@given(hands(sizes=(4, 7, 13), max_wilds=2))
def test_waits_match_oracle_two_wilds(hand):
    c, wilds = hand
    assume(wilds == 2)
    got = A.waits(c, wilds, thirteen_orphans=True)
    expected = [t for t in range(34) if _completes(tuple(add(c, t)), wilds, True, True)]
    assert got == expected


@settings(deadline=None, max_examples=300)
@given(hands(sizes=(2, 5, 8, 11, 14), max_wilds=0))
def test_decompositions_match_oracle_without_wilds(hand):
    c, _ = hand
    got = A.decompositions(c)
    assert len(set(got)) == len(got)
    assert {canonical(d) for d in got} == oracle_decompositions(c, 0)
    assert bool(got) == A.is_standard_win(c)
    for d in got:  # every reading uses exactly the hand's tiles
        used = Counter()
        for g in (d.pair, *d.sets):
            used.update(_tiles_of(g.kind, g.tile))
        assert counts(used.elements()) == c


@settings(deadline=None, max_examples=120)
@given(hands(sizes=(2, 5, 8, 11, 14), max_wilds=2))
def test_decompositions_match_oracle_with_wilds(hand):
    c, wilds = hand
    assume(wilds)
    got = A.decompositions(c, wilds)
    assert len(set(got)) == len(got)
    assert {canonical(d) for d in got} == oracle_decompositions(c, wilds)
    assert bool(got) == A.is_standard_win(c, wilds)
    for d in got:
        assert list(d.sets) == sorted(d.sets, key=lambda g: (g.tile is None, g.tile or 0, g.kind))
        assert d.pair.wilds + sum(g.wilds for g in d.sets) == wilds


# --------------------------------------------------------------------------
# Shanten


def test_shanten_matches_mahjong_package_on_known_hands():
    from mahjong.shanten import Shanten

    for text in ("1112345678999m", "123m456p789s1z", "19m19p19s1234567z", "1357m2468p1357s1z"):
        c = C(text)
        assert A.shanten(c, seven_pairs=False) == Shanten.calculate_shanten_for_regular_hand(c)


@settings(deadline=None, max_examples=300)
@given(wall_hands((1, 2, 4, 5, 7, 8, 10, 11, 13, 14)))
def test_shanten_matches_mahjong_package(c):
    from mahjong.shanten import Shanten

    ours = A.shanten(c, seven_pairs=False, thirteen_orphans=False)
    theirs = Shanten.calculate_shanten_for_regular_hand(c)
    if 4 in c:
        # the package also counts that a fifth copy can't be drawn; wilds can be one
        assert ours <= theirs
    else:
        assert ours == theirs
    if sum(c) >= 13 and max(c) <= 2:
        # riichi seven pairs forbid a quad and a repeated pair; with counts <= 2 they agree
        assert A.shanten(c, thirteen_orphans=True) == Shanten.calculate_shanten(c)


@FAST
@given(hands(sizes=(1, 2, 4, 5, 7, 8, 10, 11, 13, 14), max_wilds=1))
def test_shanten_wild_is_a_perfect_tile(hand):
    c, wilds = hand
    assume(wilds == 1)
    for sp, to in ((True, True), (False, False)):
        expected = min(
            A.shanten(add(c, t), 0, seven_pairs=sp, thirteen_orphans=to) for t in range(34)
        )
        assert A.shanten(c, 1, seven_pairs=sp, thirteen_orphans=to) == expected


@FAST
@given(hands(sizes=(1, 2, 4, 5, 7, 8), max_wilds=3))
def test_shanten_matches_exchange_oracle(hand):
    c, wilds = hand
    assert A.shanten(c, wilds) == oracle_shanten(c, wilds)


@settings(deadline=None, max_examples=300)
@given(hands(sizes=(1, 2, 4, 5, 7, 8, 10, 11, 13, 14), max_wilds=3))
def test_shanten_agrees_with_wins_and_waits(hand):
    c, wilds = hand
    total = sum(c) + wilds
    for sp, to in ((True, True), (True, False), (False, False)):
        s = A.shanten(c, wilds, seven_pairs=sp, thirteen_orphans=to)
        assert (s == -1) == A.is_winning(c, wilds, seven_pairs=sp, thirteen_orphans=to)
        if total % 3 == 1:
            assert (s == 0) == bool(A.waits(c, wilds, seven_pairs=sp, thirteen_orphans=to))
