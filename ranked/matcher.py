"""The matching passes, one per variant: any process may run them.  Each sweep of the
table sweeper calls in (``match_pass_due``): a variant's pass takes that variant's turn
in the shared cache, runs, and leaves the turn taken for ``RANKED_MATCH_INTERVAL``
seconds after it ends, so one variant's passes follow one another without overlapping
however many processes sweep, and different variants' passes run side by side in
different processes.  Queue polls call in too, but run passes only when none has ended
for three intervals (no process sweeps: the embedded profile before any socket has
started its sweeper).  Should passes still meet (a turn lost with a dead process),
several at once never seat a player twice.

A variant's pass, each step in its own transaction:
1. drops queue entries neither polled nor held by a socket within ``RANKED_QUEUE_GRACE``;
2. settles tables whose time to arrive is over: a started table is playing; at one still
   waiting, who is not ready never came (penalised) and the others return to the queue
   at their old places;
3. reads the waiting entries, forms tables (``ranked.matching``) and seats each in a
   transaction of its own that first locks its four entries (``SKIP LOCKED``: one taken
   or held by another pass, and the table is not formed): the room, the match, its
   seats (one active ranked seat per player: a unique index) and the entries' room;
4. gives those who chose "fill with bots" and waited that long a bot table (unranked).
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Room, Seat
from games.rules import available
from games.table import seating, services
from games.table.errors import ServiceError
from ranked.matching import Waiting, form_tables
from ranked.models import QueueEntry, Rank, RankedMatch, RankedSeat
from ranked.services import (
    current_season,
    match_settle,
    no_show_penalise,
    players_told_on_commit,
    rank_of,
)

log = logging.getLogger(__name__)
# Per variant, held while its pass runs and for an interval after it: the turn.
PASS_KEY = "ranked:match-pass"
# Present while a pass ended within three intervals: some process is matching.
RAN_KEY = "ranked:match-ran"
# A pass not over after this many seconds died with its process: the turn is free again.
PASS_TIMEOUT = 120


def match_pass_due(*, poll: bool = False) -> None:
    """Each variant's pass whose turn is free anywhere the cache is shared (per process
    on the embedded profile's local cache), starting from a variant drawn at random, so
    that processes sweeping at once take different variants' turns and run their passes
    side by side.  ``poll``: called from a queue poll, which runs passes only where none
    has ended for three intervals: where sweepers match, a REST request never carries a
    pass (seconds, with a burst of tables to seat)."""
    if poll and cache.get(RAN_KEY):
        return
    keys = [v.key for v in available()]
    first = random.randrange(len(keys))
    for variant in keys[first:] + keys[:first]:
        turn = f"{PASS_KEY}:{variant}"
        if not cache.add(turn, 1, timeout=PASS_TIMEOUT):
            continue
        try:
            variant_pass(variant, timezone.now())
        finally:
            cache.set(turn, 1, timeout=settings.RANKED_MATCH_INTERVAL)
            cache.set(RAN_KEY, 1, timeout=3 * settings.RANKED_MATCH_INTERVAL)


def match_pass(now: datetime | None = None) -> int:
    """Every variant's pass, here and now; returns the number of ranked tables formed."""
    now = now or timezone.now()
    return sum(variant_pass(v.key, now) for v in available())


def variant_pass(variant: str, now: datetime) -> int:
    """One variant's matching pass; returns the number of ranked tables formed."""
    stale = now - timedelta(seconds=settings.RANKED_QUEUE_GRACE)
    QueueEntry.objects.filter(variant=variant, seen_at__lt=stale).delete()
    arrivals_due(variant, now)
    return variant_match(variant, now)


def arrivals_due(variant: str, now: datetime) -> None:
    # A match whose record was written but whose settling was lost (a worker died between
    # the two) is settled here: its players would otherwise stay held at it.
    for room_id in RankedMatch.objects.filter(
        variant=variant,
        status__in=[RankedMatch.Status.WAITING, RankedMatch.Status.PLAYING],
        room__status=Room.Status.FINISHED,
        room__record__isnull=False,
    ).values_list("room_id", flat=True):
        match_settle(room_id)
    for match_id in RankedMatch.objects.filter(
        variant=variant, status=RankedMatch.Status.WAITING, arrive_by__lte=now
    ).values_list("pk", flat=True):
        arrival_settle(match_id, now)


@transaction.atomic
def arrival_settle(match_id, now: datetime) -> None:
    room_id = (
        RankedMatch.objects.filter(pk=match_id, status=RankedMatch.Status.WAITING)
        .values_list("room_id", flat=True)
        .first()
    )
    if room_id is None:
        return
    room = services.room_lock(room_id)  # the room first: the table's lock order
    match = (
        RankedMatch.objects.select_for_update()
        .filter(pk=match_id, status=RankedMatch.Status.WAITING)
        .first()
    )
    if match is None:  # settled meanwhile (a player left, another pass)
        return
    if room.status == Room.Status.FINISHED and not room.hands_played:
        match.seats.update(active=False)  # over before a hand was played: nothing counts
        match.status = RankedMatch.Status.CANCELLED
        match.save(update_fields=["status"])
        return
    if room.status != Room.Status.OPEN:  # everyone came and the first hand was dealt
        match.status = RankedMatch.Status.PLAYING
        match.save(update_fields=["status"])
        return
    came = {s.user_id for s in Seat.objects.filter(room=room) if s.user_id and (s.ready or s.auto)}
    match_call_off(match, room, {s.user_id for s in match.seats.all()} - came, now)


