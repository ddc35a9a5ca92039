"""Ranked play: seasons, each player's 段位 per variant and season, the queue, and the
matches it forms.  The queue is rows (any process may match it); a player holds at most
one queue entry and at most one active ranked seat, both enforced by unique constraints."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Season(models.Model):
    name = models.CharField(max_length=60, unique=True)
    starts = models.DateTimeField()
    ends = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts", "-id"]

    def __str__(self) -> str:
        return self.name


class Rank(models.Model):
    """A player's 段位 in one variant and season, and the OpenSkill estimate matching uses."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    variant = models.CharField(max_length=20)
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="ranks")
    step = models.PositiveSmallIntegerField(default=0)  # ranked.ladder.STEPS
    points = models.IntegerField(default=0)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant", "season"], name="rank_unique_user_variant_season"
            )
        ]
        indexes = [models.Index(fields=["variant", "season", "-step", "-points"])]


class QueueEntry(models.Model):
    """A player waiting for a ranked table (or, with ``bots_after``, for a table filled
    with bots after that many seconds: unranked).  ``room`` is set once seated; the entry
    then only answers polls until it goes stale."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    variant = models.CharField(max_length=20)
    # Its place in the queue: kept when a match is called off by a no-show.
    joined_at = models.DateTimeField(db_index=True)
    seen_at = models.DateTimeField()  # the last poll: an entry not seen for long is dropped
    address = models.GenericIPAddressField(null=True)
    bots_after = models.PositiveSmallIntegerField(null=True, blank=True)
    room = models.ForeignKey("games.Room", null=True, blank=True, on_delete=models.SET_NULL)


class RankedMatch(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "waiting for its players"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"
        CANCELLED = "cancelled", "called off"

    room = models.OneToOneField("games.Room", on_delete=models.CASCADE, related_name="ranked")
    variant = models.CharField(max_length=20)
    season = models.ForeignKey(Season, on_delete=models.PROTECT)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField(auto_now_add=True)
    arrive_by = models.DateTimeField()  # a player not ready by then never came

    class Meta:
        indexes = [models.Index(fields=["status", "arrive_by"])]


class RankedSeat(models.Model):
    """A player of a ranked match; ``active`` until the match is over or called off.
    After the match: the placement and the 段位 before and after it (the profile's chart)."""

    match = models.ForeignKey(RankedMatch, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    seat = models.PositiveSmallIntegerField()
    active = models.BooleanField(default=True)
    joined_at = models.DateTimeField()  # their place in the queue, to return to it
    address = models.GenericIPAddressField(null=True)
    placement = models.PositiveSmallIntegerField(null=True)
    step_before = models.PositiveSmallIntegerField(null=True)
    points_before = models.IntegerField(null=True)
    step_after = models.PositiveSmallIntegerField(null=True)
    points_after = models.IntegerField(null=True)
    ended_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="ranked_seat_unique_user"),
            models.UniqueConstraint(fields=["match", "seat"], name="ranked_seat_unique_seat"),
            # One ranked table at a time: a second active seat cannot be written.
            models.UniqueConstraint(
                fields=["user"], condition=Q(active=True), name="ranked_seat_one_active"
            ),
        ]


class Penalty(models.Model):
    """A matched player who never came to the table: out of the queue until ``until``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    match = models.ForeignKey(RankedMatch, on_delete=models.CASCADE)
    points = models.IntegerField()
    until = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="penalty_unique_user_match")
        ]
