"""Hangzhou scoring: the 财神 and its 白板 stand-in, every multiplier and what it
replaces, the house rules that change them, the payments of one win and the
seed texts' own statements (seeds 000 and 003, quoted where they are used).

Hands are in the spec's notation.  ``hand`` is the concealed tiles *before* the
winning tile ``win``; unless a test says otherwise the indicator is ``7z`` (中),
so ``7z`` in a hand is a wild (财神) and ``5z`` (白板) an ordinary 中.  Melds are
``"555p"`` (peng), ``"2222p"`` (gang), ``"a2222p"`` (concealed gang) or
``"c123m"`` (chi).
"""

from __future__ import annotations

import json
from dataclasses import replace
from math import prod

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.rules import analysis as A
from games.rules import tiles as T
from games.rules.model import WIN_TYPES, Meld, WinContext
from games.rules.options import OptionsError
from games.rules.variants.hangzhou.options import HANGZHOU_OPTIONS, STREAK_FACTORS
from games.rules.variants.hangzhou.score import (
    BAI_BAN,
    PATTERNS,
    PING_HU,
    Payment,
    cheng_bao_payer,
    escape_penalty,
    is_bao_tou_ready,
    pattern_names,
    score,
    split_wilds,
    stand_in,
    streak_factor,
    wild_kinds,
    win_payments,
    win_value,
)
from tests.rules.test_sichuan_fan import meld  # the shared meld notation: "c123m", "a2222p"

DEFAULTS = HANGZHOU_OPTIONS.resolve()


def ctx(
    hand,
    win,
    *,
    win_type="self_draw",
    wild="7z",
    melds=(),
    flags=(),
    cai_piao=0,
    kong_chain=0,
    flowers="",
) -> WinContext:
    return WinContext(
        hand=tuple(T.parse(hand)),
        melds=tuple(meld(m) for m in melds),
        win_tile=T.parse_one(win),
        win_type=win_type,
        flags=frozenset(flags),
        wild=None if wild is None else T.parse_one(wild),
        flowers=tuple(T.parse(flowers)),
        cai_piao=cai_piao,
        kong_chain=kong_chain,
    )


def hz(*args, rules=None, **kwargs):
    return score(ctx(*args, **kwargs), HANGZHOU_OPTIONS.resolve(rules))


def items(result) -> dict[str, int]:
    assert result.win, result.reason
    assert result.total == prod(i.value for i in result.items)
    return {i.id: i.value for i in result.items}


def not_a_win(result, reason: str) -> None:
    assert not result.win
    assert reason in result.reason, result.reason


# Four complete sets without wilds, to build hands from.
SETS = "123m456m789p"  # three sets
FOUR_SETS = "123m456m789p111s"


# --- the tables ---------------------------------------------------------------


def test_pattern_table_matches_spec():
    r = {p.id: p.replaces for p in PATTERNS}
    assert list(r) == [
        "qi_dui",
        "hao_hua_qi_dui",
        "shuang_hao_hua_qi_dui",
        "san_hao_hua_qi_dui",
        "bao_tou",
        "cai_piao",
        "gang_kai",
        "gang_bao",
        "gang_piao",
    ]
    assert r["hao_hua_qi_dui"] == ("qi_dui",)
    assert set(r["shuang_hao_hua_qi_dui"]) == {"qi_dui", "hao_hua_qi_dui"}
    assert set(r["san_hao_hua_qi_dui"]) == {"qi_dui", "hao_hua_qi_dui", "shuang_hao_hua_qi_dui"}
    assert set(r["gang_bao"]) == {"gang_kai", "bao_tou"}
    assert set(r["gang_piao"]) == {"gang_kai", "gang_bao", "bao_tou", "cai_piao"}
    assert PING_HU.id == "ping_hu"


def test_pattern_names_in_both_languages():
    names = pattern_names()
    assert names["bao_tou"] == {"zh-hans": "暴头", "en": "Bao tou (lone wild)"}
    assert names["ping_hu"]["zh-hans"] == "平胡"
    assert set(names) == {p.id for p in PATTERNS} | {"ping_hu"}
    assert all(n["zh-hans"] and n["en"] for n in names.values())


# --- house rules ----------------------------------------------------------------


def test_options_are_the_spec_table():
    assert dict(DEFAULTS) == {
        "bai_ban_stands_in": True,
        "discard_win_min_streak": 2,
        "max_streak_factor": 8,
        "cheng_bao_claims": 3,
        "qi_dui": True,
        "escape_pay": 8,
        "escape_pay_after_wild": 32,
        "streak_factor": "by_streak",
        "qi_dui_bao_tou": False,
        "kong_chain_doubles": False,
        "you_cai_bi_kao": False,
        "base": 1,
    }
    opts = HANGZHOU_OPTIONS.resolve({"discard_win_min_streak": None}, {"max_streak_factor": 16})
    assert opts.discard_win_min_streak is None and opts.max_streak_factor == 16


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"max_streak_factor": 3}, "one of 2, 4, 8, 16"),
        ({"discard_win_min_streak": 0}, "at least 1"),
        ({"streak_factor": "double"}, "one of by_streak, fixed"),
        ({"qi_dui": "yes"}, "true or false"),
        ({"cheng_bao_claims": 0}, "at least 1"),
        ({"escape_pay": -1}, "at least 0"),
        ({"bai_ban_stands_in": None}, "may not be null"),
        ({"cai_shen": True}, "unknown house rule 'cai_shen'"),
    ],
)
def test_options_refuse_bad_values(bad, message):
    with pytest.raises(OptionsError, match=message):
        HANGZHOU_OPTIONS.resolve(bad)


