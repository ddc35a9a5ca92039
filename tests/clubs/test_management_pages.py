"""Club management on the pages, in zh and en: the announcement on the club page, the
requests panel and the members' totals for managers only, the requester's view of their
request, and the history's sentences for the new entries."""

from __future__ import annotations

import re

import pytest

from clubs import services
from tests.clubs.test_audit import speaking
from tests.clubs.test_management import _match

pytestmark = pytest.mark.django_db

ANNOUNCEMENT = "周五晚 8 点开局\n<b>带零钱</b>"


@pytest.fixture
def managed(club, people):
    """An announcement (with a line break and markup to escape), approval on, one
    pending request (the outsider's) and one denied one."""
    services.club_update(
        club_id=club.pk,
        actor=people["manager"],
        announcement=ANNOUNCEMENT,
        join_needs_approval=True,
    )
    services.club_join(user=people["outsider"], invite_code=club.invite_code)
    return club


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("en", ["Announcement", "周五晚 8 点开局<br>&lt;b&gt;带零钱&lt;/b&gt;"]),
        ("zh-hans", ["公告", "周五晚 8 点开局<br>&lt;b&gt;带零钱&lt;/b&gt;"]),
    ],
)
def test_members_read_the_announcement(client_for, people, managed, lang, texts):
    page = client_for(speaking(people["member"], lang)).get(f"/clubs/{managed.pk}/")
    html = page.content.decode()

    assert page.status_code == 200
    for text in texts:
        assert text in html, text
    # A plain member sees neither the editor nor the requests.
    assert 'id="announcement-form"' not in html
    assert 'id="join-requests"' not in html
    assert "member-stats" not in html


def test_without_an_announcement_members_see_no_empty_panel(client_for, people, club):
    html = client_for(people["member"]).get(f"/clubs/{club.pk}/").content.decode()
    assert 'id="announcement"' not in html


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        (
            "en",
            [
                "Edit the announcement",
                "Join requests",
                "Joining with the invite code needs a manager's approval",
                "Approve",
                "Deny",
                "waiting",
            ],
        ),
        (
            "zh-hans",
            ["编辑公告", "加入申请", "凭邀请码加入需要管理员审核", "批准", "拒绝", "待审核"],
        ),
    ],
)
def test_managers_get_the_editor_and_the_requests(client_for, people, managed, lang, texts):
    html = client_for(speaking(people["manager"], lang)).get(f"/clubs/{managed.pk}/")
    html = html.content.decode()

    for text in texts:
        assert text in html, text
    request = re.search(r'data-request-id="\d+" data-status="(\w+)">\s*<strong>(\w+)', html)
    assert request.groups() == ("pending", "outsider")
    assert re.search(r'id="join-needs-approval" checked', html)
    assert "js/club_manage.js" in html


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "2 matches, total +5"), ("zh-hans", "2 场，总分 +5")],
)
def test_managers_see_each_members_totals(client_for, people, club, make_user, lang, text):
    bot = make_user("bot")
    o, m, mem = people["owner"], people["manager"], people["member"]
    _match(club, [o, m, mem, bot], [[4, -2, -1, -1], [-3, 6, -2, -1]])
    _match(club, [mem, o, bot, None], [[8, -4, -4, 0]])

    html = client_for(speaking(people["owner"], lang)).get(f"/clubs/{club.pk}/").content.decode()

    row = re.search(rf'id="member-{mem.pk}".*?</tr>', html, re.S).group(0)
    assert text in row
    assert 'data-matches="2" data-total="5"' in row
    manager_row = re.search(rf'id="member-{m.pk}".*?</tr>', html, re.S).group(0)
    assert 'data-matches="1" data-total="4"' in manager_row


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("en", ["My requests to join", "Tea House", "waiting for a manager's decision"]),
        ("zh-hans", ["我的加入申请", "Tea House", "等待管理员审核"]),
    ],
)
def test_the_requester_sees_the_request_waiting(client_for, people, managed, lang, texts):
    c = client_for(speaking(people["outsider"], lang))

    html = c.get("/clubs/").content.decode()

    for text in texts:
        assert text in html, text
    assert f'href="/clubs/{managed.pk}/"' not in html
    # The club itself stays closed until a manager decides.
    assert c.get(f"/clubs/{managed.pk}/").status_code == 404


@pytest.mark.parametrize(
    ("lang", "approve", "text"),
    [
        ("en", True, "approved: you are a member"),
        ("en", False, "denied"),
        ("zh-hans", True, "已批准：你已是成员"),
        ("zh-hans", False, "已拒绝"),
    ],
)
def test_the_requester_sees_the_outcome(client_for, people, managed, lang, approve, text):
    rid = managed.join_requests.get().pk
    services.join_request_decide(
        club_id=managed.pk, actor=people["owner"], request_id=rid, approve=approve
    )
    c = client_for(speaking(people["outsider"], lang))

    html = c.get("/clubs/").content.decode()

    item = re.search(r'data-request-id="\d+" data-status="(\w+)">(.*?)</li>', html, re.S)
    assert item.group(1) == ("approved" if approve else "denied")
    assert text in item.group(2)
    assert (f'href="/clubs/{managed.pk}/"' in item.group(2)) is approve
    assert c.get(f"/clubs/{managed.pk}/").status_code == (200 if approve else 404)


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        (
            "en",
            [
                "manager changed the announcement.",
                "manager made joining need approval.",
                "outsider asked to join with the invite code.",
                "owner approved outsider's request to join.",
                "owner cleared the announcement.",
            ],
        ),
        (
            "zh-hans",
            [
                "manager 修改了公告。",
                "manager 设置了加入需要审核。",
                "outsider 凭邀请码申请加入。",
                "owner 批准了 outsider 的加入申请。",
                "owner 清空了公告。",
            ],
        ),
    ],
)
def test_the_history_tells_the_management(client_for, people, managed, lang, texts):
    rid = managed.join_requests.get().pk
    services.join_request_decide(
        club_id=managed.pk, actor=people["owner"], request_id=rid, approve=True
    )
    services.club_update(club_id=managed.pk, actor=people["owner"], announcement="")

    html = client_for(speaking(people["owner"], lang)).get(f"/clubs/{managed.pk}/history/")

    for text in texts:
        assert text in html.content.decode(), text
