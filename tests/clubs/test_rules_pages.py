"""The rules pages: every listed variant in zh and en, read off the variant objects, and
本桌规则 with what differs from the defaults marked."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from games.rooms.rulebook import listed_keys
from games.rules import get_variant
from games.table import services

pytestmark = pytest.mark.django_db

LANGS = ("zh-hans", "en")


def _get(url, lang, user=None):
    client = Client()
    client.cookies["django_language"] = lang
    if user is not None:
        user.language = lang
        user.save(update_fields=["language"])
        client.force_login(user)
    return client.get(url)


def _help(option, lang):
    return option.help_en if lang == "en" else option.help_zh


def test_every_offered_variant_has_a_page():
    assert set(listed_keys()) == {"sichuan", "hangzhou", "guangzhou", "ningbo"}
    html = _get("/rules/", "en").content.decode()
    for key in listed_keys():
        assert f'href="/rules/{key}/"' in html


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", ["sichuan", "hangzhou", "guangzhou", "ningbo"])
def test_a_rules_page_shows_every_item_and_every_option_with_its_help(key, lang):
    variant = get_variant(key)
    r = _get(f"/rules/{key}/", lang)
    assert r.status_code == 200
    html = r.content.decode()
    name = variant.name_en if lang == "en" else variant.name_zh
    assert escape(name) in html
    for pid, names in variant.pattern_names().items():
        assert f'data-item="{pid}"' in html
        assert escape(names[lang]) in html
    for option in variant.options.options:
        assert f'id="option-{option.id}"' in html
        assert escape(_help(option, lang)) in html, option.id
    for reason in variant.reason_names().values():
        assert escape(reason[lang]) in html
    assert "differs-mark" not in html  # nothing is marked on the plain page


def _row(html, item):
    return re.search(rf'<tr data-item="{item}">(.*?)</tr>', html, re.S).group(1)


def test_item_values_and_examples_come_from_the_engine():
    html = _get("/rules/sichuan/", "en").content.decode()
    # 清一色 is worth 3 fan in Sichuan; its example is scored by the variant itself.
    row = _row(html, "qing_yi_se")
    assert "<td>3</td>" in row
    assert 'data-tiles="1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m" data-win="5m"' in row
    # Guangzhou's values are a house option: the table follows it.
    gz = _get("/rules/guangzhou/", "en").content.decode()
    default = get_variant("guangzhou").resolve_options()["fan_values"]["qing_yi_se"]
    assert f"<td>{default}</td>" in _row(gz, "qing_yi_se")


def test_an_unknown_rule_set_is_not_found():
    assert _get("/rules/mars/", "en").status_code == 404


@pytest.fixture
def club_room(people, preset):
    """A room opened by a member from the preset (first win ends the hand, fan cap 3
    locked), with a choice of its own (no 海底 bonus)."""
    return services.room_create(
        owner=people["member"], variant="", preset=preset.pk, rules={"hai_di": False}
    )


def _marked(html):
    """{option id: where its value came from} of the options marked as changed."""
    terms = re.findall(r'<dt id="option-(\w+)"[^>]*>(.*?)</dt>', html, re.S)
    return {
        option: m.group(1)
        for option, body in terms
        if (m := re.search(r'data-source="(\w+)"', body))
    }


@pytest.mark.parametrize("lang", LANGS)
def test_table_rules_mark_the_preset_and_the_room_changes(club_room, people, lang):
    r = _get(f"/rules/sichuan/?room={club_room.pk}", lang, people["member"])
    assert r.status_code == 200
    html = r.content.decode()
    assert _marked(html) == {
        "mode": "preset",
        "fan_cap": "preset",
        "hai_di": "room",
        "dealer_rule": "derived",  # its default follows the mode
    }
    assert ("Rules of this table" if lang == "en" else "本桌规则") in html
    assert "House" in html  # the preset's name, with its version
    fan_cap = re.search(r'<dt id="option-fan_cap".*?</dt>', html, re.S).group(0)
    assert "<b>3</b>" in fan_cap


def test_table_rules_are_for_who_can_see_the_room(club_room, people):
    url = f"/rules/sichuan/?room={club_room.pk}"
    assert _get(url, "en", people["outsider"]).status_code == 404
    assert _get(url, "en").status_code == 404
    assert _get(url, "en", people["owner"]).status_code == 200  # a member of the club
    wrong = f"/rules/ningbo/?room={club_room.pk}"
    assert _get(wrong, "en", people["member"]).status_code == 404
    for bad in ("abc", "9" * 25, str(2**63)):
        assert _get(f"/rules/sichuan/?room={bad}", "en", people["member"]).status_code == 404


def test_the_room_page_and_the_lobby_link_to_the_table_rules(club_room, people):
    html = _get(f"/rooms/{club_room.pk}/", "en", people["member"]).content.decode()
    assert f'href="/rules/sichuan/?room={club_room.pk}"' in html
    lobby = _get("/lobby/", "zh-hans", people["member"]).content.decode()
    assert 'data-rules-label="本桌规则"' in lobby
