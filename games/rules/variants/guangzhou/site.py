"""What the site shows about Guangzhou besides its rules: fan added up to the cap."""

from __future__ import annotations

TABLE_UI = {
    "result": {
        "unit": {"zh-hans": "番", "en": "fan"},
        "combine": "add",
        "base": 0,
        "capped": {"zh-hans": "封顶", "en": "capped"},
    }
}
