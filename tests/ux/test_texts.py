"""Every house rule has its one-line help in both languages (refusals: tests/test_refusals.py)."""

from games.rules import available


def test_every_option_of_every_variant_has_help_in_both_languages():
    """One mechanism: every option is a ``HelpedOption`` carrying its line in both languages."""
    for variant in available():
        for option in variant.options.describe():
            own = option.get("help") or {}
            en, zh = own.get("en"), own.get("zh-hans")
            assert en and zh and en != zh, (variant.key, option["id"])
