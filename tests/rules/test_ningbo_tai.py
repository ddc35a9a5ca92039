"""Every 台 item of ningbo.md, through the public ``evaluate`` contract.

``min_tai`` is 0 unless a test is about it, so each hand shows all its items.
"""

from __future__ import annotations

import pytest

from games.rules import tiles as T
from games.rules.evaluate import evaluate
from games.rules.variants import get_variant
from games.rules.variants.ningbo.options import TAI_DEFAULTS
from games.rules.variants.ningbo.wilds import next_kind, wild_kinds


def ev(hand, win, win_type="discard", *, melds=(), rules=None, **kw):
    req = {
        "variant": "ningbo",
        "rules": {"min_tai": 0, **(rules or {})},
        "hand": hand,
        "win_tile": win,
        "win_type": win_type,
        **kw,
    }
    if melds:
        req["melds"] = [
            {"kind": k, "tiles": t, **({"concealed": True} if c else {})} for k, t, c in melds
        ]
    return evaluate(req)


def items(answer):
    assert answer.get("win") is True, answer
    return {i["id"]: i["value"] for i in answer["items"]}


def test_total_is_one_plus_the_tai():
    a = ev("123456789m123p5p", "5p", "self_draw")
    assert items(a) == {"zi_mo": 1, "ping_hu": 1, "dan_diao": 1, "ying_hu": 1}
    assert a["total"] == 1 + 4


def test_zi_mo_only_on_a_self_draw():
    assert "zi_mo" in items(ev("123456789m123p5p", "5p", "self_draw"))
    assert "zi_mo" not in items(ev("123456789m123p5p", "5p"))
    assert "zi_mo" not in items(ev("123456789m123p5p", "5p", "rob_kong"))


def test_pai_hu_is_listed_at_0_when_no_shape_item_applies():
    # The seed's own example: 123 456 777 88 23, won on 4 (an open wait, pungs in it).
    assert items(ev("123m456p777s88s23m", "4m")) == {"pai_hu": 0, "ying_hu": 1}


def test_ping_hu_needs_four_chows_and_a_pair_that_is_not_a_scoring_honour():
    assert items(ev("123m456p789s234s5m", "5m"))["ping_hu"] == 1
    # 23m open wait: ping_hu and nothing else for the wait.
    assert items(ev("234p456p789s11s23m", "4m")) == {"ping_hu": 1, "ying_hu": 1}
    # A dragon pair, the seat wind or the prevailing wind as the pair is no 平胡.
    for pair, kw in [("55z", {}), ("22z", {"seat_wind": "S"}), ("33z", {"round_wind": "W"})]:
        got = items(ev(f"234p456p789s23m{pair}", "4m", **kw))
        assert "ping_hu" not in got and got["pai_hu"] == 0, (pair, got)
    # A wind that is neither the seat's nor the prevailing one is fine.
    assert "ping_hu" in items(ev("234p456p789s23m44z", "4m", seat_wind="E", round_wind="E"))
    # A pung anywhere, exposed melds included, is no 平胡.
    got = items(ev("456p789s23m11s", "4m", melds=[("peng", "777m", False)]))
    assert "ping_hu" not in got
    got = items(ev("456p789s23m11s", "4m", melds=[("chi", "678m", False)]))
    assert got["ping_hu"] == 1


@pytest.mark.parametrize(
    ("hand", "win"),
    [("12m456p789p123s55s", "3m"), ("89m456p789p123s55s", "7m")],
)
def test_bian_zhang_on_the_3_of_12_or_the_7_of_89(hand, win):
    assert items(ev(hand, win)) == {"ping_hu": 1, "bian_zhang": 1, "ying_hu": 1}


def test_jia_zhang_on_the_middle_tile():
    assert items(ev("13m456p789p123s55s", "2m")) == {"ping_hu": 1, "jia_zhang": 1, "ying_hu": 1}


def test_wait_items_need_the_only_wait_unless_the_house_rule_says_otherwise():
    # 1113m waits on 2m and 3m: won on 2m it is no 夹 (read 11m + 123m, 夹 needs the only wait).
    hand, win = "1113m456p789p123s", "2m"
    got = items(ev(hand, win))
    assert "jia_zhang" not in got
    assert items(ev(hand, win, rules={"single_wait_only": False}))["jia_zhang"] == 1


def test_dan_diao_on_the_pair_tile_when_it_was_the_only_wait():
    assert items(ev("123456789m123p5p", "5p"))["dan_diao"] == 1
    # 1234m waits on 1m and 4m: a win on 4m as the pair is no 单吊.
    got = items(ev("1234m456p789p123s", "4m"))
    assert "dan_diao" not in got


