"""Club management over REST: the announcement, "join needs approval" with its requests
(approve, deny, every refusal, the audit trail) and the members' totals managers see."""

from __future__ import annotations

import pytest

from clubs import selectors, services
from clubs.models import AuditEntry, JoinRequest, Membership
from clubs.services import ANNOUNCEMENT_MAX
from config.refusals import ServiceError
from games.models import Hand, Room, Seat, Settlement
from tests.clubs.conftest import ROLES, role_of

pytestmark = pytest.mark.django_db


def actions(club) -> list[tuple[str, str, str | None, dict]]:
    """The club's audit trail, oldest first, past the fixtures' own entries."""
    rows = [
        (e.action, e.actor.username, e.target_user.username if e.target_user else None, e.data)
        for e in reversed(selectors.audit_log(club.pk))
    ]
    return [r for r in rows if r[0] not in ("club_created", "member_joined", "role_changed")]


@pytest.fixture
def vetted(club, people):
    """The club vets who joins."""
    services.club_update(club_id=club.pk, actor=people["owner"], join_needs_approval=True)
    return club


@pytest.fixture
def asked(vetted, people, client_for):
    """The outsider has asked to join (over the API); returns the request's id."""
    r = client_for(people["outsider"]).post(
        "/api/clubs/join/", {"invite_code": vetted.invite_code}, format="json"
    )
    assert r.status_code == 202, r.content
    return r.json()["request"]


# --------------------------------------------------------------------------
# Who may: every role × every new endpoint


# Managers only: a member is refused, an outsider told there is no such club.
MANAGERS_ONLY = {
    "owner": (200, None),
    "manager": (200, None),
    "member": (403, "not_manager"),
    "outsider": (404, "no_club"),
    "anonymous": (403, "not_authenticated"),
}


@pytest.mark.parametrize("role", ROLES)
def test_patching_the_club_is_for_managers(role, club, people, client_for):
    r = client_for(people[role]).patch(
        f"/api/clubs/{club.pk}/", {"announcement": "Friday 8 pm"}, format="json"
    )
    status, code = MANAGERS_ONLY[role]
    assert r.status_code == status, r.content
    club.refresh_from_db()
    if status == 200:
        assert r.json()["announcement"] == "Friday 8 pm"
        assert club.announcement == "Friday 8 pm"
    else:
        assert r.json()["code"] == code
        assert club.announcement == ""


@pytest.mark.parametrize("role", ROLES)
def test_the_requests_list_is_for_managers(role, club, asked, people, client_for):
    r = client_for(people[role]).get(f"/api/clubs/{club.pk}/join-requests/")
    status, code = MANAGERS_ONLY[role]
    assert r.status_code == status, r.content
    if status == 200:
        assert [(x["id"], x["name"], x["status"]) for x in r.json()] == [
            (asked, "outsider", "pending")
        ]
    else:
        assert r.json()["code"] == code


@pytest.mark.parametrize("verb", ["approve", "deny"])
@pytest.mark.parametrize("role", ["member", "outsider", "anonymous"])
def test_deciding_a_request_is_refused_to_others(verb, role, club, asked, people, client_for):
    # The outsider may not decide their own request either: they are not a member.
    expected = MANAGERS_ONLY[role]
    r = client_for(people[role]).post(f"/api/clubs/{club.pk}/join-requests/{asked}/{verb}/")
    assert (r.status_code, r.json()["code"]) == expected
    assert JoinRequest.objects.get(pk=asked).status == "pending"
    assert role_of(club, people["outsider"]) is None


def test_another_clubs_request_is_not_found(club, asked, people, client_for):
    other = services.club_create(owner=people["member"], name="Other").club
    r = client_for(people["member"]).post(f"/api/clubs/{other.pk}/join-requests/{asked}/approve/")
    assert (r.status_code, r.json()["code"]) == (404, "no_request")
    assert JoinRequest.objects.get(pk=asked).status == "pending"


