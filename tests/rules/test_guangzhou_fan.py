"""Guangzhou fan counting (guangzhou.md "Fan") through the public ``evaluate``
contract, and the payments of one win as a pure function."""

from __future__ import annotations

import json

import pytest

from games.rules import tiles as T
from games.rules.evaluate import evaluate
from games.rules.model import WinContext
from games.rules.options import OptionsError
from games.rules.variants import get_variant
from games.rules.variants.guangzhou.fan import (
    Payment,
    pattern_names,
    score,
    win_payments,
    win_value,
)
from games.rules.variants.guangzhou.options import DEFAULT_FAN, GUANGZHOU_OPTIONS


def gz(hand, win, win_type="discard", *, melds=(), flags=(), rules=None, **kw):
    req = {
        "variant": "guangzhou",
        "hand": hand,
        "win_tile": win,
        "win_type": win_type,
        "melds": [
            {"kind": k, "tiles": t, **({"concealed": True} if c else {})} for k, t, c in melds
        ],
        "flags": list(flags),
        **kw,
    }
    if rules is not None:
        req["rules"] = rules
    out = evaluate(req)
    assert "error" not in out, out
    return out


def items(out):
    assert out["win"], out
    return {i["id"]: i["value"] for i in out["items"]}


# --- within the cap -------------------------------------------------------------


def test_ji_hu_is_listed_at_zero_when_nothing_else_applies():
    out = gz("123m456p789s999p5s", "5s")
    assert out == {"win": True, "items": [{"id": "ji_hu", "value": 0}], "total": 0}


def test_ping_hu_four_chows_and_a_plain_pair():
    out = gz("123m456p789s234s5m", "5m")
    assert items(out) == {"ping_hu": 1} and out["total"] == 1


@pytest.mark.parametrize(
    ("pair", "seat", "round_", "ping"),
    [
        ("5z", None, None, False),  # a dragon pair scores
        ("1z", "E", "S", False),  # one's own seat wind
        ("2z", "E", "S", False),  # the prevailing wind
        ("3z", "E", "S", True),  # a wind that is neither
    ],
)
def test_ping_hu_needs_a_pair_that_does_not_score(pair, seat, round_, ping):
    out = gz(f"123m456p789s234s{pair}", pair, seat_wind=seat, round_wind=round_)
    assert ("ping_hu" in items(out)) is ping
    assert ("ji_hu" in items(out)) is not ping


def test_a_chow_hand_with_a_pung_is_not_ping_hu():
    assert items(gz("123m456p789s222s5m", "5m")) == {"ji_hu": 0}


def test_dui_dui_hu():
    assert items(gz("111m555p999s222s3z", "3z")) == {"dui_dui_hu": 1}


def test_hun_yi_se():
    out = gz("123m456m789m333z5m", "5m")
    assert items(out) == {"hun_yi_se": 1} and out["total"] == 1


def test_hun_yi_se_and_dui_dui_hu_add():
    out = gz("111m555m999m333z3m", "3m")
    assert items(out) == {"dui_dui_hu": 1, "hun_yi_se": 1} and out["total"] == 2


def test_qing_yi_se_and_ping_hu_add():
    out = gz("123m456m789m234m9m", "9m")
    assert items(out) == {"ping_hu": 1, "qing_yi_se": 2} and out["total"] == 3


def test_qing_yi_se_and_dui_dui_hu_make_three():
    out = gz("111m333m555m777m9m", "9m")
    assert items(out) == {"dui_dui_hu": 1, "qing_yi_se": 2} and out["total"] == 3


def test_qi_dui():
    out = gz("1133m5577p99s11z2z", "2z")
    assert items(out) == {"qi_dui": 2} and out["total"] == 2


def test_qi_dui_with_qing_yi_se_is_capped():
    out = gz("1133557799m224m", "4m")
    assert items(out) == {"qi_dui": 2, "qing_yi_se": 2} and out["total"] == 3
    assert gz("1133557799m224m", "4m", rules={"cap": 5})["total"] == 4


def test_qi_dui_off_refuses_seven_pairs():
    out = gz("1133m5577p99s11z2z", "2z", rules={"qi_dui": False})
    assert out["win"] is False and "seven pairs" not in out["reason"]


def test_xiao_san_yuan_with_its_dragon_pungs():
    out = gz("555z666z77z123m45m", "6m")
    assert items(out) == {"hun_yi_se": 1, "xiao_san_yuan": 2, "jian_ke": 2}
    assert out["total"] == 3  # 5 capped at 3


# --- additions --------------------------------------------------------------------


def test_zi_mo_adds_one():
    out = gz("123m456p789s999p5s", "5s", "self_draw")
    assert items(out) == {"ji_hu": 0, "zi_mo": 1} and out["total"] == 1


