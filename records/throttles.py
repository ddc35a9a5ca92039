"""Rates for the records endpoints and pages, counted in the cache like the others.

Reading is cheap but not free (each page reads a match's players); the CSV export
and the QR codes are the costly ones."""

import os

from rest_framework.throttling import UserRateThrottle


class RecordsReadThrottle(UserRateThrottle):
    scope = "records_read"
    rate = os.environ.get("RECORDS_READ_RATE", "120/min")


class RecordsExportThrottle(UserRateThrottle):
    scope = "records_export"
    rate = os.environ.get("RECORDS_EXPORT_RATE", "10/min")


class InviteQRThrottle(UserRateThrottle):
    scope = "invite_qr"
    rate = os.environ.get("INVITE_QR_RATE", "30/min")


class ClubJoinThrottle(UserRateThrottle):
    """The API's club-join limit (``club_join``), through the invite link's form too."""

    scope = "club_join"
