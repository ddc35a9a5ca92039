"""How the site names and describes the variants, read off the registered variant objects.

Each variant carries its own names, description and what its table shows
(games/rules/variants/<key>/); the site lists what the registry lists, in the variants'
own order, so a new rule set appears on every page by registering itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language

from games.rules import available, get_variant
from games.rules.variants import UnknownVariant


def lang() -> str:
    """The reader's language as the variants' texts are keyed: "zh-hans" or "en"."""
    return "en" if (get_language() or "").startswith("en") else "zh-hans"


@dataclass(frozen=True)
class VariantInfo:
    key: str
    names: dict[str, str]
    descriptions: dict[str, str]

    @property
    def name(self) -> str:
        return self.names[lang()]

    @property
    def description(self) -> str:
        return self.descriptions[lang()]


def _info(v) -> VariantInfo:
    return VariantInfo(
        key=v.key,
        names={"zh-hans": v.name_zh, "en": v.name_en},
        descriptions={"zh-hans": v.description_zh, "en": v.description_en},
    )


def listed_variants() -> list[VariantInfo]:
    """Every variant players can choose, in the site's order."""
    return [_info(v) for v in available()]


def variant_info(key: str) -> VariantInfo | None:
    """A registered variant's names (listed or not), or None for an unknown key."""
    try:
        return _info(get_variant(key))
    except UnknownVariant:
        return None


def variant_name(key: str) -> str:
    info = variant_info(key)
    return info.name if info else key
