"""Writes to ratings. Called by the settlement task (games/tasks.py: ``settle_hand``).

Locking: the hand row first, then the players' :class:`Rating` rows in user-id
order, then (a club room's hand) their :class:`ClubRating` rows in user-id order.
Nothing that locks ratings ever locks a hand afterwards, and the game services
(room → hand) never touch ratings, so there is no cycle.
"""

from __future__ import annotations

from itertools import groupby

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Club
from clubs.services import club_set_board
from games.models import Hand, Room, Settlement
from leaderboards import rating
from leaderboards.models import ClubRating, Rating, RatingChange


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
    """Call inside a transaction, after the hand's settlement is stored."""
    hand = Hand.objects.select_for_update().defer("state").filter(pk=hand_id).first()
    if hand is None or hand.status != Hand.Status.ENDED or not hand.result:
        return []
    existing = _existing_changes(hand.pk)
    if existing:
        return existing

    # The settlement's totals: the live payments and the end-of-hand ones (查大叫…) alike.
    deltas = Settlement.objects.filter(hand_id=hand.pk).values_list("deltas", flat=True).first()
    if deltas is None:
        return []
    winners = set(hand.result.get("winners") or [])
    # (seat, user id, score) of every occupied seat.
    seated = [
        (seat, user_id, int(deltas[seat]))
        for seat, user_id in enumerate(hand.players)
        if user_id is not None and seat < len(deltas)
    ]
    if len(seated) < 2:
        return []

    club_id, hands_total = (
        Room.objects.filter(pk=hand.room_id).values_list("club_id", "hands_total").get()
    )
    with_bots = (
        get_user_model().objects.filter(pk__in=[p for p in hand.players if p], is_bot=True).exists()
    )
    rated = rating.counts_publicly(hands_total, with_bots)
    ratings = _locked_skills(Rating, seated, variant=hand.variant)
    scores = [score for _, _, score in seated]
    before = [(ratings[user_id].mu, ratings[user_id].sigma) for _, user_id, _ in seated]
    after = rating.rate(before, scores) if rated else before
    ranks = rating.ranks_from_scores(scores)

    changes = []
    for (_, user_id, score), (mu0, sigma0), (mu1, sigma1), rank in zip(
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
                rated=rated,
            )
        )
    if rated:
        _advance(ratings, seated, after, winners)
    RatingChange.objects.bulk_create(changes)
    if club_id is not None:
        _rate_club_hand(hand, club_id, rated, seated, scores, winners)
    return changes


def _locked_skills(model, seated, **key) -> dict:
    """The seated players' rating rows of ``model`` (made if new), locked in user-id order."""
    user_ids = sorted(user_id for _, user_id, _ in seated)
    # One statement for the rows not made yet (the unique constraint skips the others).
    model.objects.bulk_create(
        [model(user_id=user_id, **key) for user_id in user_ids], ignore_conflicts=True
    )
    found = model.objects.select_for_update().filter(user_id__in=user_ids, **key)
    found = found.order_by("user_id")
    return {r.user_id: r for r in found}


def _advance(ratings: dict, seated, after, winners) -> None:
    now = timezone.now()  # what ``save`` would set (``updated_at`` is ``auto_now``)
    for (seat, user_id, _), (mu1, sigma1) in zip(seated, after, strict=True):
        player = ratings[user_id]
        player.mu, player.sigma = mu1, sigma1
        player.hands += 1
        if seat in winners:
            player.wins += 1
        player.updated_at = now
        player.save(update_fields=["mu", "sigma", "hands", "wins", "updated_at"])


def _rate_club_hand(hand: Hand, club_id: int, rated: bool, seated, scores, winners) -> None:
    """A hand of a club room also moves the players' ratings within that club: a hand the
    public boards leave out too if the club counts such hands."""
    # The club row is locked before its ratings, as ``club_board_recount`` takes them: a
    # hand rated while the board is recounted lands after the recount, on what it wrote.
    club = Club.objects.select_for_update().only("board_counts_unrated").get(pk=club_id)
    if not rated and not club.board_counts_unrated:
        return
    ratings = _locked_skills(ClubRating, seated, club_id=club_id, variant=hand.variant)
    before = [(ratings[user_id].mu, ratings[user_id].sigma) for _, user_id, _ in seated]
    _advance(ratings, seated, rating.rate(before, scores), winners)


@transaction.atomic
def club_board_set(*, club_id, actor, counts_unrated) -> Club:
    """The owner's choice of what the club's board counts (``clubs.services.club_set_board``),
    and the board counted afresh by it: the hands already played too."""
    club = club_set_board(club_id=club_id, actor=actor, counts_unrated=counts_unrated)
    club_board_recount(club.pk)
    return club


def club_board_recount(club_id: int) -> None:
    """Count the club's board afresh over every hand of its rooms, as its setting now says
    (``Club.board_counts_unrated``): switching the setting covers the hands already played.

    Call inside the transaction that changed the setting. Each hand moves the ratings as
    when it was played, in the order it was rated (its rating changes' ids)."""
    club = Club.objects.select_for_update().get(pk=club_id)
    changes = RatingChange.objects.filter(hand__room__club_id=club_id)
    if not club.board_counts_unrated:
        changes = changes.filter(rated=True)
    rows = changes.order_by("hand_id", "id").values_list(
        "id", "hand_id", "user_id", "variant", "score_delta", "hand__players", "hand__result"
    )
    hands = [list(group) for _, group in groupby(rows, key=lambda row: row[1])]
    hands.sort(key=lambda group: group[0][0])
    skills: dict[tuple[int, str], list] = {}  # (user, variant) -> [mu, sigma, hands, wins]
    for group in hands:
        _, _, _, variant, _, players, result = group[0]
        group.sort(key=lambda row: players.index(row[2]))
        winners = {players[seat] for seat in (result or {}).get("winners") or []}
        keys = [(user_id, variant) for _, _, user_id, *_ in group]
        for key in keys:
            skills.setdefault(key, [*rating.default_skill(), 0, 0])
        before = [tuple(skills[key][:2]) for key in keys]
        after = rating.rate(before, [row[4] for row in group])
        for key, (mu, sigma) in zip(keys, after, strict=True):
            skill = skills[key]
            skill[:3] = mu, sigma, skill[2] + 1
            skill[3] += key[0] in winners
    ClubRating.objects.filter(club_id=club_id).delete()
    ClubRating.objects.bulk_create(
        ClubRating(
            club_id=club_id,
            user_id=user_id,
            variant=variant,
            mu=mu,
            sigma=sigma,
            hands=n,
            wins=wins,
        )
        for (user_id, variant), (mu, sigma, n, wins) in skills.items()
    )
