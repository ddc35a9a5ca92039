"""Sichuan fan (成都计番): every pattern and addition, their interactions,
house rules, illegal hands, 查大叫 and the consistent worked hands of seed 004.

Hands are written in the spec's notation.  ``hand`` is the concealed tiles
*before* the winning tile ``win``; melds are ``"555p"`` (peng), ``"2222p"``
(gang), ``"a2222p"`` (concealed gang) or ``"c123m"`` (chi).
"""

from __future__ import annotations

import pytest

from games.rules import tiles as T
from games.rules.model import Meld, WinContext
from games.rules.variants import get_variant
from games.rules.variants.sichuan.fan import (
    ADDITIONS,
    BASE_PATTERNS,
    PATTERNS,
    max_fan_for_waits,
    pattern_names,
    score,
)

SICHUAN = get_variant("sichuan")


def meld(spec: str) -> Meld:
    concealed = spec.startswith("a")
    chi = spec.startswith("c")
    tiles = tuple(sorted(T.parse(spec.lstrip("ac"))))
    kind = "chi" if chi else ("gang" if len(tiles) == 4 else "peng")
    return Meld(kind=kind, tiles=tiles, concealed=concealed)


def ctx(hand, melds=(), win="5p", win_type="discard", flags=(), missing=None) -> WinContext:
    return WinContext(
        hand=tuple(T.parse(hand)),
        melds=tuple(meld(m) for m in melds),
        win_tile=T.parse_one(win),
        win_type=win_type,
        flags=frozenset(flags),
        missing_suit=None if missing is None else "mps".index(missing),
    )


def fan(*args, rules=None, **kwargs):
    return score(ctx(*args, **kwargs), SICHUAN.resolve_options(rules))


def items(result) -> dict[str, int]:
    assert result.win, result.reason
    return {i.id: i.value for i in result.items}


UNCAPPED = {"fan_cap": None}


# --- the tables -------------------------------------------------------------


def test_pattern_table_matches_spec():
    assert [(p.id, p.fan) for p in BASE_PATTERNS] == [
        ("ping_hu", 1),
        ("dui_dui_hu", 2),
        ("qing_yi_se", 3),
        ("dai_yao_jiu", 3),
        ("qi_dui", 3),
        ("qing_dui", 4),
        ("jiang_dui", 4),
        ("long_qi_dui", 5),
        ("qing_qi_dui", 5),
        ("qing_yao_jiu", 5),
        ("tian_hu", 6),
        ("di_hu", 6),
        ("qing_long_qi_dui", 6),
    ]
    assert [p.id for p in ADDITIONS] == [
        "gen",
        "gang_shang_hua",
        "gang_shang_pao",
        "qiang_gang_hu",
        "hai_di_lao_yue",
        "jin_gou_diao",
        "zi_mo_jia_fan",
    ]
    assert all(p.fan == 1 for p in ADDITIONS)
    names = pattern_names()
    assert set(names) == {p.id for p in PATTERNS}
    assert names["qing_long_qi_dui"] == {
        "zh-hans": "清龙七对",
        "en": "Full-flush dragon seven pairs",
    }
    assert all(n["zh-hans"] and n["en"] for n in names.values())


# --- base patterns ------------------------------------------------------------


def test_ping_hu():
    r = fan("123m456m789m23p55p", win="4p")
    assert items(r) == {"ping_hu": 1}
    assert r.total == 1
    assert r.extra["fan_uncapped"] == 1


def test_dui_dui_hu():
    # seed 004 §1 对對胡 example: 111萬 444萬 222筒 999筒 66筒
    assert items(fan("111444m222999p6p", win="6p")) == {"dui_dui_hu": 2}


def test_dui_dui_hu_with_melds():
    assert items(fan("444m6p", melds=["111m", "222p", "999p"], win="6p")) == {"dui_dui_hu": 2}


def test_qing_yi_se():
    # seed 004 §1 清一色 example: 123條 567條 234條 888條 99條
    assert items(fan("1235672348889s", win="9s")) == {"qing_yi_se": 3}


def test_dai_yao_jiu():
    # seed 004 §1 幺九牌 example: 123條 123萬 789條 789萬 99萬
    assert items(fan("123789m123789s9m", win="9m")) == {"dai_yao_jiu": 3}


