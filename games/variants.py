"""How the site names and describes the four variants.

Presentation only: the rules themselves live in games/rules/ under the same keys. A
variant is *playable* once the engine registers it; until then the site shows it as
coming, never as offered.
"""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class VariantInfo:
    key: str
    name: Promise
    description: Promise

    @property
    def playable(self) -> bool:
        from games.rules import available

        return any(v.key == self.key for v in available())


VARIANTS: tuple[VariantInfo, ...] = (
    VariantInfo(
        key="sichuan",
        name=_("Sichuan Blood Battle"),
        description=_(
            "Play on until three players have won. Only three suits, no honours; "
            "declare a missing suit and never keep it."
        ),
    ),
    VariantInfo(
        key="hangzhou",
        name=_("Hangzhou"),
        description=_(
            "A fast self-draw game: a tile turned up from the wall names the "
            "Cai Shen wild tiles, which stand in for anything."
        ),
    ),
    VariantInfo(
        key="guangzhou",
        name=_("Guangzhou"),
        description=_(
            "Cantonese fan counting with a cap (bao hu); chow, pung and kong, "
            "and several players may win on one discard."
        ),
    ),
    VariantInfo(
        key="ningbo",
        name=_("Ningbo"),
        description=_(
            "Eight flowers, a Bai Da wild tile and tai counting: flowers, "
            "winds and patterns add up before the hand is paid."
        ),
    ),
)
