"""Whole-hand scenarios of the Guangzhou flow (guangzhou.md), on rigged deals:
一炮多响 and ``one_winner_only``, 漏胡, every 包 rule, the dealer and the winds."""

from __future__ import annotations

from dataclasses import replace

from games.rules import DealSeeds, MatchState, legal_actions, next_match, settle, view
from games.rules import tiles as T
from games.rules.engine import awaited

from .rig import act, paid, rig


def gz(hands, **kw):
    kw.setdefault("wall_size", 60)  # rivers not empty: no 人和 unless a test wants it
    return rig(hands, variant="guangzhou", que=None, **kw)


def items(win):
    return {i["id"]: i["value"] for i in win["items"]}


def pass_claims(s, but=()):
    """Everyone with a claim option passes (except the seats in ``but``)."""
    while s.phase == "claim" and any(k not in but for k in awaited(s)):
        seat = next(k for k in awaited(s) if k not in but)
        s = act(s, seat, "pass")
    return s


def throw_drawn(s):
    """The seat on turn discards what it drew; claims on it are passed."""
    s = act(s, s.turn, "discard", tile=T.to_str(s.drawn))
    return pass_claims(s)


# Dealer 0 throws 1m; seats 1, 2 and 3 all wait on it.
THREE_WAIT = [
    "1m159p159s1234567z",
    "23m456m789m234p66s",
    "23m456p789p234s77p",
    "23m678p678s345s99s",
]


def test_yi_pao_san_xiang_three_win_the_discarder_pays_all_at_minimum_three():
    s = act(gz(THREE_WAIT), 0, "discard", tile="1m")
    for seat in (1, 2, 3):
        assert {"type": "hu"} in legal_actions(s, seat)
        s = act(s, seat, "hu")
    assert s.phase == "ended" and s.win_order == [1, 2, 3]
    for seat in (1, 2, 3):
        w = s.won[seat]
        assert w["items"][-1] == {"id": "yi_pao_san_xiang", "value": 0}
        assert w["total"] == 3 and w["w"] == 8
        assert w["fan"]["minimum"] == ["yi_pao_san_xiang"] and w["fan"]["multiplier"] == 8
    assert paid(s, "yi_pao_san_xiang") == [(0, 1, 8), (0, 2, 8), (0, 3, 8)]
    assert settle(s)["deltas"] == [-24, 8, 8, 8]
    # The dealer did not win: the deal passes to the next seat.
    assert next_match(s).dealer == 1


def test_two_winners_on_one_discard_each_paid_their_own_value():
    s = act(gz(THREE_WAIT), 0, "discard", tile="1m")
    s = act(act(act(s, 1, "hu"), 2, "hu"), 3, "pass")
    assert s.win_order == [1, 2]
    assert items(s.won[1]) == items(s.won[2]) == {"ping_hu": 1}
    assert paid(s, "hu") == [(0, 1, 2), (0, 2, 2)]


def test_one_winner_only_the_nearest_claimant_wins():
    s = act(gz(THREE_WAIT, rules={"one_winner_only": True}), 0, "discard", tile="1m")
    s = act(act(act(s, 3, "hu"), 2, "hu"), 1, "hu")
    assert s.win_order == [1] and s.won[2] is None and s.won[3] is None
    assert paid(s, "hu") == [(0, 1, 2)]
    # Seat 1 passes: the next claimant in turn order (2) wins, not 3.
    s = act(gz(THREE_WAIT, rules={"one_winner_only": True}), 0, "discard", tile="1m")
    s = act(act(act(s, 1, "pass"), 2, "hu"), 3, "hu")
    assert s.win_order == [2]


def test_a_multiple_win_that_includes_the_dealer_keeps_the_dealer():
    hands = [
        "23m456p789p234s77p1z",  # the dealer throws 1z, then waits on 1m/4m
        "159p159s234567z9m",
        "23m456m789m234p66s",
        "23m678p678s345s99s",
    ]
    s = gz(hands, front="1m")
    s = pass_claims(act(s, 0, "discard", tile="1z"))
    assert s.turn == 1 and s.drawn == T.parse_one("1m")
    s = act(s, 1, "discard", tile="1m")
    s = act(act(act(s, 2, "hu"), 3, "hu"), 0, "hu")
    assert s.win_order == [2, 3, 0]
    after = next_match(s)
    assert after.dealer == 0 and after.streak == 2


