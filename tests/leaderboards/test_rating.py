"""The pure calculator: no database."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboards.rating import (
    PROVISIONAL_SIGMA,
    counts_publicly,
    default_skill,
    display_rating,
    is_provisional,
    ordinal,
    ranks_from_scores,
    rate,
)


@pytest.mark.parametrize(
    ("scores", "ranks"),
    [
        ([5, -5, 0, 0], [1, 4, 2, 2]),
        ([12, -4, -4, -4], [1, 2, 2, 2]),
        ([0, 0, 0, 0], [1, 1, 1, 1]),
        ([-8, 24, 8, -24], [3, 1, 2, 4]),
        ([3, 3, -1, -5], [1, 1, 3, 4]),
    ],
)
def test_ranks_from_scores_share_ties(scores, ranks):
    assert ranks_from_scores(scores) == ranks


def test_a_new_player_starts_at_ordinal_zero():
    mu, sigma = default_skill()

    assert (mu, sigma) == pytest.approx((25.0, 25.0 / 3))
    assert ordinal(mu, sigma) == pytest.approx(0.0)
    assert ordinal(30.0, 5.0) == pytest.approx(15.0)  # mu - 3 sigma


def test_winner_rises_loser_falls_and_tied_players_move_alike():
    new = default_skill()

    after = rate([new] * 4, [5, -5, 0, 0])

    (w_mu, _), (l_mu, _), (a_mu, a_sigma), (b_mu, b_sigma) = after
    assert w_mu > new[0] > l_mu
    assert (a_mu, a_sigma) == pytest.approx((b_mu, b_sigma))
    assert w_mu > a_mu > l_mu
    # Every player is better known after a hand than before it.
    assert all(sigma < new[1] for _, sigma in after)


def test_an_all_square_hand_leaves_equal_players_where_they_were():
    new = default_skill()

    after = rate([new] * 4, [0, 0, 0, 0])

    assert all(mu == pytest.approx(new[0]) for mu, _ in after)


def test_beating_a_stronger_player_is_worth_more():
    new, strong = default_skill(), (35.0, 4.0)

    upset = rate([new, strong, new, new], [10, -10, 0, 0])[0]
    expected = rate([new, new, new, new], [10, -10, 0, 0])[0]

    assert upset[0] > expected[0]


def test_players_keep_their_order_and_count():
    players = [(20.0, 6.0), (25.0, 8.0), (30.0, 3.0)]

    after = rate(players, [-1, 0, 1])

    assert len(after) == 3
    assert after[2][0] > players[2][0]
    assert after[0][0] < players[0][0]


@pytest.mark.parametrize(
    ("players", "scores"),
    [([default_skill()] * 4, [1, 2, 3]), ([default_skill()], [0])],
)
def test_rate_rejects_mismatched_or_lonely_input(players, scores):
    with pytest.raises(ValueError):
        rate(players, scores)


skills = st.tuples(
    st.floats(min_value=5.0, max_value=45.0), st.floats(min_value=0.5, max_value=25.0 / 3)
)


@settings(max_examples=300, deadline=None)
@given(
    players=st.lists(skills, min_size=2, max_size=4),
    scores=st.lists(st.sampled_from([-16, -8, -2, -1, 0, 1, 2, 6, 24]), min_size=4, max_size=4),
)
def test_last_never_rises_and_first_alone_never_falls(players, scores):
    scores = scores[: len(players)]
    after = rate(players, scores)

    low, high = min(scores), max(scores)
    for (mu0, _), (mu1, _), score in zip(players, after, scores, strict=True):
        if low != high and score == low:
            assert display_rating(mu1) <= display_rating(mu0)
            assert mu1 <= mu0
        if low != high and score == high and scores.count(high) == 1:
            assert mu1 >= mu0


def test_tied_for_last_beside_weaker_players_does_not_rise():
    """The model alone would lift the strong player tied for last (seen: +0.24 mu)."""
    players = [(12.9, 7.5), (12.4, 6.0), (30.9, 7.8), (39.0, 5.1)]

    after = rate(players, [2, 2, 6, 2])

    assert after[0][0] <= players[0][0] and after[1][0] <= players[1][0]
    assert after[2][0] > players[2][0]


def test_the_shown_rating_is_the_skill_estimate_not_the_conservative_one():
    """A newcomer who loses a hand sees their rating fall, though the model is surer of them
    afterwards (the conservative mu - 3 sigma would rise)."""
    new = default_skill()

    (lost_mu, lost_sigma), *_ = rate([new] * 4, [-1, 3, 0, -2])  # third, a loss of 1

    assert ordinal(lost_mu, lost_sigma) > ordinal(*new)  # what the old board showed
    assert display_rating(lost_mu) < display_rating(new[0]) == 1000
    assert is_provisional(lost_sigma) and not is_provisional(PROVISIONAL_SIGMA - 0.1)


@pytest.mark.parametrize(
    ("hands", "bots", "rated"),
    [(8, False, True), (16, False, True), (7, False, False), (8, True, False), (1, True, False)],
)
def test_only_full_matches_of_people_count_publicly(hands, bots, rated):
    assert counts_publicly(hands, bots) is rated