def test_every_option_and_choice_has_labels_and_help():
    described = HANGZHOU_OPTIONS.describe()
    json.dumps(described)
    for d in described:
        for key in ("label", "help"):
            assert d[key]["zh-hans"] and d[key]["en"], (d["id"], key)
        for value in d.get("choices", []):
            assert d["choice_labels"][str(value)]["en"], (d["id"], value)
            assert d["choice_help"][str(value)]["zh-hans"], (d["id"], value)
    by_id = {d["id"]: d for d in described}
    assert by_id["streak_factor"]["choices"] == ["by_streak", "fixed"]
    assert by_id["max_streak_factor"]["choices"] == [2, 4, 8, 16]
    assert by_id["discard_win_min_streak"]["nullable"] is True


# --- the 财神 and 白板 ------------------------------------------------------------


def test_wild_kinds_and_stand_in():
    m5, z5 = T.parse_one("5m"), BAI_BAN
    assert wild_kinds(m5, DEFAULTS) == {m5}
    assert stand_in(m5, DEFAULTS) == {z5: m5}
    assert wild_kinds(None, DEFAULTS) == frozenset() and stand_in(None, DEFAULTS) == {}
    # 白板 turned up: the other three 白板 are wild and nothing stands in
    assert wild_kinds(z5, DEFAULTS) == {z5} and stand_in(z5, DEFAULTS) == {}
    off = HANGZHOU_OPTIONS.resolve({"bai_ban_stands_in": False})
    assert stand_in(m5, off) == {}


def test_split_wilds_reads_bai_ban_as_the_indicator_kind():
    m5 = T.parse_one("5m")
    c, wilds = split_wilds(T.parse("45m5z5m"), m5, DEFAULTS)
    assert wilds == 2 and c[m5] == 1 and c[T.parse_one("4m")] == 1 and c[BAI_BAN] == 0
    c, wilds = split_wilds(
        T.parse("45m5z5m"), m5, HANGZHOU_OPTIONS.resolve({"bai_ban_stands_in": False})
    )
    assert wilds == 2 and c[BAI_BAN] == 1 and c[m5] == 0


def test_bai_ban_stands_in_for_the_cai_shen_kind_in_a_chow():
    # seed 000: "白板： 所有的白板将代替翻出来财神的那张牌，白板不起原有的功能作用。"
    hand = "123p456p789p11s46m"
    assert items(hz(hand, "5z", wild="5m")) == {"ping_hu": 1}
    not_a_win(hz(hand, "5z", wild="5m", rules={"bai_ban_stands_in": False}), "not a winning")


def test_bai_ban_is_not_wild_and_has_no_meaning_of_its_own():
    # a lone 白板 cannot pair with an arbitrary tile (it is a 5m here, not a wild)
    not_a_win(hz("123p456p789p123s5z", "1z", wild="5m"), "not a winning hand")
    # two 白板 and a wild make a pung of 5m
    assert items(hz("123p456p789p5z5z5m1z", "1z", wild="5m")) == {"ping_hu": 1}


def test_bai_ban_in_melds_counts_as_the_indicator_kind():
    # a chow 4m 白板 6m and a pung of 白板 (three "5m") as melds
    melds = ("c4m5z6m", "555z", "c123s")
    assert items(hz("789p1s", "1s", wild="5m", melds=melds)) == {"ping_hu": 1}
    off = {"bai_ban_stands_in": False}
    not_a_win(hz("789p1s", "1s", wild="5m", melds=melds, rules=off), "a chi is three consecutive")


def test_indicator_bai_ban_makes_the_other_bai_ban_wild():
    # four sets and a lone 白板: with 白板 turned up it is a 财神, so 暴头
    assert items(hz(FOUR_SETS + "5z", "3z", wild="5z")) == {"bao_tou": 2}
    # with 中 turned up the same 白板 is an ordinary 中 and the hand does not win
    not_a_win(hz(FOUR_SETS + "5z", "3z", wild="7z"), "not a winning hand")


def test_without_the_stand_in_bai_ban_is_a_plain_white_dragon():
    rules = {"bai_ban_stands_in": False}
    assert items(hz(FOUR_SETS + "5z", "5z", wild="5p", rules=rules)) == {"ping_hu": 1}
    # with the stand-in the pair 5z 5z is a pair of 5p: still a win
    assert items(hz(FOUR_SETS + "5z", "5z", wild="5p")) == {"ping_hu": 1}


