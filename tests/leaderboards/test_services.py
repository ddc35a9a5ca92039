import pytest

from games.models import Hand
from leaderboards import services
from leaderboards.models import Rating, RatingChange
from leaderboards.rating import default_skill, display_rating, ordinal, rate
from leaderboards.services import ratings_update_for_hand

pytestmark = pytest.mark.django_db


def rating_of(user, variant="sichuan"):
    return Rating.objects.get(user=user, variant=variant)


def test_an_ended_hand_rates_every_seat(players, make_hand):
    hand = make_hand([6, -6, 2, -2], winners=[0, 2])

    changes = ratings_update_for_hand(hand.pk)

    assert [c.user_id for c in changes] == [p.pk for p in players]
    assert [c.rank for c in changes] == [1, 4, 2, 3]
    assert [c.score_delta for c in changes] == [6, -6, 2, -2]
    expected = rate([default_skill()] * 4, [6, -6, 2, -2])
    for change, player, (mu, sigma) in zip(changes, players, expected, strict=True):
        stored = rating_of(player)
        assert (stored.mu, stored.sigma) == pytest.approx((mu, sigma))
        assert (change.mu_after, change.sigma_after) == pytest.approx((mu, sigma))
        assert (change.mu_before, change.sigma_before) == pytest.approx(default_skill())
        assert change.ordinal_before == pytest.approx(0.0)
        assert change.ordinal_after == pytest.approx(ordinal(mu, sigma))
        assert stored.hands == 1
    assert [rating_of(p).wins for p in players] == [1, 0, 1, 0]
    assert rating_of(players[0]).ordinal > 0 > rating_of(players[1]).ordinal


def test_rating_a_hand_twice_is_a_no_op(players, make_hand):
    hand = make_hand([6, -6, 0, 0])

    first = ratings_update_for_hand(hand.pk)
    mu_after_first = rating_of(players[0]).mu
    second = ratings_update_for_hand(hand.pk)

    assert RatingChange.objects.filter(hand=hand).count() == 4
    assert {c.pk for c in second} == {c.pk for c in first}
    assert [rating_of(p).hands for p in players] == [1, 1, 1, 1]
    assert rating_of(players[0]).mu == mu_after_first


def test_a_concurrent_duplicate_is_treated_as_done(players, make_hand, monkeypatch):
    """The other run commits between our "already rated?" check and our insert."""
    hand = make_hand([6, -6, 0, 0])
    ratings_update_for_hand(hand.pk)
    real = services._existing_changes
    calls = []

    def misses_once(hand_id):
        calls.append(hand_id)
        return [] if len(calls) == 1 else real(hand_id)

    monkeypatch.setattr(services, "_existing_changes", misses_once)

    changes = ratings_update_for_hand(hand.pk)

    assert len(calls) == 2  # the check missed, the insert collided, the fallback read
    assert len(changes) == 4
    assert RatingChange.objects.filter(hand=hand).count() == 4
    # The colliding run's rating updates were rolled back with it.
    assert [rating_of(p).hands for p in players] == [1, 1, 1, 1]


def test_a_hand_still_being_played_is_not_rated(make_hand):
    hand = make_hand([0, 0, 0, 0], status=Hand.Status.PLAYING)

    assert ratings_update_for_hand(hand.pk) == []
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_an_ended_hand_without_a_result_is_not_rated(make_hand):
    hand = make_hand([1, -1, 0, 0])
    Hand.objects.filter(pk=hand.pk).update(result=None)

    assert ratings_update_for_hand(hand.pk) == []
    assert not Rating.objects.exists()


def test_a_missing_hand_is_not_rated():
    assert ratings_update_for_hand(987654) == []


def test_empty_seats_are_skipped(players, make_hand):
    seats = [players[0].pk, None, players[2].pk, players[3].pk]
    hand = make_hand([4, 0, -2, -2], seats=seats)

    changes = ratings_update_for_hand(hand.pk)

    assert sorted(c.user_id for c in changes) == sorted(
        [players[0].pk, players[2].pk, players[3].pk]
    )
    assert not Rating.objects.filter(user=players[1]).exists()
    assert [c.rank for c in changes] == [1, 2, 2]


def test_the_next_hand_starts_from_the_last_rating(players, make_hand):
    ratings_update_for_hand(make_hand([6, -6, 0, 0]).pk)
    after_first = rating_of(players[0])

    changes = ratings_update_for_hand(make_hand([-2, 2, 0, 0]).pk)

    assert changes[0].mu_before == pytest.approx(after_first.mu)
    assert changes[0].ordinal_before == pytest.approx(after_first.ordinal)
    assert changes[0].mu_after < after_first.mu
    assert rating_of(players[0]).hands == 2


def test_ratings_are_kept_per_variant(players, make_hand):
    ratings_update_for_hand(make_hand([6, -6, 0, 0]).pk)
    ratings_update_for_hand(make_hand([-6, 6, 0, 0], variant="guangzhou").pk)

    sichuan, guangzhou = rating_of(players[0]), rating_of(players[0], "guangzhou")
    assert (sichuan.hands, guangzhou.hands) == (1, 1)
    assert sichuan.ordinal > 0 > guangzhou.ordinal


