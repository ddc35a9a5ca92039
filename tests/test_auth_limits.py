"""Password guessing meets a 429 on every route that checks a password, counted per client
address and per (address, account): the guesser is stopped and the owner, elsewhere, is not."""

import base64
import time
from unittest import mock

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games.models import Room

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.7"
OWNER = "198.51.100.20"


def guess(client, login="lin", password="wrong-guess"):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def signed_in(client):
    return client.session.get("_auth_user_id") is not None


def test_guessing_is_refused_within_ten_tries_while_the_owner_logs_in_elsewhere(player, password):
    attacker = Client(REMOTE_ADDR=ATTACKER)
    statuses = [guess(attacker).status_code for _ in range(10)]

    assert 429 in statuses
    assert statuses.index(429) == 5  # five wrong answers, then refusals
    assert set(statuses[6:]) == {429}
    # The right password from the guessing address is refused too: no free oracle.
    assert guess(attacker, password=password).status_code == 429
    assert not signed_in(attacker)

    owner = Client(REMOTE_ADDR=OWNER)
    response = guess(owner, password=password)
    assert response.status_code == 302
    assert signed_in(owner)


def test_the_refusal_is_a_translated_page(player):
    attacker = Client(REMOTE_ADDR=ATTACKER)
    for _ in range(5):
        guess(attacker)
    attacker.cookies["django_language"] = "en"
    assert "Too many attempts" in guess(attacker).content.decode()
    attacker.cookies["django_language"] = "zh-hans"
    assert "尝试次数过多" in guess(attacker).content.decode()


ACCOUNT_LIMIT = "Too many wrong passwords for this account from your network address"
ADDRESS_LIMIT = "Too many failed log-ins from your network address, whatever the account"


def test_the_refusal_says_the_accounts_limit_was_hit(player):
    attacker = Client(REMOTE_ADDR=ATTACKER)
    attacker.cookies["django_language"] = "en"
    for _ in range(5):
        guess(attacker)

    page = guess(attacker).content.decode()

    assert ACCOUNT_LIMIT in page and ADDRESS_LIMIT not in page
    attacker.cookies["django_language"] = "zh-hans"
    assert "这个账号" in guess(attacker).content.decode()


def test_one_address_guessing_many_accounts_is_refused(django_user_model):
    for name in ("lin", "mei", "tao"):
        django_user_model.objects.create_user(username=name, password="x-green-felt-8")
    attacker = Client(REMOTE_ADDR=ATTACKER)
    statuses = [
        guess(attacker, login=name).status_code for _ in range(4) for name in ("lin", "mei", "tao")
    ]

    # Four guesses at each account stay under the per-account count; the address's own
    # count (10 a minute) stops the eleventh.
    assert statuses[:10] == [200] * 10
    assert set(statuses[10:]) == {429}
    attacker.cookies["django_language"] = "en"
    page = guess(attacker, login="someone-else").content.decode()
    assert ADDRESS_LIMIT in page and ACCOUNT_LIMIT not in page


def test_the_wait_grows_with_the_failures(player, password):
    attacker = Client(REMOTE_ADDR=ATTACKER)
    now = time.time()
    with mock.patch("time.time") as clock:
        clock.return_value = now
        for _ in range(5):
            assert guess(attacker).status_code == 200
        assert guess(attacker).status_code == 429

        # A minute later the first tier has passed: five more tries.
        clock.return_value = now + 61
        for _ in range(5):
            assert guess(attacker).status_code == 200
        # Ten in a quarter of an hour: another minute is not enough now...
        clock.return_value = now + 125
        assert guess(attacker).status_code == 429
        # ...the quarter hour is.
        clock.return_value = now + 15 * 60 + 1
        assert guess(attacker, password=password).status_code == 302


def test_the_api_refuses_basic_authentication_even_with_the_right_password(player, password):
    token = base64.b64encode(f"lin:{password}".encode()).decode()
    client = Client(REMOTE_ADDR=ATTACKER, HTTP_AUTHORIZATION=f"Basic {token}")

    response = client.post("/api/rooms/", {"variant": "sichuan"}, content_type="application/json")

    assert response.status_code == 403
    assert response.json()["code"] == "not_authenticated"
    assert not Room.objects.exists()


def test_the_admin_login_is_the_limited_login_page(player, password):
    player.is_staff = player.is_superuser = True
    player.save(update_fields=["is_staff", "is_superuser"])
    client = Client(REMOTE_ADDR=ATTACKER)

    response = client.post(reverse("admin:login"), {"username": "lin", "password": password})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not signed_in(client)


def test_spoofed_forwarded_for_is_ignored_without_a_trusted_proxy(player):
    statuses = [
        Client(REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}")
        .post(reverse("account_login"), {"login": "lin", "password": "wrong-guess"})
        .status_code
        for n in range(8)
    ]
    assert statuses[5:] == [429] * 3


@override_settings(ALLAUTH_TRUSTED_PROXY_COUNT=1)
def test_behind_one_proxy_the_address_it_saw_is_counted(player, password):
    """nginx appends the address it saw to X-Forwarded-For: that is the client; what the
    client wrote in front of it is ignored."""

    def via_proxy(forwarded_for):
        return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded_for)

    statuses = [guess(via_proxy(f"10.0.0.{n}, {ATTACKER}")).status_code for n in range(8)]
    assert statuses[5:] == [429] * 3

    owner = via_proxy(OWNER)
    assert guess(owner, password=password).status_code == 302