# --- legality -----------------------------------------------------------------------


def test_a_discarded_wild_cannot_be_won_on():
    not_a_win(hz(FOUR_SETS + "1z", "7z", win_type="discard"), "discarded wild")
    not_a_win(hz(FOUR_SETS + "1z", "7z", win_type="rob_kong"), "discarded wild")
    # the same tile self-drawn is a wild that pairs with 1z
    assert items(hz(FOUR_SETS + "1z", "7z")) == {"ping_hu": 1}


def test_wilds_cannot_be_in_melds():
    not_a_win(hz("123m456m1s", "1s", melds=("777z", "c789p")), "cannot be used in a chow")


def test_only_three_wilds_are_in_play():
    not_a_win(hz("123m456m789p1s7z7z7z", "7z"), "only three 财神")


def test_no_flowers_in_hangzhou():
    not_a_win(hz(FOUR_SETS + "1z", "1z", flowers="1f"), "without flowers")
    not_a_win(hz(FOUR_SETS + "1f", "1z"), "without flowers")


def test_wrong_tile_count_and_shapes():
    not_a_win(hz(FOUR_SETS, "1z"), "14 tiles")
    not_a_win(hz("123m456m789p1s3s5s9s", "2z"), "not a winning hand")
    not_a_win(hz(SETS + "1s", "1s", melds=("c135m",)), "a chi is three consecutive")
    not_a_win(hz("1111m123p456p789s", "2z"), "not a winning hand")


# --- plain wins and the wild as any tile -------------------------------------------


def test_ping_hu_when_nothing_else_applies():
    assert items(hz(FOUR_SETS + "1z", "1z")) == {"ping_hu": 1}
    assert items(hz(FOUR_SETS + "1z", "1z", win_type="discard")) == {"ping_hu": 1}
    assert items(hz("123m456m1z", "1z", melds=("c789p", "222s"), wild=None)) == {"ping_hu": 1}


def test_a_wild_in_a_set_is_not_bao_tou():
    # 4s + wild + the drawn 5s make a chow; before the draw no wild was lone
    assert items(hz(SETS + "11p4s7z", "5s")) == {"ping_hu": 1}


def test_a_drawn_wild_without_a_lone_wild_before_is_plain():
    assert items(hz(FOUR_SETS + "1z", "7z")) == {"ping_hu": 1}


def test_a_wild_may_be_a_fifth_copy():
    # 1111m held, the wild reads as a fifth 1m for the pair 1m 1m
    assert items(hz("1111m234p567p789s", "7z", wild="7z")) == {"ping_hu": 1}


# --- 七对 family -------------------------------------------------------------------


def test_qi_dui():
    # seed 000: "七对： 七对是由七对将牌（可以是字牌和类型牌）组成的胡牌。
    #            算分方法：在当局应得分数基础 *2 倍。"
    assert items(hz("11m22m33p44p55s66s1z", "1z")) == {"qi_dui": 2}
    assert items(hz("11m22m33p44p55s66s1z", "1z", win_type="discard")) == {"qi_dui": 2}


def test_hao_hua_qi_dui():
    # seed 000: "豪华七对： 是指七对中，有四个一样的牌充当两对牌用。 ... *4 倍。"
    assert items(hz("1111m33p44p55s66s1z", "1z")) == {"hao_hua_qi_dui": 4}


def test_shuang_hao_hua_qi_dui():
    # seed 000: "两豪华七对： ... 有两个“四个一样的牌充当两对牌用”。 ... *8 倍。"
    assert items(hz("1111m3333p55s66s1z", "1z")) == {"shuang_hao_hua_qi_dui": 8}


def test_san_hao_hua_qi_dui():
    # seed 000: "三豪华七对： ... 有三个“四个一样的牌充当两对牌用”。 ... *16 倍。"
    assert items(hz("1111m3333p5555s1z", "1z")) == {"san_hao_hua_qi_dui": 16}


def test_wilds_in_seven_pairs():
    # the wild pairs with the odd 6s; three wilds pair three odd tiles
    assert items(hz("11m22m33p44p55s6s1z7z", "1z")) == {"qi_dui": 2}
    assert items(hz("11m22m33p44p5s6s7z7z7z", "1z", win_type="discard")) == {"qi_dui": 2}
    # a wild completes 111m to a set of four
    assert items(hz("111m22m33p44p55s6s7z", "6s", win_type="discard")) == {"hao_hua_qi_dui": 4}
    # two spare wilds read as two more of a pair: a set of four (the best reading)
    assert items(hz("11m22m33p44p55s6s7z7z", "6s", win_type="discard")) == {"hao_hua_qi_dui": 4}


def test_seven_pairs_house_rule_off():
    not_a_win(hz("11m22m33p44p55s66s1z", "1z", rules={"qi_dui": False}), "four sets and a pair")