def test_the_score_is_the_settlements_total_for_the_seat(players, make_hand, english):
    """查大叫 is paid when the wall runs out, after the live payments: the score a
    hand leaves on the profile is the settlement's, not the live result's."""
    hand = make_hand([-6, 6, 2, -2], live=[-2, 2, 2, -2], winners=[])

    changes = ratings_update_for_hand(hand.pk)

    assert [c.score_delta for c in changes] == [-6, 6, 2, -2]
    assert [c.rank for c in changes] == [4, 1, 2, 3]
    lin = players[0]
    lin.language = "en"
    lin.save(update_fields=["language"])
    english.force_login(lin)
    page = english.get("/accounts/profile/").content.decode()
    assert '<td class="num">-6</td>' in page


def test_a_hand_without_its_settlement_is_not_rated_yet(make_hand):
    hand = make_hand([6, -6, 0, 0])
    hand.settlement.delete()

    assert ratings_update_for_hand(hand.pk) == []
    assert not RatingChange.objects.exists()


@pytest.mark.parametrize("hands_total", [1, 4, 7])
def test_a_room_shorter_than_a_match_moves_no_public_rating(players, make_hand, hands_total):
    hand = make_hand([6, -6, 0, 0], hands_total=hands_total)

    changes = ratings_update_for_hand(hand.pk)

    assert [c.rated for c in changes] == [False] * 4
    assert [c.score_delta for c in changes] == [6, -6, 0, 0]  # still on the profile
    assert all(c.mu_after == c.mu_before for c in changes)
    assert [rating_of(p).hands for p in players] == [0, 0, 0, 0]


def test_a_hand_with_a_bot_moves_no_public_rating(players, make_hand, bot):
    hand = make_hand([6, -6, 0, 0], seats=[players[0].pk, players[1].pk, players[2].pk, bot.pk])

    changes = ratings_update_for_hand(hand.pk)

    assert not any(c.rated for c in changes)
    assert Rating.objects.filter(hands__gt=0).count() == 0


def test_a_club_board_counts_unrated_hands_only_when_the_club_says_so(players, make_hand):
    from clubs.models import Club
    from leaderboards.models import ClubRating

    club = Club.objects.create(name="Tea", created_by=players[0])
    ratings_update_for_hand(make_hand([6, -6, 0, 0], hands_total=4, club=club).pk)
    assert not ClubRating.objects.filter(hands__gt=0).exists()

    club.board_counts_unrated = True
    club.save(update_fields=["board_counts_unrated"])
    ratings_update_for_hand(make_hand([6, -6, 0, 0], hands_total=4, club=club).pk)

    assert ClubRating.objects.get(club=club, user=players[0]).hands == 1
    assert rating_of(players[0]).hands == 0  # the public board is left alone


def test_the_loser_falls_and_the_winner_rises_on_the_shown_rating(players, make_hand):
    """Third of four with a loss of 1: the shown number falls, though the model is surer."""
    changes = ratings_update_for_hand(make_hand([-1, 3, 0, -2]).pk)

    shown = {c.user_id: display_rating(c.mu_after) - display_rating(c.mu_before) for c in changes}
    assert shown[players[0].pk] < 0 < shown[players[1].pk]
    assert shown[players[3].pk] < 0


def test_the_tables_settlement_shows_the_same_rating_moves(players, make_hand):
    from games.table.selectors import settled_payload

    hand = make_hand([-1, 3, 0, -2])
    ratings_update_for_hand(hand.pk)

    shown = {r["seat"]: r["change"] for r in settled_payload(hand)["ratings"]}

    assert shown[0] < 0 < shown[1] and shown[3] < 0
    unrated = make_hand([-1, 3, 0, -2], hands_total=1)
    ratings_update_for_hand(unrated.pk)
    assert settled_payload(unrated)["ratings"] == []


def test_switching_a_club_board_counts_the_hands_already_played(players, make_hand, bot):
    from clubs.services import club_create
    from leaderboards.models import ClubRating

    def board():
        return {r.user_id: (r.mu, r.sigma, r.hands, r.wins) for r in ClubRating.objects.all()}

    club = club_create(owner=players[0], name="Tea").club
    with_bot = [players[0].pk, players[1].pk, players[2].pk, bot.pk]
    for hand in (
        make_hand([6, -6, 2, -2], winners=[0, 2], club=club),
        make_hand([-3, 3, 0, 0], winners=[1], hands_total=4, club=club),  # short: unrated
        make_hand([2, 0, -2, 0], winners=[0], seats=with_bot, club=club),  # a bot: unrated
    ):
        ratings_update_for_hand(hand.pk)
    rated_only = board()
    assert rated_only[players[0].pk][2:] == (1, 1)

    services.club_board_set(club_id=club.pk, actor=players[0], counts_unrated=True)

    # As if the club had counted every hand from the start.
    after_two = rate(rate([default_skill()] * 4, [6, -6, 2, -2]), [-3, 3, 0, 0])
    after_three = rate([*after_two[:3], default_skill()], [2, 0, -2, 0])
    counted = board()
    assert counted[players[0].pk][:2] == pytest.approx(after_three[0])
    assert counted[players[0].pk][2:] == (3, 2)
    assert counted[players[3].pk][:2] == pytest.approx(after_two[3])
    assert counted[bot.pk][2:] == (1, 0)

    services.club_board_set(club_id=club.pk, actor=players[0], counts_unrated=False)

    back = board()
    assert back.keys() == rated_only.keys()
    for user_id, (mu, sigma, hands, wins) in rated_only.items():
        assert back[user_id][:2] == pytest.approx((mu, sigma))
        assert back[user_id][2:] == (hands, wins)
