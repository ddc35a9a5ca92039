"""Ranked play's writes: seasons, 段位 rows, the queue, and a match's end.

Locking: a queue change locks the user's row first (``games.table.limits.lock_user``, the
order every cap check of the site takes); a match's end locks its ``RankedMatch`` row,
then its players' ``Rank`` rows.  Matching is in ``ranked.matcher``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from games.models import Room
from games.rules import UnknownVariant, get_variant
from games.table import limits, publish
from leaderboards.rating import default_skill, rate
from ranked import ladder
from ranked.errors import refuse
from ranked.models import Penalty, QueueEntry, Rank, RankedMatch, RankedSeat, Season
from records.models import MatchPlayer

log = logging.getLogger(__name__)


def current_season(now: datetime | None = None) -> Season:
    """The season in play: the latest started one.  A site without any gets its first."""
    now = now or timezone.now()
    season = Season.objects.filter(starts__lte=now).order_by("-starts", "-id").first()
    if season is None:
        season, _ = Season.objects.get_or_create(name="S1", defaults={"starts": now})
    return season


@transaction.atomic
def season_start(*, name: str, starts: datetime | None = None) -> Season:
    """Start a season: the one in play ends when it starts.  Ranks carry over softened
    (``ladder.soften``) as each player first plays in it."""
    starts = starts or timezone.now()
    Season.objects.filter(ends__isnull=True, starts__lt=starts).update(ends=starts)
    return Season.objects.create(name=name, starts=starts)


def rank_of(user, variant: str, season: Season, *, lock: bool = False) -> Rank:
    """The player's 段位 row, made on first use from their last season's, softened."""
    rows = Rank.objects.select_for_update() if lock else Rank.objects
    rank = rows.filter(user=user, variant=variant, season=season).first()
    if rank is not None:
        return rank
    before = (
        Rank.objects.filter(user=user, variant=variant, season__starts__lt=season.starts)
        .order_by("-season__starts")
        .first()
    )
    if before is None:
        standing, (mu, sigma) = ladder.newcomer(), default_skill()
    else:
        standing = ladder.soften(ladder.Standing(before.step, before.points))
        mu, sigma = before.mu, before.sigma
    rank, _ = Rank.objects.get_or_create(
        user=user,
        variant=variant,
        season=season,
        defaults={"step": standing.step, "points": standing.points, "mu": mu, "sigma": sigma},
    )
    return rows.get(pk=rank.pk) if lock else rank


def active_seat(user) -> RankedSeat | None:
    return RankedSeat.objects.filter(user=user, active=True).select_related("match").first()


@transaction.atomic
def queue_join(*, user, variant, address: str | None, bots_after=None) -> QueueEntry:
    """Queue ``user`` for ``variant``'s ranked play (again: the same entry)."""
    try:
        variant = get_variant(variant).key if isinstance(variant, str) else None
    except UnknownVariant:
        variant = None
    if variant is None:
        raise refuse("unknown_variant")
    if bots_after is not None and (
        isinstance(bots_after, bool)
        or not isinstance(bots_after, int)
        or not 10 <= bots_after <= 600
    ):
        raise refuse("bad_bots_after")
    limits.lock_user(user)
    now = timezone.now()
    penalty = Penalty.objects.filter(user=user, until__gt=now).order_by("-until").first()
    if penalty is not None:
        raise refuse("penalised", until=date_format(timezone.localtime(penalty.until), "H:i"))
    if active_seat(user) is not None:
        raise refuse("seated_ranked")
    entry = QueueEntry.objects.filter(user=user).first()
    if entry is not None and entry.room_id is None:
        if entry.variant != variant:
            raise refuse("queued_elsewhere")
        entry.seen_at, entry.bots_after = now, bots_after
        entry.save(update_fields=["seen_at", "bots_after"])
        return entry
    if entry is not None:  # seated by an earlier entry (at a bot table): a new wait
        entry.delete()
    rank_of(user, variant, current_season(now))  # on the board from the first queueing
    players_told_on_commit([user.pk])  # the player's other tabs show the wait
    return QueueEntry.objects.create(
        user=user,
        variant=variant,
        joined_at=now,
        seen_at=now,
        address=address,
        bots_after=bots_after,
    )


