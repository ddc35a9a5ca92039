"""A newcomer's and a manager's first steps, as the server renders them: 战绩 in the top
menu, and a manager told of join requests waiting wherever they are on the site."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs import services as club_services

pytestmark = pytest.mark.django_db


def _client(user, language):
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("language, label", [("zh-hans", ">战绩</a>"), ("en", ">Records</a>")])
def test_records_are_in_the_top_menu(player, language, label):
    html = _client(player, language).get("/lobby/").content.decode()
    assert f'<a href="/records/" id="nav-records"{label}' in html
    assert 'id="nav-records"' not in Client().get("/lobby/").content.decode()


@pytest.fixture
def vetting_club(make_user):
    owner, member = make_user("owner"), make_user("member")
    club = club_services.club_create(owner=owner, name="Tea House").club
    club_services.club_join(user=member, invite_code=club.invite_code)
    club_services.club_update(club_id=club.pk, actor=owner, join_needs_approval=True)
    for name in ("asker1", "asker2"):
        club_services.club_join(user=make_user(name), invite_code=club.invite_code)
    return club, owner, member


@pytest.mark.parametrize(
    "language, words", [("zh-hans", "2 个入圈申请"), ("en", "2 requests to join")]
)
def test_a_manager_sees_a_badge_for_join_requests(vetting_club, language, words):
    club, owner, member = vetting_club
    client = _client(owner, language)

    anywhere = client.get("/lobby/").content.decode()
    assert '<span class="badge" id="nav-requests-badge"' in anywhere
    assert 'id="nav-requests-badge"' in anywhere and ">2</span>" in anywhere
    assert words in client.get("/clubs/").content.decode()
    page = client.get(f"/clubs/{club.pk}/").content.decode()
    assert 'id="link-requests"' in page and words in page
    assert 'id="requests-badge">2<' in page

    # A member who decides nothing sees no badge.
    assert "badge" not in _client(member, language).get("/lobby/").content.decode()


def test_the_badge_goes_once_the_requests_are_decided(vetting_club):
    from clubs.models import JoinRequest

    club, owner, _ = vetting_club
    for r in JoinRequest.objects.filter(club=club):
        club_services.join_request_decide(
            club_id=club.pk, actor=owner, request_id=r.pk, approve=False
        )
    assert "nav-requests-badge" not in _client(owner, "en").get("/lobby/").content.decode()
