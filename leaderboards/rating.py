"""Player ratings: a pure calculator over openskill's Plackett–Luce model.

No Django here, so the numbers can be tested (and reused) without a database.
A mahjong hand is a free-for-all of up to four: every player is a team of one,
placed by their net score for the hand, equal scores sharing a place.
"""

from __future__ import annotations

from openskill.models import PlackettLuce

# openskill's defaults (mu 25, sigma 25/3): a new player's ordinal is 0 and rises with play.
_MODEL = PlackettLuce()

Skill = tuple[float, float]  # (mu, sigma)

DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma


def default_skill() -> Skill:
    """The (mu, sigma) of a player who has not played this variant yet."""
    return (DEFAULT_MU, DEFAULT_SIGMA)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate shown as "rating" (mu - 3 sigma)."""
    return _MODEL.rating(mu=mu, sigma=sigma).ordinal()


# What players see: a whole number that starts at 1000 for a newcomer (ordinal 0) and moves
# by tens of points per hand, rather than the model's small signed decimals.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
# Below this many hands the estimate is still mostly uncertainty: marked provisional.
PROVISIONAL_HANDS = 20


def display_rating(ordinal_value: float) -> int:
    """The rating shown to players for an ordinal (``mu - 3 sigma``).

    >>> display_rating(0.0), display_rating(-1.43), display_rating(12.5)
    (1000, 943, 1500)
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal_value)


def display_change(before: float, after: float) -> int:
    """A change of ordinal as players see it (the difference of the shown numbers)."""
    return display_rating(after) - display_rating(before)


def is_provisional(hands: int) -> bool:
    return hands < PROVISIONAL_HANDS


def ranks_from_scores(scores: list[int]) -> list[int]:
    """Standard competition ranks, 1 = best; equal scores share the better rank.

    >>> ranks_from_scores([5, -5, 0, 0])
    [1, 4, 2, 2]
    """
    return [1 + sum(other > score for other in scores) for score in scores]


def rate(players: list[Skill], scores: list[int]) -> list[Skill]:
    """New (mu, sigma) for each player, in the order given, after one hand.

    ``players[i]`` scored ``scores[i]`` (the hand's net delta for that seat).
    Needs at least two players.
    """
    if len(players) != len(scores):
        raise ValueError("one score per player")
    if len(players) < 2:
        raise ValueError("a rated hand needs at least two players")
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    # Ranks rather than scores=: openskill would otherwise weigh score margins,
    # and a big fan count says more about the tiles than about the player.
    rated = _MODEL.rate(teams, ranks=ranks_from_scores(scores))
    return [(team[0].mu, team[0].sigma) for team in rated]
