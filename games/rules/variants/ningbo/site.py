"""What the site shows about Ningbo besides its rules: a win refused under ``min_tai``, the
吃张打张 refusal, and the result line ``1 + Σ台 = T``.  Texts are ``{"zh-hans", "en"}``."""

from __future__ import annotations


def t(zh: str, en: str) -> dict[str, str]:
    return {"zh-hans": zh, "en": en}


TABLE_UI = {
    # Why a winning shape may not win (the view's ``win_refused``, by its ``refused``).
    "refusals": {
        "min_tai": t(
            "这样胡只有 %(tai)s 台，至少要 %(min_tai)s 台才能胡",
            "a win here would have %(tai)s tai; at least %(min_tai)s are needed",
        )
    },
    # T = 1 + Σ台: the hand is worth 1 before its items.
    "result": {"unit": t("台", "tai"), "combine": "add", "base": 1},
    "errors": {
        "chi_zhang_da_zhang": t(
            "吃牌后不能打出这张牌（吃张打张）。",
            "After this chow you may not discard that tile (吃张打张).",
        )
    },
}