def test_men_feng_and_quan_feng():
    hand = "111z123m456p789s5s"
    assert items(gz(hand, "5s", seat_wind="E", round_wind="S")) == {"ji_hu": 0, "men_feng": 1}
    assert items(gz(hand, "5s", seat_wind="S", round_wind="E")) == {"ji_hu": 0, "quan_feng": 1}
    both = gz(hand, "5s", seat_wind="E", round_wind="E")
    assert items(both) == {"ji_hu": 0, "men_feng": 1, "quan_feng": 1} and both["total"] == 2
    assert items(gz(hand, "5s")) == {"ji_hu": 0}  # no winds given: no wind pung counts


def test_a_wind_kong_counts_like_a_pung():
    out = gz(
        "123m456p789s5s", "5s", melds=[("gang", "2222z", False)], seat_wind="S", round_wind="E"
    )
    assert items(out) == {"ji_hu": 0, "men_feng": 1}


def test_jian_ke_counts_each_dragon_pung():
    out = gz("555z666z123m456p9s", "9s")
    assert items(out) == {"ji_hu": 0, "jian_ke": 2} and out["total"] == 2


def test_additions_do_not_stop_ji_hu_being_listed():
    assert items(gz("555z123m456p789s9s", "9s")) == {"ji_hu": 0, "jian_ke": 1}


def test_a_capped_hand_with_zi_mo():
    out = gz("111m333m555m777m9m", "9m", "self_draw")
    assert items(out) == {"dui_dui_hu": 1, "qing_yi_se": 2, "zi_mo": 1}
    assert out["total"] == 3  # 4 capped at the default 3
    assert gz("111m333m555m777m9m", "9m", "self_draw", rules={"cap": 4})["total"] == 4
    assert gz("111m333m555m777m9m", "9m", "self_draw", rules={"cap": 1})["total"] == 1


# --- beyond the cap ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "win", "win_type", "melds", "flags", "special", "fan"),
    [
        ("123m456p789s999p5s", "5s", "self_draw", (), ["dealt_hand"], "tian_hu", 6),
        ("123m456p789s999p5s", "5s", "self_draw", (), ["first_draw"], "di_hu", 6),
        ("19m19p19s1234567z", "1m", "discard", (), [], "shi_san_yao", 6),
        ("1112345678999m", "5m", "discard", (), [], "jiu_lian_bao_deng", 6),
        ("111z222z333z444z5m", "5m", "discard", (), [], "da_si_xi", 6),
        ("111z222z333z555z6z", "6z", "discard", (), [], "zi_yi_se", 6),
        (
            "5m",
            "5m",
            "discard",
            [("gang", "1111m", False), ("gang", "2222p", True)]
            + [("gang", "3333s", False), ("gang", "4444p", False)],
            [],
            "shi_ba_luo_han",
            6,
        ),
        ("111m999m111p999p1s", "1s", "discard", (), [], "qing_yao_jiu", 6),
        ("555z666z777z123m5m", "5m", "discard", (), [], "da_san_yuan", 5),
        ("111z222z333z4z123m", "4z", "discard", (), [], "xiao_si_xi", 5),
        ("111m999p111z222z9s", "9s", "discard", (), [], "hun_yao_jiu", 4),
    ],
)
def test_special_hands_replace_the_count(hand, win, win_type, melds, flags, special, fan):
    out = gz(hand, win, win_type, melds=melds, flags=flags, seat_wind="E", round_wind="E")
    assert out == {"win": True, "items": [{"id": special, "value": fan}], "total": fan}


def test_ren_hu_is_a_discard_win_the_live_table_flags():
    ctx = WinContext(
        hand=tuple(T.parse("123m456p789s999p5s")),
        melds=(),
        win_tile=T.parse_one("5s"),
        win_type="discard",
        flags=frozenset({"ren_hu"}),
    )
    opts = GUANGZHOU_OPTIONS.resolve()
    assert score(ctx, opts).to_json() == {
        "win": True,
        "items": [{"id": "ren_hu", "value": 6}],
        "total": 6,
    }


def test_a_special_hand_ignores_additions_and_the_cap():
    out = gz("555z666z77z123m99s", "7z", "self_draw", seat_wind="E", round_wind="E")
    assert out == {"win": True, "items": [{"id": "da_san_yuan", "value": 5}], "total": 5}
    assert gz("555z666z77z123m99s", "7z", rules={"cap": 1})["total"] == 5


