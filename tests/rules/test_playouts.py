"""Hypothesis playouts: whole hands under random rules and random legal choices.

Invariants after every action: tiles conserved, exactly one thing awaited,
transfers sum to zero; at the end the action log replays to the same state,
and a snapshot restored from JSON plays on identically.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    HandState,
    MatchState,
    apply,
    available,
    awaited,
    legal_actions,
    new_hand,
    next_match,
    replay,
    settle,
    view,
    views,
)
from games.rules.bots import choose_action
from games.rules.engine import Rejection
from games.rules.rng import DealSeeds
from games.rules.simulate import check_invariants, play_hand, simulate, tile_census

SICHUAN_RULES = st.fixed_dictionaries(
    {},
    optional={
        "mode": st.sampled_from(["xuezhan", "plain"]),
        "ding_que": st.booleans(),
        "huan_san_zhang": st.booleans(),
        "fan_cap": st.sampled_from([None, 1, 3, 4, 6, 13]),
        "self_draw_bonus": st.sampled_from(["none", "base", "fan"]),
        "direct_kong_pay": st.sampled_from([1, 2]),
        "last_four_forced_win": st.booleans(),
        "hai_di": st.booleans(),
        "jin_gou_diao": st.booleans(),
        "cha_da_jiao": st.sampled_from(["max", "min"]),
        "dealer_rule": st.sampled_from(["dice", "discarder", "first_winner"]),
        "dian_gang_hua": st.sampled_from(["zimo", "discarder"]),
        "base": st.sampled_from([1, 2, 5]),
    },
)


HANGZHOU_RULES = st.fixed_dictionaries(
    {},
    optional={
        "bai_ban_stands_in": st.booleans(),
        "discard_win_min_streak": st.sampled_from([None, 1, 2, 3]),
        "max_streak_factor": st.sampled_from([2, 4, 8, 16]),
        "cheng_bao_claims": st.sampled_from([1, 2, 3]),
        "qi_dui": st.booleans(),
        "streak_factor": st.sampled_from(["by_streak", "fixed"]),
        "qi_dui_bao_tou": st.booleans(),
        "kong_chain_doubles": st.booleans(),
        "you_cai_bi_kao": st.booleans(),
        "base": st.sampled_from([1, 2, 5]),
    },
)

NINGBO_RULES = st.fixed_dictionaries(
    {},
    optional={
        "min_tai": st.sampled_from([0, 2, 4, 6]),
        "qi_dui": st.booleans(),
        "tai_values": st.sampled_from([{}, {"zi_mo": 3, "pai_hu": 1}, {"ying_hu": 0}]),
        "wild_kinds": st.sampled_from(["other_copies", "indicator_and_next"]),
        "win_on_wild_discard": st.booleans(),
        "single_wait_only": st.booleans(),
        "base": st.sampled_from([1, 2, 5]),
    },
)

GUANGZHOU_RULES = st.fixed_dictionaries(
    {},
    optional={
        "cap": st.sampled_from([1, 3, 5, 13]),
        "min_fan": st.sampled_from([0, 1, 3]),
        "qi_dui": st.booleans(),
        "fan_values": st.sampled_from([{}, {"ji_hu": 1}, {"da_san_yuan": 1, "zi_mo": 2}]),
        "bao_zi_mo": st.booleans(),
        "one_winner_only": st.booleans(),
        "base": st.sampled_from([1, 2, 5]),
    },
)

#: house-rule strategies per registered variant (a new variant must add its own)
RULES = {
    "sichuan": SICHUAN_RULES,
    "hangzhou": HANGZHOU_RULES,
    "guangzhou": GUANGZHOU_RULES,
    "ningbo": NINGBO_RULES,
}
VARIANT_RULES = st.sampled_from(sorted(RULES)).flatmap(
    lambda key: st.tuples(st.just(key), RULES[key])
)


def test_every_registered_variant_is_played_out():
    assert {v.key for v in available()} <= set(RULES)


def _random_playout(variant, rules, seed, randomness):
    """Bots, except that with probability ``randomness`` a seat picks any legal action
    (so passes on wins, odd kongs and odd discards all happen)."""
    rng = random.Random(seed ^ 0x5EED)  # the test's own choices, not the deal
    state = new_hand(variant, rules, DealSeeds.for_test(seed))
    expected = tile_census(state)
    log = []
    while state.phase != "ended":
        seat = awaited(state)[0]
        legal = legal_actions(state, seat)
        if rng.randrange(1000) < randomness * 1000:
            action = legal[rng.randrange(len(legal))]
        else:
            action = choose_action(state, seat, "basic")
        before = json.dumps(state.to_json(), sort_keys=True)
        out = apply(state, seat, action)
        assert not isinstance(out, Rejection), out
        # apply never mutates its input, nested values included.
        assert json.dumps(state.to_json(), sort_keys=True) == before
        state = out[0]
        log.append((seat, action))
        check_invariants(state, expected)
        assert len(log) < 2000
    return state, log


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    vr=VARIANT_RULES,
    seed=st.integers(0, 2**63 - 1),
    randomness=st.sampled_from([0.0, 0.2, 1.0]),
)
def test_random_playouts_keep_the_invariants_and_replay(vr, seed, randomness):
    variant, rules = vr
    state, log = _random_playout(variant, rules, seed, randomness)
    assert state.result["deltas"] == [
        sum(t["amount"] for t in state.transfers if t["to"] == k)
        - sum(t["amount"] for t in state.transfers if t["from"] == k)
        for k in range(4)
    ]
    assert sum(state.result["deltas"]) + state.result["pot"] == 0
    again = replay(variant, rules, DealSeeds.for_test(seed), None, log)
    assert again.to_json() == state.to_json()
    final = settle(state)
    assert sum(final["deltas"]) + final["pot"] == 0
    assert final["transfers"][: len(state.transfers)] == state.transfers
    # Every amount is a whole multiple of the base.
    base = state.rules.base
    assert all(t["amount"] % base == 0 and t["amount"] > 0 for t in final["transfers"])
    # The match moves on as the variant says, and survives JSON.
    after = next_match(state)
    assert after.hands_played == state.match.hands_played + 1
    assert MatchState.from_json(json.loads(json.dumps(after.to_json()))) == after


@settings(max_examples=40, deadline=None)
@given(vr=VARIANT_RULES, seed=st.integers(0, 2**63 - 1), cut=st.integers(0, 200))
def test_snapshot_round_trip_plays_on_identically(vr, seed, cut):
    variant, rules = vr
    final, log = _random_playout(variant, rules, seed, 0.2)
    cut = min(cut, len(log))
    mid = replay(variant, rules, DealSeeds.for_test(seed), None, log[:cut])
    snapshot = json.loads(json.dumps(mid.to_json()))
    restored = HandState.from_json(snapshot)
    assert restored.to_json() == mid.to_json()
    for seat, action in log[cut:]:
        restored = apply(restored, seat, action)[0]
    assert restored.to_json() == final.to_json()


def _concealed_leaks(state, seat, v):
    """Return a description of anything in ``v`` that ``seat`` must not see."""
    problems = []
    ended = state.phase == "ended"
    if not ended:
        for key in ("server_seed", "seed", "wall", "dead"):
            if key in v:
                problems.append(key)
    for p in v["players"]:
        k = p["seat"]
        if k == seat or ended:
            continue
        if "hand" in p and state.won[k] is None:
            problems.append(f"hand of {k}")
        if "drawn" in p:
            problems.append(f"drawn of {k}")
        for m in p["melds"]:
            if m["concealed"] and m["tiles"] is not None:
                problems.append(f"concealed kong of {k}")
        que = state.vs.get("que")
        if p.get("que") is not None and not all(q is not None for q in que):
            problems.append(f"que of {k}")
    if seat is None and not ended:
        if any("hand" in p and state.won[p["seat"]] is None for p in v["players"]):
            problems.append("spectator sees a hand")
    return problems


@settings(max_examples=40, deadline=None)
@given(vr=VARIANT_RULES, seed=st.integers(0, 2**63 - 1))
def test_views_and_events_hide_what_a_seat_may_not_see(vr, seed):
    from games.rules import events_for

    variant, rules = vr
    state = new_hand(variant, rules, DealSeeds.for_test(seed))
    steps = 0
    while state.phase != "ended" and steps < 2000:
        # The five views one action's messages carry are built together: nothing of one
        # seat's may reach another's through what they share (key order included).
        together = views(state, [0, 1, 2, 3, None])
        for seat in (0, 1, 2, 3, None):
            v = view(state, seat)
            assert _concealed_leaks(state, seat, v) == []
            assert json.dumps(together[seat]) == json.dumps(v)  # a view is plain JSON
        seat = awaited(state)[0]
        state, events = apply(state, seat, choose_action(state, seat, "basic"))
        for viewer in (0, 1, 2, 3, None):
            for e in events_for(events, viewer):
                assert "private" not in e
                if e["type"] == "TileDrawn" and e["seat"] != viewer:
                    assert "tile" not in e
                if e["type"] in ("TilesChosen", "SuitChosen"):
                    if e["seat"] != viewer:
                        assert set(e) == {"type", "seat"}
                # Who answered a claim window is nobody else's business.
                if e["type"] == "ClaimAnswered":
                    assert e["seat"] == viewer and "action" in e
                assert "only" not in e
        steps += 1
    v = view(state, 1)
    assert v["server_seed"] == DealSeeds.for_test(seed).server_seed
    assert v["commitment"] == state.seeds.commitment
    assert all("hand" in p for p in v["players"])
    # The wild indicator and kinds are public to every seat and spectator.
    for viewer in (0, 1, 2, 3, None):
        assert view(state, viewer)["wild_kinds"] == v["wild_kinds"]


def test_three_hundred_bot_hands_run_clean():
    """Whole matches through ``simulate`` with every action checked; the random playouts
    above cover more deals (and odd moves) on every run."""
    summary = simulate("sichuan", 300, seed=2026)
    assert summary.hands == 300
    assert summary.wins > 300  # 血战: most hands have several winners
    assert 0 < summary.exhausted < 300


def test_play_hand_is_deterministic():
    a, log_a = play_hand("sichuan", None, 99)
    b, log_b = play_hand("sichuan", None, 99)
    assert log_a == log_b and a.to_json() == b.to_json()


def test_clone_shares_no_nested_data():
    state, _ = play_hand("sichuan", {"huan_san_zhang": True}, 7)
    state.extra["nested"] = {"list": [1, 2]}
    before = json.dumps(state.to_json(), sort_keys=True)
    copy = state.clone()
    copy.extra["nested"]["list"].append(3)
    copy.transfers[0]["amount"] += 1
    copy.kongs.append({"id": 99})
    for w in copy.won:
        if w is not None:
            w["items"].append({"id": "x", "value": 1})
    copy.result["deltas"][0] += 1
    assert json.dumps(state.to_json(), sort_keys=True) == before
