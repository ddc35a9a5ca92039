import pytest

from leaderboards.models import Rating
from leaderboards.selectors import leaderboard, player_ratings, recent_rating_changes
from leaderboards.services import ratings_update_for_hand

pytestmark = pytest.mark.django_db


def set_rating(user, mu, sigma, hands, wins=0, variant="sichuan"):
    return Rating.objects.create(
        user=user, variant=variant, mu=mu, sigma=sigma, hands=hands, wins=wins
    )


def test_leaderboard_orders_by_ordinal_then_hands(players):
    lin, mei, east, west = players
    set_rating(lin, mu=30.0, sigma=5.0, hands=10, wins=4)  # ordinal 15
    set_rating(mei, mu=27.0, sigma=3.0, hands=5)  # ordinal 18
    set_rating(east, mu=24.0, sigma=3.0, hands=40, wins=10)  # ordinal 15, more hands
    set_rating(west, mu=40.0, sigma=1.0, hands=3, variant="ningbo")

    rows = leaderboard("sichuan")

    assert [r.user_id for r in rows] == [mei.pk, east.pk, lin.pk]
    assert [r.rank for r in rows] == [1, 2, 3]
    assert rows[0].rating == 18.0
    assert (rows[1].name, rows[1].is_bot, rows[1].win_rate) == ("bot-east", True, 0.25)
    assert rows[2].win_percent == 40.0
    assert [r.user_id for r in leaderboard("sichuan", limit=2)] == [mei.pk, east.pk]
    assert [r.user_id for r in leaderboard("ningbo")] == [west.pk]
    assert leaderboard("hangzhou") == []


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
    assert mine.rating == round(Rating.objects.get(user=lin).ordinal, 2)
    assert [r.hand_number for r in recent] == [2, 1]  # newest first
    assert [r.score_delta for r in recent] == [-3, 6]
    assert recent[0].room_id == second.room_id
    assert recent[0].rating_change < 0 < recent[1].rating_change
    assert len(recent_rating_changes(lin, limit=1)) == 1
    assert player_ratings(players[1])[0].wins == 1
