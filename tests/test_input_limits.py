"""Input at the edges: ids past what a key can hold, oversized bodies, invisible names."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

from config.converters import MAX_ID, IdConverter

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


@pytest.mark.parametrize("ident", [MAX_ID + 1, 10**30])
@pytest.mark.parametrize("route", ID_ROUTES)
def test_ids_past_the_largest_key_are_not_found(client, player, route, ident):
    client.force_login(player)
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
