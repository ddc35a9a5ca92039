"""What the site shows about Hangzhou besides its rules: its items multiply (W = ×a × ×b)."""

from __future__ import annotations

TABLE_UI = {"result": {"unit": {"zh-hans": "倍", "en": "×"}, "combine": "times", "base": 0}}
