"""Whole-hand scenarios of the Sichuan flow, on rigged deals.

Each test lays out the tiles in notation, plays the actions the rule text
talks about and checks the transfers the spec prescribes (sichuan.md,
"刮风下雨", "Payments", "流局").
"""

from __future__ import annotations

from games.rules import DealSeeds, apply, legal_actions, new_hand, settle, view
from games.rules import tiles as T
from games.rules.engine import Rejection

from .rig import act, net, paid, rig

# Dealer 0 (定缺 p) must throw 5p first; seat 1 waits on 5p (平胡); seat 2 waits
# on 5s/6s; seat 3 holds only 万.  定缺: p, s, m, p.
DEAL = ["5p1112345678999s", "123456789m22p46p", "111333777p5566s", "123123456m78m99m"]
QUE = "psmp"


def test_yi_pao_duo_xiang_and_xuezhan_to_three_winners():
    # Dealer 0 must throw its 定缺 tile 5p; seats 1 and 2 both win on it.
    s = rig(
        [
            "5p1112345678999s",  # 0: dealer, 定缺 p, must discard 5p
            "123456789m22p46p",  # 1: waits 5p (kanchan): 平胡
            "111333777p5566p",  # 2: waits 5p/6p: 清对 (4 fan)
            "123123456m78m99m",  # 3: waits 6m/9m
        ][:4],
        que="psms",
        front="6m",  # seat 3's first draw
    )
    assert {a["type"] for a in legal_actions(s, 0)} == {"discard"}
    assert legal_actions(s, 0) == [{"type": "discard", "tile": "5p"}]
    s = act(s, 0, "discard", tile="5p")
    assert s.phase == "claim"
    assert {"type": "hu"} in legal_actions(s, 1)
    assert {"type": "hu"} in legal_actions(s, 2) and {"type": "peng"} in legal_actions(s, 2)
    s = act(s, 1, "hu")
    assert s.phase == "claim"  # seat 2 has not answered yet
    s = act(s, 2, "hu")
    # 一炮多响: both win; play goes on with the seat after the last winner.
    assert s.win_order == [1, 2]
    assert s.won[1]["items"] == [{"id": "ping_hu", "value": 1}]
    assert s.won[2]["items"][0] == {"id": "qing_dui", "value": 4}
    assert paid(s, "hu") == [(0, 1, 1), (0, 2, 8)]
    assert s.phase == "play" and s.turn == 3 and s.drawn == 5  # seat 3 drew 6m
    assert legal_actions(s, 3)[0] == {"type": "hu"}
    s = act(s, 3, "hu")
    assert s.phase == "ended" and s.result["winners"] == [1, 2, 3]
    # Seat 3 drew 6m: 地胡 (first draw, no claim before), 6 fan capped at 4.
    w3 = s.won[3]
    assert w3["win_type"] == "self_draw"
    assert w3["items"][0] == {"id": "di_hu", "value": 6} and w3["total"] == 4
    # Only seat 0 has not won, so only seat 0 pays the self-draw.
    assert paid(s, "hu") == [(0, 1, 1), (0, 2, 8), (0, 3, 8)]
    assert net(s) == [-17, 1, 8, 8]
    assert s.result["deltas"] == [-17, 1, 8, 8]


def test_di_hu_after_another_players_self_drawn_win():
    """first_draw is broken by a claim (chow, pung, kong), not by another player's win."""
    s = rig(
        [
            "1s1m4m7m2p5p8p3m6m9m1p4p7p9p",  # 0: dealer, 定缺 s: throws 1s first
            "123m456m789m11p46m",  # 1: waits 5m
            "123p456p789p22m46p",  # 2: waits 5p
            "2345678s3m3p5p8m8p",  # 3: waits on nothing
        ],
        que="ssss",
        front="5m5p",
    )
    s = act(s, 0, "discard", tile="1s")
    s = act(s, 1, "hu")
    assert s.won[1]["items"] == [{"id": "di_hu", "value": 6}]
    s = act(s, 2, "hu")
    assert s.won[2]["win_type"] == "self_draw"
    assert s.won[2]["items"] == [{"id": "di_hu", "value": 6}] and s.won[2]["total"] == 4


