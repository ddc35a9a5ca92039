"""Sichuan house rules (../shared/rules/sichuan.md, "House rules")."""

from __future__ import annotations

from ...options import Option, OptionSet

SICHUAN_OPTIONS = OptionSet(
    (
        Option(
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
        ),
        Option("ding_que", "bool", True, "定缺", "Declare a missing suit"),
        Option("huan_san_zhang", "bool", False, "换三张", "Exchange three tiles"),
        Option("fan_cap", "int", 4, "封顶番数", "Fan cap", min=1, max=13, nullable=True),
        Option(
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
        ),
        Option("direct_kong_pay", "int", 1, "直杠付分", "Direct kong payment", choices=(1, 2)),
        Option("last_four_forced_win", "bool", True, "最后四张自动胡", "Forced win in last four"),
        Option("hai_di", "bool", True, "海底捞月加番", "Last-tile win bonus"),
        Option("jin_gou_diao", "bool", True, "金钩钓加番", "Single-tile wait bonus"),
        Option(
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
        ),
        Option("hua_zhu_pay", "int", 16, "花猪赔付", "Flower-pig payment", min=0, max=1000),
        Option("escape_pay", "int", 16, "逃跑赔付", "Leaving penalty", min=0, max=1000),
        Option(
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
        ),
        Option(
            "dian_gang_hua",
            "choice",
            "zimo",
            "点杠花",
            "Kong-flower after a direct kong",
            choices=("zimo", "discarder"),
            choice_labels={
                "zimo": ("算自摸", "Counts as self-draw"),
                "discarder": ("点杠者付", "The kong's discarder pays"),
            },
        ),
        Option("base", "int", 1, "底分", "Base stake", min=1, max=1000),
    )
)
