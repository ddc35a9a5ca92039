"""What the site shows about Hangzhou besides its rules: its items multiply (W = ×a × ×b)."""

from __future__ import annotations

TABLE_UI = {
    "result": {"unit": {"zh-hans": "倍", "en": "times"}, "combine": "times", "base": 0},
    # The dealer's streak factor D (the view's ``streak_factor``).
    "badge": {
        "field": "streak_factor",
        "text": {"zh-hans": "庄家翻倍 ×%(value)s", "en": "Dealer pays and gets ×%(value)s"},
        "help": {
            "zh-hans": "庄家连庄使付款翻的倍数",
            "en": "What the dealer's streak multiplies payments by",
        },
    },
}