def test_di_hu_after_the_dealers_tian_hu():
    """The dealer's 天胡 ends nothing in 血战: the next seat's first draw is still 地胡."""
    s = rig(
        [
            "123m456m789m11p345p",  # 0: dealer, 14 dealt tiles, a win (定缺 s)
            "123m456m789m11p46p",  # 1: waits 5p
            "2345678s3m3p5p8m8p9s",  # 2: waits on nothing
            "2345678s3m4p6p9m9p1s",  # 3: waits on nothing
        ],
        que="ssmm",
        front="5p",
    )
    assert {"type": "hu"} in legal_actions(s, 0)
    s = act(s, 0, "hu")
    assert s.won[0]["items"] == [{"id": "tian_hu", "value": 6}]
    assert s.phase == "play" and s.turn == 1 and s.drawn == T.parse_one("5p")
    s = act(s, 1, "hu")
    assert s.won[1]["win_type"] == "self_draw"
    assert s.won[1]["items"] == [{"id": "di_hu", "value": 6}]


def test_xuezhan_winner_is_out_and_hand_shown():
    s = rig(DEAL, que=QUE, front="9s")
    s = act(s, 0, "discard", tile="5p")
    # Only seat 1 can win (seat 2 waits on 5s/6s).
    s = act(s, 1, "hu")
    assert s.phase == "play" and s.turn == 2 and s.won[1] is not None
    assert legal_actions(s, 1) == []
    for seat in (0, 2, 3):
        assert view(s, seat)["players"][1]["hand"] == "123456789m2246p"  # face up
        assert "hand" not in view(s, seat)["players"][(seat + 1) % 4 if seat != 0 else 2]


def test_plain_mode_ends_at_first_win_with_every_winner_of_the_discard():
    s = rig(
        ["5p1112345678999s", "123456789m22p46p", "111333777p5566p", "123123456m78m99m"],
        que="psms",
        rules={"mode": "plain"},
    )
    s = act(s, 0, "discard", tile="5p")
    s = act(s, 1, "hu")
    s = act(s, 2, "hu")
    assert s.phase == "ended" and s.result["winners"] == [1, 2]
    # discarder dealer rule (plain default): the player who dealt in deals next.
    assert s.result["next_dealer"] == 0


def test_rob_kong_voids_the_added_kong():
    # Seat 0 holds an exposed pung of 5m and draws the fourth; seat 1 waits on 5m.
    s = rig(
        ["1p2p3p4p5p6p7p8p9p5m9p", "123p456p789p22m46m", "111333777s2468m", "234567p23456s9s"],
        que="sssm",
        melds={0: [("peng", "555m", 2)]},
        front="1s",
    )
    assert len(s.hands[0]) == 11
    assert {"type": "gang", "tile": "5m"} in legal_actions(s, 0)
    s = act(s, 0, "gang", tile="5m")
    assert s.phase == "claim" and s.claim["kind"] == "rob_kong"
    assert legal_actions(s, 1) == [{"type": "hu"}, {"type": "pass"}]
    s = act(s, 1, "hu")
    w = s.won[1]
    assert w["win_type"] == "rob_kong"
    assert {"id": "qiang_gang_hu", "value": 1} in w["items"]
    # The kong never happened: no kong payment, the pung stays a pung.
    assert [m.kind for m in s.melds[0]] == ["peng"]
    assert paid(s, "mian_xia_gang") == []
    assert s.kongs == []
    # ping_hu 1 + qiang_gang_hu 1 = 2 fan = 2 × base, paid by the kong maker.
    assert paid(s, "hu") == [(0, 1, 2)]
    # Play goes on after the winner.
    assert s.turn == 2 and s.phase == "play"