def test_no_seven_pairs_with_melds():
    # pairs only in the hand, but a declared kong (and a pung): seven pairs is not read
    result = hz("11m22m33p4p", "4p", melds=("a6666s", "888s"))
    not_a_win(result, "needs four sets and a pair")
    assert "seven pairs" not in result.reason


def test_seven_pairs_are_never_bao_tou_by_default():
    # six pairs and a lone wild before the draw: still only 七对
    assert items(hz("11m22m33p44p55s66s7z", "1z")) == {"qi_dui": 2}
    assert items(hz("11m22m33p44p55s66s7z", "1z", cai_piao=1)) == {"qi_dui": 2}


def test_qi_dui_bao_tou_house_rule():
    rules = {"qi_dui_bao_tou": True}
    assert items(hz("11m22m33p44p55s66s7z", "1z", rules=rules)) == {"qi_dui": 2, "bao_tou": 2}
    # drawing a second wild onto the lone one: the two read as two more 1m (a set of four)
    assert items(hz("11m22m33p44p55s66s7z", "7z", rules=rules)) == {
        "hao_hua_qi_dui": 4,
        "bao_tou": 2,
    }
    # not on a discard, and not when the wild already paired a tile before the draw
    assert items(hz("11m22m33p44p55s66s7z", "1z", win_type="discard", rules=rules)) == {"qi_dui": 2}
    assert items(hz("11m22m33p44p55s6s7z1z", "1z", rules=rules)) == {"qi_dui": 2}
    # counts as 暴头 in every respect: 财飘 stacks on it
    assert items(hz("11m22m33p44p55s66s7z", "1z", cai_piao=1, rules=rules)) == {
        "qi_dui": 2,
        "bao_tou": 2,
        "cai_piao": 2,
    }
    # with a set of four as well
    assert items(hz("1111m33p44p55s66s7z", "1z", rules=rules)) == {
        "hao_hua_qi_dui": 4,
        "bao_tou": 2,
    }


def test_the_reading_that_scores_most():
    # 123m 123m 456p 456p + lone wild: four sets (暴头 ×2) or seven pairs (七对 ×2)
    # tie at 2: the four-sets reading is listed
    hand = "112233m445566p7z"
    assert items(hz(hand, "1z")) == {"bao_tou": 2}
    # with 财飘 the 暴头 reading is worth more
    assert items(hz(hand, "1z", cai_piao=1)) == {"bao_tou": 2, "cai_piao": 2}
    # 七对暴头 on: seven pairs + 暴头 = 4 beats four sets + 暴头 = 2
    assert items(hz(hand, "1z", rules={"qi_dui_bao_tou": True})) == {"qi_dui": 2, "bao_tou": 2}
    # on a discard no 暴头: 七对 ×2 is the best
    assert items(hz(hand, "1z", win_type="discard")) == {"qi_dui": 2}


# --- 暴头, 财飘 ---------------------------------------------------------------------


def test_bao_tou():
    # seed 000: "暴头： 玩家在胡牌前，手上有 1 颗财神 + 四比牌的情况。... 则下轮玩家如果自摸胡牌，
    # 即为暴头。 算分方法：在当局应得分数基础 *2 倍。"
    for drawn in ("1z", "5p", "9s", "5z", "7z"):
        assert items(hz(FOUR_SETS + "7z", drawn)) == {"bao_tou": 2}, drawn


def test_bao_tou_needs_a_self_draw():
    assert items(hz(FOUR_SETS + "7z", "1z", win_type="discard")) == {"ping_hu": 1}


def test_bao_tou_with_melds():
    assert items(hz("123m111s7z", "6p", melds=("c456m", "a7777p"))) == {"bao_tou": 2}


def test_bao_tou_finds_the_lone_wild_after_regrouping():
    # 123m 456m 789m 11p + two wilds: one wild makes 11p a pung, the other is lone
    assert items(hz("123m456m789m11p7z7z", "3s")) == {"bao_tou": 2}
    assert is_bao_tou_ready(T.parse("123m456m789m11p7z7z"), T.parse_one("7z"), DEFAULTS)
    assert not is_bao_tou_ready(T.parse("123m456m789m11p4s7z"), T.parse_one("7z"), DEFAULTS)
    assert not is_bao_tou_ready(T.parse(FOUR_SETS + "1z"), T.parse_one("7z"), DEFAULTS)
    assert not is_bao_tou_ready(T.parse(FOUR_SETS + "7z"), None, DEFAULTS)


def test_cai_piao():
    # seed 000: "财飘： ... 该轮玩家不胡牌，把手上的一颗财神打出去，到了下轮再暴头自摸胡牌就叫财飘。
    # 算分方法：在当局暴头应得分数基础再 *2 倍。"
    assert items(hz(FOUR_SETS + "7z", "1z", cai_piao=1)) == {"bao_tou": 2, "cai_piao": 2}
    assert hz(FOUR_SETS + "7z", "1z", cai_piao=1).total == 4


