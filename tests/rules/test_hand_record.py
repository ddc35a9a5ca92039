"""Hand records: make_record → check_record agrees with settle; tampering is
caught at the first action that differs; malformed records never raise."""

from __future__ import annotations

import copy
import hashlib
import json
import pathlib
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    DealSeeds,
    MatchState,
    apply,
    available,
    awaited,
    check_record,
    frames,
    legal_actions,
    make_record,
    new_hand,
    new_match,
    replay,
    settle,
    view,
)
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.rules.simulate import play_hand
from tests.rules.test_playouts import VARIANT_RULES


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


# --------------------------------------------------------------------------
# Hypothesis playouts of every variant


SEEDS = st.builds(
    lambda server, clients, hand: DealSeeds(server.hex(), tuple(c.hex() for c in clients), hand),
    st.binary(min_size=32, max_size=32),
    st.lists(st.binary(min_size=16, max_size=16), min_size=4, max_size=4),
    st.integers(1, 2**32 - 1),
)


def _playout(variant, rules, seeds, choice_seed, randomness):
    """Bots, or with probability ``randomness`` any legal action."""
    rng = random.Random(choice_seed)
    state = new_hand(variant, rules, seeds)
    log = []
    while state.phase != "ended":
        seat = awaited(state)[0]
        legal = legal_actions(state, seat)
        if rng.random() < randomness:
            action = rng.choice(legal)
        else:
            action = choose_action(state, seat, "basic")
        state = apply(state, seat, action)[0]
        log.append((seat, action))
    return state, log


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    vr=VARIANT_RULES,
    seeds=SEEDS,
    choice_seed=st.integers(0, 2**32),
    randomness=st.sampled_from([0.0, 0.3, 1.0]),
    data=st.data(),
)
def test_playouts_check_and_tampering_is_found_at_its_action(
    vr, seeds, choice_seed, randomness, data
):
    variant, rules = vr
    state, log = _playout(variant, rules, seeds, choice_seed, randomness)
    rec = _record(variant, rules, seeds, log, state)
    final = settle(state)
    ok = check_record(rec)
    assert ok == {"ok": True, "transfers": final["transfers"], "deltas": final["deltas"]}
    assert [a["seq"] for a in rec["actions"]] == list(range(1, len(log) + 1))
    assert rec["commitment"] == hashlib.sha256(bytes.fromhex(rec["server_seed"])).hexdigest()

    # One action changed: a discard of another tile, or the same action by another seat.
    i = data.draw(st.integers(0, len(log) - 1), label="tampered action")
    bad = copy.deepcopy(rec)
    entry = bad["actions"][i]
    if entry["action"]["type"] == "discard" and data.draw(st.booleans(), label="tile"):
        tiles = [T.to_str(k) for k in range(T.NUM_TILES) if T.to_str(k) != entry["action"]["tile"]]
        entry["action"]["tile"] = data.draw(st.sampled_from(tiles), label="other tile")
    else:
        entry["seat"] = data.draw(
            st.sampled_from([k for k in range(4) if k != entry["seat"]]), label="other seat"
        )
    out = check_record(bad)
    assert out["ok"] is False and out["seq"] == i + 1, out

    # A recorded result changed.
    bad = copy.deepcopy(rec)
    bad["actions"][i]["result"] = "0" * 16 if rec["actions"][i]["result"] != "0" * 16 else "1" * 16
    out = check_record(bad)
    assert out == {"ok": False, "error": out["error"], "seq": i + 1}
    assert "another state than recorded" in out["error"]

    # The log cut short: the hand does not end.
    bad = copy.deepcopy(rec)
    del bad["actions"][i:]
    out = check_record(bad)
    assert out["ok"] is False and "not over" in out["error"] and "seq" not in out