def test_lou_hu_bars_the_kind_until_a_chow():
    hands = [
        "258m147s369p234z8s",  # seat 0 will throw 8s
        "23m456m789p555s67s",  # seat 1 waits on 1m/4m, and may chow 8s with 67s
        "1m147p258s369m1234z",  # the dealer (2) throws 1m first
        "147m258p369s1567z",
    ]
    s = gz(hands, dealer=2, front="7z6z1m")
    s = act(s, 2, "discard", tile="1m")
    s = act(s, 1, "pass")  # passes the win on 1m
    s = pass_claims(s)
    assert s.turn == 3
    s = act(s, 3, "discard", tile="1m")
    # Barred: seat 1 may not win on 1m again before acting on its own tiles.
    assert legal_actions(s, 1) == []
    s = pass_claims(s)
    assert s.turn == 0
    s = act(s, 0, "discard", tile="8s")
    assert {"type": "chi", "tiles": "678s"} in legal_actions(s, 1)
    s = act(s, 1, "chi", tiles="678s")
    s = pass_claims(act(s, 1, "discard", tile="5s"))
    assert s.turn == 2 and s.drawn == T.parse_one("1m")
    s = act(s, 2, "discard", tile="1m")
    assert {"type": "hu"} in legal_actions(s, 1)  # the chow lifted the bar
    s = act(s, 1, "hu")
    assert s.won[1]["from"] == 2


def test_lou_hu_is_lifted_by_a_draw_and_bars_only_the_passed_kind():
    s = act(act(gz(THREE_WAIT), 0, "discard", tile="1m"), 1, "pass")
    assert s.vs["lou_hu"][1] == [T.parse_one("1m")]
    s = pass_claims(s)
    assert s.turn == 1 and s.vs["lou_hu"][1] == []  # seat 1 drew


# --- 包 ------------------------------------------------------------------------------


def test_gang_shang_kai_hua_the_kong_giver_pays_for_three():
    hands = [
        "5z789m159p159s2346z",
        "555z23m456m789m11s",
        "147m258p369s1467z",
        "147p258s369m1237z",
    ]
    s = act(gz(hands, back="1m"), 0, "discard", tile="5z")
    s = act(s, 1, "gang")
    assert s.turn == 1 and s.drawn == T.parse_one("1m")
    s = act(s, 1, "hu")
    w = s.won[1]
    assert items(w) == {"ji_hu": 0, "zi_mo": 1, "jian_ke": 1, "gang_shang_kai_hua": 0}
    assert w["total"] == 3 and w["bao"] == {"seat": 0, "rule": "gang_shang_kai_hua_bao"}
    assert paid(s, "gang_shang_kai_hua_bao") == [(0, 1, 24)]
    t = next(t for t in s.transfers if t["reason"] == "gang_shang_kai_hua_bao")
    assert t["w"] == 8 and t["shares"] == [[2, 1], [3, 1], [0, 1]]


def test_gang_shang_kai_hua_on_a_concealed_kong_is_paid_by_all_three():
    hands = [
        "5555z23m456m789m11s",
        "147m258p369s1467z",
        "147p258s369m1237z",
        "159p159s2346z789p",
    ]
    s = act(gz(hands, back="1m"), 0, "gang", tile="5z")
    s = act(s, 0, "hu")
    assert s.won[0]["total"] == 3 and "bao" not in s.won[0]
    assert paid(s, "hu") == [(1, 0, 8), (2, 0, 8), (3, 0, 8)]


ROB = [
    "1z2z3z159m189p159s27z",  # dealer: junk, throws 7z
    "123m456m789s6z",  # seat 1: 10 tiles beside a pung of 5p; draws the fourth
    "46p123m456s789s11z",  # seat 2 waits on 5p
    "147m268p369s1356z",
]


def test_qiang_gang_counts_as_self_draw_the_robbed_pays_for_three():
    s = gz(ROB, front="5p", melds={1: [("peng", "555p", 3)]})
    s = pass_claims(act(s, 0, "discard", tile="7z"))
    assert s.turn == 1
    s = act(s, 1, "gang", tile="5p")
    assert legal_actions(s, 2)[0] == {"type": "hu"}
    s = act(s, 2, "hu")
    w = s.won[2]
    assert w["win_type"] == "rob_kong" and w["from"] == 1
    assert w["items"] == [{"id": "ji_hu", "value": 0}, {"id": "qiang_gang", "value": 0}]
    assert w["total"] == 3 and w["bao"] == {"seat": 1, "rule": "qiang_gang"}
    assert paid(s, "qiang_gang") == [(1, 2, 24)]
    assert settle(s)["deltas"] == [0, -24, 24, 0]