# --------------------------------------------------------------------------
# The announcement


def test_club_detail_shows_the_announcement_and_the_setting(club, people, client_for):
    services.club_update(
        club_id=club.pk,
        actor=people["manager"],
        announcement="周五晚上八点开局",
        join_needs_approval=True,
    )
    body = client_for(people["member"]).get(f"/api/clubs/{club.pk}/").json()
    assert body["announcement"] == "周五晚上八点开局"
    assert body["join_needs_approval"] is True


def test_the_announcement_is_cleaned_line_by_line(club, people):
    sent = "  Rules\u200b  night \r\n\r\n\r\n\u202eFriday\u202c\t8 pm\n\u200b\n"
    services.club_update(club_id=club.pk, actor=people["owner"], announcement=sent)
    club.refresh_from_db()
    # Invisible and direction characters dropped, spaces collapsed, one blank line kept.
    assert club.announcement == "Rules night\n\nFriday 8 pm"


def test_an_empty_announcement_clears_it(club, people):
    services.club_update(club_id=club.pk, actor=people["owner"], announcement="hello")
    services.club_update(club_id=club.pk, actor=people["owner"], announcement=" \u200b ")
    club.refresh_from_db()
    assert club.announcement == ""


@pytest.mark.parametrize(
    "body,code",
    [
        ({"announcement": "x" * (ANNOUNCEMENT_MAX + 1)}, "bad_announcement"),
        ({"announcement": ("x" * 300 + "\n") * 2}, "bad_announcement"),
        ({"announcement": None}, "bad_request"),
        ({"join_needs_approval": "maybe"}, "bad_request"),
        ({"name": "Renamed"}, "bad_request"),
        (["announcement"], "bad_request"),
    ],
)
def test_a_bad_patch_changes_nothing(body, code, club, people, client_for):
    r = client_for(people["owner"]).patch(f"/api/clubs/{club.pk}/", body, format="json")
    assert (r.status_code, r.json()["code"]) == (400, code)
    club.refresh_from_db()
    assert (club.announcement, club.join_needs_approval, club.name) == ("", False, "Tea House")
    assert actions(club) == []


def test_the_longest_announcement_is_kept_whole(club, people):
    text = "公" * ANNOUNCEMENT_MAX
    services.club_update(club_id=club.pk, actor=people["owner"], announcement=text)
    club.refresh_from_db()
    assert club.announcement == text


def test_changes_are_audited_and_a_repeat_is_not(club, people):
    for _ in range(2):
        services.club_update(
            club_id=club.pk, actor=people["manager"], announcement="hi", join_needs_approval=True
        )
    services.club_update(club_id=club.pk, actor=people["owner"], join_needs_approval=False)
    assert actions(club) == [
        ("announcement_changed", "manager", None, {"length": 2}),
        ("approval_changed", "manager", None, {"needs_approval": True}),
        ("approval_changed", "owner", None, {"needs_approval": False}),
    ]


# --------------------------------------------------------------------------
# Joining a club that vets who joins


def test_pending_then_approved_then_member(vetted, asked, people, client_for):
    outsider = client_for(people["outsider"])
    assert role_of(vetted, people["outsider"]) is None
    # The requester sees it waiting, but not the club itself.
    mine = outsider.get("/api/clubs/join-requests/").json()
    assert [(x["club"], x["club_name"], x["status"]) for x in mine] == [
        (vetted.pk, "Tea House", "pending")
    ]
    assert outsider.get(f"/api/clubs/{vetted.pk}/").status_code == 404
    manager = client_for(people["manager"])
    assert manager.get(f"/api/clubs/{vetted.pk}/").json()["pending_requests"] == 1

    r = manager.post(f"/api/clubs/{vetted.pk}/join-requests/{asked}/approve/")

    assert r.status_code == 200, r.content
    assert (r.json()["status"], r.json()["decided_by"]) == ("approved", "manager")
    assert role_of(vetted, people["outsider"]) == "member"
    assert outsider.get("/api/clubs/join-requests/").json()[0]["status"] == "approved"
    assert outsider.get(f"/api/clubs/{vetted.pk}/").status_code == 200
    assert manager.get(f"/api/clubs/{vetted.pk}/").json()["pending_requests"] == 0
    assert actions(vetted)[-2:] == [
        ("join_requested", "outsider", "outsider", {}),
        ("join_approved", "manager", "outsider", {"request": asked}),
    ]
    # A member joining again is told they are in (200), no new request.
    again = outsider.post("/api/clubs/join/", {"invite_code": vetted.invite_code}, format="json")
    assert (again.status_code, again.json()["role"]) == (200, "member")
    assert JoinRequest.objects.filter(user=people["outsider"]).count() == 1


