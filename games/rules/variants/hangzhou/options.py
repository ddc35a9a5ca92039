"""Hangzhou house rules (../shared/rules/hangzhou.md, "House rules").

Ids, types and defaults are the spec's table.  Every option (and every value
of a choice) also carries a one-line help text in both languages
(:class:`~games.rules.options.HelpedOption`).
"""

from __future__ import annotations

from ...options import HelpedOption, OptionSet

STREAK_FACTORS = (2, 4, 8, 16)


HANGZHOU_OPTIONS = OptionSet(
    (
        HelpedOption(
            "bai_ban_stands_in",
            "bool",
            True,
            "白板替财神",
            "White dragon stands in",
            help_zh="白板当作翻出的财神那张牌使用（普通牌，不是百搭）。",
            help_en="Each white dragon is an ordinary tile of the wild's kind (not itself wild).",
        ),
        HelpedOption(
            "discard_win_min_streak",
            "int",
            2,
            "放冲起始连庄",
            "Discard wins from streak",
            min=1,
            nullable=True,
            help_zh="庄家连庄达到此数后，庄闲之间才可放冲（点炮）；空为从不放冲。",
            help_en=(
                "Dealer streak from which dealer and non-dealers may win on each other's "
                "discards; empty: self-draw only."
            ),
        ),
        HelpedOption(
            "max_streak_factor",
            "int",
            8,
            "连庄倍数封顶",
            "Streak factor cap",
            choices=STREAK_FACTORS,
            choice_labels={n: (f"×{n}", f"×{n}") for n in STREAK_FACTORS},
            choice_help={
                2: ("庄家相关分数最多×2。", "Dealer payments are at most ×2."),
                4: ("庄家相关分数最多×4。", "Dealer payments are at most ×4."),
                8: ("庄家相关分数最多×8（三连庄以上）。", "At most ×8 (third hand on)."),
                16: ("庄家相关分数最多×16（配合固定倍数）。", "At most ×16 (for a fixed factor)."),
            },
            help_zh="连庄倍数 D 的上限。",
            help_en="The highest dealer streak factor D.",
        ),
        HelpedOption(
            "cheng_bao_claims",
            "int",
            3,
            "承包吃碰次数",
            "Claims for full liability",
            min=1,
            max=4,
            help_zh="吃碰同一家达到此次数后自摸，由该家承包三家的分。",
            help_en=(
                "A self-draw after this many chows/pungs from one player: that player pays "
                "for all three."
            ),
        ),
        HelpedOption(
            "qi_dui",
            "bool",
            True,
            "七对",
            "Seven pairs",
            help_zh="七对（及豪华七对）可以胡牌。",
            help_en="Seven pairs (and the luxury seven pairs) are winning hands.",
        ),
        HelpedOption(
            "escape_pay",
            "int",
            8,
            "逃跑扣分",
            "Leaving penalty",
            min=0,
            max=1000,
            help_zh="中途离开扣底分的倍数，不分给任何人。",
            help_en="Base stakes a player who leaves loses, paid to nobody.",
        ),
        HelpedOption(
            "escape_pay_after_wild",
            "int",
            32,
            "打财神后逃跑扣分",
            "Leaving after a wild discard",
            min=0,
            max=1000,
            help_zh="有人打出财神后到其下次摸牌前离开的扣分；其听牌则归他。",
            help_en=(
                "Penalty for leaving between someone's wild discard and their next draw; "
                "theirs if they were ready."
            ),
        ),
        HelpedOption(
            "streak_factor",
            "choice",
            "by_streak",
            "连庄倍数",
            "Dealer streak factor",
            choices=("by_streak", "fixed"),
            choice_labels={
                "by_streak": ("按连庄", "By streak"),
                "fixed": ("固定", "Fixed"),
            },
            choice_help={
                "by_streak": (
                    "平庄×2，二连庄×4，三连庄以上×8（不超过封顶）。",
                    "×2 first hand, ×4 second, ×8 from the third (up to the cap).",
                ),
                "fixed": ("总是按封顶倍数。", "Always the cap."),
            },
            help_zh="庄家相关分数的倍数 D 如何计算。",
            help_en="How the dealer streak factor D is set.",
        ),
        HelpedOption(
            "qi_dui_bao_tou",
            "bool",
            False,
            "七对暴头",
            "Seven-pairs bao tou",
            help_zh="七对最后一对由单张财神配成时也算暴头（再×2）。",
            help_en="Seven pairs completed by a lone wild and the draw count as bao tou (×2).",
        ),
        HelpedOption(
            "kong_chain_doubles",
            "bool",
            False,
            "连杠加倍",
            "Kong chains double",
            help_zh="连续开杠后杠开，每多一杠，杠开/杠暴/杠飘再×2。",
            help_en="Each further kong in a chain of replacements doubles the kong win again.",
        ),
        HelpedOption(
            "you_cai_bi_kao",
            "bool",
            False,
            "有财必拷",
            "Wild needs bao tou",
            help_zh="手中有财神不能平胡，至少要暴头或其他倍数。",
            help_en="A hand holding a wild cannot win plain; it needs bao tou or a multiplier.",
        ),
        HelpedOption(
            "base",
            "int",
            1,
            "底分",
            "Base stake",
            min=1,
            max=1000,
            help_zh="每个倍数的底分，所有分数都是它的整数倍。",
            help_en="The stake one multiple is worth; every amount is a multiple of it.",
        ),
    )
)
