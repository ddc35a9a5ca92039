"""Whole-hand scenarios of the Hangzhou flow (hangzhou.md), on rigged deals.

The indicator is 9s unless said otherwise: the other three 9s are the wilds
(财神) and every 白板 (5z) plays as a 9s.
"""

from __future__ import annotations

import pytest

from games.rules import legal_actions, next_match, settle, view
from games.rules import tiles as T
from games.rules.simulate import tile_census

from .rig import act, paid, rig


def hz(hands, **kw):
    kw.setdefault("indicator", "9s")
    return rig(hands, variant="hangzhou", que=None, **kw)


# Dealer 0 throws 1m; seat 1 waits on 1m/4m (and may chow it); 2 and 3 hold junk.
DISCARD_DEAL = [
    "1m123p456p789p11z47z",
    "23m456m789m234p66z",
    "1357s2468m16p347z",
    "89m2468s1357p237z",
]


def test_the_indicator_is_out_of_play_and_public():
    s = hz(DISCARD_DEAL)
    assert s.dead == [T.parse_one("9s")] and T.parse_one("9s") in s.dead
    assert tile_census(s)[T.parse_one("9s")] == 4
    for viewer in (0, 1, None):
        v = view(s, viewer)
        assert v["indicator"] == "9s" and v["wild_kinds"] == "9s"
        assert "dead" not in v


def test_fang_chong_is_refused_in_the_dealers_first_hand():
    s = act(hz(DISCARD_DEAL, streak=1), 0, "discard", tile="1m")
    assert legal_actions(s, 1) == [{"type": "chi", "tiles": "123m"}, {"type": "pass"}]


def test_fang_chong_is_allowed_from_the_second_hand_of_the_streak():
    s = act(hz(DISCARD_DEAL, streak=2), 0, "discard", tile="1m")
    assert legal_actions(s, 1)[0] == {"type": "hu"}
    s = act(s, 1, "hu")
    assert s.phase == "ended" and s.won[1]["win_type"] == "discard"
    # The discarder alone pays W × D: W = 1, D = 4 in 二连庄.
    assert paid(s, "hu") == [(0, 1, 4)]
    # A non-dealer won: they deal next, streak 1.
    after = next_match(s)
    assert after.dealer == 1 and after.streak == 1


@pytest.mark.parametrize(
    ("streak", "winner", "source", "allowed"),
    [
        (1, 0, 1, False),
        (2, 0, 1, True),
        (2, 1, 0, True),
        (2, 1, 2, False),  # two non-dealers never win on each other's discards
        (5, 3, 2, False),
    ],
)
def test_fang_chong_only_between_dealer_and_non_dealer(streak, winner, source, allowed):
    from games.rules import get_variant

    s = hz(DISCARD_DEAL, streak=streak)
    assert get_variant("hangzhou").discard_win_allowed(s, winner, source) is allowed


def test_fang_chong_never_when_the_house_rule_is_null():
    s = hz(DISCARD_DEAL, streak=9, rules={"discard_win_min_streak": None})
    s = act(s, 0, "discard", tile="1m")
    assert {"type": "hu"} not in legal_actions(s, 1)


def test_one_winner_counted_from_the_dealer():
    # Seats 1 and 3 both wait on the dealer's 1m; seat 3 answers first.
    hands = list(DISCARD_DEAL)
    hands[3] = "23m567m234s567p88s"
    s = act(hz(hands, streak=2), 0, "discard", tile="1m")
    assert {"type": "hu"} in legal_actions(s, 1) and {"type": "hu"} in legal_actions(s, 3)
    s = act(s, 3, "hu")
    s = act(s, 1, "hu")
    assert s.win_order == [1] and s.won[3] is None
    assert paid(s, "hu") == [(0, 1, 4)]


def test_pung_beats_chow():
    # Seat 1 can chow the dealer's 1m, seat 2 can pung it.
    hands = list(DISCARD_DEAL)
    hands[2] = "11m357s2468m16p47z"
    s = act(hz(hands), 0, "discard", tile="1m")
    assert {"type": "chi", "tiles": "123m"} in legal_actions(s, 1)
    assert {"type": "peng"} in legal_actions(s, 2)
    s = act(s, 1, "chi", tiles="123m")
    s = act(s, 2, "peng")
    assert s.turn == 2 and [m.kind for m in s.melds[2]] == ["peng"] and s.melds[1] == []


def test_chow_by_the_next_player_only():
    hands = list(DISCARD_DEAL)
    hands[2] = "23m1357s468m16p47z"  # seat 2 could make 123m too, but is not next
    s = act(hz(hands), 0, "discard", tile="1m")
    assert all(a["type"] != "chi" for a in legal_actions(s, 2))
    s = act(s, 1, "chi", tiles="123m")
    assert s.turn == 1 and s.turn_kind == "claim" and s.melds[1][0].kind == "chi"
    assert s.vs["claims_from"][1] == [1, 0, 0, 0]


