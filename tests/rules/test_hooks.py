"""The core hooks Guangzhou and Ningbo will need, proven on a test-only variant
(``flower_variant.py``) before those variants land."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import DealSeeds, apply, awaited, legal_actions, new_hand, next_match, settle, view
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.rules.engine import Rejection
from games.rules.simulate import check_invariants, play_hand, tile_census

from .flower_variant import FlowerTest, ensure_registered
from .rig import act, paid, rig

KEY = ensure_registered().key


def fl(hands, **kw):
    kw.setdefault("indicator", "9s")
    return rig(hands, variant=KEY, que=None, **kw)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**63 - 1),
    randomness=st.sampled_from([0.0, 0.3, 1.0]),
    one=st.booleans(),
)
def test_playouts_with_flowers_and_wild_flowers_keep_the_invariants(seed, randomness, one):
    rules = {"one_winner_only": one}
    rng = random.Random(seed ^ 0xF10)  # the test's own choices, not the deal
    state = new_hand(KEY, rules, DealSeeds.for_test(seed), match=FlowerTest().new_match(None))
    expected = tile_census(state)
    assert sum(expected.values()) == 144
    wild = FlowerTest().wild_kinds(state)
    for k in range(4):  # 补花 at the deal: no hand keeps a flower that is not wild
        assert not [t for t in state.hands[k] if T.is_flower(t) and t not in wild]
    steps = 0
    while state.phase != "ended":
        seat = awaited(state)[0]
        legal = legal_actions(state, seat)
        if rng.randrange(100) < randomness * 100:
            action = legal[rng.randrange(len(legal))]
        else:
            action = choose_action(state, seat, "basic")
        before = json.dumps(state.to_json(), sort_keys=True)
        out = apply(state, seat, action)
        assert not isinstance(out, Rejection), out
        assert json.dumps(state.to_json(), sort_keys=True) == before
        state = out[0]
        check_invariants(state, expected)
        for viewer in (0, 1, 2, 3, None):
            v = view(state, viewer)
            assert "wall" not in v or state.phase == "ended"
        steps += 1
        assert steps < 2000
    assert sum(settle(state)["deltas"]) + settle(state)["pot"] == 0
    assert state.dead == [state.indicator]  # set aside, never drawn


def test_a_drawn_flower_is_laid_out_and_replaced_from_the_back_repeatedly():
    s = fl(
        ["1m123p456p789p11z47z", "23m456m789m234p66z", "1357s2468m16p347z", "89m2468s1357p237z"],
        front="2m1f",
        back="2f5m",
    )
    s = act(s, 0, "discard", tile="1m")
    s = act(s, 1, "pass") if s.phase == "claim" else s
    s = act(s, 1, "discard", tile="2m")
    assert s.turn == 2 and s.flowers[2] == T.parse("12f") and s.drawn == T.parse_one("5m")
    assert s.turn_kind == "kong"  # a win on it counts as on a replacement (杠上开花)
    assert view(s, 0)["players"][2]["flowers"] == "12f"


def test_wild_flowers_stay_in_the_hand_and_the_bots_play_them():
    # Indicator 1f: the four seasons are wild, not flowers.
    s = fl(
        ["1m123p456p789p11z47z", "23m456m789m234p66z", "1357s2468m16p347z", "89m2468s1357p237z"],
        indicator="1f",
        front="2m2f",
    )
    s = act(s, 0, "discard", tile="1m")
    s = act(s, 1, "pass") if s.phase == "claim" else s
    s = act(s, 1, "discard", tile="2m")
    assert s.turn == 2 and s.drawn == T.parse_one("2f") and s.flowers[2] == []
    assert legal_actions(s, 2) and choose_action(s, 2)["type"] == "discard"
    assert view(s, 3)["wild_kinds"] == "1234f"  # all four seasons (1f is set aside)


def test_chi_zhang_da_zhang_bars_the_claimed_kind_and_the_other_end():
    s = fl(["4m123p456p789p11z47z", "23m456m789m234p66z", "1357s2468m16p347z", "89m2468s1357p237z"])
    s = act(s, 0, "discard", tile="4m")
    assert {"type": "chi", "tiles": "234m"} in legal_actions(s, 1)
    s = act(s, 1, "chi", tiles="234m")
    kinds = {a["tile"] for a in legal_actions(s, 1) if a["type"] == "discard"}
    assert T.parse_one("4m") in s.hands[1] and "4m" not in kinds  # the claimed kind
    # 23m + 4m: the other end of the shape, 1m, is barred too.
    assert s.vs["barred"][1] == [T.parse_one("4m"), T.parse_one("1m")]


@pytest.mark.parametrize(("one", "winners"), [(False, [1, 3]), (True, [1])])
def test_one_winner_or_several_by_a_house_rule(one, winners):
    s = fl(
        ["1m123p456p789p11z47z", "23m456m789m234p66z", "1357s2468m16p347z", "23m567m234s567p88s"],
        rules={"one_winner_only": one},
    )
    s = act(s, 0, "discard", tile="1m")
    s = act(s, 3, "hu")
    s = act(s, 1, "hu")
    assert s.win_order == winners
    assert paid(s, "hu") == [(0, w, 1) for w in winners]


def test_passing_a_win_bars_it_until_ones_own_claim_or_draw():
    s = fl(
        ["1m123p456p789p11z47z", "23m456m789m234p66z", "1357s2468m16p347z", "23m567m234s567p88s"],
        front="5z",
    )
    s = act(s, 0, "discard", tile="1m")
    s = act(s, 3, "pass")
    assert s.vs["lou_hu"][3] == T.parse_one("1m")
    s = act(s, 1, "pass")  # seat 1 draws: seat 3's bar stays
    assert s.turn == 1 and s.vs["lou_hu"][3] == T.parse_one("1m")


def test_thirteen_orphans_is_a_shape_when_the_variant_says_so():
    s = fl(
        [
            "1m1m9m1p9p1s9s1z2z3z4z5z6z7z",
            "23m456m789m234p66z",
            "1357s2468m16p347z",
            "89m2468s1357p237z",
        ],
        indicator="8s",
    )
    assert legal_actions(s, 0)[0] == {"type": "hu"}
    s = act(s, 0, "hu")
    assert s.won[0]["items"][0] == {"id": "hu", "value": 1}


def test_fixed_seat_winds_and_a_prevailing_wind_that_moves():
    match = FlowerTest().new_match(None, hands_total=9)
    state, _ = play_hand(KEY, None, 3, match=match)
    assert state.dealer == 2 and [p["wind"] for p in view(state, 0)["players"]] == [2, 3, 0, 1]
    m = match
    for _ in range(4):
        m = m.after_hand((m.dealer + 1) % 4, stays=False, fixed_winds=True)
    assert m.prevailing == 1 and m.seat_winds == (2, 3, 0, 1)
    assert next_match(state).seat_winds == (2, 3, 0, 1)