def test_dai_yao_jiu_depends_on_the_reading():
    # seed 004 §5 帶幺九 example 111222333萬78999筒: as pungs 222 has no 1/9,
    # as three 123 chows every set does.
    assert items(fan("111222333m789p9p", win="9p")) == {"dai_yao_jiu": 3}
    # The same tiles with a middle chow: no reading has a 1 or 9 in every set.
    assert items(fan("111222333m456p9p", win="9p")) == {"ping_hu": 1}


def test_dai_yao_jiu_beats_dui_dui_hu_reading():
    # 111 222 333m 999p 11p: pungs give 对对胡 (2), chows give 带幺九 (3).
    assert items(fan("111222333m999p1p", win="1p")) == {"dai_yao_jiu": 3}


def test_dai_yao_jiu_with_a_terminal_pung_meld():
    assert items(fan("123789m789s9m", melds=["111s"], win="9m")) == {"dai_yao_jiu": 3}


def test_qi_dui():
    # seed 004 §1 七對 example: 11萬 22萬 99萬 44筒 66筒 88筒 99筒
    assert items(fan("112299m4466889p", win="9p")) == {"qi_dui": 3}


def test_qi_dui_needs_no_melds():
    # Six pairs plus a concealed kong is not 七对 (nor any other win).
    r = fan("1122m446688p", melds=["a9999p"], win="2m")
    assert not r.win


def test_qing_dui_not_qing_yi_se_plus_dui_dui_hu():
    # seed 004 §1 清對 example: 111萬 444萬 222萬 999萬 66萬
    r = fan("1112224449996m", win="6m")
    assert items(r) == {"qing_dui": 4}
    assert r.total == 4


def test_qing_dui_seed_section_5():
    # seed 004 §5 清對 example: 11122244455599筒
    assert items(fan("1112224445559p", win="9p")) == {"qing_dui": 4}


def test_jiang_dui():
    # seed 004 §5 將對 example: 222555888條88855萬
    assert items(fan("222555888s8885m", win="5m")) == {"jiang_dui": 4}


def test_jiang_dui_needs_all_pungs():
    # all pungs, but the 33m pair is not 2/5/8: plain 对对胡
    assert items(fan("222555888s8883m", win="3m")) == {"dui_dui_hu": 2}


def test_long_qi_dui_absorbs_its_gen():
    # seed 004 §5 龍七對 example 11222244筒557799萬 ("不再計七對，同時減1根")
    r = fan("1122224p557799m", win="4p")
    assert items(r) == {"long_qi_dui": 5}
    assert r.total == 4  # default cap
    assert r.extra["fan_uncapped"] == 5


def test_long_qi_dui_second_quad_is_one_gen():
    r = fan("11222244p55557m", win="7m", rules=UNCAPPED)
    assert items(r) == {"long_qi_dui": 5, "gen": 1}
    assert r.total == 6


def test_long_qi_dui_with_the_winning_tile_making_the_quad():
    assert items(fan("1122244p557799m", win="2p", rules=UNCAPPED)) == {"long_qi_dui": 5}


def test_qing_qi_dui():
    # seed 004 §5 清七對 example: 11334466778899條
    assert items(fan("1133446677889s", win="9s")) == {"qing_qi_dui": 5}


def test_qing_yao_jiu():
    # seed 004 §5 清幺九 example: 11123777888999筒 (11 123 789 789 789)
    assert items(fan("1112377788899p", win="9p")) == {"qing_yao_jiu": 5}


def test_qing_long_qi_dui():
    # seed 004 §5 清龍七對 example 11224444557799萬 ("算番時減1根")
    r = fan("1122444455779m", win="9m", rules=UNCAPPED)
    assert items(r) == {"qing_long_qi_dui": 6}
    assert r.total == 6


def test_qing_long_qi_dui_with_two_quads():
    r = fan("1111444455779m", win="9m", rules=UNCAPPED)
    assert items(r) == {"qing_long_qi_dui": 6, "gen": 1}
    assert r.total == 7


