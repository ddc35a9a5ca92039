"""The engine's fast win check (``wins.completes``: a lookup in the hand's remembered
waits) gives the same answer as the full shape test (``quick_win``) it stands in for,
for every seat, every tile and every state of random playouts in every variant."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import DealSeeds, apply, awaited, get_variant, legal_actions, new_hand
from games.rules.bots import choose_action
from games.rules.wins import completes, quick_win

from .test_playouts import VARIANT_RULES


def _agree(state) -> int:
    """Compare both checks on every seat's hand with every tile; returns how many
    answers were winning ones (so the test can see it compared real wins too)."""
    wins = 0
    kinds = sorted(set(get_variant(state.variant).wall_tiles(state.rules)))
    for seat in range(4):
        hand = list(state.hands[seat])
        if len(hand) % 3 == 2:
            # The turn's hand: each tile in it as the one drawn.
            for t in sorted(set(hand)):
                rest = list(hand)
                rest.remove(t)
                fast = completes(state, seat, rest, t)
                assert fast == quick_win(state, seat, hand), (state.variant, hand, t)
                wins += fast
        elif len(hand) % 3 == 1:
            for t in kinds:
                fast = completes(state, seat, hand, t)
                assert fast == quick_win(state, seat, [*hand, t]), (state.variant, hand, t)
                wins += fast
    return wins


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vr=VARIANT_RULES, seed=st.integers(0, 2**63 - 1))
def test_the_fast_win_check_agrees_with_the_shape_test(vr, seed):
    variant, rules = vr
    rng = random.Random(seed ^ 0xC0DE)
    state = new_hand(variant, rules, DealSeeds.for_test(seed))
    steps = 0
    while state.phase != "ended" and steps < 400:
        if steps % 3 == 0:
            _agree(state)
        seat = awaited(state)[0]
        legal = legal_actions(state, seat)
        if rng.random() < 0.2:
            action = legal[rng.randrange(len(legal))]
        else:
            action = choose_action(state, seat, "basic")
        state = apply(state, seat, action)[0]
        steps += 1


def test_the_fast_win_check_sees_wins_with_wilds():
    # Ready hands with wilds (Ningbo, Hangzhou) and without: the fast check must find
    # the wins, not only agree on losing tiles.
    found = 0
    for variant in ("ningbo", "hangzhou", "sichuan", "guangzhou"):
        for seed in range(6):
            state = new_hand(variant, None, DealSeeds.for_test(seed))
            while state.phase != "ended":
                found += _agree(state)
                seat = awaited(state)[0]
                state = apply(state, seat, choose_action(state, seat, "basic"))[0]
    assert found > 50