def test_dui_dao_waits_on_either_of_two_pairs():
    assert items(ev("55m77p123s456s789s", "5m")) == {"dui_dao": 1, "ying_hu": 1}


def test_da_diao_lists_dan_diao_too():
    melds = [("peng", "111m", False), ("peng", "222p", False), ("chi", "345s", False)]
    melds.append(("chi", "678s", False))
    got = items(ev("9p", "9p", melds=melds))
    assert got["da_diao"] == 1 and got["dan_diao"] == 1


def test_peng_peng_hu_with_dui_dao_when_so_won():
    got = items(ev("111m222p333s55s77p", "5s"))
    assert got == {"peng_peng_hu": 2, "dui_dao": 1, "ying_hu": 1}


def test_gang_shang_kai_hua_is_a_self_draw_on_a_replacement():
    melds = [("gang", "1111m", False)]
    got = items(ev("456p789p123s5s", "5s", "self_draw", melds=melds, flags=["after_kong"]))
    assert got["gang_shang_kai_hua"] == 1
    # 杠花: a flower's replacement, no kong needed.
    got = items(ev("123456789m123p5p", "5p", "self_draw", flags=["after_kong"]))
    assert got["gang_shang_kai_hua"] == 1
    assert "gang_shang_kai_hua" not in items(ev("123456789m123p5p", "5p", flags=["after_kong"]))


def test_ying_hu_only_without_a_wild():
    assert items(ev("123456789m123p5p", "5p"))["ying_hu"] == 1
    # 9s is the indicator: a 9s held is a wild, even used as itself.
    got = items(ev("123456789m789s5p", "5p", wild="9s"))
    assert "ying_hu" not in got


def test_san_cai_shen_three_wilds_on_a_self_draw():
    # Indicator 9s: 9s9s9s are the three wilds.
    got = items(ev("123456789m12p9s9s", "9s", "self_draw", wild="9s"))
    assert got["san_cai_shen"] == 3 and "ying_hu" not in got
    got = items(ev("123456789m12p5p9s", "9s", "self_draw", wild="9s"))
    assert "san_cai_shen" not in got  # two wilds


def test_qiang_gang_on_a_robbed_kong_tile():
    assert items(ev("123456789m123p5p", "5p", "rob_kong"))["qiang_gang"] == 1


def test_hai_di_lao_yue_self_draw_on_the_last_tile():
    flags = ["last_tile"]
    assert items(ev("123456789m123p5p", "5p", "self_draw", flags=flags))["hai_di_lao_yue"] == 1
    assert "hai_di_lao_yue" not in items(ev("123456789m123p5p", "5p", flags=flags))


@pytest.mark.parametrize(
    ("seat", "flowers", "n"),
    [("E", "15f", 2), ("S", "26f", 2), ("W", "37f", 2), ("N", "48f", 2), ("E", "2378f", 0)],
)
def test_zheng_hua_each_flower_of_the_seat(seat, flowers, n):
    got = items(ev("123456789m123p5p", "5p", seat_wind=seat, flowers=flowers))
    assert got.get("zheng_hua", 0) == n


def test_hua_quan_all_four_seasons_or_plants():
    assert items(ev("123456789m123p5p", "5p", flowers="1234f"))["hua_quan"] == 2
    assert items(ev("123456789m123p5p", "5p", flowers="12345678f"))["hua_quan"] == 4
    assert "hua_quan" not in items(ev("123456789m123p5p", "5p", flowers="123f567f"))


def test_seat_wind_prevailing_wind_and_dragon_pungs():
    hand = "111z222z555z666z7z"
    got = items(ev(hand, "7z", seat_wind="E", round_wind="S"))
    assert got["men_feng"] == 1 and got["quan_feng"] == 1 and got["jian_ke"] == 2
    # East in the East round: both.
    got = items(ev(hand, "7z", seat_wind="E", round_wind="E"))
    assert got["men_feng"] == 1 and got["quan_feng"] == 1
    # Melds count too.
    got = items(ev("123m456p789s7z", "7z", melds=[("peng", "666z", False)]))
    assert got["jian_ke"] == 1


def test_ming_gang_and_an_gang_each():
    melds = [("gang", "1111m", False), ("gang", "2222p", False), ("gang", "3333s", True)]
    got = items(ev("789s5p", "5p", melds=melds))
    assert got["ming_gang"] == 2 and got["an_gang"] == 2


