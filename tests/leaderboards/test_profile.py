import pytest
from django.urls import reverse

from leaderboards.models import Rating
from leaderboards.rating import display_change, display_rating
from leaderboards.services import ratings_update_for_hand

pytestmark = pytest.mark.django_db


def test_profile_shows_ratings_and_recent_hands(english, players, make_hand):
    ratings_update_for_hand(make_hand([6, -6, 0, 0], winners=[0]).pk)
    lin = players[0]
    lin.language = "en"
    lin.save(update_fields=["language"])
    english.force_login(lin)

    content = english.get(reverse("profile")).content.decode()

    change = lin.rating_changes.get()
    assert 'id="rating-sichuan"' in content
    assert f"{display_rating(Rating.objects.get(user=lin).mu)}?" in content
    assert "Recent hands" in content
    assert f"Room {change.hand.room_id}, hand 1" in content
    assert "+6" in content
    assert f"+{display_change(change.mu_before, change.mu_after)}<" in content


def test_profile_without_hands_says_so(english, player):
    player.language = "en"  # a signed-in reader gets their account's language
    player.save(update_fields=["language"])
    english.force_login(player)

    content = english.get(reverse("profile")).content.decode()

    assert "No rated hands yet." in content
    assert "Recent hands" not in content
