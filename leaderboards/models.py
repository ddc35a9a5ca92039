"""Ratings per player and variant, and the per-hand record of how they moved.

Written only by ``leaderboards.services.ratings_update_for_hand``; one
:class:`RatingChange` per (hand, player) is the key that makes a retried
update a no-op.
"""

from django.conf import settings
from django.db import models

from leaderboards import rating


class Skill(models.Model):
    """A player's standing in one variant (globally, or within a club)."""

    mu = models.FloatField(default=rating.DEFAULT_MU)
    sigma = models.FloatField(default=rating.DEFAULT_SIGMA)
    hands = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.user_id} {self.variant}: {self.mu:.2f} ± {self.sigma:.2f}"

    @property
    def ordinal(self) -> float:
        return rating.ordinal(self.mu, self.sigma)

    @property
    def display_rating(self) -> int:
        return rating.display_rating(self.mu)

    @property
    def provisional(self) -> bool:
        return rating.is_provisional(self.sigma)


class Rating(Skill):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(max_length=20)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="rating_unique_user_variant"),
        ]


class ClubRating(Skill):
    """The same rating counted over one club's rooms only (the club's leaderboard).

    Moved in the same transaction as the global :class:`Rating`, so the global
    rating's :class:`RatingChange` key keeps this one idempotent too."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="ratings")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_ratings"
    )
    variant = models.CharField(max_length=20)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user", "variant"], name="clubrating_unique_club_user_variant"
            ),
        ]


class RatingChange(models.Model):
    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    variant = models.CharField(max_length=20)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal_after = models.FloatField()
    rank = models.PositiveSmallIntegerField()  # 1 = best; equal scores share a rank
    score_delta = models.IntegerField()  # the settlement's total for the seat
    # Whether the hand moved the public board (a full-length room of people); an unrated
    # hand is recorded with the rating as it stands, unmoved.
    rated = models.BooleanField(default=True)
    # The player's club rating before the hand, if it moved the club's board (a hand of a
    # club room): what that board shows until the hand is public (``games.table.late``).
    club_mu_before = models.FloatField(null=True, blank=True)
    club_sigma_before = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "user"], name="ratingchange_unique_hand_user"),
        ]
        indexes = [
            # The profile's "recent hands".
            models.Index(fields=["user", "-created_at"], name="ratingchange_user_recent"),
        ]

    def __str__(self) -> str:
        return f"hand {self.hand_id} user {self.user_id}: {self.mu_after - self.mu_before:+.2f}"
