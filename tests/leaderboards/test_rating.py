"""The pure calculator: no database."""

import pytest

from leaderboards.rating import default_skill, ordinal, ranks_from_scores, rate


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