def test_a_concealed_kong_cannot_be_robbed():
    hands = [
        "5555p1z2z3z159m19s27z",
        "123m456m789s6z234p",
        "46p123m456s789s11z",
        "147m268p369s1356z",
    ]
    s = gz(hands, back="9m")
    s = act(s, 0, "gang", tile="5p")
    assert s.phase == "play" and s.turn == 0 and s.claim is None


def test_a_kong_from_a_discard_is_a_plain_discard_win_on_the_tile():
    hands = [
        "5p1z2z3z159m468m19s27z",
        "555p123m456m789s6z",
        "46p123m456s789s11z",
        "147m268p369s1356z",
    ]
    s = act(gz(hands), 0, "discard", tile="5p")
    assert {"type": "gang"} in legal_actions(s, 1) and {"type": "hu"} in legal_actions(s, 2)
    s = act(act(s, 1, "gang"), 2, "hu")
    w = s.won[2]
    assert w["win_type"] == "discard" and w["from"] == 0 and w["total"] == 0
    assert paid(s, "hu") == [(0, 2, 1)]


def _play_to_self_draw(s, winner):
    """Everyone throws what they draw until ``winner`` draws and wins."""
    while s.turn != winner or s.drawn is None:
        s = throw_drawn(s)
    return act(s, winner, "hu")


def test_shi_er_zhang_luo_di_the_fourth_meld_giver_pays_the_self_draw():
    melds = {1: [("chi", "123p", 0), ("peng", "444s", 3), ("chi", "567p", 0)]}
    hands = [
        "9s159m19p28s1z2z3z4z6z7z",  # dealer throws 9s
        "99s23m",
        "147m258p369s1567z",
        "258m147s369p2345z",
    ]
    s = gz(hands, melds=melds, front="1z2z3z3m")
    s = act(s, 0, "discard", tile="9s")
    s = act(s, 1, "peng")
    assert s.vs["bao"][1] == {"seat": 0, "rule": "shi_er_zhang"}
    assert view(s, 2)["players"][1]["bao"] == {"seat": 0, "rule": "shi_er_zhang"}
    s = pass_claims(act(s, 1, "discard", tile="2m"))
    s = _play_to_self_draw(s, 1)
    w = s.won[1]
    assert items(w) == {"ji_hu": 0, "zi_mo": 1} and w["w"] == 2
    assert paid(s, "shi_er_zhang") == [(0, 1, 6)]


def test_shi_er_zhang_luo_di_off_each_pays():
    melds = {1: [("chi", "123p", 0), ("peng", "444s", 3), ("chi", "567p", 0)]}
    hands = ["9s159m19p28s1z2z3z4z6z7z", "99s23m", "147m258p369s1567z", "258m147s369p2345z"]
    s = gz(hands, melds=melds, front="1z2z3z3m", rules={"bao_zi_mo": False})
    s = act(act(s, 0, "discard", tile="9s"), 1, "peng")
    assert s.vs["bao"][1] is None
    s = _play_to_self_draw(pass_claims(act(s, 1, "discard", tile="2m")), 1)
    assert paid(s, "hu") == [(2, 1, 2), (3, 1, 2), (0, 1, 2)]


def test_da_san_yuan_liability_comes_first_bao_xian_bu_bao_hou():
    # Two dragon pungs shown; seat 0's 7z completes 大三元 (liable); seat 3's 9s
    # later gives the fourth meld (十二张落地), but the first liability stands.
    melds = {1: [("peng", "555z", 3), ("peng", "666z", 3)]}
    hands = [
        "7z159m19p46p1z2z3z4z28s",
        "77z99s123m",
        "147m258p369s1234z",
        "258m147s368p2457z",
    ]
    s = gz(hands, melds=melds, front="8p9s1z2z3z3m")
    s = act(act(s, 0, "discard", tile="7z"), 1, "peng")
    assert s.vs["bao"][1] == {"seat": 0, "rule": "da_san_yuan"}
    s = pass_claims(act(s, 1, "discard", tile="1m"))
    assert s.turn == 2
    s = pass_claims(act(s, 2, "discard", tile="8p"))
    assert s.turn == 3 and s.drawn == T.parse_one("9s")
    s = act(s, 3, "discard", tile="9s")
    s = act(s, 1, "peng")
    assert s.vs["bao"][1] == {"seat": 0, "rule": "da_san_yuan"}
    s = pass_claims(act(s, 1, "discard", tile="2m"))
    s = _play_to_self_draw(s, 1)
    assert s.won[1]["items"] == [{"id": "da_san_yuan", "value": 5}]
    assert paid(s, "da_san_yuan") == [(0, 1, 96)]