def test_added_kong_not_robbed_pays_everyone_still_in():
    s = rig(
        ["1p2p3p4p5p6p7p8p9p5m9p", "123p456p789p22m47m", "111333777s2468m", "234567p23456s9s"],
        que="sssm",
        melds={0: [("peng", "555m", 2)]},
        back="1s",
    )
    s = act(s, 0, "gang", tile="5m")
    assert s.phase == "play" and s.turn == 0 and s.drawn == 18  # replacement 1s from the back
    assert paid(s, "mian_xia_gang") == [(1, 0, 1), (2, 0, 1), (3, 0, 1)]
    assert [m.kind for m in s.melds[0]] == ["gang"]


def test_gang_shang_pao_transfers_the_kong_income():
    # Seat 0: concealed kong of 9p (2 × base from each), replacement 1s (que)
    # discarded; seat 1 wins on it... seat 1 must not hold s: use 7m instead.
    s = rig(
        [
            "9p9p9p9p1m2m3m4m5m6m7m8m1p1p",
            "123456m23p456p789p"[:0] + "12345m6m123p456p7m",
            "111333777s2468m",
            "234567p23456s9s",
        ],
        que="sssm",
        back="7m",
    )
    s = act(s, 0, "gang", tile="9p")
    assert paid(s, "an_gang") == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    assert s.drawn == 6  # 7m
    s = act(s, 0, "discard", tile="7m")
    assert legal_actions(s, 1)[0] == {"type": "hu"}
    s = act(s, 1, "hu")
    w = s.won[1]
    assert {"id": "gang_shang_pao", "value": 1} in w["items"]
    # 呼叫转移: the 6 the kong earned go on to the winner.
    assert paid(s, "gang_shang_pao") == [(0, 1, 6)]
    assert s.vs["transferred"] == [0]  # not refunded again at 流局


def _direct_kong_then_flower(rules=None):
    # Seat 1 kongs the dealer's 5p (直杠) and wins on the replacement 1p (杠上花).
    s = rig(
        ["5p1112345678999s", "555p123m456m789m1p", "234m678m246p99p11p", "2233445566778s"],
        que="pssm",
        back="1p",
        rules=rules,
    )
    s = act(s, 0, "discard", tile="5p")
    assert legal_actions(s, 1) == [{"type": "gang"}, {"type": "peng"}, {"type": "pass"}]
    s = act(s, 1, "gang")
    assert paid(s, "zhi_gang") == [(0, 1, 1)]
    assert s.turn == 1 and s.drawn == 9 and legal_actions(s, 1)[0] == {"type": "hu"}
    s = act(s, 1, "hu")
    items = s.won[1]["items"]
    assert {"id": "gang_shang_hua", "value": 1} in items and {"id": "gen", "value": 1} in items
    assert s.won[1]["total"] == 3
    return s


def test_gang_shang_hua_after_direct_kong_by_default_the_kong_giver_pays_alone():
    """Seed 004 §5(4): 别人打牌，引杠，再杠上花，算引杠者点炮."""
    s = _direct_kong_then_flower()
    assert s.rules.dian_gang_hua == "discarder"
    assert paid(s, "hu") == [(0, 1, 4)]


def test_dian_gang_hua_zimo_makes_everyone_pay():
    s = _direct_kong_then_flower({"dian_gang_hua": "zimo"})
    assert paid(s, "hu") == [(0, 1, 4), (2, 1, 4), (3, 1, 4)]


def test_direct_kong_pay_two():
    s = rig(
        ["5p1112345678999s", "555p123m456m789m1p", "234m678m246p99p11p", "2233445566778s"],
        que="pssm",
        rules={"direct_kong_pay": 2},
    )
    s = act(s, 0, "discard", tile="5p")
    s = act(s, 1, "gang")
    assert paid(s, "zhi_gang") == [(0, 1, 2)]


