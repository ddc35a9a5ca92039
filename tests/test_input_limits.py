"""Input at the edges: ids past what a key can hold, oversized bodies, refused presets."""

import json
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter
from django.utils import translation

from config.converters import MAX_ID, IdConverter
from config.refusals import texts
from games.models import Room

pytestmark = pytest.mark.django_db


def routes(resolver=None, prefix="/"):
    """(route text, its converters) of every URL pattern, includes expanded."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from routes(entry, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.pattern.converters


@pytest.fixture
def player(django_user_model):
    # No password: these tests sign in with force_login, and hashing one is slow.
    return django_user_model.objects.create_user(username="lin", email="lin@example.com")


ID_ROUTES = sorted(route for route, conv in routes() if IdConverter in map(type, conv.values()))


def test_every_id_in_a_url_is_range_checked():
    plain_ints = [
        (route, name)
        for route, conv in routes()
        for name, converter in conv.items()
        if isinstance(converter, IntConverter)
    ]
    # A seat is an index the view compares, not a key the database looks up.
    assert {name for _, name in plain_ints} <= {"seat"}, plain_ints
    assert any(r.startswith("/api/rooms/") for r in ID_ROUTES)
    assert any(r.startswith("/clubs/") for r in ID_ROUTES)
    assert any(r.startswith("/api/clubs/") for r in ID_ROUTES)
    assert any(r.startswith("/hands/") for r in ID_ROUTES)


def url(route, ident):
    route = re.sub(r"<id:\w+>", str(ident), route)
    return re.sub(r"<int:\w+>", "0", route)


@pytest.mark.parametrize("route", ID_ROUTES)
def test_ids_past_the_largest_key_are_not_found(client, player, route):
    client.force_login(player)
    for ident in (MAX_ID + 1, 10**30):
        for method in (client.get, client.post, client.delete):
            response = method(url(route, ident))
            assert response.status_code == 404, (method, url(route, ident))


@pytest.mark.parametrize("route", ID_ROUTES)
def test_the_largest_key_reaches_the_view_and_finds_nothing(client, player, route):
    client.force_login(player)
    response = client.get(url(route, MAX_ID))
    assert response.status_code in {404, 405}, response.status_code


def test_the_converter_round_trips_the_largest_key():
    converter = IdConverter()
    assert converter.to_python(converter.to_url(MAX_ID)) == MAX_ID
    with pytest.raises(ValueError):
        converter.to_python(str(MAX_ID + 1))


def test_an_unmatched_api_url_gets_the_api_error_shape(client):
    response = client.get(f"/api/rooms/{MAX_ID + 1}/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "未找到。"}
    # Pages keep Django's page.
    page = client.get(f"/rooms/{MAX_ID + 1}/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


OVER_LIMIT = "x" * (2_621_440 + 1)


@pytest.mark.parametrize(
    "body, content_type",
    [
        (json.dumps({"variant": "sichuan", "pad": OVER_LIMIT}), "application/json"),
        (f"variant=sichuan&pad={OVER_LIMIT}", "application/x-www-form-urlencoded"),
        (None, "multipart"),
    ],
)
def test_a_body_over_the_upload_limit_gets_the_api_error_shape(client, player, body, content_type):
    player.language = "en"  # the account's language is the one answered in
    player.save(update_fields=["language"])
    client.force_login(player)
    if body is None:
        response = client.post("/api/rooms/", {"variant": "sichuan", "pad": OVER_LIMIT})
    else:
        response = client.post("/api/rooms/", body, content_type=content_type)

    assert response.status_code == 413
    assert response.json() == {"code": "too_large", "detail": "The request body is over 2.5 MB."}
    assert not Room.objects.exists()


def test_the_size_refusal_is_translated(client, player):
    client.force_login(player)
    body = json.dumps({"pad": OVER_LIMIT})
    response = client.post("/api/rooms/", body, content_type="application/json")
    assert response.json()["detail"] == "请求内容超过 2.5 MB。"


def test_a_body_under_the_limit_is_read(client, player):
    client.force_login(player)
    body = json.dumps({"variant": "sichuan", "pad": "x" * 2_000_000})
    response = client.post("/api/rooms/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert "pad" in response.json()["detail"]


def test_too_many_form_fields_get_the_api_error_shape(client, player):
    client.force_login(player)
    body = "&".join(f"f{n}=1" for n in range(1001))
    response = client.post("/api/rooms/", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_the_lobby_reads_a_missing_preset_in_both_languages():
    with translation.override("en"):
        en = texts()["no_preset"]
    with translation.override("zh-hans"):
        zh = texts()["no_preset"]
    assert en == "There is no such rule preset in your clubs."
    assert zh == "你的亲友圈里没有这个规则预设。"
