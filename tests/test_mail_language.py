"""Mails about an account (the sign-up confirmation) are in one language: the account's."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

HAN = re.compile(r"[\u4e00-\u9fff]")
#: Latin words in a mail, leaving out the address, the link and the username.
WORD = re.compile(r"\b[A-Za-z]{3,}\b")


def _words(message, user) -> set[str]:
    text = f"{message.subject}\n{message.body}"
    text = re.sub(r"https?://\S+|\S+@\S+|testserver", "", text).replace(user.username, "")
    return set(WORD.findall(text))


def _sign_up(client, sign_up, language):
    assert sign_up(client, "mei", language=language).status_code == 302
    return User.objects.get(username="mei")


def test_a_chinese_sign_up_gets_a_mail_all_in_chinese(client, sign_up):
    user = _sign_up(client, sign_up, "zh-hans")

    (message,) = mail.outbox
    assert user.language == "zh-hans"
    assert _words(message, user) == set()
    assert HAN.search(message.subject) and HAN.search(message.body)
    assert "/accounts/confirm-email/" in message.body


def test_an_english_sign_up_gets_a_mail_all_in_english(client, sign_up):
    user = _sign_up(client, sign_up, "en")

    (message,) = mail.outbox
    assert not HAN.search(message.subject + message.body)
    assert "confirm" in message.body.lower() and _words(message, user)


def test_a_mail_asked_for_from_a_page_in_another_language_is_in_the_accounts(client, player):
    player.language = "en"
    player.save(update_fields=["language"])
    client.cookies["django_language"] = "zh-hans"  # signed out, reading in Chinese

    client.post(reverse("account_reset_password"), {"email": player.email})

    (message,) = mail.outbox
    assert "password" in message.body.lower()
    assert not HAN.search(message.subject + message.body)