def _play_liuju():
    """Wall of four: 9s, 4p, 7s to the front, 8s at the back (kong replacement)."""
    s = rig(
        [
            "9s9s1s1m1m7m7m2p2p6p6p3m4m9m"[:0] + "9s9s1s1m1m7m7m2p2p6p6p3m4m",  # 0: 花猪
            "123456789m11p78p",  # 1: ready (waits 6p/9p)
            "444p22m55m88m13p59p",  # 2: not ready, will make a concealed kong
            "147m258p369m369p2m",  # 3: not ready
        ],
        que="ssss",
        front="9s4p7s",
        back="8s",
        wall_size=4,
    )
    assert len(s.wall) == 4
    s = act(s, 0, "discard", tile="9s")
    assert s.turn == 1
    s = act(s, 1, "discard", tile="9s")
    assert s.turn == 2 and {"type": "gang", "tile": "4p"} in legal_actions(s, 2)
    s = act(s, 2, "gang", tile="4p")
    s = act(s, 2, "discard", tile="8s")
    s = act(s, 3, "discard", tile="7s")
    return s


def test_liuju_hua_zhu_cha_da_jiao_and_refunds():
    s = _play_liuju()
    assert s.phase == "ended" and s.result["reason"] == "exhausted"
    # The live flow paid only the kong; the rest is the end-of-hand settlement.
    assert paid(s, "an_gang") == [(0, 2, 2), (1, 2, 2), (3, 2, 2)]
    assert s.result["deltas"] == [-2, -2, 6, -2] and paid(s, "cha_da_jiao") == []
    st = settle(s)
    assert st["details"]["cha"] == {"hua_zhu": [0], "ready": {"1": 1}, "not_ready": [0, 2, 3]}
    assert paid(st, "cha_hua_zhu") == [(0, 1, 16), (0, 2, 16), (0, 3, 16)]
    assert paid(st, "cha_da_jiao") == [(2, 1, 1), (3, 1, 1)]
    assert paid(st, "kong_refund") == [(2, 0, 2), (2, 1, 2), (2, 3, 2)]
    assert st["deltas"] == net(st) == [-48, 18, 15, 15]
    assert st["pot"] == 0 and sum(st["deltas"]) == 0
    assert settle(s) == st  # pure: a retried task computes the same


def test_cha_da_jiao_min_and_hua_zhu_pay_rule():
    s = rig(
        [
            "9s9s1s1m1m7m7m2p2p6p6p3m4m",
            "123456789m11p78p",
            "444p22m55m88m13p59p",
            "147m258p369m369p2m",
        ],
        que="ssss",
        front="9s4p7s",
        back="8s",
        wall_size=4,
        rules={"hua_zhu_pay": 8},
    )
    for seat, a in [
        (0, ("discard", "9s")),
        (1, ("discard", "9s")),
        (2, ("gang", "4p")),
        (2, ("discard", "8s")),
        (3, ("discard", "7s")),
    ]:
        s = act(s, seat, a[0], tile=a[1])
    assert paid(settle(s), "cha_hua_zhu") == [(0, 1, 8), (0, 2, 8), (0, 3, 8)]


def test_guo_hu_bars_a_smaller_win_until_own_draw():
    s = rig(DEAL, que=QUE, front="1s")
    s = act(s, 0, "discard", tile="5p")
    s = act(s, 1, "pass")
    # Nobody claimed: seat 1 draws 1s, and its own draw lifts the bar.
    assert s.turn == 1 and s.vs["pass_hu"][1] is None


def test_guo_hu_records_the_passed_value_and_blocks_no_bigger_win():
    # Seat 2 can also claim the 5p, so the window stays open after seat 1 passes.
    s = rig(
        ["5p1112345678999s", "123456789m22p46p", "111333777p5566p", "123123456m78m99m"],
        que="psms",
    )
    s = act(act(s, 0, "discard", tile="5p"), 1, "pass")
    assert s.phase == "claim" and s.vs["pass_hu"][1] == 1  # the 平胡 it passed is worth 1 fan
    # Before its next draw, a win worth no more than the passed one is barred…
    barred = rig(DEAL, que=QUE)
    barred.vs["pass_hu"][1] = 1
    barred = act(barred, 0, "discard", tile="5p")
    assert barred.phase != "claim" or legal_actions(barred, 1)[0] != {"type": "hu"}
    # …and a bigger one is not.
    bigger = rig(DEAL, que=QUE)
    bigger.vs["pass_hu"][1] = 0
    bigger = act(bigger, 0, "discard", tile="5p")
    assert legal_actions(bigger, 1)[0] == {"type": "hu"}