def test_consecutive_cai_piao_double_again():
    # seed 000: "如果是连续 2 个财飘则：再 *2 倍。"
    assert items(hz(FOUR_SETS + "7z", "1z", cai_piao=2)) == {"bao_tou": 2, "cai_piao": 4}
    assert hz(FOUR_SETS + "7z", "1z", cai_piao=2).total == 8
    assert hz(FOUR_SETS + "7z", "1z", cai_piao=3).total == 16


def test_cai_piao_only_on_top_of_bao_tou():
    assert items(hz(FOUR_SETS + "1z", "1z", cai_piao=1)) == {"ping_hu": 1}


# --- 杠开, 杠暴, 杠飘 ------------------------------------------------------------------


KONG_HAND = "123m456m1z"  # plus a kong and a chow


def test_gang_kai():
    # seed 000: "杠开： 自己杠牌后摸起的那张牌组成的胡牌即为杠开 ... *2 倍。"
    result = hz(KONG_HAND, "1z", melds=("a2222p", "c789s"), flags=("after_kong",))
    assert items(result) == {"gang_kai": 2}
    assert items(hz(KONG_HAND, "1z", melds=("2222p", "c789s"), flags=("after_kong",))) == {
        "gang_kai": 2
    }


def test_after_kong_flag_that_does_not_fit_is_ignored():
    melds = ("a2222p", "c789s")
    assert items(hz(KONG_HAND, "1z", melds=melds, win_type="discard", flags=("after_kong",))) == {
        "ping_hu": 1
    }
    # no kong among the melds: there was nothing to replace
    assert items(hz(KONG_HAND, "1z", melds=("222p", "c789s"), flags=("after_kong",))) == {
        "ping_hu": 1
    }


def test_gang_bao_replaces_gang_kai_and_bao_tou():
    # seed 000: "杠暴： 在杠开的情况下暴头就叫杠暴。 算分方法：在当局应得分数基础 *4 倍。"
    result = hz("123m456m7z", "3s", melds=("a2222p", "c789s"), flags=("after_kong",))
    assert items(result) == {"gang_bao": 4}


def test_gang_piao_replaces_everything_below_it():
    # seed 000: "杠飘： 在有杠开的情况下财飘就叫杠飘。 算分方法：在当局应得分数基础 *8 倍。"
    # seed 000: "飘杠： 在先财飘再杠开的情况下自摸叫飘杠。 算分方法：在当局应得分数基础 *8 倍。"
    kw = dict(melds=("a2222p", "c789s"), flags=("after_kong",))
    assert items(hz("123m456m7z", "3s", cai_piao=1, **kw)) == {"gang_piao": 8}
    # each further consecutive 财飘 doubles it again
    assert items(hz("123m456m7z", "3s", cai_piao=2, **kw)) == {"gang_piao": 16}
    assert items(hz("123m456m7z", "3s", cai_piao=3, **kw)) == {"gang_piao": 32}


def test_kong_chain_doubles_house_rule():
    kw = dict(melds=("a2222p", "a8888s"), flags=("after_kong",), kong_chain=2)
    on = {"kong_chain_doubles": True}
    assert items(hz(KONG_HAND, "1z", rules=on, **kw)) == {"gang_kai": 4}
    assert items(hz("123m456m7z", "3s", rules=on, **kw)) == {"gang_bao": 8}
    assert items(hz("123m456m7z", "3s", cai_piao=1, rules=on, **kw)) == {"gang_piao": 16}
    assert items(hz(KONG_HAND, "1z", rules=on, **{**kw, "kong_chain": 3})) == {"gang_kai": 8}
    # off (the default): the chain does not matter
    assert items(hz(KONG_HAND, "1z", **kw)) == {"gang_kai": 2}
    # a single kong is the plain 杠开 either way
    assert items(hz(KONG_HAND, "1z", rules=on, **{**kw, "kong_chain": 1})) == {"gang_kai": 2}
    # evaluate leaves kong_chain at 0: the after_kong flag alone is one kong
    assert items(hz(KONG_HAND, "1z", rules=on, **{**kw, "kong_chain": 0})) == {"gang_kai": 2}


# --- 有财必拷 ---------------------------------------------------------------------


def test_you_cai_bi_kao():
    on = {"you_cai_bi_kao": True}
    plain_with_wild = (SETS + "11p4s7z", "5s")
    assert items(hz(*plain_with_wild)) == {"ping_hu": 1}
    not_a_win(hz(*plain_with_wild, rules=on), "有财必拷")
    # a self-drawn wild is held too
    not_a_win(hz(FOUR_SETS + "1z", "7z", rules=on), "有财必拷")
    # 暴头, seven pairs or 杠开 are enough; a hand with no wild may win plain
    assert items(hz(FOUR_SETS + "7z", "1z", rules=on)) == {"bao_tou": 2}
    assert items(hz("11m22m33p44p55s6s1z7z", "1z", rules=on)) == {"qi_dui": 2}
    kong = hz("123m45m1z7z", "1z", melds=("a2222p", "c789s"), flags=("after_kong",), rules=on)
    assert items(kong) == {"gang_kai": 2}
    assert items(hz(FOUR_SETS + "1z", "1z", rules=on)) == {"ping_hu": 1}


