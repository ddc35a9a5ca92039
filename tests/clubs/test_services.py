"""Roles, invite codes and preset versions through the services and the API."""

from __future__ import annotations

import pytest

from clubs import selectors, services
from clubs.models import AuditEntry, Membership, PresetVersion
from games.rules import get_variant
from tests.clubs.conftest import role_of

pytestmark = pytest.mark.django_db


def test_creating_a_club_makes_the_caller_its_owner(client_for, people):
    r = client_for(people["outsider"]).post("/api/clubs/", {"name": " Lin's "}, format="json")

    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"id", "name", "invite_code", "role"}
    assert body["name"] == "Lin's" and body["role"] == "owner" and len(body["invite_code"]) == 8
    listed = client_for(people["outsider"]).get("/api/clubs/").json()
    assert listed == [body]


@pytest.mark.parametrize("name", ["", "   ", "x" * 61])
def test_a_club_needs_a_sensible_name(client_for, people, name):
    r = client_for(people["owner"]).post("/api/clubs/", {"name": name}, format="json")

    assert r.status_code == 400 and r.json()["code"] == "bad_name"


def test_joining_by_code_makes_a_member_and_a_wrong_code_is_refused(client_for, people, club):
    c = client_for(people["outsider"])

    wrong = c.post("/api/clubs/join/", {"invite_code": "NOPE2345"}, format="json")
    ok = c.post("/api/clubs/join/", {"invite_code": club.invite_code.lower()}, format="json")
    again = c.post("/api/clubs/join/", {"invite_code": club.invite_code}, format="json")

    assert wrong.status_code == 404 and wrong.json()["code"] == "bad_invite"
    assert ok.status_code == 201 and ok.json() == {"club": club.pk, "role": "member"}
    assert again.status_code == 200 and again.json() == {"club": club.pk, "role": "member"}
    assert role_of(club, people["outsider"]) == "member"


def test_join_attempts_are_throttled(client_for, people, monkeypatch):
    from rest_framework.throttling import ScopedRateThrottle

    # The rate is read once at import; the counts live in the cache (cleared per test).
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"club_join": "3/min"})
    c = client_for(people["outsider"])

    codes = [
        c.post("/api/clubs/join/", {"invite_code": f"GUESS00{i}"}, format="json") for i in range(5)
    ]

    assert [r.status_code for r in codes] == [404, 404, 404, 429, 429]
    assert codes[-1].json()["code"] == "throttled" and "Retry-After" in codes[-1]


def test_join_throttle_uses_the_club_join_scope(settings):
    assert "club_join" in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]


def test_rotating_the_invite_code_retires_the_old_one(client_for, people, club):
    old = club.invite_code

    r = client_for(people["owner"]).post(f"/api/clubs/{club.pk}/invite/")
    joined = client_for(people["outsider"]).post(
        "/api/clubs/join/", {"invite_code": old}, format="json"
    )

    assert r.status_code == 200 and r.json()["invite_code"] != old
    assert joined.status_code == 404


