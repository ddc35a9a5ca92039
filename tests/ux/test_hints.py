"""听牌 hints and the written-out score: pure helpers over the engine state."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import DealSeeds, apply, awaited, new_hand
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.rules.explain import explain_wins
from games.rules.hints import hints
from tests.rules.rig import act, rig

# Seat 0 (dealer) holds 14 with one 条 to throw: 123456789m 55p 67p then waits on 5p and 8p.
READY_AFTER_1S = ["123456789m5567p1s", "13579s2468s99s88p", "1112223334446m", "1112223334449p"]
QUE = "smps"  # seat 0 gives up 条; the others' choices do not matter here


def test_a_ready_hand_lists_its_waits_and_the_copies_not_seen():
    state = rig(READY_AFTER_1S, que=QUE)
    state = act(state, 0, "discard", tile="1s")
    h = hints(state, 0)
    waits = {w["tile"]: w for w in h["waits"]}
    assert set(waits) == {"5p", "8p"}
    assert waits["5p"]["left"] == 2  # two are in our hand
    assert waits["8p"]["left"] == 4
    assert waits["5p"]["fan"] >= 1


def test_on_its_turn_a_seat_sees_which_discards_leave_it_ready():
    state = rig(READY_AFTER_1S, que=QUE)
    h = hints(state, 0)
    assert list(h["discards"]) == ["1s"]  # 定缺 first: the only legal discard
    assert [w["tile"] for w in h["discards"]["1s"]] == ["5p", "8p"]
    assert "discards" not in hints(state, 1)  # not its turn: only its own waits, if any


def test_a_hand_still_holding_its_missing_suit_is_not_ready():
    state = rig(READY_AFTER_1S)  # everyone gave up 条: seat 0 must throw 1s first
    assert hints(state, 0)["discards"] == {
        "1s": [{"tile": "5p", "left": 2, "fan": 1}, {"tile": "8p", "left": 4, "fan": 1}]
    }
    # 筒 declared missing instead: 5567p must all go, so no discard leaves the hand ready.
    kept = rig(READY_AFTER_1S, que="psmm")
    assert hints(kept, 0)["discards"] == {}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), shuffle=st.integers(0, 10_000), cut=st.integers(5, 60))
def test_hints_depend_only_on_what_the_seat_can_see(seed, shuffle, cut):
    """Moving hidden tiles between the other hands and the wall never changes a seat's hints."""
    state = new_hand("sichuan", {}, DealSeeds.for_test(seed))
    for _ in range(cut):  # bots play `cut` moves
        if state.phase == "ended":
            return
        seat = awaited(state)[0]
        state = apply(state, seat, choose_action(state, seat))[0]
    if state.phase not in ("play", "claim"):
        return
    seat = (state.turn + 1) % 4
    before = hints(state, seat)
    hidden = [t for k in range(4) if k != seat for t in state.hands[k]] + list(state.wall)
    random.Random(shuffle).shuffle(hidden)
    other = state.clone()
    for k in range(4):
        if k != seat:
            n = len(state.hands[k])
            other.hands[k] = sorted(hidden[:n])
            hidden = hidden[n:]
    other.wall = hidden
    assert hints(other, seat) == before


def test_the_score_is_written_out_and_matches_the_payments():
    # Seat 0 throws 1s, the others throw what they draw, and seat 0 self-draws 5p.
    state = rig(READY_AFTER_1S, que=QUE, front="678s5p")
    state = _pass_claims(act(state, 0, "discard", tile="1s"))
    for seat in (1, 2, 3):
        assert state.turn == seat
        state = _pass_claims(act(state, seat, "discard", tile=T.to_str(state.drawn)))
    assert state.turn == 0 and T.to_str(state.drawn) == "5p"
    state = act(state, 0, "hu")
    [how] = explain_wins(state)
    win = state.won[0]
    paid = [t["amount"] for t in state.transfers if t.get("win") == win["order"]]
    assert paid and all(a == how["value"] for a in paid)
    assert f"= {how['value']}" in how["en"] and f"= {how['value']}" in how["zh-hans"]
    assert "2^(" in how["en"] and "底分" in how["zh-hans"]


def _pass_claims(state):
    while state.phase == "claim":
        seat = next(
            s for s, opts in state.claim["options"].items() if s not in state.claim["answers"]
        )
        state = act(state, seat, "pass")
    return state


@settings(max_examples=20, deadline=None)
@given(
    variant=st.sampled_from(["sichuan", "hangzhou", "guangzhou", "ningbo"]),
    seed=st.integers(0, 10_000),
    cut=st.integers(5, 80),
)
def test_the_kept_scores_give_the_hints_scoring_afresh_gives(variant, seed, cut):
    """A seat's waits are found and scored once per process (``hints._kinds``, keyed by
    its tiles; ``hints.win_total``, by the win's context and the rules): the hints are those
    of finding and scoring every wait afresh."""
    from games.rules import hints as hints_module

    state = new_hand(variant, {}, DealSeeds.for_test(seed))
    for _ in range(cut):
        if state.phase == "ended":
            return
        seat = awaited(state)[0]
        state = apply(state, seat, choose_action(state, seat))[0]
    kept = [hints(state, seat) for seat in range(4)]
    hints_module.win_total.cache_clear()
    hints_module._kinds.cache_clear()
    assert [hints(state, seat) for seat in range(4)] == kept
    first, found = hints_module.win_total.cache_info(), hints_module._kinds.cache_info()
    assert [hints(state, seat) for seat in range(4)] == kept
    # Asked again, every score and every seat's waits came from the cache: no new miss.
    second = hints_module.win_total.cache_info()
    assert second.misses == first.misses
    assert second.hits == 2 * first.hits + first.misses
    again = hints_module._kinds.cache_info()
    assert again.misses == found.misses and again.hits == 2 * found.hits + found.misses
