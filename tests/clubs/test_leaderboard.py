"""The club leaderboard counts hands of the club's rooms only; the global one counts all."""

from __future__ import annotations

import pytest

from clubs import services as club_services
from games import services
from leaderboards.models import ClubRating, Rating
from leaderboards.selectors import club_leaderboard
from tests.games.conftest import play_out

# Settlement and ratings run on Celery: a real worker in the services profile.
pytestmark = pytest.mark.django_db(transaction=True)


def test_club_ratings_count_club_rooms_only(people, club, preset, client_for):
    member = people["member"]
    club_room = services.room_create(owner=member, variant="", preset=preset.pk, bots=3)
    services.room_ready(room_id=club_room.pk, user=member)
    club_hand = play_out(club_room)
    public = services.room_create(owner=member, variant="sichuan", bots=3)
    services.room_ready(room_id=public.pk, user=member)
    play_out(public)

    glob = Rating.objects.get(user=member, variant="sichuan")
    local = ClubRating.objects.get(club=club, user=member, variant="sichuan")
    assert glob.hands == 2  # every rated hand counts globally
    assert local.hands == 1  # only the club room's
    seated = [p for p in club_hand.players if p is not None]
    assert set(ClubRating.objects.filter(club=club).values_list("user_id", flat=True)) == set(
        seated
    )
    assert local.wins == (0 in club_hand.result["winners"])

    r = client_for(people["manager"]).get(f"/api/clubs/{club.pk}/leaderboard/?variant=sichuan")
    assert r.status_code == 200
    body = r.json()
    assert body["variant"] == "sichuan"
    rows = {row["user_id"]: row for row in body["players"]}
    assert set(rows) == {member.pk}  # the three bots are rated but, as everywhere, not listed
    assert rows[member.pk]["hands"] == 1
    assert rows[member.pk]["rating"] == round(local.ordinal, 2)
    assert [row["rank"] for row in body["players"]] == [1]

    # Another club sees none of it.
    other = club_services.club_create(owner=people["outsider"], name="Elsewhere").club
    assert club_leaderboard(other.pk, "sichuan") == []


def test_an_unknown_variant_is_refused(people, club, client_for):
    r = client_for(people["member"]).get(f"/api/clubs/{club.pk}/leaderboard/?variant=chess")

    assert r.status_code == 400 and r.json()["code"] == "unknown_variant"


def test_the_club_page_shows_the_club_board(people, club, preset, client_for):
    member = people["member"]
    room = services.room_create(owner=member, variant="", preset=preset.pk, bots=3)
    services.room_ready(room_id=room.pk, user=member)
    play_out(room)

    page = client_for(member).get(f"/clubs/{club.pk}/").content.decode()

    assert f'id="club-player-{member.pk}"' in page
