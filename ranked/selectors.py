"""Ranked play's reads: the boards, a player's standing and history, and the 段位 of a
table's players."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import get_language

from ranked import ladder
from ranked.errors import refuse
from ranked.models import Rank, RankedMatch, RankedSeat, Season
from ranked.services import current_season

BOARD_SIZE = 100


def season_of(season_id=None) -> Season:
    if season_id in (None, ""):
        return current_season()
    try:
        return Season.objects.get(pk=int(season_id))
    except (ValueError, TypeError, Season.DoesNotExist):
        raise refuse("no_season") from None


def season_payload(season: Season) -> dict:
    return {"id": season.pk, "name": season.name, "starts": season.starts, "ends": season.ends}


def tier_payload(step: int, points: int) -> dict:
    s = ladder.STEPS[step]
    return {
        "tier": ladder.TIERS[s.tier][1].lower(),
        "level": s.level,
        "points": points,
        "goal": s.goal,
        "name": ladder.step_name(step, get_language() or "en"),
    }


def _ordered(variant: str, season: Season):
    return Rank.objects.filter(variant=variant, season=season, matches__gt=0).order_by(
        "-step", "-points", "-matches", "user_id"
    )


def board(variant: str, season: Season, limit: int = BOARD_SIZE) -> dict:
    rows = _ordered(variant, season).select_related("user")[:limit]
    return {
        "season": season_payload(season),
        "players": [
            {
                "user_id": r.user_id,
                "display_name": r.user.shown_name,
                **{k: v for k, v in tier_payload(r.step, r.points).items() if k != "goal"},
                "rank": n,
            }
            for n, r in enumerate(rows, start=1)
        ],
    }


def position(rank: Rank) -> int | None:
    """1-based place of this row on its board (None before a match)."""
    if not rank.matches:
        return None
    above = _ordered(rank.variant, rank.season).filter(
        Q(step__gt=rank.step)
        | Q(step=rank.step, points__gt=rank.points)
        | Q(step=rank.step, points=rank.points, matches__gt=rank.matches)
        | Q(step=rank.step, points=rank.points, matches=rank.matches, user_id__lt=rank.user_id)
    )
    return above.count() + 1


def standings(user) -> list[dict]:
    """The player's 段位 in each variant this season, their place and their history
    (ladder value after each finished match, oldest first), for the profile."""
    season = current_season()
    out = []
    for rank in Rank.objects.filter(user=user, season=season).order_by("variant"):
        history = list(
            RankedSeat.objects.filter(
                user=user,
                match__variant=rank.variant,
                match__season=season,
                match__status=RankedMatch.Status.FINISHED,
            )
            .order_by("ended_at", "pk")
            .values_list("step_before", "points_before", "step_after", "points_after", "placement")
        )
        out.append(
            {
                "variant": rank.variant,
                **tier_payload(rank.step, rank.points),
                "matches": rank.matches,
                "position": position(rank),
                "history": [
                    {
                        "before": ladder.ladder_value(ladder.Standing(s0, p0)),
                        "value": ladder.ladder_value(ladder.Standing(s1, p1)),
                        "placement": place,
                    }
                    for s0, p0, s1, p1, place in history
                ],
            }
        )
    return out


def room_ranks(room_id: int) -> dict[int, dict]:
    """User id → 段位 of the players of a ranked room (empty for any other room)."""
    match = RankedMatch.objects.filter(room_id=room_id).only("variant", "season_id").first()
    if match is None:
        return {}
    users = list(match.seats.values_list("user_id", flat=True))
    return {
        r.user_id: {
            **tier_payload(r.step, r.points),
            "label": {
                "zh-hans": ladder.step_name(r.step, "zh"),
                "en": ladder.step_name(r.step, "en"),
            },
        }
        for r in Rank.objects.filter(
            variant=match.variant, season_id=match.season_id, user_id__in=users
        )
    }
