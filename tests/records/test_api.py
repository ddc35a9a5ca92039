"""The records REST contract: shapes, ordering, pagination, filters, CSV and refusals."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.utils import timezone

from tests.records.factories import recorded_match

pytestmark = pytest.mark.django_db

PLAYER_KEYS = {"seat", "name", "is_bot", "total"}
MATCH_KEYS = {
    "id",
    "variant",
    "club",
    "room",
    "started_at",
    "ended_at",
    "ended_by",
    "players",
    "hands",
}


@pytest.fixture
def four(make_user):
    return [make_user(n) for n in ("ann", "bo", "cy", "di")]


def test_my_matches_have_exactly_the_contract_shape(four, client_for):
    match = recorded_match(four, totals=(5, 1, -2, -4))
    body = client_for(four[1]).get("/api/matches/").json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 1
    (m,) = body["results"]
    assert set(m) == MATCH_KEYS
    assert m["id"] == match.pk
    assert m["variant"] == "sichuan"
    assert m["club"] is None
    assert m["room"] == match.room_id
    assert m["ended_by"] == "complete"
    assert datetime.datetime.fromisoformat(m["ended_at"]) == match.ended_at
    assert datetime.datetime.fromisoformat(m["started_at"]) == match.started_at
    assert m["hands"] == [101, 102]
    assert [set(p) for p in m["players"]] == [PLAYER_KEYS] * 4
    assert [(p["seat"], p["name"], p["total"]) for p in m["players"]] == [
        (0, "ann", 5),
        (1, "bo", 1),
        (2, "cy", -2),
        (3, "di", -4),
    ]
    assert not any(p["is_bot"] for p in m["players"])


def test_my_matches_are_mine_newest_first_and_paginated(four, make_user, client_for):
    now = timezone.now()
    mine = [
        recorded_match(four, ended_at=now - datetime.timedelta(hours=h), hand_ids=(h, h + 100))
        for h in range(1, 24)
    ]
    others = [make_user(n) for n in ("e1", "e2", "e3", "e4")]
    recorded_match(others)
    client = client_for(four[0])
    first = client.get("/api/matches/").json()
    assert first["count"] == 23
    assert [m["id"] for m in first["results"]] == [m.pk for m in mine[:20]]
    assert first["previous"] is None and first["next"].endswith("page=2")
    second = client.get(first["next"]).json()
    assert [m["id"] for m in second["results"]] == [m.pk for m in mine[20:]]
    assert second["next"] is None
    small = client.get("/api/matches/?page_size=5").json()
    assert len(small["results"]) == 5
    assert client.get("/api/matches/?page=9").json()["code"] == "not_found"


def test_matches_need_a_signed_in_player(client_for):
    r = client_for(None).get("/api/matches/")
    assert r.status_code == 403
    assert r.json()["code"] == "not_authenticated"


def test_one_match_is_seen_by_whoever_could_see_its_room(four, make_user, client_for):
    public = recorded_match(four)
    private = recorded_match(four, private=True)
    outsider = make_user("zed")
    assert client_for(None).get(f"/api/matches/{public.pk}/").json()["id"] == public.pk
    assert client_for(outsider).get(f"/api/matches/{public.pk}/").status_code == 200
    assert client_for(four[2]).get(f"/api/matches/{private.pk}/").json()["id"] == private.pk
    for who in (outsider, None):
        r = client_for(who).get(f"/api/matches/{private.pk}/")
        assert r.status_code == 404
        assert r.json()["code"] == "not_found"
    assert client_for(outsider).get("/api/matches/999999/").status_code == 404


def test_a_club_match_is_for_members_and_its_players(four, club, people, client_for):
    players = [people["member"], *four[1:]]
    match = recorded_match(players, club=club)
    assert client_for(people["owner"]).get(f"/api/matches/{match.pk}/").json()["club"] == club.pk
    assert client_for(four[1]).get(f"/api/matches/{match.pk}/").status_code == 200
    assert client_for(people["outsider"]).get(f"/api/matches/{match.pk}/").status_code == 404


def _club_matches(club, people):
    now = timezone.now()
    others = [people["owner"], people["manager"], None, None]
    old = recorded_match(others, club=club, ended_at=now - datetime.timedelta(days=10))
    mine = recorded_match(
        [people["member"], people["manager"], None, None],
        club=club,
        ended_at=now - datetime.timedelta(days=1),
    )
    recorded_match([people["outsider"], None, None, None])  # not the club's
    return old, mine


def test_club_matches_list_and_filter(club, people, client_for):
    old, mine = _club_matches(club, people)
    client = client_for(people["member"])
    url = f"/api/clubs/{club.pk}/matches/"
    body = client.get(url).json()
    assert [m["id"] for m in body["results"]] == [mine.pk, old.pk]
    assert set(body["results"][0]) == MATCH_KEYS
    by_member = client.get(f"{url}?member={people['member'].pk}").json()
    assert [m["id"] for m in by_member["results"]] == [mine.pk]
    day = (timezone.localdate() - datetime.timedelta(days=5)).isoformat()
    assert [m["id"] for m in client.get(f"{url}?since={day}").json()["results"]] == [mine.pk]
    assert [m["id"] for m in client.get(f"{url}?until={day}").json()["results"]] == [old.pk]
    for bad in ("since=yesterday", "until=2026-13-01", "member=me", f"member={2**63}"):
        r = client.get(f"{url}?{bad}")
        assert r.status_code == 400
        assert r.json()["code"] == "bad_request"


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_club_matches_refuse_outsiders(club, people, client_for, who):
    r = client_for(people[who]).get(f"/api/clubs/{club.pk}/matches/")
    assert r.status_code in (403, 404)
    assert r.json()["code"] in ("no_club", "not_authenticated")
    assert r.status_code == (404 if who == "outsider" else 403)


@pytest.mark.parametrize("who", ["owner", "manager"])
def test_club_csv_has_one_row_per_player_per_match(club, people, client_for, who):
    old, mine = _club_matches(club, people)
    r = client_for(people[who]).get(f"/api/clubs/{club.pk}/matches/?format=csv")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert len(rows) == 8
    assert [int(row["match"]) for row in rows] == [mine.pk] * 4 + [old.pk] * 4
    first = rows[0]
    assert (first["seat"], first["name"], first["user_id"]) == (
        "0",
        "member",
        str(people["member"].pk),
    )
    assert sum(int(row["total"]) for row in rows[:4]) == 0
    filtered = client_for(people[who]).get(
        f"/api/clubs/{club.pk}/matches/?format=csv&member={people['member'].pk}"
    )
    assert len(list(csv.DictReader(io.StringIO(filtered.content.decode("utf-8-sig"))))) == 4


def test_club_csv_opens_in_excel_as_utf8(club, people, client_for):
    """Excel takes a file for UTF-8 only with a byte-order mark; the columns stay as they were."""
    _club_matches(club, people)
    r = client_for(people["owner"]).get(f"/api/clubs/{club.pk}/matches/?format=csv")
    assert r.content.startswith(b"\xef\xbb\xbf")
    text = r.content.decode("utf-8-sig")
    assert text.splitlines()[0].split(",") == [
        "match",
        "variant",
        "club",
        "room",
        "started_at",
        "ended_at",
        "ended_by",
        "seat",
        "user_id",
        "name",
        "is_bot",
        "total",
    ]


@pytest.mark.parametrize(
    "who,status,code", [("member", 403, "not_manager"), ("outsider", 404, "no_club")]
)
def test_club_csv_refuses_members_and_outsiders(club, people, client_for, who, status, code):
    r = client_for(people[who]).get(f"/api/clubs/{club.pk}/matches/?format=csv")
    assert r.status_code == status
    assert r["Content-Type"].startswith("application/json")
    assert r.json()["code"] == code


def test_records_reads_are_throttled(four, client_for, settings, monkeypatch):
    from records.throttles import RecordsExportThrottle, RecordsReadThrottle

    monkeypatch.setattr(RecordsReadThrottle, "THROTTLE_RATES", {"records_read": "2/min"})
    monkeypatch.setattr(RecordsExportThrottle, "THROTTLE_RATES", {"records_export": "1/min"})
    client = client_for(four[0])
    assert [client.get("/api/matches/").status_code for _ in range(3)] == [200, 200, 429]
    assert client.get("/api/matches/").json()["code"] == "throttled"


def test_the_schema_names_the_records_endpoints(client_for, four):
    schema = client_for(four[0]).get("/api/schema/?format=json").json()
    paths = ("/api/matches/", "/api/matches/{id}/", "/api/matches/{id}/summary/")
    for path in (*paths, "/api/clubs/{id}/matches/"):
        assert path in schema["paths"], path


def test_the_summary_is_the_match_page_data_for_who_may_see_it(four, make_user, client_for):
    match = recorded_match(four, totals=(6, 2, -3, -5), private=True)
    body = client_for(four[0]).get(f"/api/matches/{match.pk}/summary/").json()
    assert [p["total"] for p in body["players"]] == [6, 2, -3, -5]
    assert [p["marks"] for p in body["players"]] == [["big_winner"], [], [], []]
    assert [p["name"] for p in body["players"]] == ["ann", "bo", "cy", "di"]
    assert [h["id"] for h in body["hands"]] == [101, 102]
    assert body["hands"][0]["wins"][0]["win_type"] == "self_draw"
    r = client_for(make_user("zed")).get(f"/api/matches/{match.pk}/summary/")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