# --- payments ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ({}, {1: 2, 2: 4, 3: 8, 4: 8, 9: 8}),
        ({"max_streak_factor": 4}, {1: 2, 2: 4, 3: 4, 5: 4}),
        ({"max_streak_factor": 2}, {1: 2, 2: 2, 3: 2}),
        ({"max_streak_factor": 16}, {1: 2, 2: 4, 3: 8, 4: 8}),  # by_streak is 2/4/8
        ({"streak_factor": "fixed"}, {1: 8, 2: 8, 3: 8}),
        ({"streak_factor": "fixed", "max_streak_factor": 16}, {1: 16, 4: 16}),
        ({"streak_factor": "fixed", "max_streak_factor": 2}, {1: 2, 3: 2}),
    ],
)
def test_streak_factor(rules, expected):
    # seed 003: "平莊：莊家在第一局當莊時屬于平莊。 ×2" / "二連莊 ... ×4" /
    #            "三連莊以上 ... 三連莊以上的胡牌則按三連莊計算分數。 ×8"
    opts = HANGZHOU_OPTIONS.resolve(rules)
    assert {streak: streak_factor(streak, opts) for streak in expected} == expected


def test_streak_starts_at_one():
    with pytest.raises(ValueError, match="starts at 1"):
        streak_factor(0, DEFAULTS)


def test_win_value_is_base_times_the_product():
    # seed 000: "基础分数乘以倍数"
    assert win_value(4, HANGZHOU_OPTIONS.resolve({"base": 5})) == 20
    assert win_value(1, DEFAULTS) == 1


def paid(payments) -> dict[int, int]:
    return {p.payer: p.amount for p in payments}


def test_dealer_self_draw():
    # seed 000: "如果庄家胡则闲家给庄家胡牌大小 ×2"
    payments = win_payments(winner=0, dealer=0, value=3, factor=2)
    assert paid(payments) == {1: 6, 2: 6, 3: 6}
    assert [p.shares for p in payments] == [((1, 2),), ((2, 2),), ((3, 2),)]
    assert {p.reason for p in payments} == {"hu"}


def test_non_dealer_self_draw():
    # seed 000: "如果闲家胡，则其他闲家给胡牌闲家正常分数，庄家给胡牌闲家分数 ×2 。"
    assert paid(win_payments(winner=2, dealer=0, value=3, factor=2)) == {3: 3, 0: 6, 1: 3}


def test_second_and_third_dealer_hand_factors():
    # seed 000: "二连庄时相关分数 ×4 ，三连庄时候相关分数 ×8 。"
    d2, d3 = streak_factor(2, DEFAULTS), streak_factor(3, DEFAULTS)
    assert paid(win_payments(winner=1, dealer=0, value=2, factor=d2)) == {2: 2, 3: 2, 0: 8}
    assert paid(win_payments(winner=0, dealer=0, value=2, factor=d3)) == {1: 16, 2: 16, 3: 16}


def test_discard_win_discarder_pays_w_times_d():
    assert paid(win_payments(winner=1, dealer=0, value=2, factor=4, discarder=0)) == {0: 8}
    assert paid(win_payments(winner=0, dealer=0, value=2, factor=4, discarder=3)) == {3: 8}
    # seed 000: "但闲家和闲家之间不可以互相放冲。"
    with pytest.raises(ValueError, match="two non-dealers"):
        win_payments(winner=1, dealer=0, value=2, factor=4, discarder=2)


def test_cheng_bao_one_player_pays_for_all_three():
    # seed 000: "承包： 杭州麻将有承包规则：有人吃（包括碰）了你 3 次（总数），最后他自摸胡了，
    # 那就是你要承包所有的分。"
    payments = win_payments(winner=2, dealer=0, value=3, factor=4, liable=1)
    assert len(payments) == 1
    (p,) = payments
    assert (p.payer, p.amount, p.reason) == (1, 3 + 12 + 3, "cheng_bao")
    assert sorted(p.shares) == [(0, 4), (1, 1), (3, 1)]
    dealer_win = win_payments(winner=0, dealer=0, value=2, factor=8, liable=3)
    assert paid(dealer_win) == {3: 48}
    assert dealer_win[0].to_json() == {
        "payer": 3,
        "amount": 48,
        "shares": [[1, 8], [2, 8], [3, 8]],
        "reason": "cheng_bao",
    }


