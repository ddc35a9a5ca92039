"""A club table's pages: an outsider is told how to get in, back leads to the club, the
invite code and link can be copied, and an invite link fills in the join form."""

from __future__ import annotations

import json

import pytest

from games.models import Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_room(client_for, people, preset):
    made = client_for(people["owner"]).post("/api/rooms/", {"preset": preset.pk}, format="json")
    return Room.objects.get(pk=made.json()["id"])


def speaking(user, lang):
    user.language = lang
    user.save(update_fields=["language"])
    return user


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("zh-hans", ["亲友圈牌桌", "只有本圈成员", "邀请码", "加入亲友圈"]),
        ("en", ["Club table", "only the club's members", "invite code", "Join a club"]),
    ],
)
def test_an_outsider_opening_a_club_table_link_is_told_how_to_join(
    client_for, people, club, club_room, lang, texts
):
    page = client_for(speaking(people["outsider"], lang)).get(f"/rooms/{club_room.pk}/")

    assert page.status_code == 404  # the room is not revealed, nor its club
    html = page.content.decode()
    for text in texts:
        assert text in html
    assert club.name not in html and club.invite_code not in html
    assert 'href="/clubs/"' in html


def table_boot(page) -> dict:
    html = page.content.decode()
    start = html.index('<script id="table-boot" type="application/json">')
    return json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])


def test_back_from_a_club_table_leads_to_the_club(client_for, people, club, club_room):
    page = client_for(people["owner"]).get(f"/rooms/{club_room.pk}/")

    assert table_boot(page)["lobby_url"] == f"/clubs/{club.pk}/"
    assert table_boot(page)["strings"]["back_to_club"]


def test_back_from_a_lobby_table_leads_to_the_lobby(client_for, people):
    c = client_for(people["owner"])
    room = c.post("/api/rooms/", {"variant": "sichuan"}, format="json").json()

    assert table_boot(c.get(f"/rooms/{room['id']}/"))["lobby_url"] == "/lobby/"


def test_the_club_page_offers_the_code_and_link_to_copy(client_for, people, club):
    html = client_for(people["member"]).get(f"/clubs/{club.pk}/").content.decode()

    assert 'data-copy="invite-code"' in html and 'data-copy="club-invite-link"' in html
    assert f"/invite/club/{club.invite_code}/" in html
