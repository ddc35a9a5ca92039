"""The club leaderboard counts hands of the club's rooms only; the global one counts all."""

from __future__ import annotations

import pytest

from clubs import services as club_services
from games.table import services
from leaderboards.models import ClubRating, Rating
from leaderboards.selectors import club_leaderboard
from tests.games.conftest import play_out

# Settlement and ratings run on Celery: a real worker in the services profile.
pytestmark = pytest.mark.django_db(transaction=True)


def counting_unrated(club, yes=True):
    club.board_counts_unrated = yes
    club.save(update_fields=["board_counts_unrated"])
    return club


def test_club_ratings_count_club_rooms_only(people, club, preset, client_for):
    """Games with bots move no public board; a club that counts them moves its own."""
    counting_unrated(club)
    member = people["member"]
    club_room = services.room_create(owner=member, variant="", preset=preset.pk, bots=3)
    services.room_ready(room_id=club_room.pk, user=member)
    club_hand = play_out(club_room)
    public = services.room_create(owner=member, variant="sichuan", bots=3)
    services.room_ready(room_id=public.pk, user=member)
    play_out(public)

    glob = Rating.objects.get(user=member, variant="sichuan")
    local = ClubRating.objects.get(club=club, user=member, variant="sichuan")
    assert glob.hands == 0  # bots at both tables: the public board is left alone
    assert local.hands == 1  # the club counts its own room's hand
    assert member.rating_changes.filter(rated=False).count() == 2  # both recorded, unrated
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
    assert rows[member.pk]["rating"] == round(local.mu, 2)
    assert [row["rank"] for row in body["players"]] == [1]

    # Another club sees none of it.
    other = club_services.club_create(owner=people["outsider"], name="Elsewhere").club
    assert club_leaderboard(other.pk, "sichuan") == []


def test_a_club_that_counts_rated_games_only_leaves_bot_games_out(people, club, preset):
    member = people["member"]
    room = services.room_create(owner=member, variant="", preset=preset.pk, bots=3)
    services.room_ready(room_id=room.pk, user=member)
    play_out(room)

    assert not ClubRating.objects.filter(club=club, hands__gt=0).exists()
    assert club_leaderboard(club.pk, "sichuan") == []


def test_an_unknown_variant_is_refused(people, club, client_for):
    r = client_for(people["member"]).get(f"/api/clubs/{club.pk}/leaderboard/?variant=chess")

    assert r.status_code == 400 and r.json()["code"] == "unknown_variant"


def test_the_club_page_shows_the_club_board(people, club, preset, client_for):
    counting_unrated(club)
    member = people["member"]
    room = services.room_create(owner=member, variant="", preset=preset.pk, bots=3)
    services.room_ready(room_id=room.pk, user=member)
    play_out(room)

    page = client_for(member).get(f"/clubs/{club.pk}/").content.decode()

    assert f'id="club-player-{member.pk}"' in page
