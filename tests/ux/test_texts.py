"""Every house rule has its one-line help and every refusal code its words, in both languages."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from games.option_help import option_help
from games.rules import available
from games.views import error_messages

ROOT = Path(__file__).resolve().parents[2]


def test_every_option_of_every_variant_has_help_in_both_languages():
    """Its variant's own line (Hangzhou's options carry one) or the site's (games.option_help)."""
    for variant in available():
        for option in variant.options.describe():
            own = option.get("help") or {}
            with translation.override("en"):
                en = own.get("en") or option_help().get(option["id"])
            with translation.override("zh-hans"):
                zh = own.get("zh-hans") or option_help().get(option["id"])
            assert en and zh and en != zh, (variant.key, option["id"])


@pytest.mark.parametrize(
    ("path", "pattern"),
    [
        ("games/services.py", r'ServiceError\(\s*"([a-z_]+)"'),
        ("games/assist.py", r'ServiceError\(\s*"([a-z_]+)"'),
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
