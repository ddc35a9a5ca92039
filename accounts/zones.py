"""The time zone a reader sees times in. Times are stored in UTC; each request is served
in the reader's zone (``accounts.middleware.UserTimezoneMiddleware``), so templates' dates,
``localtime`` and date filters (``__date`` lookups) all read in it."""

import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: The zone of a Chinese reader who has not chosen one (the country keeps one zone).
CHINA = "Asia/Shanghai"


@cache
def zone_names() -> tuple[str, ...]:
    """The IANA zones this machine knows, sorted."""
    return tuple(sorted(zoneinfo.available_timezones()))


def is_zone(name: str) -> bool:
    return name in zone_names()


def validate_zone(name: str) -> None:
    if name and not is_zone(name):
        raise ValidationError(_("Not a known time zone."), code="bad_timezone")


def reader_zone(zone: str, language: str) -> zoneinfo.ZoneInfo | None:
    """The reader's zone: the one chosen, else China's for a Chinese reader; None (the
    site's UTC) for anyone else."""
    if zone and is_zone(zone):
        return zoneinfo.ZoneInfo(zone)
    if (language or "").startswith("zh"):
        return zoneinfo.ZoneInfo(CHINA)
    return None
