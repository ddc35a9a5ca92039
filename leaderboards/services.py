"""Writes to ratings. Called from the ``update_ratings`` Celery task (games/tasks.py).

Locking: the hand row first, then the players' :class:`Rating` rows in user-id
order. Nothing that locks ratings ever locks a hand afterwards, and the game
services (room → hand) never touch ratings, so there is no cycle.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from games.models import Hand
from leaderboards import rating
from leaderboards.models import Rating, RatingChange


def ratings_update_for_hand(hand_id: int) -> list[RatingChange]:
    """Rate the players of an ended hand; return the hand's rating changes.

    Idempotent: a hand is rated once (one :class:`RatingChange` per player and
    hand, enforced by a unique constraint), so a retried or duplicated task
    returns the changes already written. A hand that has not ended, has no
    result or has fewer than two players yields ``[]`` and changes nothing.
    """
    try:
        with transaction.atomic():
            return _rate_hand(hand_id)
    except IntegrityError:
        # A concurrent run wrote this hand's changes between our check and our
        # insert (only possible where the hand lock is a no-op, e.g. SQLite).
        existing = _existing_changes(hand_id)
        if not existing:
            raise
        return existing


def _existing_changes(hand_id: int) -> list[RatingChange]:
    return list(RatingChange.objects.filter(hand_id=hand_id).order_by("id"))


def _rate_hand(hand_id: int) -> list[RatingChange]:
    """Call inside a transaction."""
    hand = Hand.objects.select_for_update().filter(pk=hand_id).first()
    if hand is None or hand.status != Hand.Status.ENDED or not hand.result:
        return []
    existing = _existing_changes(hand.pk)
    if existing:
        return existing

    deltas = hand.result.get("deltas") or []
    winners = set(hand.result.get("winners") or [])
    # (seat, user id, score) of every occupied seat.
    seated = [
        (seat, user_id, int(deltas[seat]))
        for seat, user_id in enumerate(hand.players)
        if user_id is not None and seat < len(deltas)
    ]
    if len(seated) < 2:
        return []

    user_ids = sorted(user_id for _, user_id, _ in seated)
    for user_id in user_ids:
        Rating.objects.get_or_create(user_id=user_id, variant=hand.variant)
    ratings = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(user_id__in=user_ids, variant=hand.variant)
        .order_by("user_id")
    }

    scores = [score for _, _, score in seated]
    before = [(ratings[user_id].mu, ratings[user_id].sigma) for _, user_id, _ in seated]
    after = rating.rate(before, scores)
    ranks = rating.ranks_from_scores(scores)

    changes = []
    for (seat, user_id, score), (mu0, sigma0), (mu1, sigma1), rank in zip(
        seated, before, after, ranks, strict=True
    ):
        changes.append(
            RatingChange(
                hand=hand,
                user_id=user_id,
                variant=hand.variant,
                mu_before=mu0,
                sigma_before=sigma0,
                mu_after=mu1,
                sigma_after=sigma1,
                ordinal_before=rating.ordinal(mu0, sigma0),
                ordinal_after=rating.ordinal(mu1, sigma1),
                rank=rank,
                score_delta=score,
            )
        )
        player = ratings[user_id]
        player.mu, player.sigma = mu1, sigma1
        player.hands += 1
        if seat in winners:
            player.wins += 1
        player.save(update_fields=["mu", "sigma", "hands", "wins", "updated_at"])
    RatingChange.objects.bulk_create(changes)
    return changes
