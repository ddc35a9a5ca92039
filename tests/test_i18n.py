import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def switch_language(client, code):
    return client.post(reverse("set_language"), {"language": code, "next": reverse("home")})


def test_pages_default_to_simplified_chinese(client):
    content = client.get(reverse("home")).content.decode()

    assert '<html lang="zh-hans">' in content
    assert "排行榜" in content
    assert "四川血战" in content


def test_switch_to_english_and_back(client):
    response = switch_language(client, "en")
    assert response.status_code == 302
    assert response["Location"] == reverse("home")

    content = client.get(reverse("home")).content.decode()
    assert '<html lang="en">' in content
    assert "Leaderboards" in content
    assert "Sichuan Blood Battle" in content

    switch_language(client, "zh-hans")
    content = client.get(reverse("home")).content.decode()
    assert "排行榜" in content
    assert "Leaderboards" not in content


def test_signed_in_switch_is_stored_on_the_account(client, player):
    client.force_login(player)

    switch_language(client, "en")

    player.refresh_from_db()
    assert player.language == "en"


def test_login_activates_the_account_language(client, player, password):
    player.language = "en"
    player.save(update_fields=["language"])

    client.post(reverse("account_login"), {"login": "lin", "password": password})
    content = client.get(reverse("home")).content.decode()

    # No language cookie was ever set: the account's language is what applies.
    assert '<html lang="en">' in content
    assert "Leaderboards" in content


@pytest.mark.parametrize(("code", "marker"), [("en", "Leaderboards"), ("zh-hans", "排行榜")])
def test_a_new_account_keeps_the_language_the_visitor_chose(
    client, django_user_model, code, marker
):
    switch_language(client, code)

    response = client.post(
        reverse("account_signup"),
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "password1": "green-felt-8trs",
            "password2": "green-felt-8trs",
        },
    )

    assert response.status_code == 302
    assert django_user_model.objects.get(username="newbie").language == code
    assert marker in client.get(reverse("home")).content.decode()


@pytest.mark.parametrize(
    ("password1", "password2"),
    [
        ("123", "123"),
        ("password", "password"),
        ("newbie1234", "newbie1234"),
        ("green-felt-8trs", "x"),
    ],
)
def test_sign_up_refusals_are_in_chinese(client, password1, password2):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "newbie1234",
            "email": "newbie1234@example.com",
            "password1": password1,
            "password2": password2,
        },
    )

    errors = re.findall(r'<span class="field-error"[^>]*>(.*?)</span>', response.content.decode())
    assert errors
    for error in errors:
        assert not re.search(r"[A-Za-z]{3,}", error), error