def queue_poll(*, user) -> dict:
    """The caller's place in the queue (their poll keeps them in it)."""
    now = timezone.now()
    entry = QueueEntry.objects.filter(user=user).select_related("room").first()
    if entry is None or (entry.room_id and entry.room.status == Room.Status.FINISHED):
        if entry is not None:  # seated, and that table's match is over: no longer queued
            entry.delete()
        raise refuse("not_queued")
    QueueEntry.objects.filter(pk=entry.pk).update(seen_at=now)
    return {
        "variant": entry.variant,
        "waited_seconds": max(0, int((now - entry.joined_at).total_seconds())),
        "players_queued": QueueEntry.objects.filter(
            variant=entry.variant, room__isnull=True
        ).count(),
        "room": entry.room_id,
    }


def queue_leave(*, user) -> None:
    QueueEntry.objects.filter(user=user).delete()
    players_told_on_commit([user.pk])


def queue_seen(user_id) -> None:
    """A play-page socket of the player closed: their wait counts from now (a reload or a
    dropped connection has the whole ``RANKED_QUEUE_GRACE`` to come back)."""
    QueueEntry.objects.filter(user_id=user_id, room__isnull=True).update(seen_at=timezone.now())


def player_group(user_id) -> str:
    """The group of one player's play-page sockets (``ranked.consumers``)."""
    return f"ranked.player.{user_id}"


def players_told_on_commit(user_ids) -> None:
    """After commit, every play-page socket of these players reads their queue state again
    (once seated, each of their tabs opens the table).  A lost notice costs a socket at
    most one beat (``consumers.beat``)."""
    ids = list(user_ids)

    async def tell():
        layer = get_channel_layer()
        for user_id in ids:
            await layer.group_send(player_group(user_id), {"type": "queue.changed"})

    def send():
        try:
            async_to_sync(tell)()
        except Exception:
            log.exception("telling the play pages failed")

    transaction.on_commit(send)


@transaction.atomic
def match_settle(room_id) -> RankedMatch | None:
    """A ranked match's record is written: place its players by their totals and move
    their 段位 and estimate, once (the match row locked; a second call finds it over)."""
    match = (
        RankedMatch.objects.select_for_update()
        .filter(
            room_id=room_id, status__in=[RankedMatch.Status.WAITING, RankedMatch.Status.PLAYING]
        )
        .first()
    )
    if match is None:
        return None
    seats = sorted(match.seats.select_related("user"), key=lambda s: s.seat)
    totals = dict(MatchPlayer.objects.filter(match__room_id=room_id).values_list("seat", "total"))
    places = ladder.placements([totals.get(s.seat, 0) for s in seats])
    ranks = [rank_of(s.user, match.variant, match.season, lock=True) for s in seats]
    skills = rate([(r.mu, r.sigma) for r in ranks], [4 - p for p in places])
    now = timezone.now()
    for seat, rank, place, (mu, sigma) in zip(seats, ranks, places, skills, strict=True):
        after = ladder.apply_points(
            ladder.Standing(rank.step, rank.points), ladder.placement_points(place, rank.step)
        )
        seat.placement, seat.ended_at, seat.active = place, now, False
        seat.step_before, seat.points_before = rank.step, rank.points
        seat.step_after, seat.points_after = after.step, after.points
        seat.save()
        rank.step, rank.points, rank.mu, rank.sigma = after.step, after.points, mu, sigma
        rank.matches += 1
        rank.save(update_fields=["step", "points", "mu", "sigma", "matches"])
    match.status = RankedMatch.Status.FINISHED
    match.save(update_fields=["status"])
    publish.room_changed_on_commit(room_id)  # the plates show the new 段位
    return match


def no_show_penalise(match: RankedMatch, seat: RankedSeat, now: datetime) -> None:
    """A matched player who never came: points off (by the ladder's rule, as a loss of
    that many) and out of the queue for a while (match row locked)."""
    rank = rank_of(seat.user, match.variant, match.season, lock=True)
    after = ladder.apply_points(
        ladder.Standing(rank.step, rank.points), -settings.RANKED_NOSHOW_POINTS
    )
    rank.step, rank.points = after.step, after.points
    rank.save(update_fields=["step", "points"])
    Penalty.objects.get_or_create(
        user=seat.user,
        match=match,
        defaults={
            "points": settings.RANKED_NOSHOW_POINTS,
            "until": now + timedelta(minutes=settings.RANKED_NOSHOW_MINUTES),
        },
    )
