"""Every house rule has its one-line help and every refusal code its words, in both languages."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from games.rooms.views import error_messages
from games.rules import available

ROOT = Path(__file__).resolve().parents[2]


def test_every_option_of_every_variant_has_help_in_both_languages():
    """One mechanism: every option is a ``HelpedOption`` carrying its line in both languages."""
    for variant in available():
        for option in variant.options.describe():
            own = option.get("help") or {}
            en, zh = own.get("en"), own.get("zh-hans")
            assert en and zh and en != zh, (variant.key, option["id"])


@pytest.mark.parametrize(
    ("path", "pattern"),
    [
        ("games/table/services.py", r'ServiceError\(\s*"([a-z_]+)"'),
        ("games/table/assist.py", r'ServiceError\(\s*"([a-z_]+)"'),
        ("games/rules/engine.py", r'Rejection\(\s*"([a-z_]+)"'),
    ],
)
def test_every_refusal_code_reads_in_both_languages(path, pattern):
    codes = set(re.findall(pattern, (ROOT / path).read_text())) - {"bot_name_taken", "bad_seat"}
    assert codes
    with translation.override("en"):
        en = error_messages()
    with translation.override("zh-hans"):
        zh = error_messages()
    missing = sorted(c for c in codes if c not in en or en[c] == zh[c])
    assert missing == []