def test_cheng_bao_is_for_self_draws_only():
    with pytest.raises(ValueError, match="self-draws only"):
        win_payments(winner=1, dealer=0, value=1, factor=2, discarder=0, liable=0)
    with pytest.raises(ValueError, match="bad liable"):
        win_payments(winner=1, dealer=0, value=1, factor=2, liable=1)


def test_win_payments_refuse_impossible_input():
    for kwargs in (
        dict(winner=4, dealer=0, value=1, factor=2),
        dict(winner=0, dealer=-1, value=1, factor=2),
        dict(winner=0, dealer=0, value=0, factor=2),
        dict(winner=0, dealer=0, value=1, factor=2, discarder=0),
    ):
        with pytest.raises(ValueError):
            win_payments(**kwargs)


def test_cheng_bao_payer():
    assert cheng_bao_payer(0, [0, 3, 1, 0], DEFAULTS) == 1
    assert cheng_bao_payer(0, [0, 2, 2, 0], DEFAULTS) is None
    assert cheng_bao_payer(2, [4, 0, 0, 0], DEFAULTS) == 0
    # claims "from" the winner themselves never count
    assert cheng_bao_payer(1, [0, 3, 0, 0], DEFAULTS) is None
    two = HANGZHOU_OPTIONS.resolve({"cheng_bao_claims": 2})
    assert cheng_bao_payer(0, [0, 2, 2, 0], two) == 1  # tie: first after the winner
    assert cheng_bao_payer(3, [2, 0, 2, 0], two) == 0
    assert cheng_bao_payer(0, [0, 2, 0, 2], two) == 1
    assert cheng_bao_payer(0, [0, 2, 0, 3], two) == 3  # most claims
    with pytest.raises(ValueError, match="one count per seat"):
        cheng_bao_payer(0, [3], DEFAULTS)


def test_escape_penalties():
    # seed 003: "1、 沒有打出財神時，逃跑扣8分。
    #            2、 在某玩家打出財神后，一直到該玩家摸下一張牌為止，如果有其他玩家逃跑扣32分。"
    assert escape_penalty(DEFAULTS, after_wild=False) == 8
    assert escape_penalty(DEFAULTS, after_wild=True) == 32
    opts = HANGZHOU_OPTIONS.resolve({"base": 2, "escape_pay": 5, "escape_pay_after_wild": 10})
    assert escape_penalty(opts, after_wild=False) == 10
    assert escape_penalty(opts, after_wild=True) == 20


def test_payment_json():
    assert Payment(1, 6, ((1, 2),)).to_json() == {
        "payer": 1,
        "amount": 6,
        "shares": [[1, 2]],
        "reason": "hu",
    }


# --- properties ----------------------------------------------------------------------

PROPS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
SEVEN_PAIRS_FAMILY = {"qi_dui", "hao_hua_qi_dui", "shuang_hao_hua_qi_dui", "san_hao_hua_qi_dui"}
BAO_ITEMS = {"bao_tou", "gang_bao", "gang_piao"}
REPLACES = {p.id: set(p.replaces) for p in PATTERNS}


@st.composite
def winning_hands(draw):
    """A legal Hangzhou win built from its shape, with wilds, 白板 and melds.

    Every tile is first a *kind* the shape needs; a kind equal to the
    indicator's is written as 白板 where 白板 stands in (the indicator kind's
    own copies are wild), else as a wild.  Then some concealed tiles become
    wilds, some sets become melds, and one concealed tile is the winning tile.
    """
    rules = {
        name: draw(st.booleans())
        for name in ("bai_ban_stands_in", "qi_dui_bao_tou", "kong_chain_doubles", "qi_dui")
    }
    opts = HANGZHOU_OPTIONS.resolve(rules)
    indicator = draw(st.integers(0, 33))
    wild = indicator
    read_as = stand_in(indicator, opts)

    def face(kind: int) -> int:
        if kind == indicator:
            return BAI_BAN if read_as else wild
        if read_as and kind == BAI_BAN:
            return wild  # no ordinary 白板 exists here: a wild stands for it
        return kind

    seven = opts.qi_dui and draw(st.booleans())
    groups: list[list[int]] = []
    if seven:
        kinds = draw(st.lists(st.integers(0, 33), min_size=7, max_size=7))
        groups = [[k, k] for k in kinds]
    else:
        groups.append([draw(st.integers(0, 33))] * 2)
        for _ in range(4):
            if draw(st.booleans()):
                suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
                first = 9 * suit + start
                groups.append([first, first + 1, first + 2])
            else:
                groups.append([draw(st.integers(0, 33))] * 3)
    faces = [[face(k) for k in g] for g in groups]
    melds: list[Meld] = []
    concealed: list[int] = []
    for index, g in enumerate(faces):
        if index and not seven and wild not in g and draw(st.booleans()):
            if len(set(g)) == 1 and draw(st.booleans()):
                melds.append(Meld("gang", tuple(g + g[:1]), concealed=draw(st.booleans())))
            else:
                melds.append(Meld("peng" if len(set(g)) == 1 else "chi", tuple(sorted(g))))
        else:
            concealed.extend(g)
    swaps = draw(st.lists(st.integers(0, len(concealed) - 1), max_size=3, unique=True))
    for i in swaps:
        concealed[i] = wild
    physical = concealed + [t for m in melds for t in m.tiles]
    assume(all(physical.count(t) <= 4 for t in set(physical)))
    assume(physical.count(wild) <= 3)
    concealed = draw(st.permutations(concealed))
    win_tile = concealed[-1]
    win_type = "self_draw" if win_tile == wild else draw(st.sampled_from(WIN_TYPES))
    context = WinContext(
        hand=tuple(concealed[:-1]),
        melds=tuple(melds),
        win_tile=win_tile,
        win_type=win_type,
        flags=frozenset(draw(st.sets(st.sampled_from(("after_kong", "last_tile"))))),
        wild=wild,
        cai_piao=draw(st.integers(0, 3)),
        kong_chain=draw(st.integers(1, 3)),
    )
    return context, opts


