"""The 段位 ladder and its points rule: a pure calculator (no Django), so the rule can be
tested on its own (``docs/ranked.md`` states it).

A player's place on the ladder is a *step* (an index into ``STEPS``: a tier and a level)
and points within it.  At the end of a ranked match each player gains the points of their
placement; fourth place costs more the higher the tier of the player who took it.  Points
reaching the step's goal promote (to the next step's start); points below 0 demote one
step (to its start), except at a tier's floor (its first level), where they stop at 0.
"""

from __future__ import annotations

from dataclasses import dataclass

# (zh, en) names of the tiers, lowest first; every tier but the last has three levels.
TIERS: tuple[tuple[str, str], ...] = (
    ("新人", "Novice"),
    ("雀士", "Adept"),
    ("雀杰", "Expert"),
    ("雀豪", "Master"),
    ("雀圣", "Saint"),
    ("魂天", "Celestial"),
)
LEVELS = 3
# Points for first, second and third place, at every tier.
PLACE_POINTS: tuple[int, int, int] = (60, 20, 0)
# What fourth place costs, by the tier of the player who took it.
FOURTH_COST: tuple[int, ...] = (0, 30, 50, 70, 90, 110)
# Points to promote from a step of each tier (its goal); arriving at a step starts at half.
TIER_GOAL: tuple[int, ...] = (100, 200, 300, 400, 500, 0)


@dataclass(frozen=True)
class Step:
    tier: int  # index into TIERS
    level: int  # 1-based
    goal: int  # points that promote; 0: the top, no promotion

    @property
    def start(self) -> int:
        """The points a player has on arriving at this step."""
        return self.goal // 2

    @property
    def floor(self) -> bool:
        """A tier's first level: points stop at 0, the tier once reached is kept."""
        return self.level == 1


STEPS: tuple[Step, ...] = tuple(
    Step(tier, level, TIER_GOAL[tier])
    for tier in range(len(TIERS))
    for level in range(1, (LEVELS if tier < len(TIERS) - 1 else 1) + 1)
)
TOP = len(STEPS) - 1


@dataclass(frozen=True)
class Standing:
    step: int  # index into STEPS
    points: int


def newcomer() -> Standing:
    return Standing(0, 0)


def step_name(step: int, lang: str = "zh") -> str:
    """'雀士 2' / 'Adept 2'; the top tier has no level."""
    s = STEPS[step]
    name = TIERS[s.tier][0 if lang.startswith("zh") else 1]
    return name if s.tier == len(TIERS) - 1 else f"{name} {s.level}"


def placement_points(place: int, step: int) -> int:
    """The points of ``place`` (1..4) for a player at ``step``."""
    if place == 4:
        return -FOURTH_COST[STEPS[step].tier]
    return PLACE_POINTS[place - 1]


def match_total(fourth_step: int) -> int:
    """The sum of the points a match awards its four players, before promotion, demotion
    or a floor: the three places' points less what fourth cost its taker."""
    return sum(PLACE_POINTS) - FOURTH_COST[STEPS[fourth_step].tier]


def placements(totals: list[int]) -> list[int]:
    """Places 1..4 from the seats' match totals, higher first; equal totals are placed
    by seat order (seat 0 first), so every match has exactly one of each place.

    >>> placements([10, 30, 10, -50])
    [2, 1, 3, 4]
    """
    order = sorted(range(len(totals)), key=lambda i: (-totals[i], i))
    places = [0] * len(totals)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places


def apply_points(standing: Standing, delta: int) -> Standing:
    """The standing after gaining ``delta`` points: promotion at the goal, demotion below
    0 (one step at a time, to that step's start), floors stopping at 0."""
    step, points = standing.step, standing.points + delta
    here = STEPS[step]
    if here.goal and points >= here.goal:
        return Standing(step + 1, STEPS[step + 1].start)
    if points < 0:
        if here.floor:
            return Standing(step, 0)
        return Standing(step - 1, STEPS[step - 1].start)
    return Standing(step, points)


def soften(standing: Standing) -> Standing:
    """A standing carried into a new season: one tier down (the same level, or the lower
    tier's top level), at that step's start; 新人 stays where it is."""
    s = STEPS[standing.step]
    if s.tier == 0:
        return Standing(standing.step, STEPS[standing.step].start)
    lower = [i for i, t in enumerate(STEPS) if t.tier == s.tier - 1]
    step = lower[min(s.level, len(lower)) - 1]
    return Standing(step, STEPS[step].start)


def ladder_value(standing: Standing) -> int:
    """One number for a standing, rising with the ladder (the goals of the steps below
    plus the points): what the profile's chart plots."""
    return sum(STEPS[i].goal for i in range(standing.step)) + standing.points
