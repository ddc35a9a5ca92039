"""The hand review: each of a seat's choices beside the strong bot's, with a reason."""

from __future__ import annotations

import json

import pytest

from games.rules.record import RecordError, make_record
from games.rules.review import review
from games.rules.rng import DealSeeds
from games.rules.simulate import play_hand


def _record(variant: str, levels, seed: int = 5) -> dict:
    seeds = DealSeeds.for_test(seed, hand_number=1)
    state, log = play_hand(variant, None, seeds, levels=levels)
    return json.loads(json.dumps(make_record(variant, None, seeds, None, None, log, over=True)))


@pytest.mark.parametrize("variant", ["sichuan", "guangzhou"])
def test_a_seat_that_played_like_the_strong_bot_is_told_so_at_every_choice(variant):
    rec = _record(variant, ("strong", "basic", "basic", "basic"))
    entries = review(rec, 0)
    assert entries and all(e["same"] for e in entries)
    assert all(e["reason"]["en"] == "what the strong bot would do" for e in entries)


@pytest.mark.parametrize("variant", ["sichuan", "hangzhou", "guangzhou", "ningbo"])
def test_a_basic_seat_is_shown_where_the_strong_bot_differs_and_why(variant):
    entries = []
    for seed in (5, 6, 7):
        entries += review(_record(variant, "basic", seed), 1)
    differ = [e for e in entries if not e["same"]]
    assert differ, "the basic bot never chose otherwise in three hands"
    for e in entries:
        assert e["played"]["type"] and e["strong"]["type"]
        assert e["reason"]["zh-hans"] and e["reason"]["en"]
    for e in differ:
        assert e["reason"]["en"] != "what the strong bot would do"
        assert e["played"] != e["strong"]


def test_only_finished_hands_are_reviewed_and_seats_are_checked():
    seeds = DealSeeds.for_test(9, hand_number=1)
    state, log = play_hand("sichuan", None, seeds, levels="basic")
    unfinished = json.loads(
        json.dumps(make_record("sichuan", None, seeds, None, None, log[:20], over=False))
    )
    with pytest.raises(RecordError):
        review(unfinished, 0)
    with pytest.raises(ValueError):
        review(_record("sichuan", "basic"), 4)


@pytest.mark.parametrize("variant", ["sichuan", "hangzhou", "guangzhou", "ningbo"])
def test_the_review_names_all_pungs_only_where_the_strong_bot_heads_for_them(variant):
    """Ningbo's strong bot heads for 碰碰胡 (``Variant.bot_pung_road``): its review says so
    where a basic seat chowed or broke a pair; no other variant's review speaks of it."""
    entries = []
    for seed in (5, 6, 7):
        entries += review(_record(variant, "basic", seed), 1)
    pungs = [e for e in entries if "碰碰胡" in e["reason"]["zh-hans"]]
    assert all("all pungs" in e["reason"]["en"] and not e["same"] for e in pungs)
    assert bool(pungs) == (variant == "ningbo")
