"""The strong level's Ningbo discard by sampling (``variants/ningbo/search.py``): it
decides the same from the same view, reads nothing hidden, and prefers a wait that
reaches ``min_tai`` to one that does not."""

from __future__ import annotations

import random

from games.rules import awaited, legal_actions, new_hand
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.rules.rng import DealSeeds
from games.rules.strong import Table, seat_state
from games.rules.variants.ningbo import search

from .test_bots import _play, _redeal


def _decide(state, seat):
    m = seat_state(state, seat)
    return search.choose_discard(Table(m, seat), legal_actions(state, seat))


def _ready_choice():
    """The dealer's first turn holding 123m 456m 789p 134s 55p, no wild nor flower:
    throwing 4s leaves the 夹 wait on 2s (自摸, 硬胡, 平胡, 夹: 4 台), throwing 1s the
    two-sided 2s–5s wait (3 台, below min_tai)."""
    hand = T.parse("123456m789p134s55p")
    kinds = set(hand)
    for seed in range(100):
        state = new_hand("ningbo", None, DealSeeds.for_test(seed))
        if state.phase != "play" or state.indicator in kinds:
            continue
        seat = state.turn
        if len(state.hands[seat]) != 14 or state.melds[seat]:
            continue
        s = state.clone()
        s.hands[seat] = sorted(hand)
        s.flowers[seat] = []
        s.drawn = None
        return s, seat
    raise AssertionError("no deal with a usable indicator")


def test_it_prefers_the_discard_whose_wait_reaches_min_tai():
    state, seat = _ready_choice()
    m = seat_state(state, seat)
    table = Table(m, seat)
    sim = search.Sim(table)
    futures = sim.futures(40)
    kan = tuple(sorted(T.parse("123456m789p13s55p")))
    ryanmen = tuple(sorted(T.parse("123456m789p34s55p")))
    # The two-sided wait wins only after a reshaping draw: well under half as often.
    assert sim.value(kan, futures) > 2 * sim.value(ryanmen, futures)
    choice = search.choose_discard(table, legal_actions(state, seat))
    assert choice == {"type": "discard", "tile": "4s"}


def test_the_same_view_gives_the_same_futures_and_the_same_choice():
    state, seat = _ready_choice()
    table = Table(seat_state(state, seat), seat)
    first = search.Sim(table).futures(8)
    assert first == search.Sim(Table(seat_state(state, seat), seat)).futures(8)
    assert all(len(f) == len(first[0]) for f in first) and len(set(map(tuple, first))) > 1
    assert _decide(state, seat) == _decide(state.clone(), seat)


def _sampled_states():
    """States along basic-bot Ningbo hands where the sampler makes the choice."""
    found = []
    for seed in range(40):
        for moves in range(20, 90, 6):
            state = _play("ningbo", seed, moves)
            if state is None or state.phase != "play":
                continue
            seat = awaited(state)[0]
            if _decide(state, seat) is not None:
                found.append((state, seat))
        if len(found) >= 6:
            return found
    return found


def test_it_reads_only_the_seat_s_view():
    """Re-dealing every hidden tile leaves the pool, the futures and the choice alone."""
    found = _sampled_states()
    assert len(found) >= 6
    rng = random.Random(5)
    for state, seat in found:
        before = _decide(state, seat)
        futures = search.Sim(Table(seat_state(state, seat), seat)).futures(4)
        for _ in range(2):
            other = _redeal(state, seat, rng)
            assert other.wall != state.wall or other.hands != state.hands
            m = seat_state(other, seat)
            assert search.Sim(Table(m, seat)).futures(4) == futures
            assert _decide(other, seat) == before
            assert choose_action(other, seat, "strong") == choose_action(state, seat, "strong")