def test_denied_stays_out_and_may_ask_again(vetted, asked, people, client_for):
    r = client_for(people["owner"]).post(f"/api/clubs/{vetted.pk}/join-requests/{asked}/deny/")
    assert (r.status_code, r.json()["status"]) == (200, "denied")
    assert role_of(vetted, people["outsider"]) is None
    outsider = client_for(people["outsider"])
    assert outsider.get("/api/clubs/join-requests/").json()[0]["status"] == "denied"
    assert actions(vetted)[-1] == ("join_denied", "owner", "outsider", {"request": asked})

    again = outsider.post("/api/clubs/join/", {"invite_code": vetted.invite_code}, format="json")

    assert again.status_code == 202
    assert [x["status"] for x in outsider.get("/api/clubs/join-requests/").json()] == [
        "pending",
        "denied",
    ]


def test_asking_twice_is_refused(vetted, asked, people, client_for):
    r = client_for(people["outsider"]).post(
        "/api/clubs/join/", {"invite_code": vetted.invite_code.lower()}, format="json"
    )
    assert (r.status_code, r.json()["code"]) == (409, "request_pending")
    assert JoinRequest.objects.filter(club=vetted, user=people["outsider"]).count() == 1


@pytest.mark.parametrize("first,then", [("approve", "deny"), ("deny", "approve"), ("deny", "deny")])
def test_a_decided_request_is_not_decided_again(first, then, vetted, asked, people, client_for):
    manager = client_for(people["manager"])
    assert manager.post(f"/api/clubs/{vetted.pk}/join-requests/{asked}/{first}/").status_code == 200
    trail = actions(vetted)

    r = client_for(people["owner"]).post(f"/api/clubs/{vetted.pk}/join-requests/{asked}/{then}/")

    assert (r.status_code, r.json()["code"]) == (409, "request_handled")
    assert JoinRequest.objects.get(pk=asked).decided_by == people["manager"]
    assert role_of(vetted, people["outsider"]) == ("member" if first == "approve" else None)
    assert actions(vetted) == trail


def test_an_unknown_request_is_not_found(vetted, people, client_for):
    r = client_for(people["owner"]).post(f"/api/clubs/{vetted.pk}/join-requests/99999/approve/")
    assert (r.status_code, r.json()["code"]) == (404, "no_request")


def test_a_bad_code_still_says_no_such_club(vetted, people, client_for):
    r = client_for(people["outsider"]).post(
        "/api/clubs/join/", {"invite_code": "NOPE2345"}, format="json"
    )
    assert (r.status_code, r.json()["code"]) == (404, "bad_invite")
    assert not JoinRequest.objects.exists()


def test_without_approval_a_code_joins_at_once(club, people, client_for):
    r = client_for(people["outsider"]).post(
        "/api/clubs/join/", {"invite_code": club.invite_code}, format="json"
    )
    assert (r.status_code, r.json()["role"]) == (201, "member")
    assert not JoinRequest.objects.exists()


