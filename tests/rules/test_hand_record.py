"""Hand records (issue 14): make_record → check_record agrees with settle; tampering is
caught at the first action that differs; malformed records never raise."""

from __future__ import annotations

import json

from games.rules import (
    DealSeeds,
    available,
    check_record,
    frames,
    make_record,
    new_match,
    replay,
    settle,
)
from games.rules.simulate import play_hand


def _stored(state) -> dict:
    final = settle(state)
    return json.loads(json.dumps({"transfers": final["transfers"], "deltas": final["deltas"]}))


def _record(variant, rules, seeds, log, state, *, dealer=None, match=None) -> dict:
    rec = make_record(variant, rules, seeds, dealer, match, log, over=True)
    rec = json.loads(json.dumps(rec))  # what the API serves
    rec["settlement"] = _stored(state)
    return rec


def test_bot_hands_of_every_variant_check_and_replay_frame_by_frame():
    for v in available():
        seeds = DealSeeds.for_test(5, hand_number=2)
        state, log = play_hand(v.key, None, seeds)
        rec = _record(v.key, None, seeds, log, state)
        assert check_record(rec) == {
            "ok": True,
            "transfers": rec["settlement"]["transfers"],
            "deltas": rec["settlement"]["deltas"],
        }
        fr = frames(rec)
        assert [f["seq"] for f in fr] == list(range(len(log) + 1))
        assert fr[-1]["view"]["phase"] == "ended"
        json.dumps(fr)


def test_a_match_hand_as_the_room_stores_it_checks():
    """The room deals under its match (dealer None: the dice) and stores who dealt."""
    seeds = DealSeeds.for_test(9, hand_number=1)
    match = new_match("hangzhou", None)
    state, log = play_hand("hangzhou", None, seeds, match=match)
    rec = _record("hangzhou", None, seeds, log, state, dealer=state.dealer, match=match.to_json())
    assert rec["dealer"] == state.dealer
    assert check_record(rec)["ok"] is True
    # The match is the deal's input; the dealer only has to agree with it.
    assert replay("hangzhou", None, seeds, None, log, rec["match"]).to_json() == state.to_json()