def left_before_start(room: Room, seat: Seat) -> None:
    """A matched player left the table before its first deal: they never played, as if
    they never came (``holds``' hook; the room row is locked)."""
    match = (
        RankedMatch.objects.select_for_update()
        .filter(room_id=room.pk, status=RankedMatch.Status.WAITING)
        .first()
    )
    if match is not None:
        match_call_off(match, room, {seat.user_id}, timezone.now())


def match_call_off(match: RankedMatch, room: Room, gone: set[int], now: datetime) -> None:
    """Call off a match before its first deal (room and match rows locked): those in
    ``gone`` never came and are penalised; the others return to the queue at their old
    places (the front).  Nobody stays seated: the room ends and every seat is let go."""
    returned = []
    for seat in match.seats.select_related("user"):
        seat.active = False
        seat.save(update_fields=["active"])
        if seat.user_id in gone:
            no_show_penalise(match, seat, now)
            QueueEntry.objects.filter(user_id=seat.user_id).delete()
            continue
        QueueEntry.objects.update_or_create(
            user_id=seat.user_id,
            defaults={
                "variant": match.variant,
                "joined_at": seat.joined_at,
                "seen_at": now,
                "address": seat.address,
                "room": None,
            },
        )
        returned.append(seat.user_id)
    match.status = RankedMatch.Status.CANCELLED
    match.save(update_fields=["status"])
    seating.room_call_off(room_id=room.pk)
    players_told_on_commit([*returned, *gone])


def variant_match(variant: str, now: datetime) -> int:
    """Form the variant's tables from the queue as read now (no lock held while choosing),
    then seat each in a transaction of its own that locks its four entries."""
    entries = list(
        QueueEntry.objects.filter(variant=variant, room__isnull=True)
        .select_related("user")
        .order_by("joined_at")
    )
    if not entries:
        return 0
    season = current_season(now)
    ranks = {
        r.user_id: r
        for r in Rank.objects.filter(
            variant=variant, season=season, user_id__in=[e.user_id for e in entries]
        )
    }
    by_user = {e.user_id: e for e in entries}
    waiting = []
    for e in entries:
        rank = ranks.get(e.user_id) or rank_of(e.user, variant, season)
        waited = (now - e.joined_at).total_seconds()
        waiting.append(Waiting(e.user_id, waited, rank.step, rank.mu, e.address))
    tables = form_tables(waiting, band=settings.RANKED_BAND, widen=settings.RANKED_BAND_WIDEN)
    formed = 0
    seated = set()
    for table in tables:
        group = [by_user[w.id] for w in table]
        if table_seat(group, variant, season, now):
            formed += 1
            seated.update(w.id for w in table)
    for e in entries:  # the unranked choice: a table with bots, now
        if e.user_id in seated or e.bots_after is None:
            continue
        if (now - e.joined_at).total_seconds() >= e.bots_after:
            bots_seat(e)
    return formed


@transaction.atomic
def table_seat(group: list[QueueEntry], variant: str, season, now: datetime) -> bool:
    """Seat these four at a new ranked table, all or none.  Their entries are locked
    first; one gone, seated or held by another pass meanwhile: this table is not formed
    (the rest wait for the next pass)."""
    held = QueueEntry.objects.select_for_update(skip_locked=True).filter(
        pk__in=[e.pk for e in group], room__isnull=True
    )
    if len(held) < 4:
        return False
    try:
        with transaction.atomic():
            room = seating.room_open_seated(
                players=[e.user for e in group], variant=variant, hands=settings.RANKED_HANDS
            )
            match = RankedMatch.objects.create(
                room=room,
                variant=variant,
                season=season,
                arrive_by=now + timedelta(seconds=settings.RANKED_ARRIVE_SECONDS),
            )
            RankedSeat.objects.bulk_create(
                RankedSeat(
                    match=match,
                    user=e.user,
                    seat=i,
                    joined_at=e.joined_at,
                    address=e.address,
                )
                for i, e in enumerate(group)
            )
            QueueEntry.objects.filter(pk__in=[e.pk for e in group]).update(room=room)
            players_told_on_commit([e.user_id for e in group])  # their tabs open the table
    except (IntegrityError, ServiceError) as e:
        # A player already at a ranked table (a unique index said so) or over a cap:
        # out of the queue, the others wait for the next pass.
        log.warning("ranked table not formed: %s", e)
        QueueEntry.objects.filter(pk=group[0].pk).delete()
        return False
    return True


@transaction.atomic
def bots_seat(entry: QueueEntry) -> None:
    held = QueueEntry.objects.select_for_update(skip_locked=True)
    if held.filter(pk=entry.pk, room__isnull=True).first() is None:
        return
    try:
        with transaction.atomic():
            room = services.room_create(
                owner=entry.user,
                variant=entry.variant,
                hands=settings.RANKED_HANDS,
                private=True,
                bots=3,
            )
            QueueEntry.objects.filter(pk=entry.pk).update(room=room)
            players_told_on_commit([entry.user_id])
    except ServiceError as e:
        log.warning("bot table not opened: %s", e)
        QueueEntry.objects.filter(pk=entry.pk).delete()
