import pytest

from leaderboards.models import Rating
from leaderboards.selectors import leaderboard, player_ratings, recent_rating_changes
from leaderboards.services import ratings_update_for_hand

pytestmark = pytest.mark.django_db


def set_rating(user, mu, sigma, hands, wins=0, variant="sichuan"):
    return Rating.objects.create(
        user=user, variant=variant, mu=mu, sigma=sigma, hands=hands, wins=wins
    )


def test_leaderboard_orders_by_skill_with_provisional_players_after(players, bot):
    lin, mei, tao, yun = players
    set_rating(lin, mu=30.0, sigma=5.0, hands=30, wins=12)
    set_rating(mei, mu=27.0, sigma=3.0, hands=50)
    set_rating(tao, mu=40.0, sigma=7.0, hands=4)  # the best estimate, but still uncertain
    set_rating(yun, mu=27.0, sigma=3.0, hands=80)  # as mei's, more hands
    set_rating(bot, mu=50.0, sigma=1.0, hands=90)
    set_rating(lin, mu=40.0, sigma=1.0, hands=3, variant="ningbo")

    rows = leaderboard("sichuan")

    assert [r.user_id for r in rows] == [lin.pk, yun.pk, mei.pk, tao.pk]  # no bots
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[0].rating == 30.0
    assert (rows[0].display_rating, rows[0].provisional) == (1000 + 40 * 5, False)
    assert (rows[3].display_rating, rows[3].provisional) == (1000 + 40 * 15, True)
    assert (rows[0].name, rows[0].is_bot, rows[0].win_percent) == ("lin", False, 40.0)
    assert [r.user_id for r in leaderboard("sichuan", limit=1)] == [lin.pk]
    assert [r.user_id for r in leaderboard("ningbo")] == [lin.pk]
    assert leaderboard("hangzhou") == []


def test_a_rating_is_provisional_while_its_uncertainty_is_high(players):
    lin, mei, *_ = players
    set_rating(lin, mu=25.0, sigma=6.6, hands=19)
    set_rating(mei, mu=25.0, sigma=6.4, hands=19)

    rows = {r.user_id: r for r in leaderboard("sichuan")}

    assert rows[lin.pk].provisional and not rows[mei.pk].provisional
    assert rows[lin.pk].display_rating == rows[mei.pk].display_rating == 1000


def test_leaderboard_shows_display_names(players):
    players[0].display_name = "Lin the Bold"
    players[0].save(update_fields=["display_name"])
    set_rating(players[0], mu=25.0, sigma=8.0, hands=1)

    assert leaderboard("sichuan")[0].name == "Lin the Bold"


def test_player_ratings_and_recent_hands(players, make_hand):
    lin = players[0]
    first = make_hand([6, -6, 0, 0], winners=[0])
    second = make_hand([-3, 3, 0, 0], winners=[1])
    ratings_update_for_hand(first.pk)
    ratings_update_for_hand(second.pk)

    [mine] = player_ratings(lin)
    recent = recent_rating_changes(lin)

    assert (mine.variant, mine.hands, mine.wins, mine.win_rate) == ("sichuan", 2, 1, 0.5)
    assert mine.rating == round(Rating.objects.get(user=lin).mu, 2)
    assert [r.hand_number for r in recent] == [2, 1]  # newest first
    assert [r.score_delta for r in recent] == [-3, 6]
    assert recent[0].room_id == second.room_id
    assert recent[0].rating_change < 0 < recent[1].rating_change
    assert recent[0].display_change < 0 < recent[1].display_change
    assert len(recent_rating_changes(lin, limit=1)) == 1
    assert player_ratings(players[1])[0].wins == 1
