"""Every preset version, role change, removal and invite rotation is logged with who and
when, and managers read a diff between versions in both languages."""

from __future__ import annotations

import pytest

from clubs import selectors, services
from clubs.models import AuditEntry

pytestmark = pytest.mark.django_db


def speaking(user, lang):
    """A signed-in user is served in their account's language."""
    user.language = lang
    user.save(update_fields=["language"])
    return user


@pytest.fixture
def history(people, club, preset):
    """v2 of the preset (mode and cap changed, the mode locked, the cap unlocked), a
    promotion, a removal and an invite rotation, after the fixtures' own entries."""
    services.preset_update(
        club_id=club.pk,
        preset_id=preset.pk,
        actor=people["owner"],
        rules={"mode": "xuezhan", "fan_cap": None},
        locked=["mode"],
        note="bloodier",
    )
    services.member_set_role(
        club_id=club.pk, actor=people["owner"], user_id=people["member"].pk, role="manager"
    )
    services.member_set_role(
        club_id=club.pk, actor=people["owner"], user_id=people["member"].pk, role="member"
    )
    services.member_remove(club_id=club.pk, actor=people["manager"], user_id=people["member"].pk)
    services.club_invite_rotate(club_id=club.pk, actor=people["owner"])
    return preset


def test_the_trail_says_who_did_what_in_order(people, club, history):
    trail = [
        (e.action, e.actor.username, e.target_user.username if e.target_user else None, e.data)
        for e in reversed(selectors.audit_log(club.pk))
    ]

    assert trail == [
        ("club_created", "owner", None, {"name": "Tea House"}),
        ("member_joined", "manager", "manager", {}),
        ("member_joined", "member", "member", {}),
        ("role_changed", "owner", "manager", {"old": "member", "new": "manager"}),
        ("preset_version", "manager", None, {"preset": "House", "number": 1}),
        ("preset_version", "owner", None, {"preset": "House", "number": 2}),
        ("role_changed", "owner", "member", {"old": "member", "new": "manager"}),
        ("role_changed", "owner", "member", {"old": "manager", "new": "member"}),
        ("member_removed", "manager", "member", {"role": "member"}),
        ("invite_rotated", "owner", None, {}),
    ]
    assert all(e.created_at is not None for e in AuditEntry.objects.all())
    versions = [e.preset_version.number for e in AuditEntry.objects.filter(action="preset_version")]
    assert sorted(versions) == [1, 2]


def test_a_refused_change_leaves_no_entry(people, club, preset):
    before = AuditEntry.objects.count()

    with pytest.raises(services.ServiceError):
        services.member_set_role(
            club_id=club.pk, actor=people["manager"], user_id=people["member"].pk, role="manager"
        )
    with pytest.raises(services.ServiceError):
        services.preset_update(
            club_id=club.pk,
            preset_id=preset.pk,
            actor=people["manager"],
            rules={"fan_cap": 0},
            locked=[],
        )

    assert AuditEntry.objects.count() == before


def test_the_diff_names_options_and_values_in_both_languages(history):
    v1, v2 = history.versions.order_by("number")

    diff = selectors.rules_diff(
        "sichuan",
        {"rules": v1.rules, "locked": v1.locked},
        {"rules": v2.rules, "locked": v2.locked},
    )

    by_option = {row["option"]: row for row in diff}
    # dealer_rule follows the mode (it is derived), so it changed too.
    assert set(by_option) == {"mode", "fan_cap", "dealer_rule"}
    mode = by_option["mode"]
    assert mode["label"] == {"zh-hans": "玩法", "en": "Mode"}
    assert mode["old"] == {"zh-hans": "一人胡牌结束", "en": "First win ends the hand"}
    assert mode["new"] == {"zh-hans": "血战到底", "en": "Bloody battle (play to the end)"}
    assert mode["lock_changed"] and not mode["lock_old"] and mode["lock_new"]
    cap = by_option["fan_cap"]
    assert cap["old"] == {"zh-hans": "3", "en": "3"}
    assert cap["new"] == {"zh-hans": "不限", "en": "no limit"}
    assert cap["lock_changed"] and cap["lock_old"] and not cap["lock_new"]
    assert by_option["dealer_rule"]["new"]["en"] == "Dice"


def test_the_first_version_diffs_against_nothing(history):
    oldest = selectors.version_history(history)[-1]

    assert oldest["version"].number == 1
    assert {row["option"] for row in oldest["diff"]} >= {"mode", "fan_cap"}
    assert all(row["old"]["en"] == "—" for row in oldest["diff"])


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        (
            "en",
            [
                "Version history",
                "Mode",
                "First win ends the hand",
                "Bloody battle (play to the end)",
                "bloodier",
                "Version 2",
            ],
        ),
        ("zh-hans", ["版本历史", "玩法", "一人胡牌结束", "血战到底", "bloodier", "版本 2"]),
    ],
)
def test_the_editor_shows_the_history_with_its_diff(client_for, people, club, history, lang, texts):
    c = client_for(speaking(people["manager"], lang))

    page = c.get(f"/clubs/{club.pk}/presets/{history.pk}/").content.decode()

    for text in texts:
        assert text in page, text


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        (
            "en",
            [
                "Change history",
                "owner saved version 2 of the preset “House”.",
                "owner made member a manager.",
                "manager removed member from the club.",
                "owner made a new invite code.",
            ],
        ),
        (
            "zh-hans",
            [
                "变更记录",
                "owner 保存了预设“House”的第 2 版。",
                "owner 将 member 设为管理员。",
                "manager 将 member 移出了亲友圈。",
                "owner 更换了邀请码。",
            ],
        ),
    ],
)
def test_the_history_page_reads_as_sentences(client_for, people, club, history, lang, texts):
    c = client_for(speaking(people["owner"], lang))

    page = c.get(f"/clubs/{club.pk}/history/").content.decode()

    for text in texts:
        assert text in page, text


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("en", ["My clubs", "Create a club", "Join a club", "Tea House", "Manager"]),
        ("zh-hans", ["我的亲友圈", "创建亲友圈", "加入亲友圈", "Tea House", "管理员"]),
    ],
)
def test_my_clubs_page_in_both_languages(client_for, people, club, lang, texts):
    page = client_for(speaking(people["manager"], lang)).get("/clubs/").content.decode()

    for text in texts:
        assert text in page, text


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        (
            "en",
            [
                "House-rule presets",
                "Open a table",
                "Members",
                "Club leaderboard",
                "version 1",
                "1 locked rule",
            ],
        ),
        ("zh-hans", ["房规预设", "开桌", "成员", "亲友圈排行榜", "第 1 版", "1 条规则已锁定"]),
    ],
)
def test_club_page_in_both_languages(client_for, people, club, preset, lang, texts):
    page = client_for(speaking(people["member"], lang)).get(f"/clubs/{club.pk}/").content.decode()

    for text in texts:
        assert text in page, text