def test_bai_ban_stands_in_for_the_wild_kind_in_a_chow():
    # 白板 plays as 9s: seat 1 chows the dealer's 白板 with 78s.
    hands = ["5z123p456p789p11z47z", "78s456m789m234p66z", *DISCARD_DEAL[2:]]
    s = act(hz(hands), 0, "discard", tile="5z")
    assert {"type": "chi", "tiles": "78s5z"} in legal_actions(s, 1)
    s = act(s, 1, "chi", tiles="78s5z")
    assert s.melds[1][0].tiles == tuple(T.parse("78s5z"))


def test_bai_ban_off_is_a_plain_dragon():
    hands = ["5z123p456p789p11z47z", "78s456m789m234p66z", *DISCARD_DEAL[2:]]
    s = act(hz(hands, rules={"bai_ban_stands_in": False}), 0, "discard", tile="5z")
    assert all(a["type"] != "chi" for a in legal_actions(s, 1))


def test_an_indicator_that_is_bai_ban_makes_the_other_bai_ban_wild():
    # Indicator 5z: 5z is wild (a lone one completes 66z's pair), 9s is plain.
    hands = ["1m123p456p789p11z47z", "5z456m789m234p567s", *DISCARD_DEAL[2:]]
    s = hz(hands, indicator="5z", front="8s")
    assert view(s, 0)["wild_kinds"] == "5z"
    s = act(s, 0, "discard", tile="1m")
    s = act(s, 1, "pass") if s.phase == "claim" else s
    assert s.turn == 1 and legal_actions(s, 1)[0] == {"type": "hu"}
    s = act(s, 1, "hu")
    # Four sets before the draw and the lone wild: 暴头.
    assert s.won[1]["items"] == [{"id": "bao_tou", "value": 2}]


def test_a_discarded_wild_is_claimed_by_nobody():
    hands = ["9s123p456p789p11z47z", "89s456m789m234p66z", *DISCARD_DEAL[2:]]
    s = act(hz(hands, streak=3), 0, "discard", tile="9s")
    # Seat 1 holds 8s: a chow of 789s would need the wild; nobody may claim it.
    assert s.phase == "play" and s.turn == 1


# --- 财飘, its lock, and leaving --------------------------------------------------

PIAO_DEAL = [
    "123m456m789m123p9s9s",  # dealer: four sets and two wilds
    "45678p1234s1237z",
    "77z2468m1357s66z4z",
    "3579p68s112233z4z",
]


def _piao():
    s = hz(PIAO_DEAL, front="4z8m5s6s")
    assert legal_actions(s, 0)[0] == {"type": "hu"}  # it could win plain now
    s = act(s, 0, "discard", tile="9s")
    assert s.vs["lock"] == 0 and s.vs["piao"][0] == 1
    assert view(s, 2)["cai_piao_lock"] == 0
    return s


def test_cai_piao_locks_the_others_out_of_claims_until_its_player_draws():
    s = _piao()
    s = act(s, 1, "discard", tile="7z")
    # Seat 2 holds 77z but may not pung (nor chow) while the 财飘 is pending.
    assert s.phase == "play" and s.turn == 2
    s = act(s, 2, "discard", tile="8m")
    s = act(s, 3, "discard", tile="5s")
    assert s.turn == 0 and s.vs["lock"] is None  # its draw lifts the lock
    s = act(s, 0, "hu")
    assert s.won[0]["items"] == [{"id": "bao_tou", "value": 2}, {"id": "cai_piao", "value": 2}]
    # Dealer self-draw: each non-dealer pays W × D = 4 × 2.
    assert paid(s, "hu") == [(1, 0, 8), (2, 0, 8), (3, 0, 8)]
    assert s.won[0]["w"] == 4 and s.won[0]["d"] == 2
    after = next_match(s)
    assert after.dealer == 0 and after.streak == 2  # the dealer won: streak grows


def test_leaving_after_a_wild_discard_pays_32_to_a_ready_thrower():
    s = _piao()
    s = act(s, 2, "leave")
    assert paid(s, "escape") == [(2, 0, 32)]
    assert view(s, 1)["escape_penalty"] == 32


def test_leaving_normally_pays_8_to_the_pot():
    s = hz(PIAO_DEAL)
    s = act(s, 3, "leave")
    assert paid(s, "escape") == [(3, None, 8)]
    assert s.result is None and view(s, 0)["pot"] == 8
    assert sum(view(s, 0)["deltas"]) + view(s, 0)["pot"] == 0


def test_leaving_after_a_wild_thrown_from_a_hand_not_ready_pays_32_to_the_pot():
    hands = ["9s1m5m9m1p5p9p1s5s1z3z5z7z2z", *PIAO_DEAL[1:]]
    s = act(hz(hands), 0, "discard", tile="9s")
    assert s.vs["wild_window"] == {"seat": 0, "ready": False} and s.vs["lock"] is None
    s = act(s, 1, "leave")
    assert paid(s, "escape") == [(1, None, 32)]


def test_the_wild_window_closes_at_the_throwers_next_draw():
    s = _piao()
    for seat, tile in ((1, "7z"), (2, "8m"), (3, "5s")):
        s = act(s, seat, "discard", tile=tile)
    assert s.vs["wild_window"] is None
    s = act(s, 2, "leave")
    assert paid(s, "escape") == [(2, None, 8)]


