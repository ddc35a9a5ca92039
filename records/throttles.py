"""Rates for the records endpoints and pages, counted in the cache like the others.

Reading is cheap but not free (each page reads a match's players); the CSV export
and the QR codes are the costly ones."""

from rest_framework.throttling import UserRateThrottle


class RecordsReadThrottle(UserRateThrottle):
    scope = "records_read"


class RecordsExportThrottle(UserRateThrottle):
    scope = "records_export"


class InviteQRThrottle(UserRateThrottle):
    scope = "invite_qr"


class ClubJoinThrottle(UserRateThrottle):
    """The API's club-join limit (``club_join``), through the invite link's form too."""

    scope = "club_join"