def test_hun_yi_se_and_qing_yi_se():
    assert items(ev("123m456m789m111z5m", "5m"))["hun_yi_se"] == 2
    got = items(ev("123m456m789m123m5m", "5m"))
    assert got["qing_yi_se"] == 4 and "hun_yi_se" not in got
    assert "hun_yi_se" not in items(ev("123456789m123p5p", "5p"))


def test_seven_pairs_only_with_the_house_rule():
    hand = "1133m5577p99s113z"
    no = ev(hand, "3z")
    assert no["win"] is False
    got = items(ev(hand, "3z", rules={"qi_dui": True}))
    assert got == {"ying_hu": 1, "qi_dui": 2}


def test_the_reading_with_a_wild_that_scores_most():
    # Indicator 9s: the wild with 5z5z reads as a dragon pung (三元刻, 对倒), not 77s9s.
    got = items(ev("123m456p789p5z77s9s", "5z", wild="9s"))
    assert got.get("jian_ke") == 1
    # A drawn wild stands for the tile that scores most: 12m + wild is 123m (边 when the
    # only wait is 3m) and four chows.
    got = items(ev("12m456p789p123s55s", "9s", "self_draw", wild="9s"))
    assert got["bian_zhang"] == 1 and got["ping_hu"] == 1 and "ying_hu" not in got


def test_tai_values_override_only_the_ids_named():
    got = items(ev("123456789m123p5p", "5p", "self_draw", rules={"tai_values": {"zi_mo": 3}}))
    assert got["zi_mo"] == 3 and got["ping_hu"] == 1
    opts = get_variant("ningbo").resolve_options({"tai_values": {"zi_mo": 3}})
    assert opts.tai_values == {**TAI_DEFAULTS, "zi_mo": 3}
    assert "error" in ev("123456789m123p5p", "5p", rules={"tai_values": {"nope": 1}})


def test_min_tai_refuses_a_3_tai_hand_and_accepts_a_4_tai_hand():
    refused = ev("123456789m123p5p", "5p", rules={"min_tai": 4})
    assert refused["win"] is False and "4" in refused["reason"]
    won = ev("123456789m123p5p", "5p", "self_draw", rules={"min_tai": 4})
    assert won["win"] is True and won["total"] == 5
    assert ev("123456789m123p5p", "5p", rules={"min_tai": 3})["win"] is True


def test_bai_da_dan_diao_wins_only_by_self_draw():
    hand = "123456789m123p9s"  # four sets and a lone wild (indicator 9s)
    refused = ev(hand, "5p", wild="9s")
    assert refused["win"] is False and "百搭单吊" in refused["reason"]
    assert ev(hand, "5p", "self_draw", wild="9s")["win"] is True


def test_a_discarded_wild_is_won_on_only_with_the_house_rule():
    hand = "123456789m12p55s"
    assert ev(hand, "3p", wild="3p")["win"] is False
    got = ev(hand, "3p", wild="3p", rules={"win_on_wild_discard": True})
    assert got["win"] is True


def test_season_and_plant_indicators_make_their_set_wild_and_not_flowers():
    opts = get_variant("ningbo").resolve_options(None)
    assert wild_kinds(T.parse_one("3f"), opts) == frozenset(T.parse("1234f"))
    assert wild_kinds(T.parse_one("6f"), opts) == frozenset(T.parse("5678f"))
    # Wild seasons are held like any wild and complete the hand.
    got = items(ev("123456789m123p2f", "5p", "self_draw", wild="1f"))
    assert "ying_hu" not in got
    # A wild flower is never laid out; a plain flower is never held.
    assert ev("123456789m123p5p", "5p", wild="1f", flowers="2f")["win"] is False
    assert "error" in ev("123456789m123p6f", "5p", wild="1f")


def test_indicator_and_next_makes_seven_wilds():
    opts = get_variant("ningbo").resolve_options({"wild_kinds": "indicator_and_next"})
    assert wild_kinds(T.parse_one("9m"), opts) == frozenset(T.parse("19m"))
    assert wild_kinds(T.parse_one("4z"), opts) == frozenset(T.parse("14z"))
    assert wild_kinds(T.parse_one("7z"), opts) == frozenset(T.parse("57z"))
    assert [T.to_str(next_kind(T.parse_one(t))) for t in ("3p", "1z", "6z")] == ["4p", "2z", "7z"]


def test_every_item_has_a_name_in_both_languages():
    names = get_variant("ningbo").pattern_names()
    assert set(names) == set(TAI_DEFAULTS)
    assert all(n["zh-hans"] and n["en"] for n in names.values())