def test_last_four_tiles_force_the_win():
    s = rig(DEAL, que=QUE, wall_size=4)
    s = act(s, 0, "discard", tile="5p")
    # Seat 1 is not asked: the engine wins for it.
    assert s.won[1] is not None and s.won[1]["tile"] == "5p"
    assert s.turn == 2


def test_last_four_forced_win_off_lets_the_player_pass():
    s = rig(DEAL, que=QUE, wall_size=4, rules={"last_four_forced_win": False})
    s = act(s, 0, "discard", tile="5p")
    assert s.won[1] is None and legal_actions(s, 1) == [{"type": "hu"}, {"type": "pass"}]


def test_leaving_pays_everyone_still_in_and_a_winner_forfeits():
    s = rig(DEAL, que=QUE)
    s = act(s, 0, "discard", tile="5p")
    s = act(s, 1, "hu")
    assert paid(s, "hu") == [(0, 1, 1)]
    s2 = act(s, 1, "leave")  # the winner leaves: gives the 1 back
    assert paid(s2, "forfeit") == [(1, 0, 1)]
    s3 = act(s, 3, "leave")  # a player still in leaves: 16 to each other player still in
    assert paid(s3, "escape") == [(3, 0, 16), (3, 2, 16)]
    assert sum(net(s3)) == 0
    assert isinstance(apply(s3, 3, {"type": "leave"}), Rejection)


# --- rejections: bad input changes nothing ------------------------------------


def test_rejections_are_clear_and_change_nothing():
    s = rig(DEAL, que=QUE)
    before = s.to_json()
    cases = [
        (1, {"type": "discard", "tile": "1m"}, "not_your_turn"),
        (0, {"type": "discard", "tile": "1m"}, "tile_not_held"),
        (0, {"type": "discard", "tile": "9p"}, "tile_not_held"),
        (0, {"type": "discard", "tile": "1s"}, "que_first"),
        (0, {"type": "discard", "tile": "1x"}, "bad_tile"),
        (0, {"type": "fly"}, "bad_action"),
        (0, {"type": "discard", "tile": "5p", "x": 1}, "bad_action"),
        (0, "discard 5p", "bad_action"),
        (0, {"type": "peng"}, "illegal"),
        (7, {"type": "discard", "tile": "5p"}, "bad_seat"),
    ]
    for seat, action, code in cases:
        out = apply(s, seat, action)
        assert isinstance(out, Rejection), action
        assert out.code == code, (action, out)
        assert out.reason
    assert s.to_json() == before


def test_unknown_house_rule_is_refused():
    import pytest

    from games.rules import OptionsError

    with pytest.raises(OptionsError, match="unknown house rule 'flowers'"):
        new_hand("sichuan", {"flowers": True}, DealSeeds.for_test(1))
    with pytest.raises(OptionsError, match="fan_cap"):
        new_hand("sichuan", {"fan_cap": 99}, DealSeeds.for_test(1))


def test_ding_que_is_secret_until_all_have_chosen():
    s = new_hand("sichuan", None, DealSeeds.for_test(5), 0)
    assert s.phase == "ding_que"
    s = act(s, 2, "ding_que", suit="p")
    assert view(s, 2)["players"][2]["que"] == "p"
    assert view(s, 0)["players"][2]["que"] is None
    assert view(s, 0)["players"][2]["que_chosen"] is True
    for seat in (0, 1, 3):
        s = act(s, seat, "ding_que", suit="m")
    assert s.phase == "play" and s.turn == 0
    assert view(s, 1)["players"][2]["que"] == "p"