@pytest.mark.parametrize(
    ("hand", "win", "count"),
    [
        # 大三元 5 against 碰碰胡 1 + 混一色 1 + 自摸 1 + 三元刻 3 = 6
        ("555z666z777z111m9m", "9m", {"dui_dui_hu": 1, "hun_yi_se": 1, "zi_mo": 1, "jian_ke": 3}),
        # 字一色 6 against 碰碰胡 1 + 小三元 2 + 自摸 1 + 门风 1 + 圈风 1 + 三元刻 2 = 8
        (
            "111z222z555z666z7z",
            "7z",
            {
                "dui_dui_hu": 1,
                "xiao_san_yuan": 2,
                "zi_mo": 1,
                "men_feng": 1,
                "quan_feng": 1,
                "jian_ke": 2,
            },
        ),
    ],
)
def test_a_raised_cap_takes_the_count_when_it_scores_more(hand, win, count):
    def at(cap):
        return gz(hand, win, "self_draw", seat_wind="E", round_wind="S", rules={"cap": cap})

    special = at(3)
    assert len(special["items"]) == 1 and special["items"][0]["id"] in {"da_san_yuan", "zi_yi_se"}
    assert at(special["total"])["items"] == special["items"]  # a tie keeps the special hand
    raised = at(13)
    assert items(raised) == count and raised["total"] == sum(count.values()) > special["total"]


def test_several_special_hands_take_the_largest_only():
    # 字一色 (6) beats 大三元 (5); 大四喜 and 字一色 tie at 6: the first in the table.
    assert items(gz("555z666z777z111z2z", "2z")) == {"zi_yi_se": 6}
    assert items(gz("111z222z333z444z5z", "5z")) == {"da_si_xi": 6}
    override = gz("555z666z777z111z2z", "2z", rules={"fan_values": {"da_san_yuan": 8}})
    assert override == {"win": True, "items": [{"id": "da_san_yuan", "value": 8}], "total": 8}


# --- the minimum-3 cases -------------------------------------------------------------


def test_qiang_gang_is_at_least_three_and_not_zi_mo():
    out = gz("123m456p789s999p5s", "5s", "rob_kong")
    assert out["items"] == [{"id": "ji_hu", "value": 0}, {"id": "qiang_gang", "value": 0}]
    assert out["total"] == 3


def test_gang_shang_kai_hua_raises_to_three():
    out = gz(
        "123m456p789s5s", "5s", "self_draw", melds=[("gang", "9999p", True)], flags=["after_kong"]
    )
    assert items(out) == {"ji_hu": 0, "zi_mo": 1, "gang_shang_kai_hua": 0}
    assert out["total"] == 3
    # Without a kong on the table the flag means nothing.
    plain = gz("123m456p789s999p5s", "5s", "self_draw", flags=["after_kong"])
    assert plain["total"] == 1


def test_hai_di_lao_yue_raises_to_three_on_a_self_draw_only():
    out = gz("123m456p789s999p5s", "5s", "self_draw", flags=["last_tile"])
    assert items(out) == {"ji_hu": 0, "zi_mo": 1, "hai_di_lao_yue": 0} and out["total"] == 3
    assert gz("123m456p789s999p5s", "5s", "discard", flags=["last_tile"])["total"] == 0


def test_a_minimum_case_over_three_keeps_its_real_value():
    out = gz(
        "111m333m555m9m",
        "9m",
        "self_draw",
        melds=[("gang", "7777m", True)],
        flags=["after_kong"],
        rules={"cap": 5},
    )
    assert items(out) == {
        "dui_dui_hu": 1,
        "qing_yi_se": 2,
        "zi_mo": 1,
        "gang_shang_kai_hua": 0,
    }
    assert out["total"] == 4


def test_yi_pao_san_xiang_is_a_flag_of_the_live_table():
    ctx = WinContext(
        hand=tuple(T.parse("123m456p789s234s5m")),
        melds=(),
        win_tile=T.parse_one("5m"),
        win_type="discard",
        flags=frozenset({"yi_pao_san_xiang"}),
    )
    out = score(ctx, GUANGZHOU_OPTIONS.resolve())
    assert out.to_json()["items"] == [
        {"id": "ping_hu", "value": 1},
        {"id": "yi_pao_san_xiang", "value": 0},
    ]
    assert out.total == 3
    assert out.extra["minimum"] == ["yi_pao_san_xiang"] and out.extra["multiplier"] == 8


# --- house rules ---------------------------------------------------------------------


def test_min_fan_refuses_a_smaller_hand_but_not_a_minimum_three_case():
    out = gz("123m456p789s999p5s", "5s", rules={"min_fan": 1})
    assert out["win"] is False and "at least 1 fan" in out["reason"]
    assert gz("123m456p789s234s5m", "5m", rules={"min_fan": 1})["total"] == 1
    assert gz("123m456p789s999p5s", "5s", "rob_kong", rules={"min_fan": 3})["total"] == 3


