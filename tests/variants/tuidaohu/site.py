"""What the site shows about 推倒胡 (test): the lucky-suit choice, its badge, the result
line in points, a how-to-play line.  Texts are ``{"zh-hans", "en"}``."""

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
            "phase": "lucky_suit",
            "action": "lucky_suit",
            "label": t("选幸运花色", "Picks a lucky suit"),
            "choose": {"field": "suit", "keys": ["m", "p", "s"], "values": SUITS},
            "prompt": t("选一门幸运花色", "Choose your lucky suit"),
            "waiting": t("等待其他玩家选幸运花色", "Waiting for the others' lucky suits"),
            "tap": t("请先选幸运花色（上方按钮）。", "First choose your lucky suit (above)."),
            "timeout": {
                "text": t("超时：已替你选%(suit)s。", "Time ran out: %(suit)s was chosen for you."),
            },
        }
    ],
    "mark": {"field": "lucky", "title": t("幸运花色", "Lucky suit"), "values": SUITS},
    "result": {"unit": t("分", "pt"), "combine": "add", "base": 0},
    "help": [t("推倒胡：任何胡牌牌型都能胡。", "Tui dao hu: any winning shape wins.")],
}