def test_da_si_xi_liability():
    melds = {1: [("peng", "111z", 3), ("peng", "222z", 2), ("peng", "333z", 3)]}
    hands = [
        "4z159m129p159s5z6z7z8s",
        "44z55m",
        "147m258p369s1567z",
        "248m147s369p2567z",
    ]
    s = gz(hands, melds=melds, front="8p9p1s5m")
    s = act(act(s, 0, "discard", tile="4z"), 1, "peng")
    assert s.vs["bao"][1] == {"seat": 0, "rule": "da_si_xi"}
    s = _play_to_self_draw(pass_claims(act(s, 1, "discard", tile="5m")), 1)
    assert s.won[1]["items"] == [{"id": "da_si_xi", "value": 6}]
    assert paid(s, "da_si_xi") == [(0, 1, 192)]


# --- 天和 地和 人和 ------------------------------------------------------------------


def test_tian_hu_di_hu_and_ren_hu():
    s = rig(
        ["123m456p789s999p55s", "147m258p369s1567z", "258m147s369p2345z", "159m18p28s1234z67z"],
        variant="guangzhou",
        que=None,
    )
    s = act(s, 0, "hu")
    assert s.won[0]["items"] == [{"id": "tian_hu", "value": 6}]
    assert paid(s, "hu") == [(1, 0, 64), (2, 0, 64), (3, 0, 64)]

    hands = ["7z147m258p369s1234z", "123m456p789s999p5s", "258m147s369p2345z", "159m18p28s1234z67z"]
    s = rig(hands, variant="guangzhou", que=None, front="5s")
    s = act(s, 0, "discard", tile="7z")
    s = pass_claims(s)
    s = act(s, 1, "hu")
    assert s.won[1]["items"] == [{"id": "di_hu", "value": 6}]

    hands = [
        "5s159m18p28s1234z67z",
        "123m456p789s999p5s",
        "147m258p369s1567z",
        "258m147s369p2345z",
    ]
    s = act(rig(hands, variant="guangzhou", que=None), 0, "discard", tile="5s")
    s = act(s, 1, "hu")
    assert s.won[1]["items"] == [{"id": "ren_hu", "value": 6}]
    assert paid(s, "hu") == [(0, 1, 64)]


# --- the dealer and the winds --------------------------------------------------------


def test_a_draw_pays_nothing_and_the_dealer_stays():
    s = gz(THREE_WAIT, wall_size=1)
    s = pass_claims(act(s, 0, "discard", tile="2z"))
    while s.phase != "ended":
        s = throw_drawn(s)
    assert s.result["reason"] == "exhausted" and settle(s)["transfers"] == []
    after = next_match(s)
    assert after.dealer == 0 and after.streak == 2 and after.passes == 0


def test_the_prevailing_wind_moves_after_four_passes_and_winds_follow_the_dealer():
    def one_hand(passes):
        s = gz(THREE_WAIT)
        s.match = replace(s.match, passes=passes)
        s = act(s, 0, "discard", tile="1m")
        return next_match(act(act(act(s, 1, "hu"), 2, "pass"), 3, "pass"))

    after = one_hand(0)
    assert after.dealer == 1 and after.seat_winds == (3, 0, 1, 2) and after.prevailing == 0
    assert one_hand(3).prevailing == 1  # every seat has dealt once: the South round


def test_winds_are_seen_and_scored():
    s = gz(THREE_WAIT)
    s.match = replace(s.match, prevailing=1)
    v = view(s, 2)
    assert [p["wind"] for p in v["players"]] == [0, 1, 2, 3] and v["match"]["prevailing"] == 1
    assert v["cap"] == 3


def test_a_new_match_has_a_dice_dealer_who_is_east():
    m = MatchState()
    from games.rules import new_hand

    s = new_hand("guangzhou", None, DealSeeds.for_test(7), match=m)
    assert s.match.seat_winds[s.dealer] == 0
    assert len(s.wall) + sum(map(len, s.hands)) == 136


# --- bots ----------------------------------------------------------------------------


def test_a_bot_close_to_a_flush_throws_the_off_suit_tiles():
    from games.rules.bots import choose_action

    # Characters and honours but for a 34p pair-wait: the shape alone would throw 1z.
    hands = [
        "12356789m34p1z55z6z",
        "147m258p369s1567z",
        "258m147s369p2345z",
        "159m18p28s234z67z4s",
    ]
    early = choose_action(gz(hands, wall_size=80), 0, "basic")
    assert early["type"] == "discard" and early["tile"] in ("3p", "4p")
    # Late in the hand the bot no longer gives up shape for colour.
    late = choose_action(gz(hands, wall_size=20), 0, "basic")
    assert late["type"] == "discard" and late["tile"] not in ("3p", "4p")
