"""Rates for the invite links, counted in the cache like the others: the QR codes
are costly to draw, and an invite code must not be guessable by reading pages."""

from rest_framework.throttling import UserRateThrottle


class InviteQRThrottle(UserRateThrottle):
    scope = "invite_qr"


class ClubJoinThrottle(UserRateThrottle):
    """The API's club-join limit (``club_join``), through the invite link's form too."""

    scope = "club_join"
