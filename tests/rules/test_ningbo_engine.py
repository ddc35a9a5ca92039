"""Whole-hand scenarios of the Ningbo flow (ningbo.md), on rigged deals.

The indicator is 9s unless said otherwise: the other three 9s are the wilds
(百搭).  Seat 0 deals, so seat 1 is South (正花 2f/6f).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import awaited, events_for, legal_actions, new_hand, next_match, settle, view
from games.rules import tiles as T
from games.rules.bots import choose_action
from games.rules.engine import Rejection, apply
from games.rules.explain import explain_wins
from games.rules.match import MatchState
from games.rules.rng import DealSeeds, SeedStream
from games.rules.simulate import check_invariants, play_hand, tile_census
from games.rules.turns import replace_dealt_bonus_tiles
from games.rules.variants import get_variant

from .rig import act, ok, paid, rig

NB = get_variant("ningbo")


def nb(hands, **kw):
    kw.setdefault("indicator", "9s")
    return rig(hands, variant="ningbo", que=None, **kw)


def pass_all(s):
    """Everyone with an open claim passes."""
    while s.phase == "claim":
        seat = next(k for k in s.claim["options"] if k not in s.claim["answers"])
        s = act(s, seat, "pass")
    return s


def throw_drawn(s):
    """The seat on turn throws what it drew; nobody claims it."""
    return pass_all(act(s, s.turn, "discard", tile=T.to_str(s.drawn)))


# Dealer 0 throws 1m; seat 1 could win on 1m (23m open wait, 66z pair: 1 台) or chow it.
DEAL = [
    "1m123p456p789p11z47z",
    "23m456m789m234p66z",
    "1357s2468m16p347z",
    "89m2468s1357p237z",
]


# --- the wall, the dice, the indicator --------------------------------------------


def test_144_tiles_with_eight_flowers():
    tiles = NB.wall_tiles(NB.resolve_options(None))
    assert len(tiles) == 144 and sorted(t for t in tiles if T.is_flower(t)) == list(range(34, 42))


@pytest.mark.parametrize("seed", [1, 7, 2026])
def test_the_dice_break_the_wall_and_turn_up_the_indicator(seed):
    s = new_hand("ningbo", None, DealSeeds.for_test(seed), dealer=0)
    rng = SeedStream(DealSeeds.for_test(seed))
    ring = NB.wall_tiles(s.rules)
    rng.shuffle(ring)
    d1, d2 = rng.dice()
    # The sum counts from the dealer to the wall, the larger die the stacks skipped.
    start = ((d1 + d2 - 1) % 4) * 36 + 2 * max(d1, d2)
    ring = ring[start:] + ring[:start]
    live = ring[53:]  # after 14 + 3 × 13 dealt
    # The smaller die: that stack from the end of the wall, its top tile turned up.
    spot = len(live) - 2 * min(d1, d2)
    assert s.vs["dice"] == [d1, d2] and view(s, None)["dice"] == [d1, d2]
    assert s.indicator == live[spot] and s.dead == [live[spot]]
    rest = live[:spot] + live[spot + 1 :]
    # 补花 takes from the back only: the front of the wall is as dealt, minus the indicator.
    assert s.wall == rest[: len(s.wall)]
    assert sum(tile_census(s).values()) == 144


def test_the_indicator_is_never_drawn_143_tiles_are_in_play():
    for seed in range(40):
        s, _ = play_hand("ningbo", {"min_tai": 10}, seed)
        if s.result["reason"] == "exhausted":
            break
    else:
        raise AssertionError("no 荒庄 in 40 hands with min_tai 10")
    assert s.wall == [] and s.dead == [s.indicator]
    in_play = sum(len(s.hands[k]) + len(s.discards[k]) + len(s.flowers[k]) for k in range(4))
    in_play += sum(len(m.tiles) for k in range(4) for m in s.melds[k])
    assert in_play == 143
    assert settle(s)["transfers"] == []  # 荒庄 pays nothing


def test_the_last_drawable_tile_from_the_front_is_hai_di():
    hands = ["19m19p19s1234567z2s", "123456789m123p5p", "2468m1357p2468s5z", "3577m2468p1357s6z"]
    s = nb(hands, front="5p", wall_size=1, rules={"min_tai": 0})
    s = pass_all(act(s, 0, "discard", tile="2s"))
    assert s.turn == 1 and s.wall == [] and {"type": "hu"} in legal_actions(s, 1)
    s = act(s, 1, "hu")
    assert {i["id"] for i in s.won[1]["items"]} >= {"hai_di_lao_yue", "zi_mo"}


def test_the_last_drawable_tile_from_the_back_is_a_kong_replacement_and_hai_di():
    hands = ["29m19p19s1234567z2s", "1111m789m123p55p7z", "2468m1357p2468s5z", "3577m2468p1357s6z"]
    s = nb(hands, front="7z", back="5p", wall_size=2, rules={"min_tai": 0})
    s = pass_all(act(s, 0, "discard", tile="2s"))
    assert s.turn == 1 and len(s.wall) == 1
    s = act(s, 1, "gang", tile="1m")  # the replacement is the last drawable tile
    assert s.wall == [] and s.drawn == T.parse_one("5p") and s.dead == [T.parse_one("9s")]
    s = act(s, 1, "hu")
    got = {i["id"] for i in s.won[1]["items"]}
    assert {"gang_shang_kai_hua", "hai_di_lao_yue", "an_gang"} <= got


# --- flowers ------------------------------------------------------------------------


def test_bu_hua_after_the_deal_chains_until_no_hand_holds_a_flower():
    hands = [
        "1f1m123p456p789p11z4z",
        "23m456m789m234p5f6z",
        "6f1357s2468m16p34z",
        "89m2468s1357p237z",
    ]
    s = nb(hands, back="2f4m7f8m9m")
    replace_dealt_bonus_tiles(s)
    # From the dealer on: 1f→2f (again a flower), 5f→4m, 6f→7f (again); then 2f→8m, 7f→9m.
    assert [T.fmt(f) for f in s.flowers] == ["12f", "5f", "67f", ""]
    assert T.parse_one("8m") in s.hands[0] and T.parse_one("9m") in s.hands[2]
    assert T.parse_one("4m") in s.hands[1]
    assert not any(T.is_flower(t) for h in s.hands for t in h)


def test_no_hand_holds_a_plain_flower_after_a_real_deal():
    for seed in range(30):
        s = new_hand("ningbo", None, DealSeeds.for_test(seed))
        wild = NB.wild_kinds(s)
        assert not [t for h in s.hands for t in h if T.is_flower(t) and t not in wild]
        assert sum(tile_census(s).values()) == 144


def test_gang_hua_a_drawn_flower_is_laid_out_and_a_win_on_the_replacement_scores():
    hands = ["19m19p19s1234567z2s", "123456789m123p5p", "2468m1357p2468s5z", "3577m2468p1357s6z"]
    s = nb(hands, front="5f", back="6f5p")
    s = pass_all(act(s, 0, "discard", tile="2s"))
    # 5f laid out, its replacement 6f laid out too, then 5p.
    assert s.turn == 1 and s.flowers[1] == T.parse("56f") and s.drawn == T.parse_one("5p")
    assert view(s, 3)["players"][1]["flowers"] == "56f"
    s = act(s, 1, "hu")
    got = {i["id"]: i["value"] for i in s.won[1]["items"]}
    assert got == {
        "zi_mo": 1,
        "ping_hu": 1,
        "dan_diao": 1,
        "gang_shang_kai_hua": 1,
        "ying_hu": 1,
        "zheng_hua": 1,  # 6f is South's flower
    }
    assert s.won[1]["total"] == 7
    # A self-draw: each of the three pays T × base.
    assert sorted(paid(s, "hu")) == [(0, 1, 7), (2, 1, 7), (3, 1, 7)]


@pytest.mark.parametrize(
    ("indicator", "drawn", "wilds"), [("1f", "2f", "1234f"), ("7f", "5f", "5678f")]
)
def test_a_season_or_plant_indicator_makes_its_set_wild_not_flowers(indicator, drawn, wilds):
    hands = ["19m19p19s1234567z2s", "123456789m123p5p", "2468m1357p2468s5z", "3577m2468p1357s6z"]
    s = nb(hands, indicator=indicator, front=drawn)
    s = pass_all(act(s, 0, "discard", tile="2s"))
    assert s.drawn == T.parse_one(drawn) and s.flowers[1] == []  # kept, as a wild
    assert view(s, 0)["wild_kinds"] == wilds
    assert not NB.is_bonus(s, T.parse_one(drawn)) and NB.is_wild(s, T.parse_one(drawn))


# --- claims ---------------------------------------------------------------------------


def test_chi_zhang_da_zhang_open_chow_bars_the_claimed_kind_and_the_other_end():
    hands = list(DEAL)
    hands[0] = "2m123p456p789p11z47z"
    hands[1] = "123m456m789m34p66z"
    s = act(nb(hands), 0, "discard", tile="2m")
    assert {"type": "chi", "tiles": "234m"} in legal_actions(s, 1)
    s = act(s, 1, "chi", tiles="234m")  # 2m with 3m4m: 2m and 5m would make 234/345
    kinds = {a["tile"] for a in legal_actions(s, 1) if a["type"] == "discard"}
    assert "2m" not in kinds and "5m" not in kinds and "1m" in kinds
    out = apply(s, 1, {"type": "discard", "tile": "5m"})
    assert isinstance(out, Rejection) and out.code == "chi_zhang_da_zhang"
    # The bar lasts one discard.
    s = act(s, 1, "discard", tile="1m")
    assert s.vs["barred"][1] == []


def test_chi_zhang_da_zhang_middle_chow_bars_only_the_claimed_kind():
    hands = list(DEAL)
    hands[0] = "2m123p456p789p11z47z"
    hands[1] = "123m456m789m34p66z"
    s = act(act(nb(hands), 0, "discard", tile="2m"), 1, "chi", tiles="123m")
    kinds = {a["tile"] for a in legal_actions(s, 1) if a["type"] == "discard"}
    assert "2m" not in kinds and "4m" in kinds and "5m" in kinds


def test_a_wild_is_never_punged_chowed_or_used_in_a_chow():
    hands = list(DEAL)
    hands[0] = "9s123p456p789p11z47z"
    hands[1] = "23m456m789m78s66z3p"  # 78s would chow 9s; 9s is wild
    hands[2] = "1357s2468m16p347z"
    s = act(nb(hands, indicator="9s"), 0, "discard", tile="9s")
    assert s.phase == "play" and s.turn == 1  # no claim window on a wild
    # A held wild never makes a chow: 7s9s + a discarded 8s offers nothing.
    hands = list(DEAL)
    hands[0] = "8s123p456p789p11z47z"
    hands[1] = "23m456m789m7s9s66z3p"
    s = act(nb(hands, indicator="9s"), 0, "discard", tile="8s")
    assert all(a["type"] != "chi" for a in legal_actions(s, 1))


def test_no_kong_in_the_turn_of_a_pung_then_both_kongs_next_turn():
    hands = [
        "5p123p46p789p11z47z1m",
        "23m456m789m119s66z",
        "1357m9m555p7777s1z",
        "89m2468s1389p237z",
    ]
    s = act(nb(hands, front="2z3s4s2z"), 0, "discard", tile="5p")
    assert legal_actions(s, 2) == [{"type": "gang"}, {"type": "peng"}, {"type": "pass"}]
    s = act(s, 2, "peng")
    assert {a["type"] for a in legal_actions(s, 2)} == {"discard"}  # no 暗杠, no 补杠
    s = pass_all(act(s, 2, "discard", tile="9m"))
    for _ in range(3):  # seats 3, 0, 1 draw and throw
        s = throw_drawn(s)
    assert s.turn == 2
    gangs = [a for a in legal_actions(s, 2) if a["type"] == "gang"]
    assert gangs == [{"type": "gang", "tile": "7s"}, {"type": "gang", "tile": "5p"}]


def test_jie_hu_only_the_first_after_the_discarder_wins():
    hands = list(DEAL)
    hands[3] = "23m567m234s567p88s"
    s = act(nb(hands, rules={"min_tai": 0}), 0, "discard", tile="1m")
    s = act(s, 3, "hu")
    s = act(s, 1, "hu")
    assert s.win_order == [1] and paid(s, "hu") == [(0, 1, s.won[1]["total"])]


def test_jie_hu_counts_from_the_discarder():
    # Dealer 2 throws 1m: seats 3 and 1 can win; 3 comes first after 2.
    hands = [
        "1m11s1357p2468s47z",
        "23m456m789m234p66z",
        "1m19p19s1234567z2s5s",
        "23m567m234s567p88s",
    ]
    s = act(nb(hands, dealer=2, rules={"min_tai": 0}), 2, "discard", tile="1m")
    s = act(s, 1, "hu")
    s = act(s, 3, "hu")
    assert s.win_order == [3]


# --- winning ----------------------------------------------------------------------------


def test_min_tai_refuses_a_small_win_and_shows_the_minimum_to_its_seat_only():
    s, events = apply(nb(DEAL), 0, {"type": "discard", "tile": "1m"})
    # seat 1's win on 1m is 1 台 (硬胡): it alone hears why there is no 胡.
    (note,) = [e for e in events if e["type"] == "WinRefused"]
    assert note["seat"] == 1 and note["only"] == 1 and note["tai"] == 1 and note["min_tai"] == 4
    assert [e for e in events_for(events, 2) if e["type"] == "WinRefused"] == []
    assert legal_actions(s, 1) == [{"type": "chi", "tiles": "123m"}, {"type": "pass"}]
    refused = view(s, 1)["players"][1]["win_refused"]
    assert refused["tai"] == 1 and refused["min_tai"] == 4 and refused["refused"] == "min_tai"
    assert "win_refused" not in view(s, 0)["players"][1]
    assert view(s, None)["min_tai"] == 4
    s = act(nb(DEAL, rules={"min_tai": 1}), 0, "discard", tile="1m")
    assert legal_actions(s, 1)[0] == {"type": "hu"}


def test_min_tai_3_tai_refused_4_tai_accepted_in_play():
    # 123456789m 13p 55s + 2p: 平胡 夹 硬胡 = 3 台 on a discard; + 自摸 = 4.
    hands = ["19m19p19s1234567z2p", "123456789m13p55s", "2468m1357p2468s5z", "3577m2468p1357s6z"]
    s = act(nb(hands), 0, "discard", tile="2p")
    assert legal_actions(s, 1) == [{"type": "chi", "tiles": "123p"}, {"type": "pass"}]
    assert view(s, 1)["players"][1]["win_refused"]["tai"] == 3
    hands[0] = hands[0].replace("2p", "2s")
    s = pass_all(act(nb(hands, front="2p"), 0, "discard", tile="2s"))
    assert legal_actions(s, 1)[0] == {"type": "hu"}
    s = act(s, 1, "hu")
    assert s.won[1]["total"] == 5


def test_bai_da_dan_diao_is_refused_on_a_discard_and_allowed_on_a_self_draw():
    hands = ["19m19p19s1234567z5p", "123456789m345p9s", "2468m1357p2468s5z", "3577m2468p1357s6z"]
    s = act(nb(hands, rules={"min_tai": 0}), 0, "discard", tile="5p")
    assert legal_actions(s, 1) == [{"type": "chi", "tiles": "345p"}, {"type": "pass"}]
    assert view(s, 1)["players"][1]["win_refused"]["refused"] == "wild_single_wait"
    hands[0] = hands[0].replace("5p", "2s")
    s = pass_all(act(nb(hands, front="5p", rules={"min_tai": 0}), 0, "discard", tile="2s"))
    assert legal_actions(s, 1)[0] == {"type": "hu"}


def test_a_discard_win_the_discarder_pays_t_times_base():
    s = act(nb(DEAL, rules={"min_tai": 1, "base": 5}), 0, "discard", tile="1m")
    s = act(s, 1, "hu")
    assert s.won[1]["total"] == 2 and paid(s, "hu") == [(0, 1, 10)]
    assert settle(s)["deltas"] == [-10, 10, 0, 0]
    # The table writes out how T became the payment.
    (text,) = explain_wins(s)
    assert (
        text["value"] == 10 and text["en"] == "1 + 1 tai = 2 × base 5 = 10; the discarder pays 10"
    )


# --- the match ---------------------------------------------------------------------------


def test_dealer_and_winds():
    s = act(nb(DEAL, rules={"min_tai": 1}), 0, "discard", tile="1m")
    s = act(s, 1, "hu")
    after = next_match(s)  # a non-dealer won: the dealer's next player deals
    assert after.dealer == 1 and after.streak == 1 and after.seat_winds == (3, 0, 1, 2)
    # The dealer wins or 荒庄: the dealer stays.
    m = MatchState(dealer=0)
    s2 = new_hand("ningbo", None, DealSeeds.for_test(3), match=m)
    stays = NB.next_match(m.dealt(0), s2)
    assert stays.dealer == 0 and stays.streak == 2
    # The prevailing wind moves on once all four have dealt.
    m = MatchState(dealer=0).dealt(0)
    for k in range(4):
        assert m.prevailing == 0
        m = m.after_hand((k + 1) % 4, stays=False)
    assert m.prevailing == 1 and m.dealer == 0


def test_the_first_dealer_is_random_and_leaving_ends_the_match():
    m = NB.new_match(NB.resolve_options(None))
    assert m.dealer is None
    dealers = {new_hand("ningbo", None, DealSeeds.for_test(n), match=m).dealer for n in range(12)}
    assert dealers == {0, 1, 2, 3}
    assert NB.leave_ends_match is True and NB.plays_winds and NB.site_data()["result"]["base"] == 1
    assert NB.resolve_options(None).auto_ready_seconds == 15


# --- properties -----------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**63 - 1),
    rules=st.sampled_from([{}, {"min_tai": 0}, {"wild_kinds": "indicator_and_next"}]),
)
def test_flowers_are_laid_out_at_once_and_wilds_never_leave_a_hand_in_a_meld(seed, rules):
    s = new_hand("ningbo", rules, DealSeeds.for_test(seed))
    expected = tile_census(s)
    wild = NB.wild_kinds(s)
    while s.phase != "ended":
        seat = awaited(s)[0]
        s = ok(apply(s, seat, choose_action(s, seat, "basic")))
        check_invariants(s, expected)
        assert s.dead == [s.indicator]  # set aside for good
        for k in range(4):
            # No hand ever holds a plain flower; no wild is laid out or melded.
            assert not [t for t in s.hands[k] if T.is_flower(t) and t not in wild]
            assert not set(s.flowers[k]) & wild
            assert not {t for m in s.melds[k] for t in m.tiles} & wild
    if s.result["reason"] == "win":
        (w,) = [s.won[k] for k in s.win_order]
        assert w["total"] - 1 >= s.rules.min_tai
