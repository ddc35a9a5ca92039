"""Times are stored in UTC and shown in the reader's zone: the one their browser gave at
sign-up or they chose on the profile, else China's for a Chinese reader. Date filters read
days in that zone too."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re

import pytest
from django.test import Client

from accounts.models import User
from clubs.models import AuditEntry, PresetVersion
from records.models import Match
from tests.records.factories import recorded_match

pytestmark = pytest.mark.django_db

#: 11:40 UTC is 19:40 in Beijing and 06:40 in New York; 17:00 UTC on the 7th is already
#: the 8th in Beijing.
EVENING = datetime.datetime(2026, 12, 7, 11, 40, tzinfo=datetime.UTC)
LATE = datetime.datetime(2026, 12, 7, 17, 0, tzinfo=datetime.UTC)


def _reader(user, language, zone=""):
    user.language, user.timezone = language, zone
    user.save(update_fields=["language", "timezone"])
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def four(make_user):
    return [make_user(n) for n in ("ann", "bo", "cy", "di")]


@pytest.mark.parametrize(
    "language, zone, shown",
    [
        ("zh-hans", "", "2026-12-07 19:40"),  # a Chinese reader without a zone: Beijing
        ("en", "America/New_York", "2026-12-07 06:40"),
        ("zh-hans", "Europe/Berlin", "2026-12-07 12:40"),  # a zone chosen wins
        ("en", "", "2026-12-07 11:40"),  # nothing to go by: UTC
    ],
)
def test_record_pages_show_times_in_the_readers_zone(four, language, zone, shown):
    match = recorded_match(four, ended_at=EVENING)
    client = _reader(four[0], language, zone)

    assert f">{shown}</time>" in client.get("/records/").content.decode()
    page = client.get(f"/records/matches/{match.pk}/").content.decode()
    assert f">{shown}</time>" in page
    # The 大结算 image is drawn from the page's data: the same time.
    boot = json.loads(re.search(r'id="records-boot"[^>]*>(.*?)</script>', page, re.S)[1])
    assert boot["ended_at"] == shown


def test_the_api_gives_times_with_the_readers_offset(four):
    match = recorded_match(four, ended_at=EVENING)
    client = _reader(four[0], "zh-hans")

    body = client.get(f"/api/matches/{match.pk}/").json()

    assert body["ended_at"] == "2026-12-07T19:40:00+08:00"
    assert datetime.datetime.fromisoformat(body["ended_at"]) == EVENING
    assert Match.objects.get().ended_at == EVENING  # stored as it happened, in UTC


def test_a_clubs_date_filter_reads_days_in_the_readers_zone(club, people):
    match = recorded_match(
        [people["owner"], people["member"], None, None], club=club, ended_at=LATE
    )
    beijing = _reader(people["owner"], "zh-hans")
    utc = _reader(people["manager"], "en")

    def shown(client, url):
        return f'data-match="{match.pk}"' in client.get(url).content.decode()

    page = f"/clubs/{club.pk}/records/"
    assert shown(beijing, f"{page}?since=2026-12-08&until=2026-12-08")
    assert not shown(beijing, f"{page}?until=2026-12-07")
    assert shown(utc, f"{page}?until=2026-12-07") and not shown(utc, f"{page}?since=2026-12-08")
    api = f"/api/clubs/{club.pk}/matches/"
    assert [m["id"] for m in beijing.get(f"{api}?since=2026-12-08").json()["results"]] == [match.pk]
    rows = list(
        csv.reader(io.StringIO(beijing.get(f"{api}?format=csv").content.decode("utf-8-sig")))
    )
    assert rows[1][5] == "2026-12-08T01:00:00+08:00"


def test_club_history_and_preset_versions_show_the_readers_time(club, people, preset):
    AuditEntry.objects.filter(club=club).update(created_at=EVENING)
    PresetVersion.objects.filter(preset=preset).update(created_at=EVENING)
    client = _reader(people["owner"], "zh-hans")

    assert ">2026-12-07 19:40</time>" in client.get(f"/clubs/{club.pk}/history/").content.decode()
    versions = client.get(f"/clubs/{club.pk}/presets/{preset.pk}/").content.decode()
    assert "2026-12-07 19:40" in versions and "2026-12-07 11:40" not in versions


# --- where the zone comes from ---------------------------------------------------------


def test_sign_up_keeps_the_browsers_zone(client, sign_up):
    assert sign_up(client, "mei", timezone="America/New_York").status_code == 302
    assert sign_up(Client(), "tao", timezone="Mars/Olympus").status_code == 302

    assert User.objects.get(username="mei").timezone == "America/New_York"
    assert User.objects.get(username="tao").timezone == ""  # unknown: left to the language


def test_the_sign_up_page_asks_the_browser(client):
    html = client.get("/accounts/signup/").content.decode()
    assert '<input type="hidden" name="timezone"' in html and "js/timezone.js" in html


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_zone_is_chosen_on_the_profile(player, language):
    client = _reader(player, language)

    client.post(
        "/accounts/profile/", {"display_name": "", "language": language, "timezone": "Asia/Tokyo"}
    )
    player.refresh_from_db()
    assert player.timezone == "Asia/Tokyo"

    refused = client.post(
        "/accounts/profile/", {"display_name": "", "language": language, "timezone": "Asia/Nowhere"}
    )
    assert refused.status_code == 200
    player.refresh_from_db()
    assert player.timezone == "Asia/Tokyo"
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="timezone"' in page and 'list="time-zones"' in page
    assert '<option value="Asia/Shanghai">' in page  # typed with the browser's suggestions
