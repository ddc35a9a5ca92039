"""URL path converters shared by every app's URLconf.

Importing this module registers them (config/urls.py imports it before any app's URLconf).
"""

from django.urls import register_converter

#: The largest primary key a BigAutoField (a signed 64-bit integer) can hold.
MAX_ID = 2**63 - 1


class IdConverter:
    """A row id: digits up to the largest a primary key can hold. A larger one matches no
    route (404) instead of reaching the database, where it overflows (SQLite: a 500)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValueError(value)  # Django reads this as "no match"
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


def row_id(raw: str | None) -> int | None:
    """A row id sent in a query string, or None when it is not one (a number past what a
    primary key holds would overflow in the database)."""
    if not raw or not raw.isdigit() or len(raw) > 19 or int(raw) > MAX_ID:
        return None
    return int(raw)


register_converter(IdConverter, "id")
