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

    # Bots are rated but never listed: the bot with ordinal 15 and more hands is left out.
    assert [r.user_id for r in rows] == [mei.pk, lin.pk]
    assert [r.rank for r in rows] == [1, 2]
    assert rows[0].rating == 18.0
    assert (rows[0].display_rating, rows[0].provisional) == (1000 + 40 * 18, True)
    assert (rows[1].name, rows[1].is_bot, rows[1].win_percent) == ("lin", False, 40.0)
    assert [r.user_id for r in leaderboard("sichuan", limit=1)] == [mei.pk]
    assert leaderboard("ningbo") == []  # only a bot played it
    assert leaderboard("hangzhou") == []


def test_a_rating_stops_being_provisional_after_twenty_hands(players):
    lin, mei, *_ = players
    set_rating(lin, mu=25.0, sigma=2.0, hands=19)
    set_rating(mei, mu=25.0, sigma=2.0, hands=20)

    rows = {r.user_id: r for r in leaderboard("sichuan")}

    assert rows[lin.pk].provisional and not rows[mei.pk].provisional
    assert rows[lin.pk].display_rating == rows[mei.pk].display_rating == 1000 + 40 * 19


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
    assert recent[0].display_change < 0 < recent[1].display_change
    assert len(recent_rating_changes(lin, limit=1)) == 1
    assert player_ratings(players[1])[0].wins == 1
