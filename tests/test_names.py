"""Display, user, club and preset names: kept as typed, nothing invisible, something
visible; compared (uniqueness, reserved names) with compatibility forms and case folded."""

import unicodedata

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.names import DROPPED_CATEGORIES, DROPPED_CHARACTERS, clean_name, name_key
from clubs.models import Club, Preset

ZWSP, ZWJ, RLO, LRI, PDI, BOM = "\u200b", "\u200d", "\u202e", "\u2066", "\u2069", "\ufeff"
HANGUL_FILLER = "\u3164"

INVISIBLE_ONLY = [
    ZWSP * 3,
    f"{ZWJ}{BOM}{ZWSP}",
    RLO,
    f"{LRI} {PDI}",
    HANGUL_FILLER * 2,
    "\u0301\u0301",  # combining accents with nothing to sit on
    "\u3000\u00a0\t\n",  # ideographic and no-break spaces, a tab, a newline
    "\U000e0041\U000e0042",  # tag characters
    "\ufe0f",
]


@pytest.mark.parametrize("raw", INVISIBLE_ONLY)
def test_a_name_with_nothing_visible_is_refused(raw):
    with pytest.raises(ValidationError) as refused:
        clean_name(raw, max_length=40)
    assert refused.value.code == "blank_name"


@pytest.mark.parametrize(
    "raw, stored",
    [
        ("ＬＩＮ　１２", "ＬＩＮ　１２"),  # full-width letters, digits and space, as typed
        ("测试：双击保存（全角标点）！", "测试：双击保存（全角标点）！"),
        (f"Li{ZWSP}n", "Lin"),
        (f"admin{RLO}nimda", "adminnimda"),  # an override can no longer reorder the name
        (f"{LRI}小林{PDI}", "小林"),
        ("  Tea \n\t House  ", "Tea House"),
        ("e\u0301", "é"),
        (f"e{ZWSP}\u0301", "é"),  # composed once the zero-width space between is gone
        ("ﬁsh", "ﬁsh"),
        ("a \u3000 b", "a b"),  # a run of spaces is one
    ],
)
def test_a_name_is_stored_as_typed_without_what_shows_nothing(raw, stored):
    assert clean_name(raw, max_length=40) == stored


def test_the_length_is_counted_as_typed():
    assert clean_name("㍿" * 40, max_length=40) == "㍿" * 40
    with pytest.raises(ValidationError) as refused:
        clean_name("㍿" * 41, max_length=40)
    assert refused.value.code == "long_name"


@pytest.mark.parametrize(
    "a, b", [("ＬＩＮ", "lin"), ("ﬁsh", "FISH"), ("Straße", "STRASSE"), ("（小林）", "(小林)")]
)
def test_names_compare_with_compatibility_forms_and_case_folded(a, b):
    assert name_key(a) == name_key(b)
    assert name_key("小林") != name_key("小材")


@given(st.text(max_size=30))
def test_a_stored_name_is_clean_and_stays_as_it_is(raw):
    try:
        name = clean_name(raw, max_length=200)
    except ValidationError:
        return
    assert name == name.strip() and "  " not in name
    assert unicodedata.is_normalized("NFC", name)
    assert not any(
        unicodedata.category(c) in DROPPED_CATEGORIES or c in DROPPED_CHARACTERS for c in name
    )
    assert clean_name(name, max_length=200) == name


# --- where names are given ---------------------------------------------------------------


@pytest.fixture
def api(player):
    client = APIClient()
    client.force_login(player)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, message",
    [
        ("en", "A name needs at least one visible character."),
        ("zh-hans", "名字至少要有一个可见的字符。"),
    ],
)
def test_a_club_named_with_nothing_visible_is_refused(api, player, language, message):
    player.language = language
    player.save(update_fields=["language"])

    response = api.post("/api/clubs/", {"name": f"{ZWSP}{RLO}{ZWSP}"}, format="json")

    assert response.status_code == 400
    assert response.json() == {"code": "bad_name", "detail": message}
    assert not Club.objects.exists()


@pytest.mark.django_db
def test_a_club_name_is_stored_as_typed(api):
    response = api.post("/api/clubs/", {"name": f"Ｔｅａ{RLO} House（杭州）"}, format="json")

    assert response.status_code == 201
    assert response.json()["name"] == "Ｔｅａ House（杭州）"
    assert Club.objects.get().name == "Ｔｅａ House（杭州）"


@pytest.mark.django_db
def test_an_announcement_keeps_its_full_width_punctuation(api):
    club = api.post("/api/clubs/", {"name": "Tea House"}, format="json").json()
    typed = "测试：双击保存公告（全角标点）！\n\n第二行：ＯＫ"

    response = api.patch(
        f"/api/clubs/{club['id']}/", {"announcement": f"{ZWSP}{typed}{RLO}"}, format="json"
    )

    assert response.status_code == 200, response.content
    assert Club.objects.get().announcement == typed


@pytest.mark.django_db
def test_a_preset_named_with_nothing_visible_is_refused(api):
    club = api.post("/api/clubs/", {"name": "Tea House"}, format="json").json()

    refused = api.post(
        f"/api/clubs/{club['id']}/presets/",
        {"variant": "sichuan", "name": HANGUL_FILLER + ZWSP},
        format="json",
    )
    made = api.post(
        f"/api/clubs/{club['id']}/presets/",
        {"variant": "sichuan", "name": f"{LRI}House{PDI}"},
        format="json",
    )

    assert refused.status_code == 400 and refused.json()["code"] == "bad_name"
    assert made.status_code == 201
    assert list(Preset.objects.values_list("name", flat=True)) == ["House"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, message",
    [
        ("en", "A name needs at least one visible character."),
        ("zh-hans", "名字至少要有一个可见的字符。"),
    ],
)
def test_a_display_name_with_nothing_visible_is_refused(client, player, language, message):
    player.display_name = "Lin"
    player.language = language
    player.save(update_fields=["display_name", "language"])
    client.force_login(player)

    response = client.post(reverse("profile"), {"display_name": ZWSP * 4, "language": language})

    assert response.status_code == 200
    assert message in response.content.decode()
    player.refresh_from_db()
    assert player.display_name == "Lin"


@pytest.mark.django_db
def test_a_display_name_is_stored_as_typed_and_may_be_left_empty(client, player):
    client.force_login(player)

    client.post(reverse("profile"), {"display_name": f"ＬＩＮ{RLO}！", "language": "en"})
    player.refresh_from_db()
    assert player.display_name == "ＬＩＮ！"

    client.post(reverse("profile"), {"display_name": "", "language": "en"})
    player.refresh_from_db()
    assert player.display_name == ""  # the username is shown instead


@pytest.mark.django_db
def test_a_username_of_fillers_is_refused_at_sign_up(client, django_user_model, password):
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("account_signup"),
        {
            "username": HANGUL_FILLER * 3,
            "email": "mei@example.com",
            "password1": password,
            "password2": password,
        },
    )

    assert response.status_code == 200
    assert "A name needs at least one visible character." in response.content.decode()
    assert not django_user_model.objects.filter(email="mei@example.com").exists()


@pytest.mark.django_db
def test_a_username_cannot_pass_for_another_in_full_width(client, player, sign_up):
    taken = sign_up(client, "ＬＩＮ", language="en", email="mei@example.com")
    reserved = sign_up(client, "ｂｏｔ-east", language="en")

    assert taken.status_code == 200 and reserved.status_code == 200
    assert "already" in taken.content.decode()
    assert "bot-" in reserved.content.decode()
    assert list(type(player).objects.values_list("username", flat=True)) == ["lin"]
