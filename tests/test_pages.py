import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _card(content: str, element_id: str) -> str:
    start = content.index(f'id="{element_id}"')
    return content[start : content.index("</li>", start)]


def test_home_offers_every_listed_variant_with_its_own_description(client):
    from games.rules import available

    client.cookies["django_language"] = "en"
    content = client.get(reverse("home")).content.decode()

    assert [v.key for v in available()] == ["sichuan", "hangzhou", "guangzhou", "ningbo"]
    for v in available():
        card = _card(content, f"variant-{v.key}")
        assert v.name_en in card and v.description_en.split(",")[0] in card
        assert f'href="{reverse("lobby")}?variant={v.key}' in card


@pytest.mark.parametrize("name", ["lobby", "leaderboards", "account_login", "account_signup"])
def test_public_pages_render(client, name):
    assert client.get(reverse(name)).status_code == 200


def test_leaderboards_say_no_games_yet_per_variant(client):
    client.cookies["django_language"] = "en"

    content = client.get(reverse("leaderboards")).content.decode()

    from games.rules import available

    assert content.count("No games played yet.") == len(available())
    for v in available():
        assert v.name_en in _card(content, f"leaderboard-{v.key}")


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


def test_api_docs_are_served_with_local_assets(client):
    response = client.get("/api/docs/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page.lower()
    assert reverse("api-schema") in page
    # Every script and stylesheet comes from our own static files, never a CDN.
    assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', page)
    assert assets and all(a.startswith("/static/") for a in assets), assets
    for asset in assets:
        served = client.get(asset)
        assert served.status_code == 200, asset


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_one_name_per_variant_everywhere(client, lang):
    """The site's cards and the engine's own names (lobby, tables, clubs) agree."""
    from django.utils import translation

    from games.rooms.variants import listed_variants
    from games.rules import available

    with translation.override(lang):
        site = {v.key: v.name for v in listed_variants()}
    for v in available():
        assert site[v.key] == (v.name_zh if lang == "zh-hans" else v.name_en)


def test_a_variant_cards_play_link_opens_the_lobby_with_it(client):
    from games.rules import available

    content = client.get(reverse("home")).content.decode()

    for v in available():
        assert f'href="{reverse("lobby")}?variant={v.key}#create-title"' in content


@pytest.mark.parametrize(("lang", "text"), [("zh-hans", "发牌承诺值"), ("en", "deal commitment")])
def test_the_fairness_page_tells_the_scheme(client, lang, text):
    client.cookies["django_language"] = lang

    response = client.get(reverse("fair"))

    assert response.status_code == 200
    assert text in response.content.decode()