def test_tian_hu_keeps_additions():
    r = fan("123m456m789m23p55p", win="4p", win_type="self_draw", flags=["dealt_hand"])
    assert items(r) == {"tian_hu": 6}
    r = fan("1122224p557799m", win="4p", win_type="self_draw", flags=["dealt_hand"], rules=UNCAPPED)
    assert items(r) == {"tian_hu": 6, "gen": 1}  # beats 龙七对 (5), which absorbs the 根


def test_di_hu():
    r = fan("111444m222999p6p", win="6p", win_type="self_draw", flags=["first_draw"])
    assert items(r) == {"di_hu": 6}
    assert r.total == 4


def test_tian_hu_and_di_hu_need_a_self_draw():
    assert items(fan("123m456m789m23p55p", win="4p", flags=["dealt_hand"])) == {"ping_hu": 1}
    assert items(fan("123m456m789m23p55p", win="4p", flags=["first_draw"])) == {"ping_hu": 1}


# --- additions --------------------------------------------------------------


def test_gen_from_a_kong():
    # seed 004 §1: 平胡（1分）+ 一杠（1分）= 2分: 2222筒 123萬 345萬 999筒 66筒
    r = fan("123345m999p6p", melds=["2222p"], win="6p")
    assert items(r) == {"ping_hu": 1, "gen": 1}
    assert r.total == 2


def test_gen_from_a_concealed_kong():
    assert items(fan("123345m999p6p", melds=["a2222p"], win="6p")) == {"ping_hu": 1, "gen": 1}


def test_gen_from_four_held_including_the_winning_tile():
    assert items(fan("22234m567m789p99p", win="2m")) == {"ping_hu": 1, "gen": 1}


def test_gen_from_a_pung_plus_the_fourth_held():
    assert items(fan("123m456m567p8p", melds=["555p"], win="8p")) == {"ping_hu": 1, "gen": 1}


def test_gen_is_one_item_with_the_count():
    # seed 004 §1: 清一色（3分）+ 二根（2分）= 5分, written "124條 567條 789條 888條
    # 77條"; 124 is a typo (not a set) -- with 123條 the hand has four 7s and
    # four 8s, two 根.
    r = fan("1235677898887s", win="7s", rules=UNCAPPED)
    assert r.items[0].id == "qing_yi_se"
    assert [i.id for i in r.items].count("gen") == 1
    assert items(r) == {"qing_yi_se": 3, "gen": 2}
    assert r.total == 5


def test_seed_dui_dui_hu_plus_kong():
    # seed 004 §1: 大對子（2分）+ 一杠（1分）= 3分: 2222筒 111萬 444萬 999筒 66筒
    r = fan("111444m999p6p", melds=["2222p"], win="6p")
    assert items(r) == {"dui_dui_hu": 2, "gen": 1}
    assert r.total == 3


def test_seed_qing_yi_se_plus_kong():
    # seed 004 §1: 清一色（3分）+ 一杠（1分）= 4分: 8888條 123條 567條 234條 77條
    r = fan("1235672347s", melds=["8888s"], win="7s")
    assert items(r) == {"qing_yi_se": 3, "gen": 1}
    assert r.total == 4


def test_gang_shang_hua():
    r = fan("123345m999p6p", melds=["2222p"], win="6p", win_type="self_draw", flags=["after_kong"])
    assert items(r) == {"ping_hu": 1, "gen": 1, "gang_shang_hua": 1}
    assert r.total == 3


def test_after_kong_on_a_discard_is_not_gang_shang_hua():
    r = fan("123345m999p6p", melds=["2222p"], win="6p", flags=["after_kong"])
    assert items(r) == {"ping_hu": 1, "gen": 1}


def test_gang_shang_pao():
    r = fan("123m456m789m23p55p", win="4p", flags=["kong_discard"])
    assert items(r) == {"ping_hu": 1, "gang_shang_pao": 1}


def test_qiang_gang_hu():
    r = fan("123m456m789m23p55p", win="4p", win_type="rob_kong")
    assert items(r) == {"ping_hu": 1, "qiang_gang_hu": 1}


