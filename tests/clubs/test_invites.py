"""Invite links and their QR codes (SVG by segno): for who may see the code, with a
page that asks before joining."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import JoinRequest, Membership
from games.table import services

pytestmark = pytest.mark.django_db


def _client(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_club_page_shares_the_invite_as_a_link_and_a_qr_code(club, people):
    html = _client(people["member"]).get(f"/clubs/{club.pk}/").content.decode()
    assert f'value="/invite/club/{club.invite_code}/"' in html
    assert f'src="/clubs/{club.pk}/invite/qr.svg"' in html
    assert 'data-copy="club-invite-link"' in html
    assert f'href="/clubs/{club.pk}/records/"' in html


def test_the_club_qr_code_is_the_invite_link_for_members_only(club, people):
    r = _client(people["member"]).get(f"/clubs/{club.pk}/invite/qr.svg")
    assert r.status_code == 200
    assert r["Content-Type"] == "image/svg+xml"
    svg = r.content.decode()
    assert svg.lstrip().startswith(("<?xml", "<svg"))
    assert f"<title>http://testserver/invite/club/{club.invite_code}/</title>" in svg
    assert _client(people["outsider"]).get(f"/clubs/{club.pk}/invite/qr.svg").status_code == 404
    anonymous = _client().get(f"/clubs/{club.pk}/invite/qr.svg")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_the_invite_link_asks_then_joins(club, people):
    client = _client(people["outsider"])
    url = f"/invite/club/{club.invite_code}/"
    page = client.get(url)
    assert page.status_code == 200 and club.name in page.content.decode()
    assert not Membership.objects.filter(club=club, user=people["outsider"]).exists()
    r = client.post(url)
    assert r.status_code == 302 and r["Location"] == f"/clubs/{club.pk}/"
    assert Membership.objects.filter(club=club, user=people["outsider"]).exists()
    assert client.get(url)["Location"] == f"/clubs/{club.pk}/"  # a member goes straight in
    assert client.get("/invite/club/NOPE2345/").status_code == 404


def test_the_invite_link_of_a_club_that_vets_joins_leaves_a_request(club, people):
    club.join_needs_approval = True
    club.save(update_fields=["join_needs_approval"])
    r = _client(people["outsider"]).post(f"/invite/club/{club.invite_code}/")
    assert r.status_code == 302 and r["Location"] == "/clubs/?requested#my-requests"
    assert not Membership.objects.filter(club=club, user=people["outsider"]).exists()
    assert JoinRequest.objects.filter(club=club, user=people["outsider"]).count() == 1


def test_the_club_invite_link_is_throttled_like_the_api(club, people, make_user, monkeypatch):
    from clubs.throttles import ClubJoinThrottle

    monkeypatch.setattr(ClubJoinThrottle, "THROTTLE_RATES", {"club_join": "1/min"})
    client = _client(make_user("newbie"))
    assert client.post("/invite/club/WRONG234/").status_code == 302
    client.post(f"/invite/club/{club.invite_code}/")
    assert not Membership.objects.filter(club=club, user__username="newbie").exists()


@pytest.fixture
def room(make_user):
    owner = make_user("host")
    return services.room_create(owner=owner, variant="sichuan", private=True)


def test_a_seated_player_shares_the_join_code(room):
    html = _client(room.owner).get(f"/rooms/{room.pk}/").content.decode()
    assert f'value="/invite/room/{room.code}/"' in html
    assert f'src="/rooms/{room.pk}/invite/qr.svg"' in html
    r = _client(room.owner).get(f"/rooms/{room.pk}/invite/qr.svg")
    assert r.status_code == 200 and r["Content-Type"] == "image/svg+xml"
    assert f"/invite/room/{room.code}/</title>" in r.content.decode()


def test_only_seated_players_get_the_room_qr_code(room, make_user):
    assert _client(make_user("guest")).get(f"/rooms/{room.pk}/invite/qr.svg").status_code == 404


def test_the_room_invite_link_offers_a_seat(room, make_user):
    guest = make_user("guest")
    page = _client(guest).get(f"/invite/room/{room.code}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert f'name="code" value="{room.code}"' in html and 'action="/rooms/join/"' in html
    r = _client(guest).post("/rooms/join/", {"code": room.code})
    assert r["Location"] == f"/rooms/{room.pk}/"
    assert _client(guest).get(f"/invite/room/{room.code}/")["Location"] == f"/rooms/{room.pk}/"
    assert _client(guest).get("/invite/room/ZZZZZZ/").status_code == 404


def test_qr_codes_are_throttled(club, people, monkeypatch):
    from clubs.throttles import InviteQRThrottle

    monkeypatch.setattr(InviteQRThrottle, "THROTTLE_RATES", {"invite_qr": "1/min"})
    client = _client(people["member"])
    codes = [client.get(f"/clubs/{club.pk}/invite/qr.svg").status_code for _ in range(2)]
    assert codes == [200, 429]


def test_reading_invite_pages_counts_against_the_join_limits(club, room, make_user, monkeypatch):
    """A code must not be guessable by reading pages: each look-up is a join attempt."""
    from clubs.throttles import ClubJoinThrottle
    from games.rooms.throttles import JoinCodeThrottle

    monkeypatch.setattr(ClubJoinThrottle, "THROTTLE_RATES", {"club_join": "1/min"})
    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"room_join": "1/min"})
    client = _client(make_user("prober"))
    assert client.get("/invite/club/AAAAAAAA/").status_code == 404
    assert client.get(f"/invite/club/{club.invite_code}/")["Location"] == "/clubs/"
    assert client.get("/invite/room/AAAAAA/").status_code == 404
    assert client.get(f"/invite/room/{room.code}/")["Location"] == "/lobby/"


# --- an invite opened while signed out ---------------------------------------------------


def test_a_club_invite_survives_signing_up_through_the_headers_button(club, sign_up):
    client = _client()
    invite = f"/invite/club/{club.invite_code}/"
    asked = client.get(invite)
    assert asked.status_code == 302 and asked["Location"].startswith("/accounts/login/")

    # The header's Sign up button carries no next: the session keeps the invite.
    for page in ("/accounts/login/", "/accounts/signup/"):
        client.cookies["django_language"] = "en"
        html = client.get(page).content.decode()
        assert f"You were invited to the club “{club.name}”" in html
    client.cookies["django_language"] = "zh-hans"
    assert f"你被邀请加入亲友圈“{club.name}”" in client.get("/accounts/signup/").content.decode()

    signed_up = sign_up(client, "newbie")
    assert signed_up.status_code == 302 and signed_up["Location"] == invite
    assert club.name in client.get(invite).content.decode()
    assert "invited-to" not in client.get("/accounts/signup/").content.decode()


def test_a_club_invite_survives_logging_in_through_the_headers_button(club, people, password):
    client = _client()
    invite = f"/invite/club/{club.invite_code}/"
    client.get(invite)

    logged_in = client.post(
        "/accounts/login/", {"login": people["outsider"].username, "password": password}
    )

    assert logged_in.status_code == 302 and logged_in["Location"] == invite
    client.post(invite)
    assert Membership.objects.filter(club=club, user=people["outsider"]).exists()


def test_a_room_invite_survives_signing_up(room, sign_up):
    client = _client()
    invite = f"/invite/room/{room.code}/"
    client.get(invite)
    client.cookies["django_language"] = "en"
    assert room.code in client.get("/accounts/signup/").content.decode()

    assert sign_up(client, "newbie")["Location"] == invite


def test_a_signed_out_visitor_learns_nothing_from_a_wrong_code(club):
    client = _client()
    assert client.get("/invite/club/NOPE2345/").status_code == 404
    assert "invited-to" not in client.get("/accounts/signup/").content.decode()