def test_fan_values_override_only_the_ids_named():
    out = gz("123m456p789s234s5m", "5m", "self_draw", rules={"fan_values": {"ping_hu": 2}})
    assert items(out) == {"ping_hu": 2, "zi_mo": 1} and out["total"] == 3
    opts = GUANGZHOU_OPTIONS.resolve({"fan_values": {"zi_mo": 0}})
    assert opts.fan_values == {**DEFAULT_FAN, "zi_mo": 0}


@pytest.mark.parametrize(
    "rules",
    [{"cap": 0}, {"cap": 14}, {"min_fan": 4}, {"fan_values": {"nope": 1}}, {"qi_dui": 1}],
)
def test_bad_house_rules_are_refused(rules):
    with pytest.raises(OptionsError):
        GUANGZHOU_OPTIONS.resolve(rules)
    assert "error" in evaluate(
        {
            "variant": "guangzhou",
            "hand": "123m456p789s999p5s",
            "win_tile": "5s",
            "win_type": "discard",
            "rules": rules,
        }
    )


def test_the_option_table_is_the_specs():
    described = {d["id"]: d for d in GUANGZHOU_OPTIONS.describe()}
    assert {k: described[k]["default"] for k in described} == {
        "cap": 3,
        "min_fan": 0,
        "qi_dui": True,
        "fan_values": DEFAULT_FAN,
        "bao_zi_mo": True,
        "one_winner_only": False,
        "base": 1,
    }
    assert all(d["help"]["zh-hans"] and d["help"]["en"] for d in described.values())


def test_every_item_id_has_names_in_both_languages():
    names = get_variant("guangzhou").pattern_names()
    assert set(DEFAULT_FAN) <= set(names)
    assert {"yi_pao_san_xiang", "gang_shang_kai_hua", "hai_di_lao_yue", "qiang_gang"} <= set(names)
    assert all(n["zh-hans"] and n["en"] for n in names.values())
    assert names == pattern_names()


def test_not_a_winning_hand():
    out = gz("123m456p789s999p5s", "6s")
    assert out["win"] is False and "four sets and a pair" in out["reason"]


# --- money ---------------------------------------------------------------------------


def test_win_value_is_base_times_two_to_the_fan():
    opts = GUANGZHOU_OPTIONS.resolve({"base": 5})
    assert [win_value(f, opts) for f in (0, 1, 3, 6)] == [5, 10, 40, 320]


def test_payments_discard_self_draw_and_liability():
    assert win_payments(2, 8, discarder=0) == (Payment(0, 8, (0,)),)
    assert win_payments(2, 8, discarder=0, reason="yi_pao_san_xiang") == (
        Payment(0, 8, (0,), "yi_pao_san_xiang"),
    )
    assert win_payments(2, 8) == (Payment(3, 8, (3,)), Payment(0, 8, (0,)), Payment(1, 8, (1,)))
    assert win_payments(2, 8, liable=1, reason="qiang_gang") == (
        Payment(1, 24, (3, 0, 1), "qiang_gang"),
    )
    for bad in ({"discarder": 2}, {"liable": 2}, {"discarder": 0, "liable": 1}):
        with pytest.raises(ValueError):
            win_payments(2, 8, **bad)


# --- the command line ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "rules", "expected"),
    [
        ("1112345678999m", "{}", "123456789m"),  # 九莲宝灯
        ("19m19p19s1234567z", "{}", "19m19p19s1234567z"),  # 十三幺: thirteen-sided
        ("1133m5577p99s11z2z", "{}", "2z"),
        ("1133m5577p99s11z2z", '{"qi_dui": false}', ""),
        ("123m456p789s999p5s", '{"min_fan": 1}', ""),  # a 鸡胡 on a discard is 0 fan
    ],
)
def test_waits_command(hand, rules, expected):
    from .test_notation_options_cli import run_cli

    out = run_cli("waits", "--variant", "guangzhou", "--hand", hand, "--rules", rules)
    assert out.returncode == 0, out.stderr
    assert out.stdout == expected + "\n"


def test_evaluate_command_reads_the_winds():
    from .test_notation_options_cli import run_cli

    req = {
        "variant": "guangzhou",
        "hand": "111z123m456p789s5s",
        "win_tile": "5s",
        "win_type": "self_draw",
        "seat_wind": "E",
        "round_wind": "E",
    }
    out = run_cli("evaluate", stdin=json.dumps(req))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "win": True,
        "items": [
            {"id": "ji_hu", "value": 0},
            {"id": "zi_mo", "value": 1},
            {"id": "men_feng", "value": 1},
            {"id": "quan_feng", "value": 1},
        ],
        "total": 3,
    }