def test_tampered_seeds_are_caught():
    seeds = DealSeeds.for_test(21, hand_number=3)
    match = MatchState(dealer=2)  # named: another seed changes the wall, not the dealer
    state, log = play_hand("guangzhou", None, seeds, match=match)
    rec = _record("guangzhou", None, seeds, log, state, match=match)
    assert check_record(rec)["ok"] is True

    # Another server seed: its sha256 is not the commitment.
    bad = copy.deepcopy(rec)
    bad["server_seed"] = "f" + rec["server_seed"][1:]
    out = check_record(bad)
    assert out["ok"] is False and "commitment mismatch" in out["error"] and "seq" not in out
    # ... even with a commitment to match, the deal is another one: the log breaks.
    bad["commitment"] = hashlib.sha256(bytes.fromhex(bad["server_seed"])).hexdigest()
    out = check_record(bad)
    assert out["ok"] is False and out["seq"] >= 1
    # Another client seed, or hand number: another wall.
    for key, value in (
        ("client_seeds", ["0" * 32, *rec["client_seeds"][1:]]),
        ("hand_number", 4),
    ):
        out = check_record({**copy.deepcopy(rec), key: value})
        assert out["ok"] is False and out["seq"] >= 1, key
    # When the dice chose the dealer, another seed usually makes another one: said so.
    state, log = play_hand("guangzhou", None, seeds)
    rec = _record("guangzhou", None, seeds, log, state)
    assert rec["match"]["dealer"] is None and rec["dealer"] == state.dealer
    out = check_record({**rec, "hand_number": 4})
    assert out == {"ok": False, "error": f"the deal makes seat 3 the dealer, not {state.dealer}"}


def test_a_tampered_settlement_is_caught():
    seeds = DealSeeds.for_test(8, hand_number=1)
    state, log = play_hand("sichuan", None, seeds)
    rec = _record("sichuan", None, seeds, log, state)
    assert rec["settlement"]["transfers"], "this seed's hand moves money"
    bad = copy.deepcopy(rec)
    bad["settlement"]["transfers"][0]["amount"] += 1
    out = check_record(bad)
    assert out["ok"] is False and "settlement transfers differ" in out["error"]
    bad = copy.deepcopy(rec)
    bad["settlement"]["deltas"] = list(reversed(rec["settlement"]["deltas"])) + [0]
    out = check_record(bad)
    assert out["ok"] is False and "settlement deltas differ" in out["error"]
    bad = copy.deepcopy(rec)
    bad["settlement"] = {"transfers": []}
    assert check_record(bad)["ok"] is False
    # Without a stored settlement the replay's own is reported.
    del bad["settlement"]
    assert check_record(bad) == {"ok": True, **rec["settlement"]}


def test_a_hand_not_over_publishes_no_secret_and_does_not_check():
    seeds = DealSeeds.for_test(4, hand_number=2)
    state, log = play_hand("ningbo", None, seeds)
    rec = make_record("ningbo", None, seeds, None, None, log[:10], over=False)
    text = json.dumps(rec)
    assert "server_seed" not in rec and "actions" not in rec
    assert seeds.server_seed not in text
    assert rec["commitment"] == seeds.commitment and rec["dealer"] == state.dealer
    assert set(rec) == {
        "variant",
        "rules",
        "match",
        "dealer",
        "hand_number",
        "commitment",
        "client_seeds",
    }
    out = check_record(rec)
    assert out["ok"] is False and "not over" in out["error"]


def test_frames_step_through_the_hand_with_every_hand_face_up_and_the_score_items():
    seeds = DealSeeds.for_test(12, hand_number=5)
    state, log = play_hand("sichuan", None, seeds)
    rec = _record("sichuan", None, seeds, log, state)
    fr = frames(rec)
    assert len(fr) == len(log) + 1
    assert fr[0]["seq"] == 0 and fr[0]["action"] is None
    for n in (0, len(log) // 2, len(log)):
        mid = replay("sichuan", None, seeds, None, log[:n])
        assert fr[n]["view"] == view(mid, None, reveal=True)
        assert all("hand" in p for p in fr[n]["view"]["players"])
        if n:
            assert (fr[n]["seat"], fr[n]["action"]) == log[n - 1]
    for f in fr:
        for e in f["events"]:
            assert "private" not in e and "only" not in e
    wins = [w for f in fr for w in f["wins"]]
    assert [w["seat"] for w in wins] == state.win_order
    assert all(w["items"] and w["total"] >= 1 for w in wins)
    # The last frame keeps every win, items included, on its player.
    last = fr[-1]["view"]["players"]
    for w in wins:
        assert last[w["seat"]]["won"]["items"] == w["items"]
    json.dumps(fr)


def test_frames_refuse_a_record_that_does_not_replay():
    seeds = DealSeeds.for_test(12, hand_number=5)
    state, log = play_hand("hangzhou", None, seeds)
    rec = _record("hangzhou", None, seeds, log, state)
    rec["actions"][3]["seat"] = (rec["actions"][3]["seat"] + 1) % 4
    with pytest.raises(ValueError):
        frames(rec)
    with pytest.raises(ValueError):
        frames({"variant": "hangzhou"})


# --------------------------------------------------------------------------
# Malformed records never raise


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)

