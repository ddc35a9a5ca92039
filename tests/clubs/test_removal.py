"""A member removed mid-match (or who leaves the club) is out at the hand's end, as one who
walked out, but charged nothing for it; out of the room, its later records and the club,
until a manager lets them back."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from clubs import services as club_services
from clubs.models import AuditEntry, JoinRequest, Membership, Removal
from games.models import Hand, Room, Seat, Settlement
from games.table import services
from tests.games.conftest import play_out, sweep

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def balance(user) -> int:
    user.refresh_from_db()
    return user.balance


@pytest.fixture
def match(people, club, preset):
    """The owner, the member and two bots play a club match of four hands; its first is on."""
    room = services.room_create(
        owner=people["owner"], variant="", preset=preset.pk, bots=2, hands=4
    )
    services.room_join(room_id=room.pk, user=people["member"])
    for name in ("owner", "member"):
        services.room_ready(room_id=room.pk, user=people[name])
    return room, Hand.objects.get(room=room, status=Hand.Status.PLAYING)


def next_hand(room) -> Hand:
    """The time between hands runs out: the next hand is dealt with whoever sits."""
    Room.objects.filter(pk=room.pk).update(next_hand_at=timezone.now())
    sweep()
    return Hand.objects.get(room=room, status=Hand.Status.PLAYING)


@pytest.mark.django_db(transaction=True)  # settlement runs on commit
@pytest.mark.parametrize("how", ["removed", "left the club"])
def test_one_out_of_the_club_is_out_of_the_next_hands_and_charged_nothing(people, club, match, how):
    room, first = match
    member = people["member"]
    index = Seat.objects.get(room=room, user=member).index
    before = balance(member)
    actor = people["owner"] if how == "removed" else member

    club_services.member_remove(club_id=club.pk, actor=actor, user_id=member.pk)
    played = play_out(room)

    assert played.pk == first.pk
    # Played for them to the end, without the leave that costs a walk-out its penalty.
    assert not first.actions.filter(action__type="leave").exists()
    assert balance(member) - before == Settlement.objects.get(hand=first).deltas[index]
    # Their seat is open for someone else; the match goes on with a bot in it.
    assert not Seat.objects.filter(room=room, user=member).exists()
    second = next_hand(room)
    assert member.pk not in second.players and second.players[index] is not None
    after_first = balance(member)
    play_out(room)
    assert balance(member) == after_first  # nothing of the later hands reaches them
    # The room, its later hands and the club's pages are closed to them.
    c = client_of(member)
    assert c.get(f"/api/rooms/{room.pk}/").status_code == 404
    assert c.get(f"/rooms/{room.pk}/").status_code == 404
    for url in (f"/api/hands/{second.pk}/", f"/api/hands/{second.pk}/frames/"):
        assert c.get(url).status_code == 403, url
    assert c.get(f"/hands/{second.pk}/").status_code == 403
    assert c.get(f"/api/clubs/{club.pk}/").status_code == 404


def test_a_removed_member_joins_again_only_when_a_manager_lets_them(people, club):
    member, code = people["member"], club.invite_code
    club_services.member_remove(club_id=club.pk, actor=people["manager"], user_id=member.pk)

    again = client_of(member).post(
        "/api/clubs/join/", {"invite_code": code}, content_type="application/json"
    )

    # The old code makes a request for the managers, not a membership.
    assert again.status_code == 202 and again.json()["status"] == "pending"
    assert not Membership.objects.filter(club=club, user=member).exists()
    request = JoinRequest.objects.get(club=club, user=member, status="pending")
    club_services.join_request_decide(
        club_id=club.pk, actor=people["manager"], request_id=request.pk, approve=True
    )
    assert Membership.objects.filter(club=club, user=member).exists()
    assert not Removal.objects.filter(club=club, user=member).exists()
    # Back in, and left again by themselves: the code lets them in at once.
    club_services.member_remove(club_id=club.pk, actor=member, user_id=member.pk)
    assert club_services.club_join(user=member, invite_code=code).created


def test_a_denied_removed_member_stays_out(people, club):
    member = people["member"]
    club_services.member_remove(club_id=club.pk, actor=people["owner"], user_id=member.pk)
    request = club_services.club_join(user=member, invite_code=club.invite_code).request
    club_services.join_request_decide(
        club_id=club.pk, actor=people["owner"], request_id=request.pk, approve=False
    )

    outcome = club_services.club_join(user=member, invite_code=club.invite_code)

    assert outcome.membership is None and outcome.request is not None
    assert Removal.objects.filter(club=club, user=member).exists()


@pytest.mark.parametrize("role", ["owner", "manager"])
def test_managers_rotate_the_invite_code_and_the_old_one_stops_working(people, club, role):
    old = club.invite_code
    c = client_of(people[role])

    r = c.post(f"/api/clubs/{club.pk}/invite/")

    assert r.status_code == 200
    new = r.json()["invite_code"]
    assert new != old
    club.refresh_from_db()
    assert club.invite_code == new
    assert AuditEntry.objects.filter(club=club, action="invite_rotated").count() == 1
    late = client_of(people["outsider"]).post(
        "/api/clubs/join/", {"invite_code": old}, content_type="application/json"
    )
    assert late.status_code == 404 and late.json()["code"] == "bad_invite"
    # The club page offers the button to whoever may press it.
    page = client_of(people[role]).get(f"/clubs/{club.pk}/").content
    assert b'id="btn-rotate"' in page
    assert b'id="btn-rotate"' not in client_of(people["member"]).get(f"/clubs/{club.pk}/").content
