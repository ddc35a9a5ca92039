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
    """The conservative skill estimate (mu - 3 sigma), kept with each change; players see
    ``display_rating`` of mu."""
    return _MODEL.rating(mu=mu, sigma=sigma).ordinal()


# What players see: the skill estimate (mu) as a whole number that starts at 1000 for a
# newcomer and moves by tens of points per hand.  Not the conservative ordinal
# (mu - 3 sigma): that rises with every hand played as the uncertainty shrinks, even a lost one.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
# While sigma is above this the estimate is still mostly uncertainty: marked provisional
# (a newcomer's 8.3 falls below it after some 15 to 20 hands).
PROVISIONAL_SIGMA = 6.5
# The public boards count hands of rooms played to a match's full length (the lobby's
# default, twice around the table) by four people: no bots, no one-hand games.
RATED_MIN_HANDS = 8


def display_rating(mu: float) -> int:
    """The rating shown to players for a skill estimate ``mu``.

    >>> display_rating(25.0), display_rating(23.57), display_rating(37.5)
    (1000, 943, 1500)
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - DEFAULT_MU))


def display_change(mu_before: float, mu_after: float) -> int:
    """A change of skill estimate as players see it (the difference of the shown numbers)."""
    return display_rating(mu_after) - display_rating(mu_before)


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def counts_publicly(hands_total: int, with_bots: bool) -> bool:
    """Whether a room's hands move the public boards: a full-length match, people only."""
    return hands_total >= RATED_MIN_HANDS and not with_bots


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
    return [
        (_with_the_result(mu0, team[0].mu, score, scores), team[0].sigma)
        for (mu0, _), team, score in zip(players, rated, scores, strict=True)
    ]


def _with_the_result(mu_before: float, mu_after: float, score: int, scores: list[int]) -> float:
    """The new estimate, never against the player's own result: the model shares a tied
    place among the tied, so a player tied for last beside weaker ones would gain.  Last
    never rises; first alone never falls."""
    low, high = min(scores), max(scores)
    if low == high:
        return mu_after
    if score == low:
        return min(mu_before, mu_after)
    if score == high and scores.count(high) == 1:
        return max(mu_before, mu_after)
    return mu_after
