"""Reads for the leaderboard pages, the API and the profile."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from django.db.models import BooleanField, Case, QuerySet, Value, When

from games import delay
from games.rooms.variants import VariantInfo, listed_variants, variant_info
from leaderboards.models import ClubRating, Rating, RatingChange
from leaderboards.rating import PROVISIONAL_SIGMA, display_change, display_rating


def _variant_name(key: str):
    info = variant_info(key)
    return info.name if info else key


def _win_rate(wins: int, hands: int) -> float:
    return round(wins / hands, 4) if hands else 0.0


def _by_standing(ratings: QuerySet[Rating]) -> QuerySet[Rating]:
    """Established players first, then the provisional ones; each by skill estimate."""
    provisional = Case(
        When(sigma__gt=PROVISIONAL_SIGMA, then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )
    return ratings.annotate(is_provisional=provisional).order_by(
        "is_provisional", "-mu", "-hands", "user_id"
    )


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    user_id: int
    name: str
    is_bot: bool
    rating: float  # the skill estimate (mu), rounded to 2 dp
    mu: float
    sigma: float
    hands: int
    wins: int
    win_rate: float  # 0..1
    display_rating: int  # what players see (leaderboards.rating.display_rating)
    provisional: bool  # too few hands for the number to mean much yet

    @property
    def win_percent(self) -> float:
        return round(self.win_rate * 100, 1)


def leaderboard(variant: str, limit: int = 100) -> list[LeaderboardRow]:
    """People rated in ``variant``, best first (ordinal, then hands played); no bots."""
    return _rows(Rating.objects.filter(variant=variant), limit, variant=variant)


def club_leaderboard(club_id: int, variant: str, limit: int = 100) -> list[LeaderboardRow]:
    """People rated in ``variant`` over the club's rooms only, best first; no bots."""
    ratings = ClubRating.objects.filter(club_id=club_id, variant=variant)
    return _rows(ratings, limit, variant=variant, club_id=club_id)


def _standing(r) -> tuple:
    """``_by_standing``'s order for a row in hand."""
    return (r.sigma > PROVISIONAL_SIGMA, -r.mu, -r.hands, r.user_id)


def _before_unpublished(ratings: list, variant: str, club_id: int | None) -> list:
    """``ratings`` as they stood before the hands that are not public yet (a room's
    spectator delay, ``games.table.late``): each player's rating from before the first
    of them, those hands and wins taken back, and the board sorted again."""
    where = (
        {"variant": variant} if club_id is None else {"variant": variant, "room__club_id": club_id}
    )
    held = delay.hands_held(**where)
    if not held:
        return ratings
    changes = RatingChange.objects.filter(
        hand_id__in=held, user_id__in=[r.user_id for r in ratings]
    )
    if club_id is None:
        changes = changes.filter(rated=True)
    else:
        changes = changes.filter(club_mu_before__isnull=False)
    by_user = {r.user_id: r for r in ratings}
    earliest = (
        changes.select_related("hand")
        .only(
            "user_id",
            "mu_before",
            "sigma_before",
            "club_mu_before",
            "club_sigma_before",
            "hand__players",
            "hand__result",
            "hand__ended_at",
        )
        .order_by("hand__started_at", "hand_id")
    )
    seen = set()
    for c in earliest:
        r = by_user[c.user_id]
        if c.user_id not in seen:
            seen.add(c.user_id)
            if club_id is None:
                r.mu, r.sigma = c.mu_before, c.sigma_before
            else:
                r.mu, r.sigma = c.club_mu_before, c.club_sigma_before
        r.hands -= 1
        players = c.hand.players
        winners = (c.hand.result or {}).get("winners") or []
        if any(s < len(players) and players[s] == c.user_id for s in winners):
            r.wins -= 1
    return sorted((r for r in ratings if r.hands > 0), key=_standing)


def _rows(ratings, limit: int, *, variant: str, club_id: int | None = None) -> list[LeaderboardRow]:
    # Bots are rated (their results move people's ratings) but are not on the boards:
    # a few shared bot accounts would otherwise hold the top places.
    ratings = ratings.filter(hands__gt=0, user__is_bot=False).select_related("user")
    top = list(_by_standing(ratings)[:limit])
    # Whoever played a hand not public yet may stand elsewhere without it.
    recent = ratings.filter(user__rating_changes__hand_id__in=delay.hands_held(variant=variant))
    top += [r for r in recent.distinct() if r.user_id not in {t.user_id for t in top}]
    ratings = _before_unpublished(top, variant, club_id)[:limit]
    return [
        LeaderboardRow(
            rank=position,
            user_id=r.user_id,
            name=r.user.shown_name,
            is_bot=r.user.is_bot,
            rating=round(r.mu, 2),
            mu=round(r.mu, 4),
            sigma=round(r.sigma, 4),
            hands=r.hands,
            wins=r.wins,
            win_rate=_win_rate(r.wins, r.hands),
            display_rating=r.display_rating,
            provisional=r.provisional,
        )
        for position, r in enumerate(ratings, start=1)
    ]


