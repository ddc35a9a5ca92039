"""Private claim windows (``MatchState.private_claims``, what a live table plays with):
every discard and every added kong opens a window, an answer that leaves it open moves
only the answerer's version, and a window nobody claimed waits for the server's close.
Off (the default, as ``simulate``, ``evaluate`` and the other tests play), nothing changes."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.rules import (
    DealSeeds,
    HandState,
    MatchState,
    apply,
    awaited,
    events_for,
    legal_actions,
    new_hand,
    replay,
    settle,
    view,
    window_closable,
)
from games.rules.bots import choose_action
from games.rules.engine import Rejection
from games.rules.simulate import check_invariants, play_hand, tile_census

from .rig import act, rig
from .test_playouts import VARIANT_RULES

SEAT0 = "123456789m1239p9s"  # the dealer, who throws 9s
SEAT1 = "112233445566p7s"
SEAT3 = "444555666s88m56p"
NOBODY = "111222333s456s7m"  # seat 2 with no use for 9s
PUNG = "111222333s99s78m"  # seat 2 can pung 9s


def _table(seat2: str, private: bool = True):
    s = rig([SEAT0, SEAT1, seat2, SEAT3], que=None, front="9m")
    if private:
        s.match = replace(s.match, private_claims=True)
    return s


def test_off_a_discard_nobody_can_claim_draws_at_once():
    s = act(_table(NOBODY, private=False), 0, "discard", tile="9s")
    assert s.phase == "play" and s.turn == 1 and s.drawn is not None
    assert s.version == s.public_version
    assert "public_version" not in s.to_json()


def test_off_a_pass_resolves_the_window_and_moves_every_version():
    s = act(_table(PUNG, private=False), 0, "discard", tile="9s")
    assert s.phase == "claim" and awaited(s) == [2]
    before = s.public_version
    s = act(s, 2, "pass")
    assert s.phase == "play" and s.turn == 1
    assert s.public_version == before + 1 == s.version
    assert not window_closable(s)


def test_on_a_discard_nobody_can_claim_opens_a_window_the_server_closes():
    s = act(_table(NOBODY), 0, "discard", tile="9s")
    assert s.phase == "claim" and s.claim["options"] == {}
    assert awaited(s) == [] and window_closable(s)
    assert all(legal_actions(s, k) == [] for k in range(4))
    assert view(s, None)["claim"] == {"tile": "9s", "from": 0, "kind": "discard"}
    # Nobody else may close it, and nobody may close an open turn.
    refused = apply(s, 1, {"type": "close"})
    assert isinstance(refused, Rejection) and refused.code == "illegal"
    version = s.version
    s = act(s, 0, "close")
    assert s.phase == "play" and s.turn == 1 and s.drawn is not None
    assert s.version == s.public_version == version + 1
    assert isinstance(apply(s, 1, {"type": "close"}), Rejection)


def test_on_a_pass_is_private_and_the_window_waits_for_the_close():
    s = act(_table(PUNG), 0, "discard", tile="9s")
    assert s.phase == "claim" and awaited(s) == [2] and not window_closable(s)
    assert isinstance(apply(s, 0, {"type": "close"}), Rejection)  # seat 2 is still deciding
    shown = s.public_version
    out = apply(s, 2, {"type": "pass"})
    assert not isinstance(out, Rejection)
    s, events = out
    # Still the same window, at the same public version; only seat 2 hears of its pass.
    assert s.phase == "claim" and window_closable(s)
    assert s.public_version == shown and s.version == shown + 1
    for seat in (None, 0, 1, 3):
        assert events_for(events, seat) == []
        assert view(s, seat)["version"] == shown
    assert events_for(events, 2) == [
        {"type": "ClaimAnswered", "seat": 2, "action": {"type": "pass"}}
    ]
    s = act(s, 0, "close")
    assert s.phase == "play" and s.turn == 1 and s.public_version == shown + 1


def test_on_the_window_looks_the_same_to_others_whether_anyone_could_claim():
    nobody = act(_table(NOBODY), 0, "discard", tile="9s")
    pung = act(_table(PUNG), 0, "discard", tile="9s")
    for seat in (None, 0, 1, 3):
        a, b = view(nobody, seat), view(pung, seat)
        assert (a["claim"], a["legal"], a["version"], a["phase"]) == (
            b["claim"],
            b["legal"],
            b["version"],
            b["phase"],
        )


def test_on_a_claim_resolves_the_window_at_once():
    s = act(_table(PUNG), 0, "discard", tile="9s")
    s = act(s, 2, "peng")
    assert s.phase == "play" and s.turn == 2 and s.turn_kind == "claim"
    assert not window_closable(s)


def test_on_an_added_kong_opens_a_window_and_the_close_completes_it():
    s = rig(
        ["1p2p3p4p5p6p7p8p9p5m9p", "123p456p789s22m47m", "111333777s2468m", "234567p23456s9s"],
        que=None,
        melds={0: [("peng", "555m", 2)]},
        front="1s",
        back="8p",
    )
    s.match = replace(s.match, private_claims=True)
    s = act(s, 0, "gang", tile="5m")
    assert s.phase == "claim" and s.claim["kind"] == "rob_kong" and window_closable(s)
    s = act(s, 0, "close")
    assert [m.kind for m in s.melds[0]] == ["gang"]
    assert s.phase == "play" and s.turn == 0


def test_a_player_cannot_send_close_past_the_rules():
    s = act(_table(NOBODY, private=False), 0, "discard", tile="9s")
    assert isinstance(apply(s, 1, {"type": "close"}), Rejection)


def test_the_flag_survives_json_and_replay():
    match = MatchState(private_claims=True)
    assert MatchState.from_json(json.loads(json.dumps(match.to_json()))) == match
    assert "private_claims" not in MatchState().to_json()
    final, log = play_hand("sichuan", {}, 7, match=match)
    assert final.phase == "ended"
    assert any(a == {"type": "close"} for _, a in log)
    again = replay("sichuan", final.rules, DealSeeds.for_test(7), None, log, match)
    assert again.to_json() == final.to_json()
    restored = HandState.from_json(json.loads(json.dumps(final.to_json())))
    assert restored.to_json() == final.to_json()


def _private_playout(variant, rules, seed, randomness):
    """As ``test_playouts``' random playout, at a table: every window the server closes."""
    rng = random.Random(seed ^ 0xC105E)
    match = MatchState(private_claims=True)
    state = new_hand(variant, rules, DealSeeds.for_test(seed), match=match)
    expected = tile_census(state)
    log = []
    windows = 0
    while state.phase != "ended":
        if window_closable(state):
            seat, action = state.claim["from"], {"type": "close"}
            windows += 1
        else:
            seat = awaited(state)[0]
            legal = legal_actions(state, seat)
            if rng.randrange(1000) < randomness * 1000:
                action = legal[rng.randrange(len(legal))]
            else:
                action = choose_action(state, seat, "basic")
        before, answering = state.public_version, state.phase == "claim"
        out = apply(state, seat, action)
        assert not isinstance(out, Rejection), out
        state = out[0]
        # Only an answer (a pass or a claim) that leaves its window open is hidden from
        # the others; a resolved window never opens the next one without a discard.
        hidden = answering and state.phase == "claim"
        assert state.public_version == before + (0 if hidden else 1)
        log.append((seat, action))
        check_invariants(state, expected)
        assert len(log) < 3000
    return state, log, match, windows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    vr=VARIANT_RULES,
    seed=st.integers(0, 2**63 - 1),
    randomness=st.sampled_from([0.0, 0.2, 1.0]),
)
# A kong claimed while a chow is still pending: an answer that keeps the window open.
@example(vr=("ningbo", {}), seed=2427, randomness=0.2)
def test_private_windows_conserve_tiles_sum_to_zero_and_replay(vr, seed, randomness):
    variant, rules = vr
    state, log, match, windows = _private_playout(variant, rules, seed, randomness)
    # Every discard opened a window (a claimed one closes without the server).
    discards = sum(1 for _, a in log if a["type"] == "discard")
    assert windows <= discards + sum(1 for _, a in log if a["type"] == "gang")
    assert sum(state.result["deltas"]) + state.result["pot"] == 0
    final = settle(state)
    assert sum(final["deltas"]) + final["pot"] == 0
    again = replay(variant, rules, DealSeeds.for_test(seed), None, log, match)
    assert again.to_json() == state.to_json()
