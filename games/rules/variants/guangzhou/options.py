"""Guangzhou house rules (../shared/rules/guangzhou.md, "House rules").

Ids, types and defaults are the spec's table, plus ``base`` (底分, every
variant's stake).  ``fan_values`` is a map option: every pattern, addition and
special hand of ``fan`` by id, a layer naming some ids overriding
only those.
"""

from __future__ import annotations

from ...options import HelpedOption, OptionSet

#: every fan value a club may change: within the cap, additions, beyond the cap
DEFAULT_FAN = {
    "ji_hu": 0,
    "ping_hu": 1,
    "dui_dui_hu": 1,
    "hun_yi_se": 1,
    "qing_yi_se": 2,
    "qi_dui": 2,
    "xiao_san_yuan": 2,
    "zi_mo": 1,
    "men_feng": 1,
    "quan_feng": 1,
    "jian_ke": 1,
    "tian_hu": 6,
    "di_hu": 6,
    "ren_hu": 6,
    "shi_san_yao": 6,
    "jiu_lian_bao_deng": 6,
    "da_si_xi": 6,
    "zi_yi_se": 6,
    "shi_ba_luo_han": 6,
    "qing_yao_jiu": 6,
    "da_san_yuan": 5,
    "xiao_si_xi": 5,
    "hun_yao_jiu": 4,
}

GUANGZHOU_OPTIONS = OptionSet(
    (
        HelpedOption(
            "cap",
            "int",
            3,
            "爆胡封顶",
            "Fan cap (爆胡)",
            min=1,
            max=13,
            help_zh="番型与附加番相加，最多计到此番数；爆胡以外的特殊牌型不受限。",
            help_en="Patterns and additions add up to at most this many fan; special hands "
            "are beyond the cap.",
        ),
        HelpedOption(
            "min_fan",
            "int",
            0,
            "起胡番数",
            "Minimum fan to win",
            min=0,
            max=3,
            help_zh="胡牌至少要有的番数（0：鸡胡也可以胡）。",
            help_en="The fewest fan a winning hand needs (0: a plain 鸡胡 may win).",
        ),
        HelpedOption(
            "qi_dui",
            "bool",
            True,
            "七对",
            "Seven pairs",
            help_zh="七对可以胡牌（2 番）。",
            help_en="Seven pairs is a winning hand (2 fan).",
        ),
        HelpedOption(
            "fan_values",
            "map",
            dict(DEFAULT_FAN),
            "番数表",
            "Fan values",
            keys=tuple(DEFAULT_FAN),
            min=0,
            max=13,
            help_zh="每个番型、附加番和特殊牌型的番数。",
            help_en="The fan of every pattern, addition and special hand.",
        ),
        HelpedOption(
            "bao_zi_mo",
            "bool",
            True,
            "十二张落地包自摸",
            "Twelve exposed: liable for the self-draw",
            help_zh="放出第四副副露（单吊）的人，包该玩家之后的自摸（包先不包后）。",
            help_en="Whoever's discard lets a player expose a fourth meld pays for that "
            "player's self-draw (the first such player only).",
        ),
        HelpedOption(
            "one_winner_only",
            "bool",
            False,
            "截胡（一炮一响）",
            "One winner only",
            help_zh="关闭一炮多响：多人可胡同一张时，按出牌者下家起的顺序最近的一家胡。",
            help_en="No multiple winners on one discard: the nearest claimant in turn order "
            "after the discarder wins.",
        ),
        HelpedOption(
            "base",
            "int",
            1,
            "底分",
            "Base stake",
            min=1,
            max=1000,
            help_zh="一番前的底分，所有分数都是它的整数倍。",
            help_en="The stake before fan; every amount is a multiple of it.",
        ),
    )
)