def test_hai_di_lao_yue_and_house_rule_off():
    args = dict(win="4p", win_type="self_draw", flags=["last_tile"])
    assert items(fan("123m456m789m23p55p", **args)) == {"ping_hu": 1, "hai_di_lao_yue": 1}
    assert items(fan("123m456m789m23p55p", **args, rules={"hai_di": False})) == {"ping_hu": 1}
    # A discard won on the last tile is not 海底捞月.
    assert items(fan("123m456m789m23p55p", win="4p", flags=["last_tile"])) == {"ping_hu": 1}


def test_jin_gou_diao_and_house_rule_off():
    melds = ["111m", "444m", "999p", "2222p"]
    r = fan("6p", melds=melds, win="6p")
    assert items(r) == {"dui_dui_hu": 2, "gen": 1, "jin_gou_diao": 1}
    assert r.total == 4
    r = fan("6p", melds=melds, win="6p", rules={"jin_gou_diao": False})
    assert items(r) == {"dui_dui_hu": 2, "gen": 1}
    assert r.total == 3


def test_zi_mo_jia_fan_only_with_self_draw_bonus_fan():
    args = dict(win="4p", win_type="self_draw")
    assert items(fan("123m456m789m23p55p", **args)) == {"ping_hu": 1}
    assert items(fan("123m456m789m23p55p", **args, rules={"self_draw_bonus": "base"})) == {
        "ping_hu": 1
    }
    assert items(fan("123m456m789m23p55p", **args, rules={"self_draw_bonus": "fan"})) == {
        "ping_hu": 1,
        "zi_mo_jia_fan": 1,
    }
    # not on a discard win
    r = fan("123m456m789m23p55p", win="4p", rules={"self_draw_bonus": "fan"})
    assert items(r) == {"ping_hu": 1}


def test_items_order_base_then_additions():
    r = fan(
        "6p",
        melds=["111m", "444m", "999p", "2222p"],
        win="6p",
        win_type="self_draw",
        flags=["after_kong", "last_tile"],
        rules={"self_draw_bonus": "fan", "fan_cap": None},
    )
    assert [(i.id, i.value) for i in r.items] == [
        ("dui_dui_hu", 2),
        ("gen", 1),
        ("gang_shang_hua", 1),
        ("hai_di_lao_yue", 1),
        ("jin_gou_diao", 1),
        ("zi_mo_jia_fan", 1),
    ]
    assert r.total == 7


# --- the cap ----------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, total",
    [
        (None, 4),
        ({"fan_cap": None}, 6),
        ({"fan_cap": 13}, 6),
        ({"fan_cap": 5}, 5),
        ({"fan_cap": 1}, 1),
    ],
)
def test_fan_cap(rules, total):
    r = fan("11222244p55557m", win="7m", rules=rules)  # 龙七对 5 + 根 1
    assert items(r) == {"long_qi_dui": 5, "gen": 1}  # item values before the cap
    assert r.total == total
    assert r.extra["fan_uncapped"] == 6


def test_fan_cap_via_variant_score():
    r = SICHUAN.score(ctx("1122444455779m", win="9m"), SICHUAN.resolve_options({"fan_cap": 13}))
    assert r.total == 6
    assert r.to_json() == {
        "win": True,
        "items": [{"id": "qing_long_qi_dui", "value": 6}],
        "total": 6,
    }


# --- illegal ------------------------------------------------------------------


def test_three_suits_is_not_a_win():
    r = fan("123m456p789s23p55p", win="4p")
    assert not r.win
    assert "three suits" in r.reason


def test_holding_the_missing_suit_is_not_a_win():
    r = fan("123m456m789m23p55p", win="4p", missing="p")
    assert not r.win
    assert "missing suit p" in r.reason
    # the missing suit in a meld counts too
    r = fan("123m456m789m5s", melds=["222p"], win="5s", missing="p")
    assert not r.win
    # declared missing suit absent: a legal win
    assert fan("123m456m789m23p55p", win="4p", missing="s").win


def test_chi_meld_is_not_a_sichuan_win():
    r = fan("456m789m23p55p", melds=["c123m"], win="4p")
    assert not r.win
    assert "no chow" in r.reason


def test_not_a_winning_shape():
    r = fan("123m456m789m23p55p", win="7p")
    assert not r.win
    assert "not a winning hand" in r.reason