@PROPS
@given(winning_hands())
def test_property_total_is_the_product_of_the_items(case):
    context, opts = case
    result = score(context, opts)
    assert result.win, (result.reason, context)
    ids = [i.id for i in result.items]
    assert result.total == prod(i.value for i in result.items)
    assert len(ids) == len(set(ids)) and ids
    assert ids == ["ping_hu"] or "ping_hu" not in ids
    assert result.total & (result.total - 1) == 0  # every multiplier is a power of two
    for i in ids:
        assert not REPLACES.get(i, set()) & set(ids), ids
    if context.melds:
        assert not SEVEN_PAIRS_FAMILY & set(ids)
    if context.win_type != "self_draw":
        assert set(ids) <= SEVEN_PAIRS_FAMILY | {"ping_hu"}
    if "cai_piao" in ids:
        assert "bao_tou" in ids
    # the items do not depend on the order the tiles are written in
    shuffled = replace(context, hand=tuple(reversed(context.hand)))
    assert score(shuffled, opts) == result


@PROPS
@given(winning_hands())
def test_property_bao_tou_means_any_tile_would_have_won(case):
    """暴头 against an oracle: the hand before the draw held a wild and any kind
    drawn would have completed it."""
    context, opts = case
    result = items(score(context, opts))
    if SEVEN_PAIRS_FAMILY & set(result):
        return
    c, wilds = split_wilds(context.hand, context.wild, opts)
    any_tile = bool(wilds) and all(
        A.is_standard_win([n + (k == j) for j, n in enumerate(c)], wilds) for k in range(34)
    )
    assert bool(BAO_ITEMS & set(result)) == (context.win_type == "self_draw" and any_tile)


@PROPS
@given(winning_hands())
def test_property_house_rules_that_add_never_lower_the_total(case):
    context, opts = case
    base = score(context, opts).total
    for rule in ("qi_dui_bao_tou", "kong_chain_doubles"):
        on = HANGZHOU_OPTIONS.resolve({**opts, rule: True})
        assert score(context, on).total >= base
    # 有财必拷 only ever refuses a plain win holding a wild
    strict = score(context, HANGZHOU_OPTIONS.resolve({**opts, "you_cai_bi_kao": True}))
    assert strict.win or (base == 1 and split_wilds(context.full_hand, context.wild, opts)[1])


@st.composite
def wins_to_pay(draw):
    winner, dealer = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    value, factor = draw(st.integers(1, 64)), draw(st.sampled_from(STREAK_FACTORS))
    how = draw(st.sampled_from(("self_draw", "discard", "cheng_bao")))
    kwargs = {}
    others = [s for s in range(4) if s != winner]
    if how == "discard":
        kwargs["discarder"] = dealer if dealer != winner else draw(st.sampled_from(others))
    elif how == "cheng_bao":
        kwargs["liable"] = draw(st.sampled_from(others))
    return winner, dealer, value, factor, kwargs


@PROPS
@given(wins_to_pay())
def test_property_payments_sum_to_the_winners_gain(case):
    winner, dealer, value, factor, kwargs = case
    payments = win_payments(winner, dealer, value, factor, **kwargs)
    gain = sum(p.amount for p in payments)
    assert all(p.payer != winner and p.amount > 0 for p in payments)
    assert len({p.payer for p in payments}) == len(payments)
    for p in payments:
        assert p.amount == value * sum(f for _, f in p.shares)
        for seat, f in p.shares:
            assert f == (factor if dealer in (seat, winner) else 1)
    shares = [s for p in payments for s, _ in p.shares]
    assert len(shares) == len(set(shares))
    if "discarder" in kwargs:
        assert shares == [kwargs["discarder"]] and gain == value * factor
    else:
        assert sorted(shares) == [s for s in range(4) if s != winner]
        plain = win_payments(winner, dealer, value, factor)
        assert gain == sum(p.amount for p in plain)
        expected = 3 * factor if winner == dealer else 2 + factor
        assert gain == value * expected
