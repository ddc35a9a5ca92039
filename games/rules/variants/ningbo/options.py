"""Ningbo house rules (../shared/rules/ningbo.md, "House rules").

Ids, types and defaults are the spec's table, plus ``base`` (底分, every
variant's stake).  ``tai_values`` names every 台 item of ``tai`` with
its value from the spec's table; a layer naming some ids overrides only those.
"""

from __future__ import annotations

from ...options import HelpedOption, OptionSet

#: every 台 item's id and default value, in the spec's order ("each" items per count)
TAI_DEFAULTS: dict[str, int] = {
    "zi_mo": 1,
    "pai_hu": 0,
    "ping_hu": 1,
    "bian_zhang": 1,
    "jia_zhang": 1,
    "dan_diao": 1,
    "dui_dao": 1,
    "da_diao": 1,
    "peng_peng_hu": 2,
    "gang_shang_kai_hua": 1,
    "ying_hu": 1,
    "san_cai_shen": 3,
    "qiang_gang": 1,
    "hai_di_lao_yue": 1,
    "zheng_hua": 1,
    "hua_quan": 2,
    "men_feng": 1,
    "quan_feng": 1,
    "jian_ke": 1,
    "ming_gang": 1,
    "an_gang": 2,
    "hun_yi_se": 2,
    "qing_yi_se": 4,
    "qi_dui": 2,
}

NINGBO_OPTIONS = OptionSet(
    (
        HelpedOption(
            "min_tai",
            "int",
            4,
            "起胡台数",
            "Minimum 台",
            min=0,
            max=10,
            help_zh="胡牌至少需要的台数（不含胡牌基本分 1）。",
            help_en="台 a hand needs to win (the base 1 not counted).",
        ),
        HelpedOption(
            "qi_dui",
            "bool",
            False,
            "七对",
            "Seven pairs",
            help_zh="七对可以胡牌，算 2 台。",
            help_en="Seven pairs is a winning hand, worth 2 台.",
        ),
        HelpedOption(
            "tai_values",
            "map",
            dict(TAI_DEFAULTS),
            "台数表",
            "台 values",
            keys=tuple(TAI_DEFAULTS),
            min=0,
            max=100,
            help_zh="每一项的台数；只改写列出的项。",
            help_en="Each item's 台; only the items named are changed.",
        ),
        HelpedOption(
            "auto_ready_seconds",
            "int",
            15,
            "自动准备倒计时",
            "Auto-ready countdown",
            min=0,
            max=120,
            help_zh="三人准备后，第四人在此秒数后自动准备。",
            help_en="Once three are ready, the fourth is made ready after this many seconds.",
        ),
        HelpedOption(
            "wild_kinds",
            "choice",
            "other_copies",
            "百搭",
            "Wilds",
            choices=("other_copies", "indicator_and_next"),
            choice_labels={
                "other_copies": ("翻牌的另三张", "The indicator's other copies"),
                "indicator_and_next": ("翻牌及下一张", "The indicator's kind and the next"),
            },
            choice_help={
                "other_copies": (
                    "翻出的那张牌的其余三张是百搭（花牌：同组四张）。",
                    "The three other copies of the indicator (a flower: its set of four).",
                ),
                "indicator_and_next": (
                    "翻出牌的其余三张及其下一张的四张都是百搭（共七张）。",
                    "The indicator's other copies and the next kind's four (seven wilds).",
                ),
            },
            help_zh="哪些牌是百搭。",
            help_en="Which tiles are wild.",
        ),
        HelpedOption(
            "win_on_wild_discard",
            "bool",
            False,
            "可胡打出的百搭",
            "Win on a discarded wild",
            help_zh="别人打出的百搭可以胡（仍不能吃碰杠）。",
            help_en="A discarded wild may be won on (still never chowed or punged).",
        ),
        HelpedOption(
            "single_wait_only",
            "bool",
            True,
            "边夹吊须独听",
            "Single wait only",
            help_zh="边、夹、单吊要求所胡的牌是唯一听的牌；关闭则只看胡的那组牌的形状。",
            help_en=(
                "边, 夹 and 单吊 need the winning tile to be the only wait; off: the shape of "
                "the winning set alone."
            ),
        ),
        HelpedOption(
            "base",
            "int",
            1,
            "底分",
            "Base stake",
            min=1,
            max=1000,
            help_zh="一台的底分，所有分数都是它的整数倍。",
            help_en="The stake one point is worth; every amount is a multiple of it.",
        ),
    )
)
