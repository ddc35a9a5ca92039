"""Rates for the records endpoints and pages, counted in the cache like the others.

Reading is cheap but not free (each page reads a match's players); the CSV export
is the costly one."""

from rest_framework.throttling import UserRateThrottle


class RecordsReadThrottle(UserRateThrottle):
    scope = "records_read"


class RecordsExportThrottle(UserRateThrottle):
    scope = "records_export"
