"""Per-user caps, so that one account cannot weigh on everyone: how many table sockets it
holds open and at how many tables it sits.

Both are counted in the database, so they hold across every server process: a socket
is its presence row (``games.table.presence``), fresh while its server's heartbeat vouches
for it, so the sockets of a server that died stop counting within
``GAME_PRESENCE_TTL`` and nobody stays locked out; a table is a seat held in a room
whose game is not over (waiting or playing, bot tables included).  Each check runs
with the user's row locked (``lock_user``), so two requests of one user at once
cannot both take the last place (``games.locks`` gives the order: a user's row before a
room's)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from config.refusals import ServiceError
from games.locks import users_lock
from games.models import Presence, Room, Seat

# A socket refused for being one too many is closed with this code after an error frame
# that says why; the client may try again later (it is not final like 4403).
CLOSE_TOO_MANY = 4429


def lock_user(user) -> None:
    """Lock ``user``'s row until the transaction ends (call inside one, before any room's:
    ``games.locks``)."""
    users_lock([user.pk])


def check_sockets(user, *, lock: bool = True) -> None:
    """Refuse one more table socket over ``GAME_MAX_SOCKETS``.  Call in the transaction
    that writes the new socket's presence row: the user's row is locked to its end.
    ``lock`` False: a first look, one read, that refuses most sockets over the cap
    before anything else is read or written for them (the locked look still decides)."""
    if lock:
        lock_user(user)
    since = timezone.now() - timedelta(seconds=settings.GAME_PRESENCE_TTL)
    open_now = Presence.objects.filter(user=user, seen_at__gte=since).count()
    if open_now >= settings.GAME_MAX_SOCKETS:
        raise ServiceError(
            "too_many_sockets",
            f"you have {open_now} table pages open already: close one to open another",
            429,
        )


def check_tables(user) -> None:
    """Refuse a seat at one more table over ``GAME_MAX_TABLES`` (user's row locked)."""
    seated = (
        Seat.objects.filter(user=user, left=False)
        .exclude(room__status=Room.Status.FINISHED)
        .count()
    )
    if seated >= settings.GAME_MAX_TABLES:
        raise ServiceError(
            "too_many_tables",
            f"you are seated at {seated} tables whose games are not over: "
            "finish or leave one before sitting at another",
            409,
        )
