"""The Ningbo scorer's speed-ups keep its answers: bounded memos, fresh results, and
the bound that lets ``reaches_min_tai`` refuse a win without reading it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import analysis, heuristics
from games.rules import tiles as T
from games.rules.engine import replay
from games.rules.model import Meld, WinContext
from games.rules.rng import DealSeeds
from games.rules.simulate import play_hand
from games.rules.variants import get_variant
from games.rules.variants.ningbo import bounds as nb
from games.rules.variants.ningbo import readings as nr
from games.rules.variants.ningbo import tai as nt
from games.rules.variants.ningbo import variant as nv
from games.rules.variants.ningbo import wilds as nw
from games.rules.variants.ningbo.options import TAI_DEFAULTS

NINGBO = get_variant("ningbo")

group = st.one_of(
    st.builds(lambda s, n: ("chi", s * 9 + n), st.integers(0, 2), st.integers(0, 6)),
    st.builds(lambda k: ("peng", k), st.integers(0, T.NUM_KINDS - 1)),
)


@st.composite
def wins(draw):
    """A four-sets-and-a-pair (or seven pairs) hand, some tiles turned into wilds, some
    sets melded, with house rules drawn too."""
    indicator = draw(st.integers(0, T.NUM_KINDS - 1))
    values = draw(st.dictionaries(st.sampled_from(sorted(TAI_DEFAULTS)), st.integers(0, 4)))
    opts = NINGBO.resolve_options(
        {
            "min_tai": draw(st.integers(0, 8)),
            "single_wait_only": draw(st.booleans()),
            "qi_dui": draw(st.booleans()),
            "wild_kinds": draw(st.sampled_from(["other_copies", "indicator_and_next"])),
            "tai_values": values,
        }
    )
    wild = sorted(nw.wild_kinds(indicator, opts))
    if draw(st.booleans()):
        pairs = draw(st.lists(st.integers(0, T.NUM_KINDS - 1), min_size=7, max_size=7))
        sets, melds, tiles = [], [], [k for p in pairs for k in (p, p)]
    else:
        sets = draw(st.lists(group, min_size=4, max_size=4))
        pair = draw(st.integers(0, T.NUM_KINDS - 1))
        n_melds = draw(st.integers(0, 4))
        melds = []
        tiles = [pair, pair]
        for i, (kind, k) in enumerate(sets):
            run = (k, k + 1, k + 2) if kind == "chi" else (k, k, k)
            if i < n_melds and not set(run) & set(wild):
                melds.append(Meld(kind, run, concealed=False))
            else:
                tiles.extend(run)
    for i in draw(st.lists(st.integers(0, len(tiles) - 1), max_size=4, unique=True)):
        tiles[i] = draw(st.sampled_from(wild))
    win_at = draw(st.integers(0, len(tiles) - 1))
    win = tiles.pop(win_at)
    ctx = WinContext(
        hand=tuple(tiles),
        melds=tuple(melds),
        win_tile=win,
        win_type=draw(st.sampled_from(["self_draw", "discard", "rob_kong"])),
        flags=frozenset(draw(st.sets(st.sampled_from(["after_kong", "last_tile"])))),
        seat_wind=draw(st.integers(0, 3)),
        round_wind=draw(st.integers(0, 3)),
        wild=indicator,
        flowers=tuple(draw(st.sets(st.integers(T.FLOWER, T.NUM_TILES - 1), max_size=3))),
    )
    return ctx, opts


@settings(max_examples=150, deadline=None)
@given(wins())
def test_the_bound_is_never_below_the_best_reading_and_reaches_agrees_with_score(case):
    ctx, opts = case
    result = nt.score(ctx, opts)
    assert nb.reaches_min_tai(ctx, opts) == result.win
    tai = result.extra.get("tai")
    if tai is not None:
        assert nb.tai_bound(ctx, opts) >= tai


def _plain(win_type: str, **kw) -> WinContext:
    """Four chows and a pair waiting on 6s or 9s, won on 9s, no flower, East seat."""
    return WinContext(
        hand=tuple(T.parse("234m567m345p678s9s")),
        melds=(),
        win_tile=T.parse_one("9s"),
        win_type=win_type,
        seat_wind=0,
        round_wind=0,
        **kw,
    )


def test_the_bound_refuses_a_plain_hand_short_of_min_tai():
    # Four chows and a pair, two waits, self-drawn with no wild: 自摸 + 硬胡 + 平胡 = 3.
    opts = NINGBO.resolve_options({})
    ctx = _plain("self_draw", wild=T.parse_one("5z"))
    assert nb.tai_bound(ctx, opts) < opts.min_tai
    assert nt.score(ctx, opts).extra["refused"] == "min_tai"


def test_each_memo_is_bounded():
    memos = [
        nw.wild_kinds_by,
        nw.split_wilds_by,
        nt._score,
        nr._groups_holding,
        nw.hand_waits,
        nr._rest_readings,
        nr._set_rest_readings,
    ]
    for memo in memos:
        assert memo.cache_parameters()["maxsize"] is not None, memo


@settings(max_examples=150, deadline=None)
@given(wins())
def test_each_readings_tai_is_the_sum_of_its_items(case):
    # The scorer weighs the readings by ``_tai`` and lists the items of the best alone.
    ctx, opts = case
    fixed = nt.fixed_tai(ctx, opts)
    for reading in nr.win_readings(ctx, opts):
        assert nt.tai_of(reading, fixed) == nt._items(reading)[1]


@st.composite
def rests(draw):
    """Counts and wilds of ``3n + 2`` tiles (n <= 4), often sets and a pair with a tile
    or two turned into wilds."""
    c = [0] * T.NUM_KINDS
    for kind, k in draw(st.lists(group, max_size=4)):
        for t in (k, k + 1, k + 2) if kind == "chi" else (k, k, k):
            c[t] += 1
    c[draw(st.integers(0, T.NUM_KINDS - 1))] += 2
    wilds = 0
    for t in draw(st.lists(st.integers(0, T.NUM_KINDS - 1), max_size=4)):
        if c[t]:
            c[t] -= 1
            wilds += 1
    if draw(st.booleans()):  # or any tiles at all
        n = 3 * draw(st.integers(1, 4)) + 2 - wilds
        c = [0] * T.NUM_KINDS
        for t in draw(st.lists(st.integers(0, T.NUM_KINDS - 1), min_size=n, max_size=n)):
            c[t] += 1
    return tuple(c), wilds


def _concrete(groups):
    return list(nr._concrete_sets(groups))


@settings(max_examples=300, deadline=None)
@given(rests())
def test_the_remembered_rest_readings_are_the_decompositions(case):
    # Both memos answer as the decompositions they are made from (read afresh): a rest
    # of 3n + 2 tiles every way, and a rest of 3n tiles as sets alone, i.e. the readings
    # of it with two wilds more whose pair is those two wilds.
    c, wilds = case
    assert nr._rest_readings(c, wilds) == tuple(
        (sets, d.pair.tile)
        for d in analysis.decompositions(list(c), wilds)
        for sets in _concrete(d.sets)
    )
    pair = next(k for k in range(T.NUM_KINDS) if c[k] >= 2) if max(c) >= 2 else None
    if pair is not None:
        rest = list(c)
        rest[pair] -= 2
        for w in range(wilds + 1):
            assert nr._set_rest_readings(tuple(rest), w) == tuple(
                sets
                for d in analysis.decompositions(rest, w + 2)
                if d.pair.tile is None
                for sets in _concrete(d.sets)
            )


def test_a_remembered_score_hands_each_caller_its_own_extra():
    opts = NINGBO.resolve_options({})
    ctx = _plain("discard")
    first = nt.score(ctx, opts)
    first.extra["tai"] = 99
    again = nt.score(ctx, opts)
    assert again.extra["tai"] != 99
    assert again == nt._score.__wrapped__(ctx, opts)


def test_split_wilds_gives_a_list_the_caller_may_change():
    opts = NINGBO.resolve_options({})
    c, wilds = nw.split_wilds(T.parse("1m1m5z"), T.parse_one("5z"), opts)
    c[0] = 7
    assert nw.split_wilds(T.parse("1m1m5z"), T.parse_one("5z"), opts) == (
        [2] + [0] * (T.NUM_KINDS - 1),
        1,
    )


@settings(max_examples=150, deadline=None)
@given(wins(), st.lists(st.integers(0, T.NUM_KINDS - 1), max_size=6))
def test_the_bounds_of_several_waits_at_once_are_each_waits_own(case, kinds):
    ctx, opts = case
    kinds = [ctx.win_tile, *kinds]
    assert nb.tai_bounds(ctx, opts, kinds) == [
        nb.tai_bound(replace(ctx, win_tile=k), opts) for k in kinds
    ]


@settings(max_examples=200, deadline=None)
@given(wins(), st.integers(1, 4))
def test_the_bots_wait_check_agrees_with_reading_every_likely_wait(case, tries):
    # The hand without its winning tile is a ready hand: the basic bot's question
    # "does one of its likeliest waits win with enough 台?", answered with the bounds
    # first and, here, by reading each of those waits.
    ctx, opts = case
    c, wilds = nw.split_wilds(ctx.hand, ctx.wild, opts)
    waits = analysis.waits(c, wilds, seven_pairs=opts.qi_dui and not ctx.melds)
    likeliest = sorted(waits, key=lambda k: (c[k], k))[:tries]
    slow = any(nb.reaches_min_tai(replace(ctx, win_tile=k), opts) for k in likeliest)
    assert nv._wait_wins.__wrapped__(ctx, opts, tries) == slow


@st.composite
def ready_or_not(draw):
    """``3n + 1`` tiles as counts and wilds, often near a ready shape: sets and a pair
    with a tile or two taken away or swapped, or tiles drawn at random."""
    wilds = draw(st.integers(0, 3))
    c = [0] * T.NUM_KINDS
    if draw(st.booleans()):
        for kind, k in draw(st.lists(group, min_size=4, max_size=4)):
            for t in (k, k + 1, k + 2) if kind == "chi" else (k, k, k):
                c[t] += 1
        c[draw(st.integers(0, T.NUM_KINDS - 1))] += 2
    else:
        for t in draw(st.lists(st.integers(0, T.NUM_KINDS - 1), min_size=14, max_size=14)):
            c[t] += 1
    for t in draw(st.lists(st.integers(0, T.NUM_KINDS - 1), max_size=2)):
        c[t] += 1
    size = draw(st.sampled_from([1, 4, 7, 10, 13]))
    held = [k for k in range(T.NUM_KINDS) for _ in range(c[k])]
    keep = draw(st.permutations(held))[: max(0, size - wilds)]
    out = [0] * T.NUM_KINDS
    for t in keep:
        out[t] += 1
    return out, size - len(keep)


@settings(max_examples=400, deadline=None)
@given(ready_or_not(), st.booleans())
def test_ready_by_shanten_is_ready_by_waits(case, seven):
    # The basic bot's Ningbo plan reads "this discard leaves the hand ready" as 向听 0
    # (the memo the generic choice fills too) where it once listed the waits.
    c, wilds = case
    assert (heuristics.counts_shanten(tuple(c), wilds, seven) == 0) == bool(
        analysis.waits(c, wilds, seven_pairs=seven)
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, T.NUM_KINDS - 1), max_size=13).filter(lambda t: len(t) % 3 == 1),
    st.integers(0, T.NUM_TILES - 1),
    st.sampled_from(["other_copies", "indicator_and_next"]),
    st.booleans(),
)
def test_the_remembered_hand_waits_are_the_waits_of_the_split(tiles, indicator, mode, seven):
    c, wilds = nw.split_wilds_by.__wrapped__(tuple(tiles), indicator, mode)
    fresh = tuple(analysis.waits(list(c), wilds, seven_pairs=seven))
    assert nw.hand_waits(tuple(tiles), indicator, mode, seven) == fresh


def _refused_in_full(state, seat, hand, tile, win_type, flags):
    """``Ningbo._refused`` without its waits pre-check: the shape test, then the score."""
    c, wilds = NINGBO.split_wilds(state, seat, [*hand, tile])
    if not analysis.is_winning(c, wilds, **NINGBO.win_shapes(state, seat)):
        return None
    ctx = NINGBO.win_context(state, seat, hand, tile, win_type, frozenset(flags))
    result = nt.score(ctx, state.rules)
    if result.win or "refused" not in result.extra:
        return None
    return {**result.extra, "reason": result.reason}


@pytest.mark.parametrize("rules", [{}, {"qi_dui": False}, {"min_tai": 6}])
def test_the_refused_win_check_agrees_with_scoring_every_tile(rules):
    # Every tile (wilds and flowers included) against every other seat's hand, along a
    # played hand: the waits pre-check never hides a refusal the full check finds.
    seeds = DealSeeds.for_test(11)
    state, log = play_hand("ningbo", rules, seeds, check=False)
    refused = 0
    for n in range(0, len(log), 9):
        s = replay("ningbo", state.rules, seeds, None, log[:n])
        for seat in range(4):
            hand = list(s.hands[seat])
            if len(hand) % 3 != 1:
                continue
            for tile in range(T.NUM_TILES):
                got = NINGBO._refused(s, seat, hand, tile, "discard", frozenset())
                assert got == _refused_in_full(s, seat, hand, tile, "discard", ())
                refused += got is not None
    assert refused  # the hand does reach refusals, so both paths are exercised