def test_honours_are_not_sichuan_tiles():
    r = fan("123m456m789m23p11z", win="4p")
    assert not r.win
    assert "m/p/s" in r.reason


def test_wrong_tile_count():
    r = fan("123m456m789m23p5p", win="4p")
    assert not r.win
    assert "14 tiles" in r.reason


# --- 查大叫 -------------------------------------------------------------------


def test_max_fan_for_waits_max_and_min():
    # waits 1m (111m 123m: 平胡 + 根 = 2), 4m (111m 234m) and 5p (11m 123m 555p): 平胡 1
    hand = tuple(T.parse("11123m456789p55p"))
    opts = SICHUAN.resolve_options()
    assert max_fan_for_waits(hand, (), None, opts) == 2
    assert max_fan_for_waits(hand, (), None, opts, which="min") == 1


def test_max_fan_for_waits_is_capped_and_scored_as_discard():
    hand = tuple(T.parse("1122444455779m"))  # waits 9m: 清龙七对
    opts = SICHUAN.resolve_options()
    assert max_fan_for_waits(hand, (), None, opts) == 4
    assert max_fan_for_waits(hand, (), None, SICHUAN.resolve_options(UNCAPPED)) == 6
    # no 自摸加番 even where it is on: the win is scored as a discard
    fan_opts = SICHUAN.resolve_options({"self_draw_bonus": "fan", "fan_cap": None})
    assert max_fan_for_waits(hand, (), None, fan_opts) == 6


def test_max_fan_for_waits_not_ready():
    hand = tuple(T.parse("1358m2479p13689s"))
    assert max_fan_for_waits(hand, (), None, SICHUAN.resolve_options()) is None


def test_max_fan_for_waits_skips_a_kind_all_held():
    # waiting only on 5p, whose other three copies are this player's pung
    melds = tuple(meld(m) for m in ["555p", "222m", "333m", "777m"])
    assert max_fan_for_waits((T.parse_one("5p"),), melds, None, SICHUAN.resolve_options()) is None


def test_max_fan_for_waits_skips_the_missing_suit():
    # waits 1p / 4p, both 平胡; none is legal once p is the declared missing suit
    hand = tuple(T.parse("123m456m789m23p55p"))
    opts = SICHUAN.resolve_options()
    assert max_fan_for_waits(hand, (), None, opts) == 1
    assert max_fan_for_waits(hand, (), 1, opts) is None  # p declared missing


def test_max_fan_for_waits_with_melds_and_seven_pairs_off():
    # one tile left, four melds: waits on the pair, 对对胡 + 根 + 金钩钓
    melds = tuple(meld(m) for m in ["111m", "444m", "999p", "2222p"])
    assert max_fan_for_waits((T.parse_one("6p"),), melds, None, SICHUAN.resolve_options()) == 4


# Worked hands of seed 004 left out because they contradict the spec:
# - §1 "平胡（1分）+ 帶一根（1分）= 2分: 123萬 345萬 222筒 999筒 66筒" -- there are
#   no four equal tiles, so under the spec this is 平胡 1 with no 根.
# - §1 "七對（3分）+ 2根（2分）= 雙龍七對（5分）: 11萬 22萬 99萬 44筒 66筒 11筒
#   99筒" -- no quad at all; and the spec's 龙七对 absorbs one 根 (5 + 1 = 6 for
#   two quads), not 七对 3 + 2.
# - §1 "清一色（3分）+ 一根（1分）= 4分: 123條 567條 678條 888條 77條" -- the hand
#   holds four 7s and four 8s, two 根 under the spec (5 fan).
# - §1 清七對 (4分) "11萬 11萬 99萬 44筒 66筒 88筒 99筒" -- two suits, and a quad
#   makes it 龙七对 (5) in the spec; the spec's 清七对 is 清一色 + 七对.
# - §1 將對 "222萬 555萬 888萬 222條 55筒" -- three suits, not a Sichuan win.
# - §1 搶杠胡 2分 as a pattern, 杠上花 +2, 天胡/地胡 8分 -- the spec makes 抢杠胡 and
#   杠上花 +1 additions and 天胡/地胡 6 fan.