def test_a_pending_request_outlives_the_setting(vetted, asked, people):
    services.club_update(club_id=vetted.pk, actor=people["owner"], join_needs_approval=False)
    services.join_request_decide(
        club_id=vetted.pk, actor=people["owner"], request_id=asked, approve=True
    )
    assert role_of(vetted, people["outsider"]) == "member"


def test_joining_once_approval_is_off_settles_the_request(vetted, asked, people, client_for):
    services.club_update(club_id=vetted.pk, actor=people["owner"], join_needs_approval=False)
    r = client_for(people["outsider"]).post(
        "/api/clubs/join/", {"invite_code": vetted.invite_code}, format="json"
    )
    assert r.status_code == 201
    assert JoinRequest.objects.get(pk=asked).status == "approved"
    listed = client_for(people["owner"]).get(f"/api/clubs/{vetted.pk}/")
    assert listed.json()["pending_requests"] == 0


def test_the_service_refuses_a_non_boolean_setting(club, people):
    with pytest.raises(ServiceError) as e:
        services.club_update(club_id=club.pk, actor=people["owner"], join_needs_approval="yes")
    assert e.value.code == "bad_approval"


# --------------------------------------------------------------------------
# Members' matches and totals


def _match(club, seated, hand_deltas, *, settled=True):
    """A room of ``club`` with these users seated and one settled hand per deltas row."""
    room = Room.objects.create(variant="sichuan", owner=seated[0], club=club)
    for i, user in enumerate(seated):
        Seat.objects.create(room=room, index=i, user=user)
    players = [u.pk if u is not None else None for u in seated]
    for n, deltas in enumerate(hand_deltas, start=1):
        hand = Hand.objects.create(
            room=room,
            number=n,
            variant="sichuan",
            rules={},
            server_seed="0" * 64,
            commitment="0" * 64,
            players=players,
            state={},
            status=Hand.Status.ENDED,
        )
        if settled:
            Settlement.objects.create(hand=hand, transfers=[], deltas=deltas)
    return room


@pytest.fixture
def played(club, people, make_user):
    bot = make_user("bot")
    o, m, mem = people["owner"], people["manager"], people["member"]
    _match(club, [o, m, mem, bot], [[4, -2, -1, -1], [-3, 6, -2, -1]])
    _match(club, [mem, o, bot, None], [[8, -4, -4, 0]])
    _match(club, [mem, o, m, bot], [[1, 1, 1, -3]], settled=False)  # not settled yet
    # Another club's match and a public one do not count.
    other = services.club_create(owner=o, name="Elsewhere").club
    _match(other, [o, m, mem, bot], [[100, -100, 0, 0]])
    _match(None, [o, m, mem, bot], [[50, -50, 0, 0]])


def test_member_stats_sum_the_clubs_settlements(club, people, played):
    stats = {
        row["name"]: (row["matches"], row["hands"], row["total"])
        for row in selectors.members(club.pk, with_stats=True)
    }
    assert stats == {"owner": (2, 3, -3), "manager": (1, 2, 4), "member": (2, 3, 5)}


def test_managers_see_totals_and_members_do_not(club, people, played, client_for):
    as_manager = client_for(people["manager"]).get(f"/api/clubs/{club.pk}/").json()
    row = next(r for r in as_manager["members"] if r["name"] == "member")
    assert (row["matches"], row["hands"], row["total"]) == (2, 3, 5)
    as_member = client_for(people["member"]).get(f"/api/clubs/{club.pk}/").json()
    assert all("total" not in r for r in as_member["members"])
    assert "pending_requests" not in as_member


def test_a_member_who_never_played_has_zeros(club, people, make_user):
    services.club_join(user=people["outsider"], invite_code=club.invite_code)
    rows = {r["name"]: r for r in selectors.members(club.pk, with_stats=True)}
    assert (rows["outsider"]["matches"], rows["outsider"]["total"]) == (0, 0)
    assert Membership.objects.filter(club=club).count() == 4
    assert AuditEntry.objects.filter(club=club, action="member_joined").count() == 3
