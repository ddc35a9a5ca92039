import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_lists_the_four_variants(client):
    content = client.get(reverse("home")).content.decode()

    for key in ("sichuan", "hangzhou", "guangzhou", "ningbo"):
        assert f'id="variant-{key}"' in content


@pytest.mark.parametrize("name", ["lobby", "leaderboards", "account_login", "account_signup"])
def test_public_pages_render(client, name):
    assert client.get(reverse(name)).status_code == 200


def test_leaderboards_say_no_games_yet_per_variant(client):
    client.cookies["django_language"] = "en"

    content = client.get(reverse("leaderboards")).content.decode()

    assert content.count("No games played yet.") == 4


def test_stylesheet_is_served_locally(client):
    content = client.get(reverse("home")).content.decode()

    assert "/static/css/site.css" in content
    assert "http://" not in content.replace("http://www.w3.org", "")
    assert "https://" not in content
    stylesheet = client.get("/static/css/site.css")
    assert stylesheet.status_code == 200
    assert b"--felt" in b"".join(stylesheet.streaming_content)


def test_api_schema(client):
    response = client.get(reverse("api-schema"))

    assert response.status_code == 200
    assert b"Mahjong platform API" in response.content
