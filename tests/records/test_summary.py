"""The 大结算 figures, worked out from hands (pure)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from records.summary import summarise


def _win(seat, win_type="discard", source=None, total=1, items=(), order=0):
    return {
        "seat": seat,
        "win_type": win_type,
        "from": source,
        "total": total,
        "items": [{"id": i, "value": v} for i, v in items],
        "order": order,
    }


def test_counts_best_hand_and_marks():
    hands = [
        {
            "id": 11,
            "number": 1,
            "deltas": [8, -8, 0, 0],
            "won": [_win(0, source=1, total=3, items=[("qing_yi_se", 3)]), None, None, None],
        },
        {
            "id": 12,
            "number": 2,
            "deltas": [6, -2, -2, -2],
            "won": [_win(0, "self_draw", total=2, items=[("dui_dui_hu", 2)]), None, None, None],
        },
        {
            "id": 13,
            "number": 3,
            "deltas": [0, -4, 4, 0],
            "won": [None, None, _win(2, source=1, total=1, items=[("ping_hu", 1)]), None],
        },
        {"id": 14, "number": 4, "deltas": [0, 0, 0, 0], "won": [None] * 4},
    ]
    out = summarise(hands)
    p = out["players"]
    assert [x["total"] for x in p] == [14, -14, 2, -2]
    assert [x["wins"] for x in p] == [2, 0, 1, 0]
    assert [x["self_draws"] for x in p] == [1, 0, 0, 0]
    assert [x["fed"] for x in p] == [0, 2, 0, 0]
    assert p[0]["best"] == {
        "hand": 11,
        "number": 1,
        "total": 3,
        "items": [{"id": "qing_yi_se", "value": 3}],
        "win_type": "discard",
    }
    assert p[1]["best"] is None
    assert [x["marks"] for x in p] == [["big_winner"], ["top_feeder"], [], []]
    assert [h["id"] for h in out["hands"]] == [11, 12, 13, 14]
    assert out["hands"][3]["wins"] == []


def test_ties_share_a_mark_and_nobody_gets_one_without_cause():
    hands = [{"id": 1, "number": 1, "deltas": [0, 0, 0, 0], "won": [None] * 4}]
    assert [p["marks"] for p in summarise(hands)["players"]] == [[]] * 4
    hands = [
        {
            "id": 1,
            "number": 1,
            "deltas": [2, 2, -2, -2],
            "won": [_win(0, source=2), _win(1, source=3, order=1), None, None],
        }
    ]
    marks = [p["marks"] for p in summarise(hands)["players"]]
    assert marks == [["big_winner"], ["big_winner"], ["top_feeder"], ["top_feeder"]]


zero_sum_hand = st.lists(st.integers(-64, 64), min_size=3, max_size=3).map(
    lambda xs: [*xs, -sum(xs)]
)


@given(st.lists(zero_sum_hand, min_size=1, max_size=16))
def test_totals_are_the_sums_of_the_hands_and_add_up_to_zero(deltas):
    hands = [
        {"id": n, "number": n, "deltas": d, "won": [None] * 4} for n, d in enumerate(deltas, 1)
    ]
    players = summarise(hands)["players"]
    assert [p["total"] for p in players] == [sum(col) for col in zip(*deltas, strict=True)]
    assert sum(p["total"] for p in players) == 0
    winners = [p for p in players if "big_winner" in p["marks"]]
    top = max(p["total"] for p in players)
    assert all(p["total"] == top > 0 for p in winners)
    assert bool(winners) == (top > 0)
