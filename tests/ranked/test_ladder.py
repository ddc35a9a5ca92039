"""The points rule (ranked.ladder) as docs/ranked.md states it."""

from hypothesis import given
from hypothesis import strategies as st

from ranked import ladder

steps = st.integers(min_value=0, max_value=ladder.TOP)


def standing_at(step):
    s = ladder.STEPS[step]
    high = s.goal - 1 if s.goal else 5000
    return st.integers(min_value=0, max_value=high).map(lambda p: ladder.Standing(step, p))


standings = steps.flatmap(standing_at)


@given(
    st.lists(st.integers(-500, 500), min_size=4, max_size=4),
    st.lists(steps, min_size=4, max_size=4),
)
def test_a_match_awards_the_three_places_less_fourths_cost(totals, player_steps):
    places = ladder.placements(totals)
    assert sorted(places) == [1, 2, 3, 4]
    awarded = [ladder.placement_points(p, s) for p, s in zip(places, player_steps, strict=True)]
    fourth = player_steps[places.index(4)]
    assert (
        sum(awarded)
        == ladder.match_total(fourth)
        == 80 - ladder.FOURTH_COST[ladder.STEPS[fourth].tier]
    )


@given(st.lists(steps, min_size=4, max_size=4))
def test_fourth_costs_more_the_higher_the_tier(player_steps):
    a, b = sorted(player_steps[:2])
    assert ladder.placement_points(4, a) >= ladder.placement_points(4, b)


@given(standings, st.integers(-200, 200))
def test_promotion_exactly_at_the_goal(standing, delta):
    here = ladder.STEPS[standing.step]
    after = ladder.apply_points(standing, delta)
    total = standing.points + delta
    if here.goal and total >= here.goal:
        assert after == ladder.Standing(standing.step + 1, ladder.STEPS[standing.step + 1].start)
    elif total >= 0:
        assert after == ladder.Standing(standing.step, total)


@given(standings, st.integers(-200, 200))
def test_demotion_exactly_below_zero_except_at_a_floor(standing, delta):
    here = ladder.STEPS[standing.step]
    after = ladder.apply_points(standing, delta)
    total = standing.points + delta
    if total < 0 and here.floor:
        assert after == ladder.Standing(standing.step, 0)
    elif total < 0:
        assert after == ladder.Standing(standing.step - 1, ladder.STEPS[standing.step - 1].start)
    # Never more than one step at a time, and never out of the ladder.
    assert abs(after.step - standing.step) <= 1 and 0 <= after.step <= ladder.TOP


def test_boundaries_by_hand():
    s = ladder.STEPS.index(ladder.Step(1, 2, 200))  # 雀士 2
    assert ladder.apply_points(ladder.Standing(s, 199), 0) == ladder.Standing(s, 199)
    assert ladder.apply_points(ladder.Standing(s, 140), 60).step == s + 1
    assert ladder.apply_points(ladder.Standing(s, 0), 0) == ladder.Standing(s, 0)
    assert ladder.apply_points(ladder.Standing(s, 0), -1) == ladder.Standing(s - 1, 100)
    floor = s - 1  # 雀士 1: a tier's first level keeps the tier
    assert ladder.apply_points(ladder.Standing(floor, 10), -30) == ladder.Standing(floor, 0)


@given(standings)
def test_a_new_season_softens_by_one_tier(standing):
    after = ladder.soften(standing)
    before_tier = ladder.STEPS[standing.step].tier
    assert ladder.STEPS[after.step].tier == max(0, before_tier - 1)
    assert after.points == ladder.STEPS[after.step].start


def test_names_in_both_languages():
    assert ladder.step_name(0, "zh-hans") == "新人 1"
    assert ladder.step_name(4, "en") == "Adept 2"
    assert ladder.step_name(ladder.TOP, "en") == "Celestial"
