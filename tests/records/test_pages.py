"""The record pages: 我的战绩, a club's 战绩 and a match's 大结算, in zh and en."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.records.factories import recorded_match

pytestmark = pytest.mark.django_db

LANGS = {"zh-hans": "我的战绩", "en": "My records"}


def _client(user, lang="en"):
    client = Client()
    client.cookies["django_language"] = lang
    if user is not None:
        user.language = lang  # a signed-in player is served in their account's language
        user.save(update_fields=["language"])
        client.force_login(user)
    return client


@pytest.fixture
def four(make_user):
    return [make_user(n) for n in ("ann", "bo", "cy", "di")]


@pytest.mark.parametrize("lang,title", LANGS.items())
def test_my_records_lists_my_matches_with_totals(four, lang, title):
    match = recorded_match(four, totals=(6, 2, -3, -5))
    html = _client(four[2], lang).get("/records/").content.decode()
    assert title in html
    assert f'data-match="{match.pk}"' in html
    assert f'href="/records/matches/{match.pk}/"' in html
    assert '<li class="record-me">' in html and '<b class="minus">-3</b>' in html


def test_my_records_needs_signing_in():
    r = _client(None).get("/records/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_match_page_shows_the_summary_and_the_replays(four, lang):
    match = recorded_match(four, totals=(6, 2, -3, -5))
    r = _client(four[0], lang).get(f"/records/matches/{match.pk}/")
    html = r.content.decode()
    assert r.status_code == 200
    assert ("Match summary" if lang == "en" else "大结算") in html
    assert ("Big winner" if lang == "en" else "大赢家") in html
    assert 'href="/hands/101/"' in html and 'href="/hands/102/"' in html
    assert 'id="records-boot"' in html and 'id="save-image"' in html
    assert f'href="/rules/sichuan/?room={match.room_id}"' in html


def test_a_private_match_page_is_not_found_for_others(four, make_user):
    match = recorded_match(four, private=True)
    assert _client(make_user("zed")).get(f"/records/matches/{match.pk}/").status_code == 404
    assert _client(None).get(f"/records/matches/{match.pk}/").status_code == 404
    assert _client(four[3]).get(f"/records/matches/{match.pk}/").status_code == 200


@pytest.mark.parametrize("who,csv_link", [("manager", True), ("member", False)])
def test_club_records_filter_and_the_csv_link_for_managers(club, people, who, csv_link):
    match = recorded_match([people["member"], people["owner"], None, None], club=club)
    client = _client(people[who], "zh-hans")
    html = client.get(f"/clubs/{club.pk}/records/").content.decode()
    assert "亲友圈战绩" in html
    assert f'data-match="{match.pk}"' in html
    assert ('id="csv-link"' in html) is csv_link
    filtered = client.get(f"/clubs/{club.pk}/records/?member={people['manager'].pk}")
    assert f'data-match="{match.pk}"' not in filtered.content.decode()
    huge = client.get(f"/clubs/{club.pk}/records/?member={'9' * 25}&since=never")
    assert huge.status_code == 200  # a filter that is no id or date is left out


def test_club_records_are_for_members(club, people):
    assert _client(people["outsider"]).get(f"/clubs/{club.pk}/records/").status_code == 404


def test_the_profile_links_my_records_and_the_home_page_the_rules(four):
    profile = _client(four[0], "zh-hans").get("/accounts/profile/").content.decode()
    assert 'href="/records/"' in profile and "我的战绩" in profile
    home = _client(None, "en").get("/").content.decode()
    for key in ("sichuan", "hangzhou", "guangzhou", "ningbo"):
        assert f'href="/rules/{key}/"' in home