# --- 承包 and 漏胡 -------------------------------------------------------------


def test_cheng_bao_makes_the_fed_player_pay_all_three():
    # Seat 1 has claimed three of the dealer's discards and self-draws.
    s = hz(
        ["1m123p456p789p11z47z", "888s6z", *DISCARD_DEAL[2:]],
        melds={1: [("chi", "123m", 0), ("peng", "444s", 0), ("chi", "567m", 0)]},
        front="6z",
    )
    s.vs["claims_from"][1] = [3, 0, 0, 0]
    s = act(s, 0, "discard", tile="1m")
    s = act(s, 1, "pass") if s.phase == "claim" else s
    assert legal_actions(s, 1)[0] == {"type": "hu"}
    s = act(s, 1, "hu")
    # Normally 2 + 1 + 1 (the dealer pays W × D): the dealer pays all of it.
    assert paid(s, "cheng_bao") == [(0, 1, 4)] and paid(s, "hu") == []


def test_lou_hu_bars_only_the_passed_kind_until_own_draw():
    # The dealer waits on 1m/4m; seat 1 throws 1m (passed), then seat 2 throws 1m: barred.
    hands = [
        "23m456m789m234p66z7z",
        "1m9p1357s2468s6p77z",
        "1m4m9m1p5p9p3s7s1z3z5z2z4z",
        "89m2468s1357p237z",
    ]
    s = hz(hands, streak=2, front="8p")
    s = act(s, 0, "discard", tile="7z")
    s = act(s, 1, "pass") if s.phase == "claim" else s
    s = act(s, 1, "discard", tile="1m")
    assert legal_actions(s, 0)[0] == {"type": "hu"}
    s = act(s, 0, "pass")
    assert s.vs["lou_hu"][0] == [T.parse_one("1m")]
    s = act(s, 2, "discard", tile="1m")
    assert s.phase == "play" and s.turn == 3  # no 胡 on 1m again before its own draw


def test_lou_hu_lets_another_kind_win():
    hands = [
        "23m456m789m234p66z7z",
        "1m9p1357s2468s6p77z",
        "1m4m9m1p5p9p3s7s1z3z5z2z4z",
        "89m2468s1357p237z",
    ]
    s = hz(hands, streak=2, front="8p")
    s = act(s, 0, "discard", tile="7z")
    s = act(s, 1, "pass") if s.phase == "claim" else s
    s = act(s, 1, "discard", tile="1m")
    s = act(s, 0, "pass")
    s = act(s, 2, "discard", tile="4m")
    assert legal_actions(s, 0)[0] == {"type": "hu"}


# --- the match --------------------------------------------------------------------


def test_the_dealer_stays_on_a_draw_and_the_streak_factor_is_capped():
    s = hz(PIAO_DEAL, streak=3, wall_size=0, rules={"max_streak_factor": 4})
    assert view(s, 0)["streak_factor"] == 4
    s = act(s, 0, "discard", tile="1m")
    assert s.phase == "ended" and s.result["reason"] == "exhausted"
    assert settle(s)["transfers"] == [] and settle(s)["pot"] == 0
    after = next_match(s)
    assert after.dealer == 0 and after.streak == 4


# --- kong chains and 杠飘 ---------------------------------------------------------


@pytest.mark.parametrize(("doubles", "value"), [(False, 2), (True, 4)])
def test_a_win_after_two_chained_kongs_reads_the_chain(doubles, value):
    s = hz(
        ["1111m3333m345p67p8s", *PIAO_DEAL[1:]],
        back="8s8p",
        rules={"kong_chain_doubles": doubles},
    )
    s = act(s, 0, "gang", tile="1m")
    s = act(s, 0, "gang", tile="3m")
    assert [k["chain"] for k in s.kongs] == [1, 2]
    s = act(s, 0, "hu")
    assert s.won[0]["items"] == [{"id": "gang_kai", "value": value}]


def test_gang_piao_when_the_cai_piao_was_thrown_on_a_kong_replacement():
    s = hz(["1111m234p567p678s9s", *PIAO_DEAL[1:]], back="9s", front="4z8m5s6s")
    s = act(s, 0, "gang", tile="1m")
    assert legal_actions(s, 0)[0] == {"type": "hu"}  # complete with two wilds
    s = act(s, 0, "discard", tile="9s")  # 财飘, on the kong's replacement turn
    assert s.vs["piao_after_kong"][0] is True and s.vs["lock"] == 0
    for seat, tile in ((1, "7z"), (2, "8m"), (3, "5s")):
        s = act(s, seat, "discard", tile=tile)
    s = act(s, 0, "pass")  # the 财飘 player itself may still chow the 5s
    s = act(s, 0, "hu")
    assert s.won[0]["items"] == [{"id": "gang_piao", "value": 8}]
    assert paid(s, "hu") == [(1, 0, 16), (2, 0, 16), (3, 0, 16)]