def test_the_owner_promotes_and_demotes(client_for, people, club):
    c = client_for(people["owner"])
    url = f"/api/clubs/{club.pk}/members/{people['member'].pk}/role/"

    up = c.post(url, {"role": "manager"}, format="json")
    assert up.status_code == 200 and role_of(club, people["member"]) == "manager"
    down = c.post(url, {"role": "member"}, format="json")
    assert down.status_code == 200 and role_of(club, people["member"]) == "member"
    bad = c.post(url, {"role": "owner"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_role"
    own = c.post(
        f"/api/clubs/{club.pk}/members/{people['owner'].pk}/role/",
        {"role": "member"},
        format="json",
    )
    assert own.status_code == 403 and own.json()["code"] == "owner_stays"


def test_managers_remove_members_but_not_the_owner_or_other_managers(client_for, people, club):
    c = client_for(people["manager"])
    base = f"/api/clubs/{club.pk}/members"

    owner = c.delete(f"{base}/{people['owner'].pk}/")
    assert owner.status_code == 403 and owner.json()["code"] == "owner_stays"
    services.member_set_role(
        club_id=club.pk, actor=people["owner"], user_id=people["member"].pk, role="manager"
    )
    peer = c.delete(f"{base}/{people['member'].pk}/")
    assert peer.status_code == 403 and peer.json()["code"] == "not_owner"
    services.member_set_role(
        club_id=club.pk, actor=people["owner"], user_id=people["member"].pk, role="member"
    )
    gone = c.delete(f"{base}/{people['member'].pk}/")
    assert gone.status_code == 204 and role_of(club, people["member"]) is None
    after = client_for(people["member"]).get(f"/api/clubs/{club.pk}/")
    assert after.status_code == 404


def test_a_member_may_leave(client_for, people, club):
    r = client_for(people["member"]).delete(f"/api/clubs/{club.pk}/members/{people['member'].pk}/")

    assert r.status_code == 204 and role_of(club, people["member"]) is None
    assert AuditEntry.objects.filter(club=club, action="member_left").exists()


def test_club_detail_lists_members_and_presets(client_for, people, club, preset):
    body = client_for(people["member"]).get(f"/api/clubs/{club.pk}/").json()

    assert body["name"] == "Tea House"
    assert [(m["name"], m["role"]) for m in body["members"]] == [
        ("owner", "owner"),
        ("manager", "manager"),
        ("member", "member"),
    ]
    assert {"user_id", "name", "role"} == set(body["members"][0])
    assert [(p["id"], p["name"], p["version"]) for p in body["presets"]] == [
        (preset.pk, "House", 1)
    ]


# --------------------------------------------------------------------------
# Presets


def test_a_preset_stores_the_full_resolved_rules(client_for, people, club):
    r = client_for(people["manager"]).post(
        f"/api/clubs/{club.pk}/presets/",
        {"variant": "sichuan", "name": "Fast", "rules": {"mode": "plain"}, "locked": ["mode"]},
        format="json",
    )

    assert r.status_code == 201
    body = r.json()
    expected = get_variant("sichuan").resolve_options({"mode": "plain"}).to_json()
    assert body["version"] == 1 and body["locked"] == ["mode"]
    assert body["rules"] == expected
    assert body["rules"]["dealer_rule"] == "discarder"  # derived from the mode


@pytest.mark.parametrize(
    ("rules", "option"),
    [
        ({"fan_cap": 99}, "fan_cap"),
        ({"mode": "nonsense"}, "mode"),
        ({"no_such_rule": True}, "no_such_rule"),
        ({"ding_que": "yes"}, "ding_que"),
    ],
)
def test_bad_rules_are_refused_naming_the_option(client_for, people, club, rules, option):
    c = client_for(people["manager"])

    r = c.post(
        f"/api/clubs/{club.pk}/presets/",
        {"variant": "sichuan", "name": "Bad", "rules": rules},
        format="json",
    )
    lobby = c.post("/api/rooms/", {"variant": "sichuan", "rules": rules}, format="json")

    assert r.status_code == 400
    assert r.json()["code"] == "bad_rules" and r.json()["option"] == option
    assert option in r.json()["detail"]
    # The same words as the lobby's refusal of the same rules.
    assert lobby.status_code == 400 and lobby.json()["detail"] == r.json()["detail"]
    assert not PresetVersion.objects.exists()


def test_locking_an_unknown_option_is_refused(client_for, people, club):
    r = client_for(people["manager"]).post(
        f"/api/clubs/{club.pk}/presets/",
        {"variant": "sichuan", "name": "Bad", "locked": ["fan_kap"]},
        format="json",
    )

    assert r.status_code == 400 and r.json()["code"] == "bad_locked"
    assert r.json()["option"] == "fan_kap"


def test_an_unknown_variant_is_refused(client_for, people, club):
    r = client_for(people["manager"]).post(
        f"/api/clubs/{club.pk}/presets/", {"variant": "martian", "name": "X"}, format="json"
    )

    assert r.status_code == 400 and r.json()["code"] == "unknown_variant"


def test_editing_appends_a_version_and_never_edits_one(client_for, people, club, preset):
    c = client_for(people["manager"])
    url = f"/api/clubs/{club.pk}/presets/{preset.pk}/"
    v1 = PresetVersion.objects.get(preset=preset, number=1)
    v1_rules = dict(v1.rules)

    r = c.put(
        url, {"rules": {"mode": "xuezhan"}, "locked": ["mode"], "note": "bloodier"}, format="json"
    )
    same = c.put(url, {"rules": {"mode": "xuezhan"}, "locked": ["mode"]}, format="json")
    versions = c.get(f"{url}versions/").json()

    assert r.status_code == 200 and r.json()["version"] == 2
    assert r.json()["rules"]["mode"] == "xuezhan" and r.json()["locked"] == ["mode"]
    assert same.status_code == 400 and same.json()["code"] == "unchanged"
    v1.refresh_from_db()
    assert v1.rules == v1_rules and v1.locked == ["fan_cap"]
    assert [v["version"] for v in versions] == [1, 2]
    assert versions[1]["note"] == "bloodier"
    assert versions[1]["author"] == {"id": people["manager"].pk, "name": "manager"}
    assert versions[0]["rules"]["mode"] == "plain" and versions[1]["rules"]["mode"] == "xuezhan"
    assert all(set(v) >= {"rules", "author", "created_at", "note"} for v in versions)


def test_a_bad_edit_changes_nothing(client_for, people, club, preset):
    r = client_for(people["manager"]).put(
        f"/api/clubs/{club.pk}/presets/{preset.pk}/", {"rules": {"base": 0}}, format="json"
    )

    assert r.status_code == 400 and r.json()["option"] == "base"
    preset.refresh_from_db()
    assert preset.version == 1 and preset.versions.count() == 1


def test_presets_offer_every_registered_variant():
    from games.rules import available

    assert [v["key"] for v in selectors.variant_choices()] == [v.key for v in available()]


def test_membership_is_unique_per_club(people, club):
    services.club_join(user=people["member"], invite_code=club.invite_code)

    assert Membership.objects.filter(club=club, user=people["member"]).count() == 1


def test_a_member_hears_not_manager_even_with_a_bad_body(client_for, people, club):
    r = client_for(people["member"]).post(
        f"/api/clubs/{club.pk}/presets/", {"nonsense": 1}, format="json"
    )

    assert r.status_code == 403 and r.json()["code"] == "not_manager"


@pytest.mark.parametrize("body", [[1, 2], {"name": "x", "extra": 1}, {}])
def test_malformed_bodies_are_clear_400s(client_for, people, body):
    r = client_for(people["owner"]).post("/api/clubs/", body, format="json")

    assert r.status_code == 400 and r.json()["code"] == "bad_request"
