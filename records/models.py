"""Finished matches (战绩): one row per match, one per seat, written once when it ends.

A match is a room's run of hands.  Its record is a snapshot taken when the match
ends (``records.services.match_finished``): who sat where, each seat's total and
the summary (大结算), so later changes to the room, its seats or an account's
name never rewrite a finished match.  Written only by ``records.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    class EndedBy(models.TextChoices):
        COMPLETE = "complete", _("played to the end")
        DISSOLVED = "dissolved", _("dissolved")

    # One record per room: recording a match again finds this row.
    room = models.OneToOneField("games.Room", on_delete=models.CASCADE, related_name="record")
    variant = models.CharField(max_length=20)
    club = models.ForeignKey(
        "clubs.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(db_index=True)
    ended_by = models.CharField(max_length=10, choices=EndedBy.choices)
    # Everyone who played a hand of it, for "my matches" and who may read it.
    participants = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="matches")
    # The 大结算: per seat hands won, 自摸/点炮 counts, best hand and marks; per hand
    # the deltas and the wins (``records.summary.summarise``).
    summary = models.JSONField(default=dict)

    class Meta:
        ordering = ["-ended_at", "-id"]

    def __str__(self) -> str:
        return f"match of room {self.room_id} ({self.variant})"


class MatchPlayer(models.Model):
    """A seat of a finished match: who held it at the end and the seat's total."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    name = models.CharField(max_length=150)
    is_bot = models.BooleanField(default=False)
    total = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_player_unique_seat"),
        ]
