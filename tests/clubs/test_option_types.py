"""Every kind of house rule (int, bool, choice, map) round-trips through a preset: saved
through the API, read back by the API, shown on the editor page, diffed between versions
and listed on the audit log, in both languages."""

from __future__ import annotations

import json

import pytest

from clubs import selectors
from clubs.models import PresetVersion

pytestmark = pytest.mark.django_db

# One changed value of every option type, on the variants that have them.
GUANGZHOU_V1 = {"cap": 5, "qi_dui": False, "fan_values": {"qing_yi_se": 3}}
GUANGZHOU_V2 = {"cap": 5, "qi_dui": True, "fan_values": {"qing_yi_se": 3, "qi_dui": 4}}
SICHUAN_V1 = {"mode": "plain"}
SICHUAN_V2 = {"mode": "xuezhan"}


def boot_of(page: str) -> dict:
    start = page.index('<script id="clubs-boot" type="application/json">')
    body = page[page.index(">", start) + 1 : page.index("</script>", start)]
    return json.loads(body)


@pytest.fixture
def fan_preset(client_for, people, club):
    """A Guangzhou preset whose fan table (a map option) is changed, saved twice."""
    c = client_for(people["manager"])
    made = c.post(
        f"/api/clubs/{club.pk}/presets/",
        {"variant": "guangzhou", "name": "Fan table", "rules": GUANGZHOU_V1, "locked": ["cap"]},
        format="json",
    )
    assert made.status_code == 201, made.content
    pid = made.json()["id"]
    again = c.put(
        f"/api/clubs/{club.pk}/presets/{pid}/",
        {"rules": GUANGZHOU_V2, "locked": ["cap", "fan_values"], "note": "七对 4"},
        format="json",
    )
    assert again.status_code == 200, again.content
    return pid


def test_the_api_returns_every_option_type_as_saved(client_for, people, club, fan_preset):
    got = client_for(people["member"]).get(f"/api/clubs/{club.pk}/presets/{fan_preset}/").json()

    assert got["version"] == 2
    assert got["rules"]["cap"] == 5
    assert got["rules"]["qi_dui"] is True
    assert got["rules"]["fan_values"]["qing_yi_se"] == 3
    assert got["rules"]["fan_values"]["qi_dui"] == 4
    assert got["rules"]["fan_values"]["ping_hu"] == 1  # untouched entries keep the default
    assert got["locked"] == ["cap", "fan_values"]
    versions = client_for(people["manager"]).get(
        f"/api/clubs/{club.pk}/presets/{fan_preset}/versions/"
    )
    assert [v["rules"]["fan_values"]["qi_dui"] for v in versions.json()] == [2, 4]


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("zh-hans", ["番数表", "清一色 3", "七对 2", "七对 4", "七对"]),
        ("en", ["Fan values", "Full flush 3", "Seven pairs 2", "Seven pairs 4"]),
    ],
)
def test_the_preset_page_shows_a_changed_fan_table(
    client_for, people, club, fan_preset, lang, texts
):
    people["manager"].language = lang
    people["manager"].save(update_fields=["language"])

    page = client_for(people["manager"]).get(f"/clubs/{club.pk}/presets/{fan_preset}/")

    assert page.status_code == 200
    html = page.content.decode()
    for text in texts:
        assert text in html
    # The editor starts from the manager's choices, the map among them as sent.
    assert boot_of(html)["preset"]["choices"]["fan_values"] == {"qing_yi_se": 3, "qi_dui": 4}


def test_the_map_diff_names_only_the_entries_that_changed(fan_preset):
    v1, v2 = PresetVersion.objects.filter(preset_id=fan_preset).order_by("number")

    diff = selectors.rules_diff(
        "guangzhou",
        {"rules": v1.rules, "locked": v1.locked},
        {"rules": v2.rules, "locked": v2.locked},
    )

    by_option = {row["option"]: row for row in diff}
    assert set(by_option) == {"qi_dui", "fan_values"}
    fan = by_option["fan_values"]
    assert fan["old"] == {"zh-hans": "七对 2", "en": "Seven pairs 2"}
    assert fan["new"] == {"zh-hans": "七对 4", "en": "Seven pairs 4"}
    assert fan["lock_changed"] and fan["lock_new"]
    assert by_option["qi_dui"]["old"]["en"] == "no" and by_option["qi_dui"]["new"]["en"] == "yes"
    first = {row["option"]: row for row in selectors.version_history(v1.preset)[-1]["diff"]}
    assert first["fan_values"]["new"]["zh-hans"] == "清一色 3"
    assert first["cap"]["new"]["en"] == "5"


def test_the_audit_log_links_to_a_page_that_answers(client_for, people, club, fan_preset):
    c = client_for(people["owner"])
    log = c.get(f"/clubs/{club.pk}/history/").content.decode()

    link = f"/clubs/{club.pk}/presets/{fan_preset}/#version-2"
    assert link in log
    assert c.get(link.split("#")[0]).status_code == 200


def test_a_choice_option_round_trips_and_diffs(client_for, people, club):
    c = client_for(people["manager"])
    pid = c.post(
        f"/api/clubs/{club.pk}/presets/",
        {"variant": "sichuan", "name": "Choice", "rules": SICHUAN_V1},
        format="json",
    ).json()["id"]
    c.put(f"/api/clubs/{club.pk}/presets/{pid}/", {"rules": SICHUAN_V2}, format="json")

    page = c.get(f"/clubs/{club.pk}/presets/{pid}/")

    assert page.status_code == 200
    assert boot_of(page.content.decode())["preset"]["choices"] == SICHUAN_V2
    row = next(
        r
        for r in selectors.version_history(selectors.preset_in_club(club.pk, pid))[0]["diff"]
        if r["option"] == "mode"
    )
    assert (row["old"]["zh-hans"], row["new"]["zh-hans"]) == ("一人胡牌结束", "血战到底")


def test_a_room_opened_from_the_preset_plays_its_fan_table(client_for, people, club, fan_preset):
    room = client_for(people["member"]).post(
        "/api/rooms/", {"preset": fan_preset, "hands": 4}, format="json"
    )

    assert room.status_code == 201, room.content
    assert room.json()["rules"]["fan_values"]["qi_dui"] == 4
