"""Sichuan house rules (../shared/rules/sichuan.md, "House rules"), each with its one line
of help in both languages."""

from __future__ import annotations

from ...options import HelpedOption, OptionSet

SICHUAN_OPTIONS = OptionSet(
    (
        HelpedOption(
            "mode",
            "choice",
            "xuezhan",
            "玩法",
            "Mode",
            choices=("xuezhan", "plain"),
            choice_labels={
                "xuezhan": ("血战到底", "Bloody battle (play to the end)"),
                "plain": ("一人胡牌结束", "First win ends the hand"),
            },
            help_zh="血战到底：有人胡牌后其余玩家继续，直到三家胡牌；否则一人胡牌即结束本局。",
            help_en=(
                "Bloody battle: after a win the others play on until three have won. Otherwise "
                "the first win ends the hand."
            ),
        ),
        HelpedOption(
            "ding_que",
            "bool",
            True,
            "定缺",
            "Declare a missing suit",
            help_zh="开局每人选定一门不要的花色，必须先把这门牌打完。",
            help_en=(
                "Each player gives up one suit at the start and must discard it before anything "
                "else."
            ),
        ),
        HelpedOption(
            "huan_san_zhang",
            "bool",
            False,
            "换三张",
            "Exchange three tiles",
            help_zh="开打前每人选同一花色的三张牌换给另一位玩家。",
            help_en="Before play, everyone passes three tiles of one suit to another player.",
        ),
        HelpedOption(
            "fan_cap",
            "int",
            4,
            "封顶番数",
            "Fan cap",
            min=1,
            max=13,
            nullable=True,
            help_zh="一手牌最多计几番；更大的牌按封顶番数付。",
            help_en="The most fan a win can count; bigger hands are paid as this many.",
        ),
        HelpedOption(
            "self_draw_bonus",
            "choice",
            "none",
            "自摸加成",
            "Self-draw bonus",
            choices=("none", "base", "fan"),
            choice_labels={
                "none": ("无", "None"),
                "base": ("自摸加底", "Add the base"),
                "fan": ("自摸加番", "Add one fan"),
            },
            help_zh="自摸的加成：不加、加一个底分，或加一番。",
            help_en="What a self-drawn win adds: nothing, the base stake, or one more fan.",
        ),
        HelpedOption(
            "direct_kong_pay",
            "int",
            1,
            "直杠付分",
            "Direct kong payment",
            choices=(1, 2),
            help_zh="别人打出的牌被直杠时，打牌者付几个底分。",
            help_en="How many base stakes the discarder pays for a kong made from their discard.",
        ),
        HelpedOption(
            "last_four_forced_win",
            "bool",
            True,
            "最后四张自动胡",
            "Forced win in last four",
            help_zh="牌墙只剩四张或更少时，能胡必须胡。",
            help_en="With four tiles or fewer left in the wall, a player who can win must win.",
        ),
        HelpedOption(
            "hai_di",
            "bool",
            True,
            "海底捞月加番",
            "Last-tile win bonus",
            help_zh="摸到牌墙最后一张自摸胡牌，加一番。",
            help_en="Winning on the very last tile of the wall adds one fan.",
        ),
        HelpedOption(
            "jin_gou_diao",
            "bool",
            True,
            "金钩钓加番",
            "Single-tile wait bonus",
            help_zh="其余都已碰杠、手里只剩一张单钓胡牌，加一番。",
            help_en="Winning with a single tile left in hand (all else melded) adds one fan.",
        ),
        HelpedOption(
            "cha_da_jiao",
            "choice",
            "max",
            "查大叫",
            "Not-ready check pays",
            choices=("max", "min"),
            choice_labels={
                "max": ("按最大番", "The best reading"),
                "min": ("按最小番", "The least reading"),
            },
            help_zh="流局时，没听牌的玩家按听牌者可能的最大或最小番数赔付。",
            help_en=(
                "When the wall runs out, players not ready pay the ready ones their best or their"
                " least possible hand."
            ),
        ),
        HelpedOption(
            "hua_zhu_pay",
            "int",
            16,
            "花猪赔付",
            "Flower-pig payment",
            min=0,
            max=1000,
            help_zh="流局时手里仍有三门花色（花猪）的玩家赔给其他每位玩家的分数。",
            help_en=(
                "What a player still holding all three suits at the end pays each other player."
            ),
        ),
        HelpedOption(
            "escape_pay",
            "int",
            16,
            "逃跑赔付",
            "Leaving penalty",
            min=0,
            max=1000,
            help_zh="对局中途离开的玩家赔给仍在局中的每位玩家的分数。",
            help_en="What a player who leaves during a hand pays each player still in it.",
        ),
        HelpedOption(
            "dealer_rule",
            "choice",
            None,
            "定庄方式",
            "Next dealer",
            choices=("dice", "discarder", "first_winner"),
            choice_labels={
                "dice": ("掷骰", "Dice"),
                "discarder": ("点炮者坐庄", "The discarder"),
                "first_winner": ("先胡者坐庄", "The first winner"),
            },
            derive=lambda v: "dice" if v["mode"] == "xuezhan" else "discarder",
            help_zh="下一局谁坐庄：掷骰、点炮者或先胡者。默认：血战到底掷骰，其他玩法点炮者坐庄。",
            help_en=(
                "Who deals the next hand: by dice, the player who discarded into a win, or the "
                "first winner. Default: dice in bloody battle, the discarder otherwise."
            ),
        ),
        HelpedOption(
            "dian_gang_hua",
            "choice",
            "discarder",
            "点杠花",
            "Kong-flower after a direct kong",
            choices=("discarder", "zimo"),
            choice_labels={
                "discarder": ("点杠者付", "The kong's discarder pays"),
                "zimo": ("算自摸", "Counts as self-draw"),
            },
            help_zh="直杠后杠上开花：由打出杠牌的人按点炮一人付（默认），或按自摸由各家付。",
            help_en=(
                "A win on the replacement tile after a kong from someone's discard: the one who"
                " discarded the kong tile pays alone, as for dealing in (default), or everyone"
                " pays as for a self-draw."
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
            help_zh="所有付分的计算单位（底分）。",
            help_en="The stake every payment is counted in (底分).",
        ),
    )
)
