"""The test-only fifth variant plays, settles and replays like the four (the engine and the
bots know nothing of it), and its site data and deal procedure are what the site serves."""

from __future__ import annotations

import pytest

from games.rules import DealSeeds, settle
from games.rules.record import check_record, make_record
from games.rules.simulate import play_hand
from games.rules.variants.registry import available

from .tuidaohu import TuiDaoHu, register_tuidaohu


@pytest.fixture(scope="module")
def tuidaohu():
    return register_tuidaohu(listed=False)


@pytest.mark.parametrize("n", range(6))
def test_bots_play_it_to_a_settled_hand_that_replays(tuidaohu, n):
    seeds = DealSeeds.for_test(n)
    state, log = play_hand(TuiDaoHu.key, {}, seeds, check=True)
    assert state.phase == "ended"
    assert [a["type"] for _, a in log[:4]] == ["lucky_suit"] * 4  # the setup phase first
    out = settle(state)
    assert sum(out["deltas"]) == 0
    record = make_record(TuiDaoHu.key, {}, seeds, None, None, log, over=True)
    assert check_record(record)["ok"] is True


def test_a_lucky_win_lists_its_item(tuidaohu):
    ids = set()
    for n in range(20):
        state, _ = play_hand(TuiDaoHu.key, {}, DealSeeds.for_test(n), check=False)
        for w in state.won:
            if w:
                assert w["total"] == len(w["items"])
                ids |= {it["id"] for it in w["items"]}
    assert {"hu", "zi_mo", "lucky"} <= ids


def test_its_site_data_and_deal_are_its_own(tuidaohu):
    site = tuidaohu.site_data()
    assert site["key"] == TuiDaoHu.key and site["setup"][0]["action"] == "lucky_suit"
    assert site["mark"]["field"] == "lucky" and site["result"]["unit"]["en"] == "pt"
    deal = tuidaohu.deal_procedure(tuidaohu.resolve_options())
    assert len(deal["tiles"]) == 136 and deal["break"] is None and deal["bonus"] is None


def test_it_is_listed_only_where_it_is_registered():
    """The four are what players see unless a process registers the test variant."""
    keys = [v.key for v in available()]
    assert keys[:4] == ["sichuan", "hangzhou", "guangzhou", "ningbo"]
