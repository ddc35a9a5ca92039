"""The memos the bots lean on give the same answers as the work they save, and
hand out copies a caller may change."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import analysis
from games.rules import tiles as T

HANDS_13 = st.lists(st.integers(0, 33), min_size=13, max_size=13).filter(
    lambda ts: all(ts.count(t) <= 4 for t in ts)
)


@settings(max_examples=60, deadline=None)
@given(tiles=HANDS_13, wilds=st.integers(0, 3))
def test_remembered_waits_match_a_fresh_computation(tiles, wilds):
    c = T.counts(tiles[: 13 - wilds])
    first = analysis.waits(c, wilds)
    analysis._WAITS_MEMO.clear()
    assert analysis.waits(c, wilds) == first
    assert analysis.waits(c, wilds) == first  # from the memo this time


def test_a_caller_changing_the_answer_does_not_change_the_memo():
    c = T.counts(T.parse("123456789m1122p"))
    waits = analysis.waits(c, 0)
    waits.append(99)
    assert 99 not in analysis.waits(c, 0)
    hand = T.counts(T.parse("123456789m11222p"))
    readings = analysis.decompositions(hand)
    readings.clear()
    assert analysis.decompositions(hand)


def test_malformed_input_is_still_refused_after_a_memo_hit():
    c = T.counts(T.parse("123456789m1122p"))
    analysis.waits(c, 0)
    with pytest.raises(ValueError):
        analysis.waits(c[:33], 0)


def test_the_memos_stay_bounded():
    memo: dict = {}
    for i in range(analysis._MEMO_LIMIT + 5):
        analysis._remember(memo, i, i)
    assert len(memo) <= analysis._MEMO_LIMIT
