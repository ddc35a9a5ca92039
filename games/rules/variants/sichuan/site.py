"""What the site shows about Sichuan besides its rules: the two setup phases (换三张, 定缺),
the missing-suit mark, the pass direction, the end-of-wall checks, its words for refusals
and the how-to-play lines.  Texts are ``{"zh-hans", "en"}``; the table page renders them
(``static/js/table/variant_ui.js``) without knowing the variant."""

from __future__ import annotations


def t(zh: str, en: str) -> dict[str, str]:
    return {"zh-hans": zh, "en": en}


SUITS = {
    "m": {"mark": t("万", "C"), "char": "万", "name": t("万", "Characters")},
    "p": {"mark": t("筒", "D"), "char": "筒", "name": t("筒", "Dots")},
    "s": {"mark": t("条", "B"), "char": "条", "name": t("条", "Bamboo")},
}

TABLE_UI = {
    "setup": [
        {
            "phase": "exchange",
            "action": "exchange",
            "label": t("换三张", "Passes three tiles"),
            # Tiles picked in the hand, sent as the action whose ``tiles`` are those three.
            "pick": {"count": 3, "field": "tiles"},
            "prompt": t(
                "换三张：选择同一花色的三张牌", "Choose three tiles of one suit to pass on"
            ),
            "confirm": t("确认换牌", "Pass these three"),
            "waiting": t("等待其他玩家换牌", "Waiting for the others to choose"),
            "tap": t("等待其他玩家换牌", "Waiting for the others to choose"),
            "full": t(
                "已选三张：先点一张已选的牌放回。",
                "Three tiles are picked: tap one to put it back first.",
            ),
            "timeout": {
                "text": t(
                    "超时：已替你换出三张牌。", "Time ran out: three tiles were passed on for you."
                ),
            },
        },
        {
            "phase": "ding_que",
            "action": "ding_que",
            "label": t("定缺", "Gives up a suit"),
            # One button per offered value of ``suit``; the number keys pick them in order.
            "choose": {"field": "suit", "keys": ["m", "p", "s"], "values": SUITS},
            "prompt": t("请定缺：选择要打缺的花色", "Choose the suit you will give up"),
            "waiting": t("等待其他玩家定缺", "Waiting for the others to choose a suit"),
            "tap": t(
                "请先定缺（上方按钮）。",
                "First choose the suit you will give up (the buttons above).",
            ),
            "timeout": {
                "text": t(
                    "超时：已替你定缺%(suit)s。",
                    "Time ran out: %(suit)s was chosen as your missing suit.",
                ),
            },
        },
    ],
    # A seat's chosen suit (the view's ``que``): a badge on its plate, its tiles marked in
    # the hand, and discarded before any other.
    "mark": {
        "field": "que",
        "title": t("定缺", "Missing suit"),
        "values": SUITS,
        "first": t(
            "先打出你的%(suit)s：这是你定缺的花色。",
            "Discard your %(suit)s first: it is your missing suit.",
        ),
    },
    # Until play starts: which way the tiles went (the view's ``exchange_direction``).
    "note": {
        "field": "exchange_direction",
        "text": t("换牌方向：%(value)s", "Tiles passed %(value)s"),
        "values": {
            "clockwise": t("顺时针", "clockwise"),
            "counter_clockwise": t("逆时针", "counter-clockwise"),
            "across": t("对家", "across"),
        },
    },
    "result": {
        "unit": t("番", "fan"),
        "combine": "add",
        "base": 0,
        "capped": t("封顶", "capped"),
        # Payments to the winner that belong to the win though not made by it (呼叫转移).
        "win_reasons": ["gang_shang_pao"],
    },
    # The end-of-wall checks in the hand's settlement details (``cha``).
    "end_checks": {
        "field": "cha",
        "title": t("查叫", "End-of-wall checks"),
        "rows": [
            {"field": "hua_zhu", "label": t("花猪", "Flower pig (花猪)")},
            {"field": "ready", "label": t("听牌", "Ready hand (听牌)"), "unit": t("番", "fan")},
            {"field": "not_ready", "label": t("未听牌", "Not ready (未听)")},
        ],
    },
    # Bloody battle or not: the choice that changes the game most.
    "main_rules": ["mode"],
    "errors": {"que_first": t("请先打出定缺的花色。", "Discard your missing suit first.")},
    "help": [
        t(
            "定缺：先打完所缺花色的牌才能打别的；手里还有缺门牌时不能胡。",
            "定缺 (missing suit): discard every tile of that suit before any other; "
            "you cannot win while holding one.",
        ),
        t("1/2/3 键：定缺万、筒、条。", "Keys 1/2/3 choose the missing suit."),
    ],
}
