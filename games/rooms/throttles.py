"""Rates for what a user can repeat, counted in the cache (shared by every process).

The same classes guard the REST views and the HTML forms that do the same thing."""

from rest_framework.throttling import UserRateThrottle


class RoomCreateThrottle(UserRateThrottle):
    scope = "room_create"


class JoinCodeThrottle(UserRateThrottle):
    """Join codes are six letters: guessing them must be slow, through any door."""

    scope = "room_join"


class TableTalkThrottle(UserRateThrottle):
    """Dissolve votes and quick phrases through REST (the services hold their own
    limits: a proposal every 5 minutes, a phrase every 3 seconds)."""

    scope = "table_talk"


class RulesReadThrottle(UserRateThrottle):
    """The rules pages: reading, at the records' rate."""

    scope = "records_read"