def test_huan_san_zhang_passes_three_tiles_of_one_suit():
    s = new_hand("sichuan", {"huan_san_zhang": True}, DealSeeds.for_test(11), 0)
    assert s.phase == "exchange"
    picks = {}
    for seat in range(4):
        legal = legal_actions(s, seat)
        assert legal and all(a["type"] == "exchange" for a in legal)
        picks[seat] = legal[0]["tiles"]
        before = list(s.hands[seat])
        s = act(s, seat, "exchange", tiles=picks[seat])
        if seat < 3:
            assert s.hands[seat] == before  # nothing moves until all have chosen
    assert s.phase == "ding_que"
    step = {"counter_clockwise": 1, "across": 2, "clockwise": 3}[s.vs["exchange_direction"]]
    from games.rules import tiles as T

    for seat in range(4):
        got = T.parse(picks[(seat - step) % 4])
        for t in got:
            assert t in s.hands[seat]
    # three tiles of two suits are refused
    s2 = new_hand("sichuan", {"huan_san_zhang": True}, DealSeeds.for_test(11), 0)
    out = apply(s2, 0, {"type": "exchange", "tiles": "1m1p1s"})
    assert isinstance(out, Rejection)


# --- 过胡 by claiming, and 面下杠 only with a tile drawn later ------------

# Seat 1 (定缺 s) waits on 5p/8p and can pung the dealer's 5p; seat 2 will throw 4m.
GUO_HU_DEAL = ["5p1112345678999s", "123456789m55p88p", "111333777p2468m", "2233445566778s"]


def test_punging_instead_of_winning_passes_the_win():
    s = rig(GUO_HU_DEAL, que="psmm", front="9s")
    s = act(s, 0, "discard", tile="5p")
    assert legal_actions(s, 1) == [{"type": "hu"}, {"type": "peng"}, {"type": "pass"}]
    s = act(s, 1, "peng")
    assert s.vs["pass_hu"][1] == 1  # the 平胡 it gave up
    s = act(s, 1, "discard", tile="1m")  # now waits on 1m/4m/7m, 平胡 again
    s = act(s, 2, "discard", tile="4m")
    # A win worth no more than the one it pung over is barred until its own draw.
    assert s.won[1] is None
    assert not (s.phase == "claim" and {"type": "hu"} in legal_actions(s, 1))


def _pung(seat1: str, fourth: str):
    """Seat 1 pungs the dealer's 5p; then a round of discards brings it ``fourth``."""
    s = rig(
        ["5p1112345678999s", seat1, "234m678m246p99p11p", "2233445566778s"],
        que="pssm",
        front="9m1m7p" + fourth,
    )
    s = act(s, 0, "discard", tile="5p")
    return act(s, 1, "peng")


def _round_back_to_seat_1(s):
    s = act(s, 1, "discard", tile="1m")
    for seat, tile in ((2, "9m"), (3, "1m"), (0, "7p")):
        s = act(s, seat, "discard", tile=tile)
    return s


def test_no_added_kong_on_the_turn_of_the_pung():
    # Seat 1 holds 555p and pungs instead of konging: it may only discard now.
    s = _pung("555p123m456m789m1p", "3m")
    assert s.turn == 1 and {a["type"] for a in legal_actions(s, 1)} == {"discard"}


def test_no_added_kong_with_a_tile_held_when_the_pung_was_made():
    s = _round_back_to_seat_1(_pung("555p123m456m789m1p", "3m"))
    assert s.turn == 1 and s.drawn == T.parse_one("3m")
    assert {"type": "gang", "tile": "5p"} not in legal_actions(s, 1)


def test_added_kong_with_the_fourth_tile_drawn_later():
    s = _round_back_to_seat_1(_pung("55p123m456m789m1p9p", "5p"))
    assert s.turn == 1 and s.drawn == T.parse_one("5p")
    assert {"type": "gang", "tile": "5p"} in legal_actions(s, 1)
    s = act(s, 1, "gang", tile="5p")
    assert sorted(paid(s, "mian_xia_gang")) == [(0, 1, 1), (2, 1, 1), (3, 1, 1)]
