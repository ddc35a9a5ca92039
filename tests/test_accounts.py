import re

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def signed_in_user_id(client):
    return client.session.get("_auth_user_id")


def test_signup_creates_user_and_signs_in(client, django_user_model, password):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "mei",
            "email": "mei@example.com",
            "password1": password,
            "password2": password,
        },
    )

    assert response.status_code == 302
    user = django_user_model.objects.get(username="mei")
    assert user.email == "mei@example.com"
    assert user.language == "zh-hans"
    assert signed_in_user_id(client) == str(user.pk)


def test_signup_page_uses_site_layout(client):
    response = client.get(reverse("account_signup"))

    assert response.status_code == 200
    content = response.content.decode()
    assert "css/site.css" in content
    assert 'class="panel auth-panel"' in content


def test_login_with_username(client, player, password):
    response = client.post(reverse("account_login"), {"login": "lin", "password": password})

    assert response.status_code == 302
    assert signed_in_user_id(client) == str(player.pk)


def test_login_with_wrong_password_is_refused(client, player):
    response = client.post(reverse("account_login"), {"login": "lin", "password": "nope"})

    assert response.status_code == 200
    assert signed_in_user_id(client) is None


def test_logout(client, player):
    client.force_login(player)

    response = client.post(reverse("account_logout"))

    assert response.status_code == 302
    assert signed_in_user_id(client) is None


def test_profile_requires_login(client):
    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_profile_shows_and_edits_display_name_and_language(client, player):
    player.display_name = "小林"
    player.save(update_fields=["display_name"])
    client.force_login(player)

    page = client.get(reverse("profile"))
    assert page.status_code == 200
    assert "小林" in page.content.decode()

    response = client.post(reverse("profile"), {"display_name": "Lin the Bold", "language": "en"})

    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.display_name, player.language) == ("Lin the Bold", "en")
    page = client.get(reverse("profile"))
    assert "Lin the Bold" in page.content.decode()
    assert "Edit profile" in page.content.decode()


def test_password_change(client, player, password):
    client.force_login(player)
    new_password = "red-dragon-55zz"

    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": password, "password1": new_password, "password2": new_password},
    )

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(new_password)


def test_password_reset_mail_has_working_link(client, player):
    new_password = "white-dragon-77pp"

    response = client.post(reverse("account_reset_password"), {"email": "lin@example.com"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["lin@example.com"]
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+/)", message.body)
    assert link, message.body

    # allauth moves the key into the session and redirects to a key-less form.
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    form_url = form_page.redirect_chain[-1][0]
    done = client.post(form_url, {"password1": new_password, "password2": new_password})

    assert done.status_code == 302
    player.refresh_from_db()
    assert player.check_password(new_password)


def test_failed_logins_are_rate_limited(client, player, password):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for _ in range(5):
        response = client.post(reverse("account_login"), {"login": "lin", "password": "bad"})
        assert response.status_code == 200
        assert "Too many attempts" not in response.content.decode()

    # The sixth attempt is refused even with the right password.
    response = client.post(reverse("account_login"), {"login": "lin", "password": password})

    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    assert signed_in_user_id(client) is None


@pytest.mark.django_db
def test_a_session_made_with_the_librarys_backend_path_stays_signed_in(client, player):
    """Sessions name Django's or allauth's backend (the stock classes): the page knows
    their user, and a changed password signs them out."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore as DjangoStore

    for old in (
        "django.contrib.auth.backends.ModelBackend",
        "allauth.account.auth_backends.AuthenticationBackend",
    ):
        made = DjangoStore()
        made[SESSION_KEY] = str(player.pk)
        made[BACKEND_SESSION_KEY] = old
        made[HASH_SESSION_KEY] = player.get_session_auth_hash()
        made.create()
        client.cookies[settings.SESSION_COOKIE_NAME] = made.session_key
        page = client.get(reverse("profile"))
        assert page.status_code == 200 and page.context["user"] == player
    player.set_password("an entirely new secret 42")
    player.save()
    assert client.get(reverse("profile")).status_code == 302
