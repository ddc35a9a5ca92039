"""Hand reviews (复盘): a finished hand's decisions of one seat beside the strong bot's.

One row per hand and seat, asked for by the player who sat there and computed once
by the ``reviews.tasks.review_hand`` task (``games.rules.review``).  Written only by
``reviews.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import pgettext_lazy


class HandReview(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("review", "being prepared")
        DONE = "done", pgettext_lazy("review", "ready")
        FAILED = "failed", pgettext_lazy("review", "could not be made")

    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # games.rules.review.review's entries: [{seq, played, strong, same, reason}].
    entries = models.JSONField(null=True, blank=True)
    # Why a review could not be made (the hand's log does not replay), for the operator.
    error = models.CharField(max_length=300, blank=True, default="")
    requested_at = models.DateTimeField(auto_now_add=True)
    # When the task was last queued: a review still pending long after is queued again.
    sent_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["hand", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="review_unique_hand_seat"),
        ]

    def __str__(self) -> str:
        return f"review of seat {self.seat} in hand {self.hand_id}"
