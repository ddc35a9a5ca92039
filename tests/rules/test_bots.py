"""The bot levels: both play legal moves, the strong one decides from its own seat's view
alone, and the duel command compares them in duplicate."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import apply, awaited, legal_actions, new_hand
from games.rules import tiles as T
from games.rules.__main__ import main
from games.rules.bots import choose_action
from games.rules.duel import duel
from games.rules.rng import DealSeeds
from games.rules.simulate import play_hand
from games.rules.valuation import Table, seat_state

VARIANTS = ("sichuan", "hangzhou", "guangzhou", "ningbo")


def _play(variant: str, seed: int, moves: int):
    """A state after ``moves`` moves by basic bots (None if the hand ended first)."""
    state = new_hand(variant, None, DealSeeds.for_test(seed))
    for _ in range(moves):
        if state.phase == "ended":
            return None
        seat = awaited(state)[0]
        state = apply(state, seat, choose_action(state, seat, "basic"))[0]
    return None if state.phase == "ended" else state


def _redeal(state, seat: int, rng: random.Random):
    """``state`` with every tile ``seat`` cannot see dealt again at random: the other
    hands still playing, the wall and the dead wall (but the face-up indicator)."""
    hidden_seats = [k for k in range(4) if k != seat and state.won[k] is None]
    pool = [t for k in hidden_seats for t in state.hands[k]] + list(state.wall)
    dead = list(state.dead)
    if state.indicator is not None and state.indicator in dead:
        dead.remove(state.indicator)
    pool += dead
    rng.shuffle(pool)
    other = state.clone()
    for k in hidden_seats:
        n = len(state.hands[k])
        other.hands[k] = sorted(pool[:n])
        pool = pool[n:]
    n = len(state.wall)
    other.wall, pool = pool[:n], pool[n:]
    other.dead = pool + ([state.indicator] if len(dead) < len(state.dead) else [])
    if other.turn != seat and other.phase == "play":
        other.drawn = None
    return other


@pytest.mark.parametrize("level", ["basic", "strong"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_each_level_plays_whole_hands_with_the_invariants_held(variant, level):
    for seed in (1, 2):
        state, log = play_hand(variant, None, seed, levels=level)
        assert state.phase == "ended" and log


def test_the_default_level_is_strong_and_an_unknown_one_is_refused():
    state = _play("sichuan", 4, 12)
    seat = awaited(state)[0]
    assert choose_action(state, seat) == choose_action(state, seat, "strong")
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(state, seat, "grandmaster")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    moves=st.integers(4, 90),
    shuffle=st.integers(0, 10_000),
)
def test_the_strong_bot_decides_from_its_own_view_only(variant, seed, moves, shuffle):
    """Re-dealing every tile the deciding seat cannot see never changes its decision."""
    state = _play(variant, seed, moves)
    if state is None or state.phase not in ("play", "claim"):
        return
    seat = awaited(state)[0]
    before = choose_action(state, seat, "strong")
    rng = random.Random(shuffle)
    for _ in range(3):
        other = _redeal(state, seat, rng)
        assert legal_actions(other, seat) == legal_actions(state, seat)
        assert choose_action(other, seat, "strong") == before


def test_the_seat_state_hides_what_the_seat_cannot_see():
    state = _play("ningbo", 11, 30)
    seat = awaited(state)[0]
    a = seat_state(state, seat)
    b = seat_state(_redeal(state, seat, random.Random(3)), seat)
    assert a.hands == b.hands and a.wall == b.wall
    assert a.hands[seat] == state.hands[seat]


def test_a_ready_hand_is_worth_more_than_a_far_one_and_a_flush_more_than_plain():
    state = _play("sichuan", 21, 12)
    seat = awaited(state)[0]
    m = seat_state(state, seat)
    que = m.vs["que"][seat]
    a, b = [x for x in "mps" if "mps".index(x) != que][:2]
    table = Table(m, seat)
    ready = table.evaluate(T.parse(f"123456{a}234{b}5599{b}"), [])
    far = table.evaluate(T.parse(f"1479{a}147{b}258{b}369{b}"), [])
    assert ready > far
    flush = table.evaluate(T.parse(f"1234567895599{a}"), [])
    plain = table.evaluate(T.parse(f"123456{a}7895599{b}"), [])
    assert flush > plain


def test_the_strong_bot_folds_against_a_ready_looking_opponent():
    """Far from winning, with an opponent showing three melds late in the hand, the
    strong bot throws a tile that opponent threw rather than a live middle tile."""
    from games.rules.model import Meld

    state = next(
        s
        for seed in range(50)
        if (s := _play("guangzhou", seed, 40)) is not None and s.phase == "play"
    )
    seat = state.turn
    opp = (seat + 1) % 4
    s = state.clone()
    s.hands[seat] = sorted(T.parse("19m19p19s1234567z") + T.parse("5m"))
    s.melds[opp] = [Meld("peng", (k,) * 3, from_seat=seat) for k in T.parse("2p6p8p")]
    s.discards[opp] = T.parse("1z2z3z4z5z6z7z1z")
    s.hands[opp] = s.hands[opp][: len(s.hands[opp]) - 9]
    action = choose_action(s, seat, "strong")
    assert action["type"] == "discard"
    assert T.parse_one(action["tile"]) in s.discards[opp]


def test_a_sichuan_opponent_still_throwing_its_missing_suit_is_not_feared():
    """A hand that holds its 定缺 suit cannot win: until its first other discard an
    opponent does not look ready, however long its river; after it, it does."""
    state = _play("sichuan", 21, 12)
    seat = awaited(state)[0]
    opp = (seat + 1) % 4
    s = state.clone()
    que = s.vs["que"][opp]
    own = [que * 9 + n for n in range(9)]
    s.discards[opp] = own + own[:5]
    s.melds[opp] = []
    assert Table(seat_state(s, seat), seat).threats[opp] == 0
    other = (que + 1) % 3 * 9
    s.discards[opp] = own[:3] + [other] * 11
    assert Table(seat_state(s, seat), seat).threats[opp] > 0.2


def test_the_strong_bot_plays_on_in_sichuan_where_an_unready_hand_pays_at_the_end():
    """Far from ready against an opponent that looks ready, the strong bot folds where
    it may (the Guangzhou case above) but in Sichuan keeps its best shape: a hand not
    ready when the wall ends pays every ready one (查大叫)."""
    from games.rules.model import Meld

    state = _play("sichuan", 21, 30)
    seat = state.turn
    opp = next(k for k in range(4) if k != seat and state.won[k] is None)
    s = state.clone()
    que = s.vs["que"][seat]
    a, b = [x for x in range(3) if x != que][:2]
    # 1345579 in one suit, 1246799 in the other: two steps from ready.
    hand = [a * 9 + n for n in (0, 2, 3, 4, 4, 6, 8)] + [b * 9 + n for n in (0, 1, 3, 5, 6, 8, 8)]
    s.hands[seat] = sorted(hand)
    s.drawn = s.hands[seat][-1]
    # The opponent threw 5 of one suit and 9 of the other four times, and shows two pungs.
    s.discards[opp] = [s.vs["que"][opp] * 9] + [a * 9 + 4, b * 9 + 8] * 4
    s.melds[opp] = [Meld("peng", (k,) * 3, from_seat=seat) for k in (a * 9 + 5, b * 9 + 6)]
    s.hands[opp] = s.hands[opp][: len(s.hands[opp]) - 6]
    table = Table(seat_state(s, seat), seat)
    assert table.threats[opp] >= 0.6
    action = choose_action(s, seat, "strong")
    tile = T.parse_one(action["tile"])
    # The safest tile is the 9 that seat threw (a folding hand's choice); the bot keeps
    # to its shape instead.
    assert min(set(hand), key=table.danger) == b * 9 + 8
    assert tile != b * 9 + 8


def test_a_duel_plays_each_deal_in_every_seat_and_reports():
    result = duel("sichuan", "strong", "basic", 2, seed=5).to_json()
    assert result["deals"] == 2
    assert result["a_stats"]["hands"] == 8 and result["b_stats"]["hands"] == 24
    low, high = result["ci95"]
    assert low <= result["a_minus_b_per_hand"] <= high
    assert result["a_decisions"] > 0 and result["a_ms_p50"] <= result["a_ms_p99"]


def test_a_bot_against_itself_in_duplicate_is_exactly_even():
    """The same level on both sides: the four rotations of a deal are one game seen
    from each seat, so A's hands and B's are the same hands and the gap is zero."""
    result = duel("guangzhou", "basic", "basic", 3, seed=8).to_json()
    assert result["a_minus_b_per_hand"] == 0


def test_the_duel_command_prints_json(capsys):
    assert main(["duel", "--variant", "hangzhou", "--deals", "1", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "hangzhou" and out["a"] == "strong" and out["b"] == "basic"
    assert main(["duel", "--variant", "mars", "--deals", "1"]) == 2


def _ningbo_claim(hand: str, melds: str, tile: str, options: list[dict]):
    """A Ningbo claim window: ``seat`` holds ``hand`` with pungs of ``melds`` laid down and
    may answer ``options`` on ``tile``, thrown by the seat before it.  None of the tiles
    is a wild there."""
    from games.rules.model import Meld
    from games.rules.variants.registry import get_variant

    state = _play("ningbo", 11, 30)
    seat = (state.turn + 1) % 4
    s = state.clone()
    assert not any(get_variant("ningbo").is_wild(s, t) for t in T.parse(hand + melds + tile))
    s.hands[seat] = sorted(T.parse(hand))
    s.melds[seat] = [Meld("peng", (k,) * 3, from_seat=state.turn) for k in T.parse(melds)]
    s.phase = "claim"
    s.claim = {
        "tile": T.parse_one(tile),
        "from": state.turn,
        "kind": "discard",
        "kong": False,
        "options": {seat: [*options, {"type": "pass"}]},
        "answers": {},
        "scores": {},
    }
    return s, seat


def test_the_strong_bot_heads_for_all_pungs_in_ningbo_and_the_basic_one_does_not_change(
    monkeypatch,
):
    """Two pungs laid down and a pair: punging it leaves one step to 碰碰胡 with 大吊 (enough
    台 for a discard win), so the strong bot pungs; the basic bot passes (no step of 向听
    gained), whatever the variant's pung road says."""
    from games.rules.variants.registry import get_variant

    s, seat = _ningbo_claim("67m33p666z", "5z1s", "3p", [{"type": "peng"}])
    assert choose_action(s, seat, "strong") == {"type": "peng"}
    assert choose_action(s, seat, "basic") == {"type": "pass"}
    monkeypatch.setattr(get_variant("ningbo"), "bot_pung_road", False)
    assert choose_action(s, seat, "basic") == {"type": "pass"}
    assert choose_action(s, seat, "strong") == {"type": "pass"}


def test_the_strong_bot_on_the_pung_road_passes_a_chow():
    """A concealed hand of pairs and a pung passes the chow the basic bot takes (a chow
    laid down rules out 碰碰胡)."""
    chow = {"type": "chi", "tiles": "345p"}
    s, seat = _ningbo_claim("3357m344p2666s55z", "", "5p", [chow])
    assert choose_action(s, seat, "basic") == chow
    assert choose_action(s, seat, "strong") == {"type": "pass"}