_VALID = {}


def _valid_record() -> dict:
    if not _VALID:
        seeds = DealSeeds.for_test(30, hand_number=2)
        state, log = play_hand("ningbo", {"min_tai": 2}, seeds)
        _VALID["rec"] = _record("ningbo", {"min_tai": 2}, seeds, log, state)
    return copy.deepcopy(_VALID["rec"])


def _answers(out) -> None:
    assert isinstance(out, dict) and isinstance(out["ok"], bool)
    json.dumps(out)
    if not out["ok"]:
        assert isinstance(out["error"], str) and out["error"]


@settings(max_examples=200, deadline=None)
@given(junk=JSON)
def test_any_json_value_is_answered(junk):
    out = check_record(junk)
    _answers(out)
    assert out["ok"] is False


KEYS = [
    "variant",
    "rules",
    "match",
    "dealer",
    "hand_number",
    "commitment",
    "client_seeds",
    "server_seed",
    "actions",
    "settlement",
]


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from(KEYS), junk=JSON, drop=st.booleans())
def test_a_record_with_one_odd_field_is_answered(key, junk, drop):
    rec = _valid_record()
    if drop:
        del rec[key]
    else:
        rec[key] = junk
    _answers(check_record(rec))


@settings(max_examples=200, deadline=None)
@given(
    i=st.integers(0, 30),
    field=st.sampled_from(["seq", "seat", "action", "result", None]),
    junk=JSON,
)
def test_an_odd_action_entry_is_answered_at_its_seq(i, field, junk):
    rec = _valid_record()
    i %= len(rec["actions"])
    if field is None:
        rec["actions"][i] = junk
    else:
        rec["actions"][i][field] = junk
    out = check_record(rec)
    _answers(out)
    if not out["ok"] and "seq" in out:
        assert out["seq"] == i + 1


@pytest.mark.parametrize(
    "action",
    [
        {"type": "discard", "tile": "10m"},
        {"type": "discard", "tile": ["5m"]},
        {"type": "discard"},
        {"type": "chi", "tiles": 5},
        {"type": 3},
        {"type": "ding_que", "suit": []},
        {"type": "hu", "extra": True},
        {},
    ],
)
def test_odd_actions_are_rejected_at_their_seq(action):
    rec = _valid_record()
    rec["actions"][5]["action"] = action
    out = check_record(rec)
    assert out["ok"] is False and out["seq"] == 6, out


def test_the_replay_cli_reads_a_record_on_stdin():
    seeds = DealSeeds.for_test(2, hand_number=9)
    state, log = play_hand("hangzhou", {"qi_dui": False}, seeds)
    rec = _record("hangzhou", {"qi_dui": False}, seeds, log, state)
    run = _cli_replay(json.dumps(rec))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"ok": True, **rec["settlement"]}
    rec["actions"][7]["result"] = "f" * 16
    run = _cli_replay(json.dumps(rec))
    assert run.returncode == 1
    out = json.loads(run.stdout)
    assert out["ok"] is False and out["seq"] == 8
    for text in ("{not json", "", "[]", '"record"', "\xff"):
        run = _cli_replay(text)
        assert run.returncode == 1
        out = json.loads(run.stdout)
        assert out["ok"] is False and out["error"]


def _cli_replay(stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.rules", "replay"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=pathlib.Path(__file__).resolve().parents[2],
        timeout=120,
    )
