import pytest
from django.urls import reverse

from leaderboards.models import Rating
from leaderboards.rating import display_rating
from leaderboards.services import ratings_update_for_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(players, make_hand):
    """One Sichuan hand won by lin (seat 0), lost by mei (seat 1)."""
    ratings_update_for_hand(make_hand([6, -6, 0, 0], winners=[0]).pk)
    return players


def test_index_links_every_board_and_shows_the_leader(english, rated):
    content = english.get(reverse("leaderboards")).content.decode()

    for key in ("sichuan", "hangzhou", "guangzhou", "ningbo"):
        assert f'href="{reverse("leaderboard", args=[key])}"' in content
    assert "lin" in content
    # The boards without hands say so.
    from games.rules import available

    assert content.count("No games played yet.") == len(available()) - 1


def test_board_lists_players_best_first(english, rated):
    response = english.get(reverse("leaderboard", args=["sichuan"]))

    assert response.status_code == 200
    content = response.content.decode()
    lin, mei, tao, _ = rated
    assert 'class="rating-table"' in content
    assert content.index(f'id="player-{lin.pk}"') < content.index(f'id="player-{tao.pk}"')
    assert content.index(f'id="player-{tao.pk}"') < content.index(f'id="player-{mei.pk}"')
    shown = display_rating(Rating.objects.get(user=lin).mu)
    assert shown > 1000
    assert f"{shown}?" in content  # a whole number, provisional after one hand
    assert "Your estimated skill: 1000 for a newcomer" in content
    assert "100.0%" in content  # lin won the one hand played


def test_board_of_a_variant_not_yet_playable_is_empty(english):
    response = english.get(reverse("leaderboard", args=["ningbo"]))

    assert response.status_code == 200
    assert "No games played yet." in response.content.decode()


def test_board_of_an_unknown_variant_is_404(client):
    assert client.get(reverse("leaderboard", args=["riichi"])).status_code == 404


def test_board_is_translated(client, rated):
    content = client.get(reverse("leaderboard", args=["sichuan"])).content.decode()

    assert "四川血战" in content  # default language, via the variant's translated name


def test_api_board_shape(client, rated):
    response = client.get("/api/leaderboards/sichuan/")

    assert response.status_code == 200
    body = response.json()
    assert body["variant"] == "sichuan"
    assert len(body["players"]) == 4
    top = body["players"][0]
    lin = rated[0]
    stored = Rating.objects.get(user=lin)
    assert top == {
        "rank": 1,
        "user_id": lin.pk,
        "name": "lin",
        "is_bot": False,
        "rating": round(stored.mu, 2),
        "mu": pytest.approx(stored.mu, abs=1e-4),
        "sigma": pytest.approx(stored.sigma, abs=1e-4),
        "hands": 1,
        "wins": 1,
        "win_rate": 1.0,
        "display_rating": display_rating(stored.mu),
        "provisional": True,
    }
    assert [p["rank"] for p in body["players"]] == [1, 2, 3, 4]
    assert not any(p["is_bot"] for p in body["players"])


def test_api_board_of_a_variant_without_hands_is_empty(client):
    response = client.get("/api/leaderboards/guangzhou/")

    assert response.status_code == 200
    assert response.json() == {"variant": "guangzhou", "players": []}


def test_api_unknown_variant_is_404_json(client):
    response = client.get("/api/leaderboards/riichi/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert "riichi" in response.json()["detail"]


def test_api_is_in_the_schema(client):
    content = client.get(reverse("api-schema")).content.decode()

    assert "/api/leaderboards/{variant}/" in content
    assert "leaderboard_retrieve" in content


@pytest.mark.parametrize(
    ("hands", "bots", "rated"), [(8, 0, True), (16, 0, True), (4, 0, False), (8, 1, False)]
)
def test_a_room_says_whether_it_is_rated_before_anyone_joins(client, players, hands, bots, rated):
    client.force_login(players[0])

    made = client.post(
        "/api/rooms/",
        {"variant": "sichuan", "hands": hands, "bots": bots},
        content_type="application/json",
    )

    assert made.status_code == 201, made.content
    client.force_login(players[1])  # someone not seated reads the lobby
    listed = {r["id"]: r for r in client.get("/api/rooms/").json()}
    assert listed[made.json()["id"]]["rated"] is rated