@dataclass(frozen=True)
class BoardSummary:
    variant: VariantInfo
    players: int
    top: list[LeaderboardRow]


def leaderboard_summaries(top: int = 3) -> list[BoardSummary]:
    """One entry per listed variant: how many are rated and who leads."""
    summaries = []
    for info in listed_variants():
        rated = Rating.objects.filter(variant=info.key, hands__gt=0, user__is_bot=False)
        players = rated.count()
        # Not counted yet: whoever has played only hands that are not public yet.
        held = Counter(
            RatingChange.objects.filter(
                hand_id__in=delay.hands_held(variant=info.key), rated=True
            ).values_list("user_id", flat=True)
        )
        if held:
            hands = dict(rated.filter(user_id__in=held).values_list("user_id", "hands"))
            players -= sum(1 for user_id, n in held.items() if hands.get(user_id, n + 1) <= n)
        summaries.append(
            BoardSummary(
                variant=info, players=players, top=leaderboard(info.key, top) if players else []
            )
        )
    return summaries


@dataclass(frozen=True)
class PlayerRatingRow:
    variant: str
    variant_name: str
    rating: float
    hands: int
    wins: int
    win_rate: float
    display_rating: int
    provisional: bool

    @property
    def win_percent(self) -> float:
        return round(self.win_rate * 100, 1)


def player_ratings(user) -> list[PlayerRatingRow]:
    """The user's rating in each variant they have played, best first."""
    return [
        PlayerRatingRow(
            variant=r.variant,
            variant_name=_variant_name(r.variant),
            rating=round(r.mu, 2),
            hands=r.hands,
            wins=r.wins,
            win_rate=_win_rate(r.wins, r.hands),
            display_rating=r.display_rating,
            provisional=r.provisional,
        )
        for r in _by_standing(Rating.objects.filter(user=user, hands__gt=0))
    ]


@dataclass(frozen=True)
class RecentHandRow:
    variant: str
    variant_name: str
    room_id: int
    hand_number: int
    hand_id: int  # its replay: /hands/<hand_id>/
    rank: int
    score_delta: int  # the settlement's total for the seat
    rated: bool  # whether the hand moved the public board
    rating_after: float  # the skill estimate (mu), rounded to 2 dp
    rating_change: float  # mu after - before, rounded to 2 dp
    display_after: int
    display_change: int
    at: datetime


def recent_rating_changes(user, limit: int = 10) -> list[RecentHandRow]:
    """The user's last rated hands, newest first."""
    changes = (
        RatingChange.objects.filter(user=user)
        .select_related("hand")
        .order_by("-created_at", "-id")[:limit]
    )
    return [
        RecentHandRow(
            variant=c.variant,
            variant_name=_variant_name(c.variant),
            room_id=c.hand.room_id,
            hand_number=c.hand.number,
            hand_id=c.hand_id,
            rank=c.rank,
            score_delta=c.score_delta,
            rated=c.rated,
            rating_after=round(c.mu_after, 2),
            rating_change=round(c.mu_after - c.mu_before, 2),
            display_after=display_rating(c.mu_after),
            display_change=display_change(c.mu_before, c.mu_after),
            at=c.created_at,
        )
        for c in changes
    ]


def hand_ratings(hand, changes=None) -> list[dict]:
    """A settled hand's rating changes as its players see them (the table's ``settled``
    message): each rated seat's skill estimate before and after, by seat.  ``changes``:
    the settlement task's own, which it has just written (read here when not given)."""
    if changes is None:
        changes = RatingChange.objects.filter(hand=hand)
    shown = []
    for rc in changes:
        if not rc.rated:  # an unrated room's hand moved no rating
            continue
        before, after = display_rating(rc.mu_before), display_rating(rc.mu_after)
        shown.append(
            {
                "user_id": rc.user_id,
                "seat": hand.players.index(rc.user_id),
                "before": before,
                "after": after,
                "change": after - before,
            }
        )
    return sorted(shown, key=lambda c: c["seat"])
